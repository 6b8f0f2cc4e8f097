/**
 * Reading tool input: files or stdin, and `--split-input-file` chunks (`// -----`), each a
 * `SourceFile` whose reported line numbers stay those of the whole file.
 */
import { readFileSync } from 'node:fs';
import { SourceFile } from '../ir/diagnostics.js';

/** Reads a path, or stdin for `-`; throws a user-facing message on failure. */
export function readInput(path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file or directory' : code === 'EISDIR' ? 'is a directory' : (e as Error).message;
    throw new UserError(`could not open input file '${path}': ${why}`);
  }
}

/** A command-line mistake (bad flag, missing file): printed as `error: ...`, exit 1. */
export class UserError extends Error {}

/**
 * Calls `setup` with process.stdout when something first uses it. Node makes the stream on first
 * access, and making it loads its stream modules (~5 ms of start-up that `triton-opt FILE -o OUT`,
 * which never writes to stdout, need not pay).
 */
function onStdoutMade(setup: (stdout: NodeJS.WriteStream) => void): void {
  const made = Object.getOwnPropertyDescriptor(process, 'stdout');
  if (!made?.get || !made.configurable) {
    setup(process.stdout);
    return;
  }
  const get = made.get;
  Object.defineProperty(process, 'stdout', {
    configurable: true,
    enumerable: made.enumerable,
    get(): NodeJS.WriteStream {
      const stdout = get.call(process) as NodeJS.WriteStream;
      Object.defineProperty(process, 'stdout', { configurable: true, enumerable: made.enumerable, get });
      setup(stdout);
      return stdout;
    },
  });
}

/**
 * Runs a CLI's `main` (which may finish later, through a promise): user mistakes print
 * `tool: error: ...` (exit 1); anything else is a bug, printed as `tool: internal error: ...`
 * (exit 2), never as a stack trace.
 */
export function runTool(tool: string, main: () => void | Promise<void>, debug = false): void {
  onStdoutMade((stdout) =>
    // A reader that stops early (`| head`) closes our stdout: that ends the run quietly, it is no error.
    stdout.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(0);
      throw e;
    }),
  );
  const fail = (e: unknown): void => {
    if (debug && !(e instanceof UserError)) throw e;
    if (e instanceof UserError) {
      process.stderr.write(`${tool}: error: ${e.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`${tool}: internal error: ${(e as Error).message ?? e}\n`);
      process.exitCode = 2;
    }
  };
  try {
    const done = main();
    if (done) done.catch(fail);
  } catch (e) {
    fail(e);
  }
}

/**
 * Splits text at lines that are exactly `marker` up to surrounding blanks (mlir-opt's
 * `--split-input-file[=MARKER]`, `// -----` by default); one chunk when `marker` is null.
 */
export function splitInput(name: string, text: string, marker: string | null): SourceFile[] {
  if (marker === null) return [new SourceFile(name, text)];
  const wanted = marker.trim();
  const lines = text.split('\n');
  const chunks: SourceFile[] = [];
  let start = 0;
  for (let k = 0; k <= lines.length; k++) {
    if (k < lines.length && lines[k].trim() !== wanted) continue;
    chunks.push(new SourceFile(name, lines.slice(start, k).join('\n'), start));
    start = k + 1;
  }
  return chunks;
}
