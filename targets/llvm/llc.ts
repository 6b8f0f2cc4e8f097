/**
 * LLVM's own PTX for a module, a second opinion on ours: the text `module.ts` writes goes through
 * `llc` from LLVM 14 (`llc-14 -march=nvptx64 -mcpu=sm_80 -mattr=+ptx75 -O3`: PTX ISA 7.5, the newest
 * LLVM 14 writes, for the cache-eviction qualifiers of our loads), which parses and verifies it
 * before code generation. LLVM 14's NVPTX backend stops at sm_86, so this is sm_80 PTX.
 */
import { createRequire } from 'node:module';

/** node:child_process, loaded when llc runs (at start-up it would cost every `triton-translate` run ~5 ms). */
const childProcess = (): typeof import('node:child_process') => createRequire(import.meta.url)('node:child_process');

/** The `-mcpu` LLVM's PTX is generated for. */
export const LLC_CPU = 'sm_80';

/** What a user installs to get llc. */
export const LLC_HINT = "install LLVM 14's tools ('apt-get install llvm-14'), which provide llc-14";

/** An error the user can act on (no suitable llc). */
export class LlcUnavailable extends Error {}

/** The major version of LLVM an llc reports, or null where it does not run. */
function llcMajor(command: string): number | null {
  const r = childProcess().spawnSync(command, ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return null;
  const m = /LLVM version (\d+)/.exec(r.stdout);
  return m && /nvptx64/.test(r.stdout) ? Number(m[1]) : null;
}

/**
 * The llc to use: `llc-14`, or `llc` where it is LLVM 14 with the NVPTX backend (the text we
 * write uses LLVM 14's typed pointers, which later versions no longer read).
 */
export function findLlc(): string | null {
  for (const command of ['llc-14', 'llc']) if (llcMajor(command) === 14) return command;
  return null;
}

/** Compiles LLVM IR text to PTX with llc; a rejection of our text is an internal error (with llc's message). */
export function llcToPtx(text: string): string {
  const llc = findLlc();
  if (!llc) throw new LlcUnavailable(`--via-llvm needs llc from LLVM 14 with the NVPTX backend, which was not found: ${LLC_HINT}`);
  const r = childProcess().spawnSync(llc, ['-march=nvptx64', `-mcpu=${LLC_CPU}`, '-mattr=+ptx75', '-O3', '-o', '-', '-'], { input: text, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.error) throw new Error(`could not run ${llc}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${llc} rejected the generated LLVM IR:\n${r.stderr.trim()}`);
  return r.stdout;
}
