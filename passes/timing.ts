/**
 * Wall-clock timing reports in the layout of MLIR's `--mlir-timing` ("Execution time report"):
 * `triton-opt` reports its parse and passes, `triton-translate` every phase of a compile (parse,
 * verification, each pass of the pipeline, lowering, printing, writing the output).
 */

/**
 * Milliseconds from an arbitrary start. `performance.now()` would load node:perf_hooks (~4 ms of
 * every run's start-up); the process clock is already there.
 */
export function clockMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** One row of a timing report: a phase, its wall time, and how deep it is nested in the row above it. */
export interface TimingRow {
  name: string;
  ms: number;
  /** 0 for a phase of the run; 1 for a part of the depth-0 phase before it (a pass of a pipeline). */
  depth: number;
}

/** The rule line above and below a report's title, as MLIR prints it. */
export const REPORT_RULE = '===' + '-'.repeat(73) + '===\n';

/** MLIR's report of `rows`: each row's seconds and share of the total (the sum of the depth-0 rows), then the total. */
export function timingReport(rows: readonly TimingRow[]): string {
  const total = rows.reduce((sum, r) => (r.depth === 0 ? sum + r.ms : sum), 0);
  const row = (ms: number, name: string) => `  ${(ms / 1000).toFixed(4).padStart(8)} (${((100 * ms) / (total || 1)).toFixed(1).padStart(5)}%)  ${name}\n`;
  let out = REPORT_RULE + '                      ... Execution time report ...\n' + REPORT_RULE;
  out += `  Total Execution Time: ${(total / 1000).toFixed(4)} seconds\n\n  ----Wall Time----  ----Name----\n`;
  for (const r of rows) out += row(r.ms, '  '.repeat(r.depth) + r.name);
  return out + row(total, 'Total');
}

/**
 * The phases of one tool run, timed as they run, for `--mlir-timing`. A phase may contain
 * others (a pipeline its passes): they are recorded while it runs and listed under it.
 */
export class PhaseTimer {
  private readonly rows: TimingRow[] = [];
  private depth = 0;

  /** Runs `body` as the phase `name` (nested in the phase running now, if any) and returns its result. */
  time<T>(name: string, body: () => T): T {
    const row: TimingRow = { name, ms: 0, depth: this.depth };
    this.rows.push(row);
    const t0 = clockMs();
    this.depth++;
    try {
      return body();
    } finally {
      this.depth--;
      row.ms = clockMs() - t0;
    }
  }

  /** Records a phase timed elsewhere (a pass the pass manager ran), nested in the phase running now. */
  add(name: string, ms: number): void {
    this.rows.push({ name, ms, depth: this.depth });
  }

  /** The report of the phases so far. */
  report(): string {
    return timingReport(this.rows);
  }
}

/** `body` as the phase `name` of `timer`, or just `body` when nothing is timed (no `--mlir-timing`). */
export function timed<T>(timer: PhaseTimer | undefined, name: string, body: () => T): T {
  return timer ? timer.time(name, body) : body();
}
