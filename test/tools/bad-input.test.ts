/**
 * Acceptance test for malformed input: every fixture in test/fixtures/bad-input must make
 * `triton-opt` print exactly one located diagnostic (`file:line:col: error: ...`, the source
 * line, a caret under the column) and exit 1, with no stack trace and no internal error.
 *
 * Fixture header (first lines, `//` comments):
 *   // EXPECT: <substring of the error message>        (required)
 *   // EXPECT-LINE: <line the error must point at>     (optional)
 *   // FLAGS: <extra triton-opt flags>                 (optional; only --allow-unregistered-dialect)
 *
 * Builds nothing: it runs the compiled tool in dist/ (the npm test script builds first).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const tool = join(root, 'dist/bin/triton-opt.cjs');
const fixtureDir = join(root, 'test/fixtures/bad-input');

/** What a fixture's header asks for. */
interface Fixture {
  name: string;
  path: string;
  expect: string;
  line: number | null;
  flags: string[];
}

const ALLOWED_FLAGS = new Set(['--allow-unregistered-dialect']);

/** Reads a fixture's header; throws when it is missing or asks for an unknown flag. */
function readFixture(name: string): Fixture {
  const path = join(fixtureDir, name);
  const text = readFileSync(path, 'latin1');
  const header = text.split('\n').filter((l) => l.startsWith('//'));
  const field = (key: string): string | null => {
    const prefix = `// ${key}:`;
    const l = header.find((h) => h.startsWith(prefix));
    return l === undefined ? null : l.slice(prefix.length).trim();
  };
  const expect = field('EXPECT');
  if (!expect) throw new Error(`${name}: missing '// EXPECT: <message substring>' header`);
  const lineText = field('EXPECT-LINE');
  const flags = (field('FLAGS') ?? '').split(/\s+/).filter(Boolean);
  for (const f of flags) if (!ALLOWED_FLAGS.has(f)) throw new Error(`${name}: unsupported flag ${f}`);
  return { name, path, expect, line: lineText === null ? null : Number(lineText), flags };
}

const STACK_LINE = /^\s+at .*\(|node:internal/;
const HEAD = /^(.*):(\d+):(\d+): error: (.*)$/;

/** Exit status and output of one triton-opt run. */
interface RunResult {
  status: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  error?: Error;
}

/** Runs triton-opt on one fixture (asynchronously, so that fixtures can run side by side). */
function runTool(f: Fixture): Promise<RunResult> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [tool, f.path, ...f.flags], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', (error) => done({ status: null, signal: null, stdout, stderr, error }));
    child.on('close', (status, signal) => done({ status, signal, stdout, stderr }));
  });
}

/** Checks one run against the fixture's expectations; returns the broken ones (empty when all hold). */
function check(f: Fixture, r: RunResult): string[] {
  const stderr = r.stderr ?? '';
  const problems: string[] = [];
  const lines = stderr.split('\n');
  if (r.error) problems.push(`could not run triton-opt: ${r.error.message}`);
  if (r.status === 2) problems.push('exited with code 2 (internal error)');
  else if (r.status !== 1) problems.push(`exit code ${r.status} (signal ${r.signal}), expected 1`);
  if (r.stdout) problems.push(`stdout not empty:\n${r.stdout.slice(0, 400)}`);
  if (lines.some((l) => STACK_LINE.test(l))) problems.push('stderr contains a JavaScript stack trace');
  const errors = lines.filter((l) => /(^|\s)error:/.test(l)).length;
  if (errors !== 1) problems.push(`expected exactly one 'error:' in stderr, found ${errors}`);
  const m = HEAD.exec(lines[0] ?? '');
  if (!m || m[1] !== f.path) {
    problems.push(`first stderr line is not '<path>:<line>:<col>: error: ...'`);
    return withOutput(problems, stderr);
  }
  const line = Number(m[2]);
  const col = Number(m[3]);
  if (!m[4].includes(f.expect)) problems.push(`message does not contain ${JSON.stringify(f.expect)}`);
  if (/[\x00-\x08\x0b-\x1f\x7f]/.test(m[4])) problems.push('message contains raw control characters (escape them)');
  if (f.line !== null && line !== f.line) problems.push(`error points at line ${line}, expected line ${f.line}`);
  const source = readFileSync(f.path, 'utf8').split('\n');
  const srcLine = (source[line - 1] ?? '').replace(/\r$/, '');
  // Control characters and undecodable bytes are shown escaped (`\x01`, `\ufffd`): no raw bytes reach the terminal.
  if (lines[1] !== escaped(srcLine)) problems.push(`second stderr line is not source line ${line} (with non-printable characters escaped)`);
  if (/[\x00-\x08\x0b-\x1f\x7f]/.test(stderr)) problems.push('stderr contains raw control characters');
  const caret = lines[2] ?? '';
  const caretCol = escaped(srcLine.slice(0, col - 1)).length + 1;
  if (!/^\s*\^$/.test(caret)) problems.push('third stderr line is not a caret line');
  else if (caret.length !== caretCol) problems.push(`caret is at column ${caret.length}, expected ${caretCol} (column ${col} of the source line)`);
  return withOutput(problems, stderr);
}

/** A source line as diagnostics show it: C0/C1 control characters (but tab) and U+FFFD escaped. */
function escaped(text: string): string {
  return text.replace(/[\x00-\x08\x0a-\x1f\x7f-\x9f\ufffd]/g, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** Appends the tool's stderr to a non-empty problem list, for the failure message. */
function withOutput(problems: string[], stderr: string): string[] {
  if (problems.length) problems.push(`stderr was:\n${stderr}`);
  return problems;
}

test('triton-opt has been built', () => {
  assert.ok(existsSync(tool), `${tool} is missing: run 'npm run build' (or 'npx tsc -p .') before this test`);
});

const names = existsSync(fixtureDir) ? readdirSync(fixtureDir).filter((n) => n.endsWith('.tir')).sort() : [];

test('there are at least 40 bad-input fixtures', () => {
  assert.ok(names.length >= 40, `only ${names.length} fixtures in ${fixtureDir}`);
});

/** Runs every fixture, a few at a time, before the tests look at the results. */
async function runAll(fixtures: Fixture[]): Promise<Map<string, RunResult>> {
  const results = new Map<string, RunResult>();
  if (!existsSync(tool)) return results;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < fixtures.length) {
      const f = fixtures[next++];
      results.set(f.name, await runTool(f));
    }
  };
  await Promise.all(Array.from({ length: Math.max(2, availableParallelism()) }, worker));
  return results;
}

/** A fixture, or the reason its header could not be read. */
function tryRead(name: string): Fixture | { name: string; headerError: string } {
  try {
    return readFixture(name);
  } catch (e) {
    return { name, headerError: (e as Error).message };
  }
}

const entries = names.map(tryRead);
const results = await runAll(entries.filter((e): e is Fixture => !('headerError' in e)));

for (const f of entries) {
  test(`bad input: ${f.name}`, () => {
    if ('headerError' in f) return assert.unreachable(f.headerError);
    const r = results.get(f.name);
    if (!r) return assert.unreachable(`${tool} is missing: run 'npm run build' first`);
    const problems = check(f, r);
    assert.ok(problems.length === 0, `${f.name}:\n  ${problems.join('\n  ')}`);
  });
}

test.run();
