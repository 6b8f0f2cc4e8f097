#!/usr/bin/env node
// `not cmd args...`: runs a command and inverts its exit status, like LLVM's
// `not` utility. Exits 0 iff the command exited with a non-zero status; a
// command killed by a signal counts as a crash, which is not a plain failure.
import { spawnSync } from 'node:child_process';

/** Maps the child's outcome to our exit code: 0 iff it exited non-zero. */
function invertStatus(status: number | null, signal: string | null): number {
  if (signal !== null || status === null) return 1;
  return status === 0 ? 1 : 0;
}

function main(argv: string[]): number {
  if (argv.length === 0 || argv[0] === '-h' || argv[0] === '--help') {
    process.stderr.write('error: usage: not command [args...]\n');
    return 2;
  }
  if (argv[0] === '--crash') {
    process.stderr.write('error: not --crash is not supported\n');
    return 2;
  }
  const res = spawnSync(argv[0], argv.slice(1), { stdio: 'inherit' });
  if (res.error) {
    process.stderr.write(`error: cannot run '${argv[0]}': ${res.error.message}\n`);
    return 2;
  }
  return invertStatus(res.status, res.signal);
}

process.exitCode = main(process.argv.slice(2));
