/**
 * LLVM itself, through the optional package `llvm-bindings` (`npm run setup:llvm` builds it
 * against LLVM 14): parses the text `module.ts` writes, runs `verifyModule`, prints LLVM's own text
 * and writes bitcode. The package is loaded (`await import`) in a child Node process: llvm-bindings
 * 0.4.2 returns a null module for text LLVM cannot parse and crashes the process on its first use
 * (and `SMDiagnostic` has no accessor for the message), so a crash stays in the child and is
 * reported here as an internal error.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** The npm package and the version `npm run setup:llvm` installs. */
export const LLVM_BINDINGS = 'llvm-bindings';

/** What a user runs to get the package, and what it needs from the system. */
export const SETUP_HINT =
  "run 'npm run setup:llvm' (it builds llvm-bindings against LLVM 14 and needs the system packages llvm-14-dev, cmake and g++: 'apt-get install llvm-14-dev cmake g++'); see docs/llvm.md";

/** An error the user can act on (the package is missing or broken). */
export class LlvmUnavailable extends Error {}

/** Where `llvm-bindings` resolves from this installation, or null when it is not installed. */
export function llvmBindingsPath(): string | null {
  try {
    return createRequire(import.meta.url).resolve(LLVM_BINDINGS);
  } catch {
    return null;
  }
}

/** The child's program: argv = bindings path, input .ll, module name, bitcode path or ''. Exit 2: no load; 3: does not verify. */
const CHILD = `
const [bindings, input, name, bitcode] = process.argv.slice(1);
let llvm;
try {
  llvm = (await import((await import('node:url')).pathToFileURL(bindings).href)).default;
} catch (e) {
  process.stderr.write(String(e && e.message || e));
  process.exit(2);
}
const module = llvm.parseIRFile(input, new llvm.SMDiagnostic(), new llvm.LLVMContext());
module.setModuleIdentifier(name);
module.setSourceFileName(name);
if (llvm.verifyModule(module)) process.exit(3);
if (bitcode) llvm.WriteBitcodeToFile(module, bitcode);
process.stdout.write(module.print());
`;

/**
 * Parses `text` with LLVM, verifies it (`verifyModule`), and returns LLVM's print of it; writes
 * bitcode to `bitcodePath` when given, after verification. Throws `LlvmUnavailable` where the
 * package is missing or does not load, and an internal error where LLVM rejects the text.
 */
export function verifyWithLlvm(text: string, name: string, bitcodePath?: string): string {
  const bindings = llvmBindingsPath();
  if (!bindings) throw new LlvmUnavailable(`--to-llvm needs the optional package ${LLVM_BINDINGS}, which is not installed: ${SETUP_HINT}`);
  const dir = mkdtempSync(join((createRequire(import.meta.url)('node:os') as typeof import('node:os')).tmpdir(), 'triton-llvm-'));
  try {
    const input = join(dir, 'module.ll');
    writeFileSync(input, text);
    // node:child_process is loaded here, not at start-up (it costs every `triton-translate` run ~5 ms)
    const r = (createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process')).spawnSync(process.execPath, ['--input-type=module', '-e', CHILD, bindings, input, name, bitcodePath ?? ''], {
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
    if (r.error) throw new Error(`could not run LLVM in a child process: ${r.error.message}`);
    if (r.status === 2) throw new LlvmUnavailable(`${LLVM_BINDINGS} is installed but does not load (${r.stderr.trim()}); reinstall it: ${SETUP_HINT}`);
    if (r.status === 3) throw new Error(`the generated LLVM IR does not verify:\n${r.stderr.trim()}`);
    if (r.status !== 0) throw new Error(`LLVM could not parse the generated LLVM IR (llvm-bindings ${r.signal ? `died of ${r.signal}` : `exited with ${r.status}`}, as it does on text it cannot parse; '--to-ptx --via-llvm' runs llc-14 on the same text and prints LLVM's message)`);
    return r.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
