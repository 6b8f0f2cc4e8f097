/**
 * The LLVM target: the nvptx dialect translated to LLVM IR (NVVM IR for `nvptx64-nvidia-cuda`),
 * verified by LLVM through the optional `llvm-bindings` package (`--to-llvm`), and compiled by
 * llc-14 into LLVM's PTX for sm_80 (`--to-ptx --via-llvm`). `docs/llvm.md` describes both.
 */
import type { Operation } from '../../ir/ir.js';
import type { Arch } from '../nvptx/emitter.js';
import { verifyWithLlvm } from './bindings.js';
import { LLC_CPU, llcToPtx } from './llc.js';
import { translateToLlvmText } from './module.js';

export { LLVM_BINDINGS, LlvmUnavailable, SETUP_HINT, llvmBindingsPath } from './bindings.js';
export { LLC_CPU, LlcUnavailable, findLlc } from './llc.js';
export { TRANSLATIONS, translateToLlvmText } from './module.js';

/** Whether `module` is already in the nvptx dialect (what `--to-nvptx-ir` prints: `nvptx.arch` on the module). */
export const isNvptxModule = (module: Operation): boolean => module.getAttr('nvptx.arch') !== undefined;

/** Options of `translateToLlvm`. */
export interface LlvmOptions {
  /** The architecture the nvptx module was lowered for (its register budget). */
  arch: Arch;
  /** The module's name in LLVM (`; ModuleID`, `source_filename`): the input file's. */
  sourceName: string;
  /** Also write the verified module as bitcode to this file. */
  bitcodePath?: string;
}

/** The verified LLVM IR of an nvptx-dialect module, as LLVM prints it (LLVM through llvm-bindings). */
export function translateToLlvm(nvptx: Operation, opts: LlvmOptions): string {
  return verifyWithLlvm(translateToLlvmText(nvptx, opts.arch, opts.sourceName), opts.sourceName, opts.bitcodePath);
}

/** LLVM's PTX (sm_80, from llc-14) for an nvptx-dialect module lowered for sm_80. */
export function ptxViaLlvm(nvptx: Operation, sourceName: string): string {
  return llcToPtx(translateToLlvmText(nvptx, LLC_CPU, sourceName));
}
