#!/usr/bin/env node
// A self-contained implementation of LLVM's FileCheck: CHECK, -NEXT, -SAME,
// -NOT, -DAG, -LABEL, -EMPTY, -COUNT-<n>, {LITERAL}, custom prefixes,
// {{regex}}, [[VAR:regex]] / [[VAR]], [[@LINE+-N]], numeric blocks
// ([[#%x,VAR:]], [[#VAR+1]]) and LLVM's annotated input dump on failure.
// Parsing lives in filecheck-pattern.ts, matching in filecheck-match.ts and
// the input dump in filecheck-dump.ts.
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderDump } from './filecheck-dump.js';
import { Matcher } from './filecheck-match.js';
import { CheckFile, CheckFileError, PREFIX_RE, canonicalize, parseNumericDefine, type FileCheckOptions } from './filecheck-pattern.js';

export type { FileCheckOptions } from './filecheck-pattern.js';

/** Outcome of runFileCheck: exitCode 0 = pass, 1 = mismatch, 2 = bad check file/options. */
export interface FileCheckResult {
  ok: boolean;
  message: string;
  exitCode: 0 | 1 | 2;
}

/** Validates the requested check prefixes; returns an error message or undefined. */
function validatePrefixes(prefixes: string[]): string | undefined {
  const seen = new Set<string>(['RUN', 'COM']);
  for (const p of prefixes) {
    if (p === '') return 'error: supplied check prefix must not be the empty string\n';
    if (!PREFIX_RE.test(p)) {
      return `error: supplied check prefix must start with a letter and contain only alphanumeric characters, hyphens, and underscores: '${p}'\n`;
    }
    if (seen.has(p)) return `error: supplied check prefix must be unique among check and comment prefixes: '${p}'\n`;
    seen.add(p);
  }
  return undefined;
}

/** Runs FileCheck on `input` with the directives in `checkText`; never throws for user errors. */
export function runFileCheck(checkText: string, input: string, opts: FileCheckOptions = {}): FileCheckResult {
  const prefixes = opts.checkPrefixes?.length ? opts.checkPrefixes : ['CHECK'];
  const bad = validatePrefixes(prefixes);
  if (bad) return { ok: false, message: bad, exitCode: 2 };
  const inputName = opts.inputName ?? '<stdin>';
  const checkFileName = opts.checkFileName ?? 'check-file';
  const cf = new CheckFile(checkText.replace(/\r\n/g, '\n'), checkFileName, opts, prefixes);
  let used: Set<string>;
  let numDefines: ReturnType<typeof parseNumericDefine>[];
  try {
    numDefines = (opts.numericDefines ?? []).map(parseNumericDefine);
    used = cf.parse();
  } catch (e) {
    if (e instanceof CheckFileError) return { ok: false, message: e.message, exitCode: 2 };
    throw e;
  }
  const unused = prefixes.filter((p) => !used.has(p)).sort();
  if (used.size === 0 || (unused.length > 0 && !opts.allowUnusedPrefixes)) {
    const list = unused.map((p) => `'${p}:'`).join(', ');
    return { ok: false, message: `error: no check strings found with prefix${unused.length > 1 ? 'es' : ''} ${list}\n`, exitCode: 2 };
  }
  if (input === '' && !opts.allowEmpty) return { ok: false, message: `FileCheck error: '${inputName}' is empty.\n`, exitCode: 2 };
  let buf = input.replace(/\r\n/g, '\n');
  if (!opts.strictWhitespace) buf = canonicalize(buf);
  const matcher = new Matcher(cf, buf, opts, inputName, numDefines);
  let ok: boolean;
  try {
    ok = matcher.run();
  } catch (e) {
    if (e instanceof CheckFileError) return { ok: false, message: matcher.out + e.message, exitCode: 2 };
    throw e;
  }
  let message = matcher.out;
  const dump = opts.dumpInput ?? 'never';
  if (dump === 'always' || (dump === 'fail' && !ok)) {
    message += renderDump(buf, matcher.annotations, {
      inputName, checkFileName, context: opts.dumpInputContext ?? 5, filter: opts.dumpInputFilter ?? 'error',
    });
  }
  return { ok, message, exitCode: ok ? 0 : 1 };
}

const USAGE = 'usage: FileCheck CHECKFILE [--check-prefix=P] [--check-prefixes=A,B] [--input-file=F]\n' +
  '       [--implicit-check-not=S] [--strict-whitespace] [--match-full-lines] [--enable-var-scope]\n' +
  '       [--allow-empty] [--allow-unused-prefixes] [-DNAME=VALUE] [-D#[%fmt,]NAME=EXPR]\n' +
  '       [--dump-input=fail|always|never] [--dump-input-context=N] [--dump-input-filter=all|error]\n';

const VALUE_FLAGS = new Set(['check-prefix', 'check-prefixes', 'input-file', 'implicit-check-not', 'D',
  'dump-input', 'dump-input-context', 'dump-input-filter']);
const BOOL_FLAGS: Record<string, keyof FileCheckOptions> = {
  'strict-whitespace': 'strictWhitespace', 'match-full-lines': 'matchFullLines',
  'enable-var-scope': 'enableVarScope', 'allow-empty': 'allowEmpty', 'allow-unused-prefixes': 'allowUnusedPrefixes',
};
const IGNORED_FLAGS = new Set(['color', 'v', 'vv', 'allow-deprecated-dag-overlap', 'ignore-case']);

/** Parsed command line of the FileCheck CLI. */
interface CliArgs {
  checkFile: string;
  inputFile?: string;
  opts: FileCheckOptions;
  dumpSet?: boolean;
  contextSet?: boolean;
}

function usageError(msg: string): never {
  throw new CheckFileError(`error: ${msg}\n${USAGE}`);
}

function applyValueFlag(args: CliArgs, name: string, value: string): void {
  const o = args.opts;
  if (name === 'check-prefix') o.checkPrefixes = [...(o.checkPrefixes ?? []), value];
  else if (name === 'check-prefixes') o.checkPrefixes = [...(o.checkPrefixes ?? []), ...value.split(',')];
  else if (name === 'input-file') args.inputFile = value;
  else if (name === 'implicit-check-not') o.implicitCheckNot = [...(o.implicitCheckNot ?? []), value];
  else if (name === 'dump-input') {
    if (value === 'help') { process.stdout.write(DUMP_HELP); process.exit(0); }
    if (!['fail', 'always', 'never'].includes(value)) usageError(`invalid --dump-input value '${value}'`);
    // LLVM: the most verbose of several values wins.
    const rank = ['never', 'fail', 'always'];
    if (rank.indexOf(value) >= rank.indexOf(o.dumpInput ?? 'never') || !args.dumpSet) o.dumpInput = value as 'fail';
    args.dumpSet = true;
  } else if (name === 'dump-input-context') {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) usageError(`invalid --dump-input-context value '${value}'`);
    o.dumpInputContext = Math.max(n, args.contextSet ? o.dumpInputContext ?? 0 : 0);
    args.contextSet = true;
  } else if (name === 'dump-input-filter') {
    if (!['all', 'annotation-full', 'annotation', 'error'].includes(value)) usageError(`invalid --dump-input-filter value '${value}'`);
    o.dumpInputFilter = value as 'all';
  } else if (value.startsWith('#')) o.numericDefines = [...(o.numericDefines ?? []), value.slice(1)];
  else {
    const eq = value.indexOf('=');
    if (eq <= 0) usageError(`-D expects NAME=VALUE, got '${value}'`);
    o.defines = { ...o.defines, [value.slice(0, eq)]: value.slice(eq + 1) };
  }
}

const DUMP_HELP = `The following description was requested by -dump-input=help to
explain the input dump printed by FileCheck.

Related command-line options:

  - -dump-input=<value> enables or disables the input dump
  - -dump-input-filter=<value> filters the input lines
  - -dump-input-context=<N> adjusts the context of filtered lines

Input dump annotation format:

  - L:     labels line number L of the input file
  - T:L    labels the only match result for either (1) a pattern of type T
           from line L of the check file if L is an integer or (2) the I-th
           implicit pattern if L is "imp" followed by an integer I
  - T:L'N  labels the Nth match result for such a pattern
  - X~~    marks search range when no match is found
  - !~~    marks bad match, such as an unexpected pattern
  - ?      marks fuzzy match when no match is found
  - .      indicates an elided line
`;

function parseCli(argv: string[]): CliArgs {
  const args: CliArgs = { checkFile: '', opts: { dumpInput: 'fail' } };
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('-') || a === '-') { positional.push(a); continue; }
    if (a.startsWith('-D')) { applyValueFlag(args, 'D', a.length > 2 ? a.slice(2) : argv[++i] ?? ''); continue; }
    const body = a.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq < 0 ? body : body.slice(0, eq);
    if (name === 'help' || name === 'h') { process.stdout.write(USAGE); process.exit(0); }
    if (IGNORED_FLAGS.has(name)) continue;
    if (name in BOOL_FLAGS) {
      Object.assign(args.opts, { [BOOL_FLAGS[name]]: eq < 0 || body.slice(eq + 1) !== 'false' });
      continue;
    }
    if (!VALUE_FLAGS.has(name)) usageError(`unknown option '${a}'`);
    const value = eq >= 0 ? body.slice(eq + 1) : argv[++i];
    if (value === undefined) usageError(`option '${a}' requires a value`);
    applyValueFlag(args, name, value);
  }
  if (positional.length !== 1) usageError('expected exactly one check file');
  args.checkFile = positional[0];
  return args;
}

function readText(path: string | number, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new CheckFileError(`error: could not open ${what}: ${(e as Error).message}\n`);
  }
}

function main(argv: string[]): number {
  try {
    const args = parseCli(argv);
    const checkText = readText(args.checkFile, `check file '${args.checkFile}'`);
    const input = args.inputFile === undefined || args.inputFile === '-' ? readText(0, 'standard input')
      : readText(args.inputFile, `input file '${args.inputFile}'`);
    const inputName = args.inputFile === undefined || args.inputFile === '-' ? '<stdin>' : args.inputFile;
    const res = runFileCheck(checkText, input, { ...args.opts, checkFileName: args.checkFile, inputName });
    process.stderr.write(res.message);
    // Like LLVM, an empty input also echoes the command line.
    if (res.message.startsWith('FileCheck error:')) process.stderr.write(`FileCheck command line:  FileCheck ${argv.join(' ')}\n`);
    return res.exitCode;
  } catch (e) {
    if (!(e instanceof CheckFileError)) throw e;
    process.stderr.write(e.message);
    return 2;
  }
}

function isMainModule(): boolean {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMainModule()) process.exitCode = main(process.argv.slice(2));
