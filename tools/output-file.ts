/**
 * Writing tool output: `-o -` is stdout, an output that names one of the inputs is refused
 * unless `--force` (nothing a user gave is overwritten without being asked), and an output path
 * that cannot be written (a missing directory, a directory) is a usage error, not a crash.
 */
import { closeSync, existsSync, openSync, realpathSync, statSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UserError } from './input-chunks.js';

/** The real path of `path` (its directory's, for a file not there yet), to compare two spellings of one file. */
function canonicalPath(path: string): string {
  const abs = resolve(path);
  try {
    return realpathSync(abs);
  } catch {
    return abs;
  }
}

/**
 * Checks, before any work, that `path` (given with `flag`) may be written: not an input (unless
 * `force`), not a directory, and in a directory that exists. `-` (stdout) always may.
 */
export function checkOutputPath(flag: string, path: string, inputs: readonly string[], force: boolean): void {
  if (path === '-') return;
  const target = canonicalPath(path);
  for (const input of inputs) {
    if (input === '-' || force) continue;
    if (existsSync(input) && canonicalPath(input) === target)
      throw new UserError(`${flag} ${path} would overwrite the input file '${input}'; write elsewhere, or pass --force to overwrite it`);
  }
  if (existsSync(path) && statSync(path).isDirectory()) throw new UserError(`could not open output file '${path}': is a directory`);
  const dir = dirname(resolve(path));
  if (!existsSync(dir)) throw new UserError(`could not open output file '${path}': no such directory '${dirname(path)}'`);
}

/**
 * Writes `text` (one string, or consecutive parts written in turn, as `printModuleParts` gives them)
 * to `path`, or to stdout for `-` or no path; a write failure is a user-facing error.
 */
export function writeOutput(path: string | undefined, text: string | readonly string[]): void {
  const parts = typeof text === 'string' ? [text] : text;
  if (path === undefined || path === '-') {
    for (const part of parts) process.stdout.write(part);
    return;
  }
  let fd: number | undefined;
  try {
    fd = openSync(path, 'w');
    for (const part of parts) {
      const bytes = Buffer.from(part, 'utf8');
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file or directory' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
    throw new UserError(`could not open output file '${path}': ${why}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
