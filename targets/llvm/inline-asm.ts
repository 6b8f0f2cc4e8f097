/**
 * `nvptx.inline_asm` (the user's PTX of `tt.elementwise_inline_asm`) as LLVM inline asm: the same
 * template (LLVM also reads `$N` and `$$`), a constraint per register from its type, and
 * `sideeffect` with a memory clobber, so LLVM neither moves nor removes it.
 */
import * as nvptx from '../../dialects/nvptx.js';
import type { Translate } from './instructions.js';

/** `nvptx.inline_asm`: `call T asm sideeffect "template", "=r,r,~{memory}"(...)`. */
const inlineAsm: Translate = (f, op) => {
  const { asm, args, dst } = nvptx.InlineAsmOp.view(op);
  const outs = f.asm({
    template: asm,
    outputs: dst.map((v) => f.typeOf(v, op)),
    inputs: args.map((v) => ({ type: f.typeOf(v, op), text: f.value(v) })),
    memory: true,
  });
  dst.forEach((v, k) => f.alias(v, outs[k]));
};

/** The user-PTX instruction of the nvptx dialect. */
export const INLINE_ASM_INSTRUCTIONS: [string, Translate][] = [['nvptx.inline_asm', inlineAsm]];
