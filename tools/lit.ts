#!/usr/bin/env node
// A small lit-style test runner: discovers test files, reads their RUN /
// REQUIRES / UNSUPPORTED / XFAIL lines, substitutes %s-style variables and
// tool names, and runs every RUN line under `bash -o pipefail -c`.
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { delimiter, dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const TEST_EXTS = new Set(['.tir', '.mlir', '.tc']);
const SKIP_DIRS = new Set(['Inputs', 'fixtures', 'node_modules']);
const TIMEOUT_MS = 60_000;
const MAX_SHOWN = 4000;
const MAX_CAPTURED = 1 << 20;
const DIRECTIVE_RE = /^\s*(?:\/\/|#|;|--)\s*(RUN|REQUIRES|UNSUPPORTED|XFAIL)\s*:(.*)$/;

/** The directives read from one test file. */
export interface TestSpec {
  path: string;
  runLines: string[];
  requires: string[];
  unsupported: string[];
  xfail: string[];
  /** Set when the file's directives are malformed (e.g. no RUN lines). */
  error?: string;
}

/** Final status of one test, as printed by the runner. */
export type TestStatus = 'PASS' | 'FAIL' | 'UNSUPPORTED' | 'XFAIL' | 'XPASS';

interface TestResult {
  status: TestStatus;
  detail: string;
}

interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Everything a test needs from the environment: features and tool substitutions. */
interface LitConfig {
  repo: string;
  features: Set<string>;
  tools: Map<string, string>;
  tmpRoot: string;
}

class UsageError extends Error {}

const shellQuote = (s: string): string => (/^[A-Za-z0-9_./@%+=:,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Returns the first executable called `name` on PATH, if any. */
export function which(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here; keep looking
    }
  }
  return undefined;
}

function findRepoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/**
 * Command line that runs one of our own tools: its launcher (`NAME.cjs`, for the CLIs with a code
 * cache) or bundle (`NAME.mjs`) for a fast start, else the built JS, else the TS source via tsx.
 */
function ownTool(repo: string, name: string): string {
  for (const ext of ['cjs', 'mjs']) {
    const bundle = join(repo, 'dist', 'bin', `${name}.${ext}`);
    if (existsSync(bundle)) return `node --max-semi-space-size=16 ${shellQuote(bundle)}`;
  }
  const js = join(repo, 'dist', 'tools', `${name}.js`);
  if (existsSync(js)) return `node ${shellQuote(js)}`;
  const ts = join(repo, 'tools', `${name}.ts`);
  const tsx = join(repo, 'node_modules', '.bin', 'tsx');
  return existsSync(tsx) ? `${shellQuote(tsx)} ${shellQuote(ts)}` : `npx tsx ${shellQuote(ts)}`;
}

/** Whether the package `name` resolves from the repository (an optional part: `llvm-bindings`, docs/llvm.md). */
function resolvesFrom(repo: string, name: string): boolean {
  try {
    createRequire(join(repo, 'package.json')).resolve(name);
    return true;
  } catch {
    return false;
  }
}

/** Detects the available features and builds the tool-name substitutions. */
function makeConfig(): LitConfig {
  const repo = findRepoRoot();
  const features = new Set<string>();
  const tools = new Map<string, string>([
    ['triton-opt', ownTool(repo, 'triton-opt')],
    ['triton-translate', ownTool(repo, 'triton-translate')],
    ['triton-run', ownTool(repo, 'triton-run')],
    // FILECHECK=/path/to/FileCheck runs the suite against another FileCheck (e.g. LLVM's).
    ['FileCheck', process.env.FILECHECK ? shellQuote(process.env.FILECHECK) : ownTool(repo, 'filecheck')],
    ['not', ownTool(repo, 'not')],
  ]);
  if (which('ptxas')) features.add('ptxas');
  if (which('python3')) features.add('python3');
  if (which('llc-14')) features.add('llc-14');
  if (resolvesFrom(repo, 'llvm-bindings')) features.add('llvm-bindings');
  if (which('FileCheck') || which('FileCheck-14')) features.add('system-filecheck');
  const mlirOpt = which('mlir-opt') ?? (existsSync('/usr/lib/llvm-19/bin/mlir-opt') ? '/usr/lib/llvm-19/bin/mlir-opt' : undefined);
  if (mlirOpt) {
    features.add('mlir-opt');
    tools.set('mlir-opt', shellQuote(mlirOpt));
  }
  const tmpRoot = mkdtempSync(join(tmpdir(), 'triton-lit-'));
  return { repo, features, tools, tmpRoot };
}

/** Recursively collects test files under the given paths (explicit files are always taken). */
export function discoverTests(paths: string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = join(dir, entry.name);
      if (entry.isDirectory() && !SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.')) walk(full);
      else if (entry.isFile() && TEST_EXTS.has(extname(entry.name))) found.push(full);
    }
  };
  for (const p of paths) {
    if (!existsSync(p)) throw new UsageError(`path does not exist: ${p}`);
    if (statSync(p).isDirectory()) walk(resolve(p));
    else found.push(resolve(p));
  }
  return [...new Set(found)];
}

/** Reads RUN (with trailing-backslash continuation), REQUIRES, UNSUPPORTED and XFAIL lines. */
export function parseTestFile(path: string, text: string): TestSpec {
  const spec: TestSpec = { path, runLines: [], requires: [], unsupported: [], xfail: [] };
  let pending: string | undefined;
  for (const line of text.split('\n')) {
    const m = DIRECTIVE_RE.exec(line);
    if (!m) continue;
    const body = m[2].trim();
    if (m[1] !== 'RUN') {
      const list = m[1] === 'REQUIRES' ? spec.requires : m[1] === 'XFAIL' ? spec.xfail : spec.unsupported;
      list.push(...body.split(',').map((s) => s.trim()).filter(Boolean));
      continue;
    }
    const joined = pending === undefined ? body : `${pending} ${body}`;
    if (joined.endsWith('\\')) { pending = joined.slice(0, -1).trimEnd(); continue; }
    pending = undefined;
    if (joined) spec.runLines.push(joined);
  }
  if (pending !== undefined) spec.error = "test has an unterminated RUN line (ends with '\\')";
  else if (spec.runLines.length === 0) spec.error = 'test has no RUN: lines';
  return spec;
}

/** Evaluates a lit feature expression such as `a && !(b || c)`; `*` is always true. */
export function evalFeatureExpr(expr: string, features: Set<string>): boolean {
  const tokens = expr.match(/&&|\|\||[!()]|[^\s&|!()]+/g) ?? [];
  let pos = 0;
  const fail = (msg: string): never => { throw new Error(`bad feature expression '${expr}': ${msg}`); };
  const primary = (): boolean => {
    const tok = tokens[pos++];
    if (tok === undefined) return fail('unexpected end');
    if (tok === '!') return !primary();
    if (tok === '(') {
      const v = orExpr();
      if (tokens[pos++] !== ')') fail("expected ')'");
      return v;
    }
    if (tok === ')' || tok === '&&' || tok === '||') return fail(`unexpected '${tok}'`);
    return tok === '*' || tok === 'true' || features.has(tok);
  };
  const andExpr = (): boolean => {
    let v = primary();
    while (tokens[pos] === '&&') { pos++; v = primary() && v; }
    return v;
  };
  const orExpr = (): boolean => {
    let v = andExpr();
    while (tokens[pos] === '||') { pos++; v = andExpr() || v; }
    return v;
  };
  const result = orExpr();
  if (pos !== tokens.length) fail(`unexpected '${tokens[pos]}'`);
  return result;
}

/** Replaces tool names that appear in command position (start, after | && || ; ( or `not`). */
export function substituteTools(cmd: string, tools: Map<string, string>): string {
  if (tools.size === 0) return cmd;
  const names = [...tools.keys()].map(escapeRe).join('|');
  const re = new RegExp(`(?<=(?:^|[|;&(]|(?:^|[\\s|;&(])not)\\s*)(?:${names})(?=$|[\\s;|&)])`, 'g');
  return cmd.replace(re, (name) => tools.get(name) ?? name);
}

/** Replaces %s, %S, %p, %t, %T and %% in a RUN line. */
export function substitutePercent(cmd: string, testPath: string, tmpPath: string): string {
  const values: Record<string, string> = {
    '%': '%', s: shellQuote(testPath), S: shellQuote(dirname(testPath)), p: shellQuote(dirname(testPath)),
    t: shellQuote(tmpPath), T: shellQuote(dirname(tmpPath)),
  };
  return cmd.replace(/%([%sSptT])/g, (_, k: string) => values[k]);
}

function runCommand(cmd: string, cwd: string): Promise<CommandResult> {
  return new Promise((resolvePromise) => {
    const child = spawn('bash', ['-o', 'pipefail', '-c', cmd], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const res: CommandResult = { code: null, stdout: '', stderr: '', timedOut: false };
    const timer = setTimeout(() => {
      res.timedOut = true;
      try { process.kill(-(child.pid ?? 0), 'SIGKILL'); } catch { /* already gone */ }
    }, TIMEOUT_MS);
    child.stdout.on('data', (d: Buffer) => { if (res.stdout.length < MAX_CAPTURED) res.stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { if (res.stderr.length < MAX_CAPTURED) res.stderr += d.toString(); });
    child.on('error', (e) => { res.stderr += `error: ${e.message}\n`; });
    child.on('close', (code) => {
      clearTimeout(timer);
      res.code = code;
      resolvePromise(res);
    });
  });
}

const truncate = (s: string): string =>
  s.length <= MAX_SHOWN ? s : `${s.slice(0, MAX_SHOWN)}\n... (${s.length - MAX_SHOWN} more characters truncated)\n`;

function describeFailure(cmd: string, r: CommandResult): string {
  const status = r.timedOut ? `timed out after ${TIMEOUT_MS / 1000} s` : `exit code ${r.code ?? 'signal'}`;
  let out = `Command: ${cmd}\n${status}\n`;
  if (r.stdout) out += `--- stdout ---\n${truncate(r.stdout)}${r.stdout.endsWith('\n') ? '' : '\n'}`;
  if (r.stderr) out += `--- stderr ---\n${truncate(r.stderr)}${r.stderr.endsWith('\n') ? '' : '\n'}`;
  return out;
}

/** Runs one test file and classifies the outcome. */
async function runTest(path: string, cfg: LitConfig): Promise<TestResult> {
  const spec = parseTestFile(path, readFileSync(path, 'utf8'));
  if (spec.error) return { status: 'FAIL', detail: `error: ${spec.error}\n` };
  let expectFail: boolean;
  try {
    const missing = spec.requires.filter((e) => !evalFeatureExpr(e, cfg.features));
    if (missing.length) return { status: 'UNSUPPORTED', detail: `missing features: ${missing.join(', ')}\n` };
    const hit = spec.unsupported.filter((e) => evalFeatureExpr(e, cfg.features));
    if (hit.length) return { status: 'UNSUPPORTED', detail: `UNSUPPORTED: ${hit.join(', ')}\n` };
    expectFail = spec.xfail.some((e) => evalFeatureExpr(e, cfg.features));
  } catch (e) {
    return { status: 'FAIL', detail: `error: ${(e as Error).message}\n` };
  }
  const rel = relative(cfg.repo, path);
  const key = rel.startsWith('..') || isAbsolute(rel) ? path.replace(/^[/\\]+/, '') : rel;
  const tmpPath = join(cfg.tmpRoot, key) + '.tmp';
  mkdirSync(dirname(tmpPath), { recursive: true });
  for (const line of spec.runLines) {
    const cmd = substitutePercent(substituteTools(line, cfg.tools), path, tmpPath);
    const r = await runCommand(cmd, dirname(path));
    if (r.code === 0 && !r.timedOut) continue;
    if (expectFail) return { status: 'XFAIL', detail: describeFailure(cmd, r) };
    return { status: 'FAIL', detail: describeFailure(cmd, r) };
  }
  if (expectFail) return { status: 'XPASS', detail: 'test is marked XFAIL but passed\n' };
  return { status: 'PASS', detail: '' };
}

function displayPath(p: string): string {
  const rel = relative(process.cwd(), p);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : p;
}

function report(path: string, r: TestResult, verbose: boolean): void {
  const shown = displayPath(path);
  if (r.status === 'FAIL' || r.status === 'XPASS') {
    const bar = '*'.repeat(20);
    process.stdout.write(`${r.status}: ${shown}\n${bar} TEST '${shown}' FAILED ${bar}\n${r.detail}${bar}\n`);
    return;
  }
  if (r.status === 'UNSUPPORTED') {
    process.stdout.write(`UNSUPPORTED: ${shown}\n${verbose ? `  ${r.detail}` : ''}`);
    return;
  }
  if (verbose) process.stdout.write(`${r.status}: ${shown}\n`);
}

/** How many progress lines a run prints at most (one every total/PROGRESS_LINES finished files). */
const PROGRESS_LINES = 20;

/**
 * The progress line after `done` of `total` tests finished (`failed` of them failing), or null
 * when this count gets none: about PROGRESS_LINES lines a run, and always one at the end.
 */
export function progressLine(done: number, total: number, failed: number, elapsedMs: number): string | null {
  const every = Math.max(1, Math.ceil(total / PROGRESS_LINES));
  if (done % every !== 0 && done !== total) return null;
  const percent = Math.floor((100 * done) / total);
  return `-- ${done}/${total} tests (${percent}%), ${failed} failed, ${(elapsedMs / 1000).toFixed(0)} s\n`;
}

/** Parsed command line of the lit CLI. */
interface LitArgs {
  paths: string[];
  verbose: boolean;
  filter?: RegExp;
  workers: number;
}

const USAGE = 'usage: lit [paths...] [-v] [--filter REGEX] [-j N]\n';

function parseArgs(argv: string[]): LitArgs {
  const args: LitArgs = { paths: [], verbose: false, workers: Math.max(cpus().length, 1) };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new UsageError(`option '${flag}' requires a value`);
      return v;
    };
    if (flag === '-h' || flag === '--help') { process.stdout.write(USAGE); process.exit(0); }
    if (flag === '-v' || flag === '--verbose') args.verbose = true;
    else if (flag === '--filter') {
      const src = value();
      try { args.filter = new RegExp(src); } catch { throw new UsageError(`invalid --filter regex '${src}'`); }
    } else if (flag === '-j' || flag === '--workers') {
      args.workers = Number(value());
      if (!Number.isInteger(args.workers) || args.workers < 1) throw new UsageError('-j expects a positive integer');
    } else if (a.startsWith('-')) throw new UsageError(`unknown option '${a}'`);
    else args.paths.push(a);
  }
  if (args.paths.length === 0) args.paths.push('.');
  return args;
}

async function main(argv: string[]): Promise<number> {
  let args: LitArgs;
  let tests: string[];
  try {
    args = parseArgs(argv);
    tests = discoverTests(args.paths);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`error: ${e.message}\n${USAGE}`);
    return 2;
  }
  if (args.filter) tests = tests.filter((t) => args.filter?.test(displayPath(t)));
  if (tests.length === 0) {
    process.stderr.write(`error: no tests found in ${args.paths.join(', ')}\n`);
    return 1;
  }
  const cfg = makeConfig();
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const started = performance.now();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tests.length) {
      const path = tests[next++];
      const r = await runTest(path, cfg).catch((e: Error): TestResult => ({ status: 'FAIL', detail: `error: ${e.message}\n` }));
      report(path, r, args.verbose);
      if (r.status === 'PASS' || r.status === 'XFAIL') counts.passed++;
      else if (r.status === 'UNSUPPORTED') counts.skipped++;
      else counts.failed++;
      const done = counts.passed + counts.failed + counts.skipped;
      const progress = args.verbose ? null : progressLine(done, tests.length, counts.failed, performance.now() - started);
      if (progress) process.stdout.write(progress);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(args.workers, tests.length) }, worker));
  } finally {
    rmSync(cfg.tmpRoot, { recursive: true, force: true });
  }
  process.stdout.write(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  return counts.failed > 0 ? 1 : 0;
}

function isMainModule(): boolean {
  try {
    return !!process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMainModule()) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
}
