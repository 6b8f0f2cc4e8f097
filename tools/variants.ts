/**
 * `triton-translate --from-c ... --all-variants DIR [--to-*]`: compiles every point of the `-D`
 * autotuning space into DIR, in parallel (worker threads), and writes `DIR/space.json`, the file
 * the GPU tuner (`tools/gpu/tune.py`) reads.
 *
 * Per variant k of `stem.tc`: `stem.k.tir` (tt IR, no translation), `stem.k.ptx` + `stem.k.json`
 * (`--to-ptx`: PTX and launch metadata with the variant's -D values and, when `ptxas` is on PATH,
 * its register and spill counts), or `stem.k.<format>` for the other translations. A variant that
 * fails to compile (a frontend or pass diagnostic, or ptxas rejecting the PTX) is listed in
 * space.json with its diagnostic and the others go on; the command exits 1 only when none compiled.
 *
 * The worker threads run the CLI's own bundle (its URL is given by the caller), which calls
 * `serveVariants` instead of its main when it starts as a variant worker.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, delimiter, join } from 'node:path';
import { DiagnosticError, type SourceFile } from '../ir/diagnostics.js';
import type { Operation } from '../ir/ir.js';
import { printModule } from '../ir/printer.js';
import { verifyDiagnostic } from '../ir/verifier.js';
import { compileTritonC, type FrontendOptions } from '../frontend/triton-c/index.js';

// Loaded on first use, not at start-up: `triton-translate` imports this module on every run, and
// these cost it ~7 ms each time (child_process alone pulls in net, dgram and the streams).
const requireBuiltin = createRequire(import.meta.url);
const childProcess = (): typeof import('node:child_process') => requireBuiltin('node:child_process');
const crypto = (): typeof import('node:crypto') => requireBuiltin('node:crypto');
const workerThreads = (): typeof import('node:worker_threads') => requireBuiltin('node:worker_threads');
const os = (): typeof import('node:os') => requireBuiltin('node:os');
import { variantList, type ParsedDefines } from '../frontend/triton-c/autotune.js';
import { UserError } from './input-chunks.js';

/** Runs translation `flag` (`to-ptx`, ...) on a verified module with the CLI's options; returns the text. */
export type Translate = (module: Operation, flag: string, args: Record<string, unknown>) => string;

/** Version of the space.json layout; the tuner refuses other versions. */
export const SPACE_FORMAT = 1;

/** What one variant's compilation needs (sent to a worker as plain data). */
interface Job {
  sourceName: string;
  sourceText: string;
  dir: string;
  stem: string;
  flag: string | null;
  args: Record<string, unknown>;
  options: FrontendOptions;
  ptxas: string | null;
}

/** One variant's outcome, as space.json lists it. */
export interface VariantRecord {
  index: number;
  /** The list choices, e.g. `{ "TM": "64", "TN": "128" }`. */
  choice: Record<string, string>;
  /** All -D definitions the variant was compiled with (fixed ones included). */
  defines: Record<string, string>;
  description: string;
  status: 'ok' | 'failed';
  /** Output files, relative to DIR (`ptx`, `metadata`, or `output` for other formats). */
  files?: Record<string, string>;
  num_warps?: number;
  threads_per_block?: number;
  shared_bytes?: number;
  /** From `ptxas -v` when it was found: registers per thread, spill bytes. */
  ptxas?: PtxasStats;
  /** Why there are no ptxas statistics although ptxas was found (it does not know this architecture or PTX version). */
  ptxas_unavailable?: string;
  /** The compiler's message for a failed variant (`file:line:col: error: ...` with the source line). */
  diagnostic?: string;
  seconds: number;
}

/** What `ptxas -v` says about a kernel. */
export interface PtxasStats {
  registers: number;
  spill_stores: number;
  spill_loads: number;
}

/** The options `--all-variants` is run with. */
export interface SpaceRequest {
  dir: string;
  source: SourceFile;
  parsed: ParsedDefines;
  /** The `--to-*` translation (without dashes), or null for tt IR. */
  flag: string | null;
  args: Record<string, unknown>;
  options: FrontendOptions;
  /** URL of the script worker threads run (the CLI bundle); null compiles in this thread. */
  workerUrl: string | null;
  translate: Translate;
  jobs?: number;
}

const WORKER_MARK = 'triton-ir-variant-worker';
/** The environment variable that tells a variant worker thread what it is, before worker_threads is loaded. */
const WORKER_ENV = 'TRITON_IR_VARIANT_WORKER';

/** True in a worker thread started by `compileSpace` (the CLI then calls `serveVariants`, not its main). */
export function isVariantWorker(): boolean {
  // The environment says first (no worker_threads to load in a plain run); the worker data confirms.
  if (process.env[WORKER_ENV] !== WORKER_MARK) return false;
  const { isMainThread, workerData } = workerThreads();
  return !isMainThread && (workerData as { mark?: string } | null)?.mark === WORKER_MARK;
}

/** A worker's loop: compiles the variants it is sent and replies with their records. */
export function serveVariants(translate: Translate): void {
  const { workerData, parentPort } = workerThreads();
  const { job } = workerData as { job: Job };
  parentPort!.on('message', (msg: { index: number; choice: Record<string, string>; defines: Record<string, string>; description: string } | null) => {
    if (msg === null) return parentPort!.close();
    parentPort!.postMessage(compileVariant(job, msg.index, msg.choice, msg.defines, msg.description, translate));
  });
}

/** Checks the options that do not combine with `--all-variants` (each variant writes its own files). */
function checkOptions(args: Record<string, unknown>): void {
  if (args.o !== undefined) throw new UserError('-o cannot be used with --all-variants: the outputs go into DIR');
  if (args['emit-metadata'] !== undefined) throw new UserError('--emit-metadata cannot be used with --all-variants: each variant\'s metadata is written beside its PTX in DIR');
  if (args['emit-ttgir'] !== undefined) throw new UserError('--emit-ttgir cannot be used with --all-variants');
  if (args.variant !== undefined) throw new UserError('--variant cannot be used with --all-variants');
}

/** Compiles the whole space into `req.dir` and writes space.json; sets the exit code (1 when no variant compiled). */
export async function compileSpace(req: SpaceRequest): Promise<void> {
  checkOptions(req.args);
  try {
    mkdirSync(req.dir, { recursive: true });
  } catch (e) {
    throw new UserError(`--all-variants ${req.dir}: cannot create the folder (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const list = variantList(req.parsed);
  const stem = basename(req.source.name).replace(/\.[^.]*$/, '');
  const job: Job = {
    sourceName: req.source.name,
    sourceText: req.source.text,
    dir: req.dir,
    stem,
    flag: req.flag,
    args: plainArgs(req.args),
    options: req.options,
    ptxas: req.flag === 'to-ptx' ? findOnPath('ptxas') : null,
  };
  const items = list.map((v, index) => ({ index, choice: choiceOf(req.parsed, v.defines), defines: v.defines, description: v.description }));
  const jobs = Math.max(1, Math.min(req.jobs ?? os().availableParallelism(), items.length));
  const started = Date.now();
  process.stderr.write(`compiling ${items.length} variant${items.length === 1 ? '' : 's'} of ${req.source.name} into ${req.dir} (${req.workerUrl && jobs > 1 ? `${jobs} threads` : '1 thread'})\n`);
  let done = 0;
  const report = (r: VariantRecord): void => {
    done++;
    const what = r.status === 'ok' ? `ok (${r.seconds.toFixed(1)} s)` : `FAILED: ${r.diagnostic!.split('\n')[0]}`;
    process.stderr.write(`[${done}/${items.length}] ${r.index}: ${r.description || '(no -D lists)'}: ${what}\n`);
  };
  const records =
    req.workerUrl && jobs > 1
      ? await compileInWorkers(req.workerUrl, job, items, jobs, report)
      : items.map((it) => {
          const r = compileVariant(job, it.index, it.choice, it.defines, it.description, req.translate);
          report(r);
          return r;
        });
  records.sort((a, b) => a.index - b.index);
  const space = spaceJson(req, job, records);
  writeFileSync(join(req.dir, 'space.json'), JSON.stringify(space, null, 2) + '\n');
  const failed = records.filter((r) => r.status === 'failed').length;
  process.stderr.write(
    `wrote ${records.length - failed} of ${records.length} variants and space.json to ${req.dir} in ${((Date.now() - started) / 1000).toFixed(1)} s` +
      (failed ? ` (${failed} failed, listed in space.json)` : '') + '\n',
  );
  if (records.some((r) => r.diagnostic?.startsWith('internal error'))) process.exitCode = 2;
  else if (failed === records.length) process.exitCode = 1;
}

/** The list choices of one variant. */
function choiceOf(parsed: ParsedDefines, defines: Record<string, string>): Record<string, string> {
  return Object.fromEntries(parsed.lists.map((l) => [l.name, defines[l.name]]));
}

/** The CLI options a worker needs, without yargs' bookkeeping (plain, cloneable values only). */
function plainArgs(args: Record<string, unknown>): Record<string, unknown> {
  const keep: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) if (k !== '_' && k !== '$0' && v !== undefined && ['string', 'number', 'boolean'].includes(typeof v)) keep[k] = v;
  return keep;
}

/** The options that change the code (hashed with the outputs). */
function codeOptions(args: Record<string, unknown>): Record<string, unknown> {
  return { arch: args.arch ?? null, numWarps: args['num-warps'] ?? null, residency: args['residency-hint'] ?? true };
}

/** Runs the variants on `jobs` worker threads, each taking the next variant when it is free. */
function compileInWorkers(
  url: string,
  job: Job,
  items: { index: number; choice: Record<string, string>; defines: Record<string, string>; description: string }[],
  jobs: number,
  report: (r: VariantRecord) => void,
): Promise<VariantRecord[]> {
  return new Promise((resolve, reject) => {
    const records: VariantRecord[] = [];
    let next = 0;
    let live = jobs;
    for (let w = 0; w < jobs; w++) {
      const worker = new (workerThreads().Worker)(new URL(url), { workerData: { mark: WORKER_MARK, job }, env: { ...process.env, [WORKER_ENV]: WORKER_MARK } });
      const feed = (): void => worker.postMessage(next < items.length ? items[next++] : null);
      worker.on('message', (r: VariantRecord) => {
        records.push(r);
        report(r);
        feed();
      });
      worker.on('error', (e) => reject(new Error(`internal error: a compile worker failed: ${e.message}`)));
      worker.on('exit', () => {
        if (--live === 0) resolve(records);
      });
      feed();
    }
  });
}

/** Compiles one variant and writes its files; never throws for a compile failure (it is recorded). */
function compileVariant(job: Job, index: number, choice: Record<string, string>, defines: Record<string, string>, description: string, translate: Translate): VariantRecord {
  const start = Date.now();
  const record: VariantRecord = { index, choice, defines, description, status: 'ok', seconds: 0 };
  const base = `${job.stem}.${index}`;
  try {
    const module = compileTritonC(job.sourceText, job.sourceName, defines, job.options);
    const d = verifyDiagnostic(module);
    if (d) throw new DiagnosticError(d);
    if (job.flag === null) {
      writeFileSync(join(job.dir, `${base}.tir`), `// ${description}\n` + printModule(module));
      record.files = { output: `${base}.tir` };
    } else if (job.flag === 'to-ptx') {
      Object.assign(record, compilePtx(job, base, module, record, translate));
    } else {
      const out = `${base}.${job.flag.replace(/^to-/, '')}`;
      writeFileSync(join(job.dir, out), translate(module, job.flag, job.args));
      record.files = { output: out };
    }
  } catch (e) {
    record.status = 'failed';
    record.diagnostic = e instanceof DiagnosticError ? e.diagnostic.format() : e instanceof UserError ? `error: ${e.message}` : `internal error: ${(e as Error).message}`;
  }
  record.seconds = (Date.now() - start) / 1000;
  return record;
}

/** `--to-ptx` for one variant: PTX, metadata (with the variant's -D values and ptxas statistics). */
function compilePtx(job: Job, base: string, module: Operation, record: VariantRecord, translate: Translate): Partial<VariantRecord> {
  const ptxFile = `${base}.ptx`;
  const metaFile = `${base}.json`;
  const metaPath = join(job.dir, metaFile);
  const ptx = translate(module, 'to-ptx', { ...job.args, 'emit-metadata': metaPath });
  writeFileSync(join(job.dir, ptxFile), ptx);
  const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as Record<string, unknown>;
  const checked = job.ptxas ? runPtxas(job.ptxas, join(job.dir, ptxFile), String(meta.arch)) : undefined;
  const stats = typeof checked === 'object' ? checked : undefined;
  const extra = { variant: record.index, defines: record.defines, choice: record.choice, ...(stats ? { ptxas: stats } : {}) };
  writeFileSync(metaPath, JSON.stringify({ ...meta, ...extra }, null, 2) + '\n');
  return {
    files: { ptx: ptxFile, metadata: metaFile },
    num_warps: meta.num_warps as number,
    threads_per_block: meta.threads_per_block as number,
    shared_bytes: meta.shared_bytes as number,
    ...(stats ? { ptxas: stats } : {}),
    ...(typeof checked === 'string' ? { ptxas_unavailable: checked } : {}),
  };
}

/**
 * `ptxas -v` on a PTX file: its register and spill counts. A rejection of the code is a compile
 * failure of the variant; a ptxas too old for the architecture or PTX version gives its message
 * (a string) instead of statistics.
 */
export function runPtxas(ptxas: string, file: string, arch: string): PtxasStats | string {
  const r = childProcess().spawnSync(ptxas, [`-arch=${arch}`, '-v', '-o', '/dev/null', file], { encoding: 'utf8' });
  const log = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  const tooOld = /is not defined for option 'gpu-name'|Unsupported \.version|Unsupported \.target/.exec(log);
  if (r.status !== 0 && tooOld) return log.trim().split('\n')[0];
  if (r.status !== 0) throw new UserError(`ptxas rejected the PTX: ${log.trim().split('\n').slice(0, 6).join('\n') || r.error?.message}`);
  const num = (re: RegExp): number => Number(re.exec(log)?.[1] ?? 0);
  return { registers: num(/Used (\d+) registers/), spill_stores: num(/(\d+) bytes spill stores/), spill_loads: num(/(\d+) bytes spill loads/) };
}

/** The first executable `name` on PATH, or null. */
function findOnPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const r = childProcess().spawnSync(join(dir, name), ['--version'], { encoding: 'utf8' });
    if (r.status === 0) return join(dir, name);
  }
  return null;
}

/** The contents of space.json. */
function spaceJson(req: SpaceRequest, job: Job, records: VariantRecord[]): Record<string, unknown> {
  const firstOk = records.find((r) => r.status === 'ok' && r.files?.metadata);
  const meta = firstOk ? (JSON.parse(readFileSync(join(req.dir, firstOk.files!.metadata), 'utf8')) as { name: string; params: { name: string; kind: string; type: string }[] }) : null;
  const params = meta?.params ?? null;
  const key = params ? params.filter((p) => p.kind === 'scalar' && /^i\d+$/.test(p.type) && p.type !== 'i1').map((p) => p.name) : null;
  return {
    format: SPACE_FORMAT,
    source: req.source.name,
    translation: req.flag ?? 'tt-ir',
    arch: req.flag === 'to-ptx' ? (req.args.arch ?? 'sm_80') : undefined,
    num_warps: req.args['num-warps'] ?? null,
    allow_tf32: !!req.options.allowTf32,
    ptxas: job.ptxas !== null,
    fixed: req.parsed.fixed,
    lists: req.parsed.lists,
    kernel: meta?.name ?? null,
    params,
    key,
    hash: spaceHash(req, records),
    variants: records,
  };
}

/** sha256 of what determines the space's code: the source, the -D lists, the options and every output file. */
function spaceHash(req: SpaceRequest, records: VariantRecord[]): string {
  const h = crypto().createHash('sha256');
  h.update(JSON.stringify({ source: req.source.text, defines: req.parsed, flag: req.flag, args: codeOptions(req.args), options: req.options }));
  for (const r of records) {
    h.update(`\0${r.index}:${r.status}`);
    for (const f of Object.values(r.files ?? {})) h.update(readFileSync(join(req.dir, f)));
  }
  return h.digest('hex');
}
