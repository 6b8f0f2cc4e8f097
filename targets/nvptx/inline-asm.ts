/**
 * `tt.elementwise_inline_asm` (Triton's `tl.inline_asm_elementwise`): the user's PTX once per
 * group of `packed_element` elements a thread holds, as Triton runs it. Constraints name register
 * classes: `r` 32-bit, `l` 64-bit, `h` 16-bit, `f` f32, `d` f64; outputs start with `=` (an
 * early-clobber `=&` reads as `=`: every asm gets fresh output registers). With `packed_element`
 * k > 1, each operand passes k consecutive elements of the thread in one register (element 0 in
 * the low bits) and each result returns k elements the same way, so k times the element width
 * must be the register's width.
 */
import type { Operation, Value } from '../../ir/ir.js';
import { FloatType, IntegerType, RankedTensorType, type Type } from '../../ir/types.js';
import * as nvptx from '../../dialects/nvptx.js';
import * as tt from '../../dialects/tt/index.js';
import { lowering, registerType, type Lowering } from './context.js';
import { F32, F64, I1, I16, I32, I64, targetError, widthOf } from './emitter.js';

/** The register class each constraint letter names. */
const CLASSES: Record<string, Type> = { r: I32, l: I64, h: I16, f: F32, d: F64 };

/** The constraint string's output and input classes, in order. */
function parseConstraints(text: string, op: Operation): { outputs: Type[]; inputs: Type[] } {
  const outputs: Type[] = [];
  const inputs: Type[] = [];
  for (const raw of text.split(',')) {
    const c = raw.trim();
    const output = c.startsWith('=');
    const letter = c.replace(/^=&?/, '');
    const cls = CLASSES[letter];
    if (!cls) throw targetError(op, `has the constraint '${c}', which the nvptx target does not take (r, l, h, f, d; outputs as =r...)`);
    if (output && inputs.length) throw targetError(op, `lists the output constraint '${c}' after an input; outputs come first`);
    (output ? outputs : inputs).push(cls);
  }
  return { outputs, inputs };
}

/** tt.elementwise_inline_asm "asm" %x : T -> R -> per group of packed_element registers: nvptx.inline_asm "asm" */
const lowerInlineAsm = lowering(tt.ElementwiseInlineAsmOp, (ctx, asm) => {
  const { op, args } = asm;
  const e = ctx.e;
  const k = asm.packed_element ?? 1;
  const { outputs, inputs } = parseConstraints(asm.constraints ?? '', op);
  const results = op.results;
  if (outputs.length !== results.length) throw targetError(op, `has ${outputs.length} output constraints for ${results.length} results`);
  if (inputs.length !== args.length) throw targetError(op, `has ${inputs.length} input constraints for ${args.length} operands`);
  const elementOf = (v: Value) => registerType(v.type instanceof RankedTensorType ? v.type.elementType : v.type);
  const check = (v: Value, cls: Type) => {
    if (elementOf(v) === I1) throw targetError(op, `passes i1 values, which have no register of a constraint's class; extend them to i8 or i32 first`);
    const w = widthOf(elementOf(v));
    if (w * k !== widthOf(cls) && !(k === 1 && w < widthOf(cls) && elementOf(v) instanceof IntegerType && !(cls instanceof FloatType)))
      throw targetError(op, `packs ${k} '${elementOf(v)}' element${k > 1 ? 's' : ''} into a ${widthOf(cls)}-bit '${cls}' register; packed_element times the element width must be the register's width`);
  };
  const template = asm.asm_string ?? '';
  nvptx.fillAsmTemplate(template, (n) => {
    if (n >= outputs.length + inputs.length) throw targetError(op, `refers to $${n}, but has ${outputs.length} outputs and ${inputs.length} inputs`);
    return '';
  });
  args.forEach((v, n) => check(v, inputs[n]));
  results.forEach((v, n) => check(v, outputs[n]));
  const regs = args.map((v) => ctx.get(v, op));
  const count = Math.max(1, ...results.map((v) => ctx.expand(v.type, op).length));
  if (count % k) throw targetError(op, `packs ${k} elements, but each thread holds ${count}`);
  const out: Value[][] = results.map(() => []);
  for (let g = 0; g < count; g += k) {
    const operands = regs.map((rs, n) => e.packParts(Array.from({ length: k }, (_, j) => rs[rs.length === 1 ? 0 : g + j]), inputs[n]));
    const call = nvptx.InlineAsmOp.build(e.b, { asm: template, args: operands }, { results: { dst: outputs } });
    call.dst.forEach((reg, n) => out[n].push(...e.unpackParts(reg, k, elementOf(results[n]))));
  }
  results.forEach((v, n) => ctx.set(v, out[n]));
});

/** tt.elementwise_inline_asm. */
export const INLINE_ASM_RULES: readonly Lowering[] = [lowerInlineAsm];
