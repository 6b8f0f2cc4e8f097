// The annotated input dump of our FileCheck (--dump-input), laid out like
// LLVM FileCheck's: numbered input lines, and under them labelled marker lines
// ("check:2'0  X~~ error: no match found") for each diagnostic.

/** One diagnostic drawn under the input: a marker over [start, end) plus an optional note. */
export interface Annotation {
  /** Label prefix: check-type abbreviation and check line, e.g. 'check:2' or 'not:imp1'. */
  key: string;
  start: number;
  end: number;
  /** First marker character ('X', '!', '?', '^'), or '' for a note without a marker. */
  head: string;
  note?: string;
  error: boolean;
}

export interface DumpOptions {
  inputName: string;
  checkFileName: string;
  context: number;
  filter: 'all' | 'annotation-full' | 'annotation' | 'error';
}

interface Drawn {
  label: string;
  line: number;
  order: number;
  first: number;
  last: number;
  head: string;
  note?: string;
  error: boolean;
}

/** Check-type abbreviations used in dump labels, as in LLVM. */
export const ABBREV: Record<string, string> = {
  plain: 'check', next: 'next', same: 'same', not: 'not', dag: 'dag', label: 'label',
  empty: 'empty', count: 'count', eof: 'eof',
};

/** Renders the dump for `buf` (the canonicalized input) with the given annotations. */
export function renderDump(buf: string, anns: Annotation[], o: DumpOptions): string {
  const starts = [0];
  for (let i = 0; i < buf.length; i++) if (buf[i] === '\n' && i + 1 < buf.length) starts.push(i + 1);
  const numberWidth = String(buf.length === 0 ? 0 : starts.length).length;
  // A marker at the very end of a buffer ending in '\n' sits on an extra, empty line.
  const extra = buf.endsWith('\n') && anns.some((a) => a.start >= buf.length);
  if (extra) starts.push(buf.length);
  const lineCount = buf.length === 0 ? 0 : starts.length;
  const lineOf = (pos: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= pos) lo = mid; else hi = mid - 1;
    }
    return lo;
  };
  const lineEnd = (l: number): number => (l + 1 < starts.length ? starts[l + 1] : buf.length);

  const perKey = new Map<string, number>();
  for (const a of anns) perKey.set(a.key, (perKey.get(a.key) ?? 0) + 1);
  const nextIdx = new Map<string, number>();
  const drawn: Drawn[] = [];
  anns.forEach((a, order) => {
    let label = a.key;
    if ((perKey.get(a.key) ?? 0) > 1) {
      const idx = nextIdx.get(a.key) ?? 0;
      nextIdx.set(a.key, idx + 1);
      label += `'${idx}`;
    }
    const start = Math.min(a.start, Math.max(extra ? buf.length : buf.length - 1, 0));
    const lastPos = Math.max(start, Math.min(a.end, buf.length) - 1);
    const l0 = lineOf(start);
    const l1 = a.head === '' ? l0 : lineOf(lastPos);
    for (let l = l0; l <= l1; l++) {
      const first = l === l0 ? start - starts[l] : 0;
      const last = l === l1 ? lastPos - starts[l] : lineEnd(l) - starts[l] - 1;
      drawn.push({ label, line: l, order, first, last: Math.max(first, last), head: l === l0 ? a.head : '~',
        note: l === l0 ? a.note : undefined, error: a.error });
    }
  });
  const keyLine = (label: string): number => Number(/:(\d+)/.exec(label)?.[1] ?? 0);
  drawn.sort((x, y) => x.line - y.line || keyLine(x.label) - keyLine(y.label) || x.order - y.order);

  const labelWidth = Math.max(0, ...drawn.map((d) => d.label.length), numberWidth) + 3;
  const byLine = new Map<number, Drawn[]>();
  for (const d of drawn) byLine.set(d.line, [...(byLine.get(d.line) ?? []), d]);

  const shown = new Array<boolean>(lineCount).fill(o.filter === 'all');
  for (const d of drawn) {
    if (o.filter === 'error' && !d.error) continue;
    if (o.filter === 'all') break;
    for (let l = Math.max(0, d.line - o.context); l <= Math.min(lineCount - 1, d.line + o.context); l++) shown[l] = true;
  }

  const render = (l: number): string[] => {
    const text = buf.slice(starts[l], lineEnd(l));
    const width = text.length;
    const out = [`${String(l + 1).padStart(labelWidth)}: ${text.replace(/\n$/, ' ')}`];
    for (const d of byLine.get(l) ?? []) {
      let row = `${d.label.padEnd(labelWidth)}  `;
      if (d.head !== '') row += ' '.repeat(d.first) + d.head + '~'.repeat(d.last - d.first);
      if (d.note) {
        const used = d.head === '' ? 0 : d.last + 1;
        row += ' '.repeat(Math.max(width, used) + 1 - used) + d.note;
      }
      out.push(row);
    }
    return out;
  };

  let out = `\nInput file: ${o.inputName}\nCheck file: ${o.checkFileName}\n\n` +
    '-dump-input=help explains the following input dump.\n\nInput was:\n<<<<<<\n';
  let hidden: string[] = [];
  const flush = (): void => {
    if (hidden.length > 3) {
      const dot = `${'.'.padStart(labelWidth)}\n`;
      out += dot + dot + dot;
    } else out += hidden.map((s) => `${s}\n`).join('');
    hidden = [];
  };
  for (let l = 0; l < lineCount; l++) {
    const rows = render(l);
    if (!shown[l]) { hidden.push(...rows); continue; }
    flush();
    out += rows.map((s) => `${s}\n`).join('');
  }
  flush();
  return `${out}>>>>>>\n`;
}
