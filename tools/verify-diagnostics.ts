/**
 * `--verify-diagnostics`: checks produced diagnostics against `// expected-error {{...}}`
 * annotations in the input, as mlir-opt does (`@+N`, `@-N`, `@above`, `@below` offsets;
 * expected-error, expected-warning, expected-remark, expected-note).
 */
import type { Diagnostic, SourceFile } from '../ir/diagnostics.js';

interface Expectation {
  severity: string;
  line: number;
  message: string;
  annotationLine: number;
  matched: boolean;
}

const ANNOTATION = /\/\/\s*expected-(error|warning|remark|note)\s*(?:@([+-]\d+|above|below))?\s*\{\{(.*?)\}\}/;

/** Reads the expectations of one input chunk. */
export function parseExpectations(src: SourceFile): Expectation[] {
  const out: Expectation[] = [];
  const lines = src.text.split('\n');
  lines.forEach((text, k) => {
    const m = ANNOTATION.exec(text);
    if (!m) return;
    const here = k + 1 + src.lineOffset;
    let line = here;
    const off = m[2];
    if (off === 'above') line = here - 1;
    else if (off === 'below') line = here + 1;
    else if (off) line = here + Number(off);
    out.push({ severity: m[1], line, message: m[3], annotationLine: here, matched: false });
  });
  return out;
}

/** Matches diagnostics (and their notes) with expectations; returns the problems, empty when all match. */
export function checkDiagnostics(src: SourceFile, diags: Diagnostic[]): string[] {
  const expected = parseExpectations(src);
  const problems: string[] = [];
  const all: Diagnostic[] = [];
  for (const d of diags) all.push(d, ...d.notes);
  for (const d of all) {
    const line = d.pos ? d.pos.source.position(d.pos.offset).line : -1;
    const e = expected.find((x) => !x.matched && x.severity === d.severity && x.line === line && d.message.includes(x.message));
    if (e) {
      e.matched = true;
      continue;
    }
    if (d.severity === 'note') continue; // notes are checked only when expected
    problems.push(`${src.name}:${line}: error: unexpected ${d.severity}: ${d.message}`);
  }
  for (const e of expected) {
    if (!e.matched) problems.push(`${src.name}:${e.annotationLine}: error: expected ${e.severity} "${e.message}" was not produced`);
  }
  return problems;
}
