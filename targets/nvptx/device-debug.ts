/**
 * Device-side debugging: `tt.print` becomes `vprintf` calls in Triton's format, one line per
 * element; a failed `tt.assert` (control.ts) reports through `__assertfail` (message, file,
 * line, kernel) before its trap.
 *
 * A `tt.print` line reads as Triton's GPU output does:
 *   `pid (<x>, <y>, <z>) idx (<i1>, <i2>, ...)<prefix>[(operand <n>) ]<element>`
 * with each index padded to the digits of its dimension, `%f` for floats, `%i`/`%u` (`%lli`/`%llu`
 * for 64 bits) for integers by the op's `isSigned`, `%p` for pointers, and with `hex` the raw bits
 * zero-padded to the type's width. Unlike Triton, each element prints once: a copy a layout
 * broadcasts to other registers, lanes or warps is skipped, and a scalar prints from thread 0 only
 * (as the CPU interpreter prints them).
 */
import { fileLineColOf } from '../../ir/verifier.js';
import { symbolNameOf } from '../../ir/function-syntax.js';
import type { Operation, Value } from '../../ir/ir.js';
import { IntegerType, RankedTensorType, type Type } from '../../ir/types.js';
import { PointerType } from '../../dialects/tt/types.js';
import * as nvptx from '../../dialects/nvptx.js';
import * as tt from '../../dialects/tt/index.js';
import { lowering, type Lowering, type LoweringContext } from './context.js';
import { BF16, F16, F32, F64, I32, targetError, toF32, widthOf, type PtxEmitter } from './emitter.js';
import { ownerGuard } from './tensor.js';

/** One element as vprintf reads it: the register passed and its conversion in the format. */
interface PrintfArg {
  arg: Value;
  spec: string;
}

/** `%` in user text printed literally by printf. */
const literal = (text: string): string => text.replace(/%/g, '%%');

/** How an element of type `elt` in register `v` is passed to vprintf and formatted (C's promotions: i32, i64 or f64). */
function printfArg(e: PtxEmitter, v: Value, elt: Type, hex: boolean, signed: boolean, op: Operation): PrintfArg {
  if (elt instanceof PointerType) return { arg: v, spec: '%p' };
  const hexSpec = (bits: number) => `0x%0${Math.max(1, Math.ceil(bits / 4))}${bits > 32 ? 'll' : ''}x`;
  if (elt instanceof IntegerType) {
    const w = elt.width;
    if (w > 64) throw targetError(op, `cannot print values of type '${elt}' (the nvptx target prints integers of at most 64 bits)`);
    if (w === 64) return { arg: v, spec: hex ? hexSpec(64) : signed ? '%lli' : '%llu' };
    const wide = w === 1 ? e.selp(v, e.imm(I32, 1), e.imm(I32, 0)) : e.intCast(v, I32, signed && !hex ? 's' : 'u');
    return { arg: wide, spec: hex ? hexSpec(w) : signed && w > 1 ? '%i' : '%u' };
  }
  if (elt === F16 || elt === BF16 || elt === F32 || elt === F64) {
    if (hex) {
      // the value's own bits, not those of the double printf would be given
      const bits = e.bits(v);
      return { arg: widthOf(elt) < 32 ? e.intCast(bits, I32, 'u') : bits, spec: hexSpec(widthOf(elt)) };
    }
    return { arg: elt === F64 ? v : e.op('cvt', 'f64.f32', [toF32(e, v)], F64), spec: '%f' };
  }
  throw targetError(op, `cannot print values of type '${elt}' (the nvptx target prints integers, pointers, f16, bf16, f32 and f64)`);
}

/** tt.print " x: " %t -> per element this thread owns: vprintf("pid (%u, %u, %u) idx (%3u) x: %f\n", ...) */
const lowerPrint = lowering(tt.PrintOp, (ctx, print) => {
  const { op, args } = print;
  const e = ctx.e;
  const prefix = literal(print.prefix ?? '');
  const hex = print.hex === true;
  const signedness = print.isSigned ?? [];
  const pid = ['x', 'y', 'z'].map((axis) => ctx.hoist(`ctaid.${axis}`, () => e.sreg(`ctaid.${axis}`)));
  const pidText = 'pid (%u, %u, %u)';
  if (!args.length) {
    nvptx.PrintfOp.build(e.b, { format: `${pidText}${prefix}\n`, args: pid, guard: ctx.firstThread() });
    return;
  }
  args.forEach((value, n) => {
    const signed = (signedness[n] ?? 0) > 0;
    const operand = args.length > 1 ? `(operand ${n}) ` : '';
    const regs = ctx.get(value, op);
    if (!(value.type instanceof RankedTensorType)) {
      const { arg, spec } = printfArg(e, regs[0], value.type, hex, signed, op);
      nvptx.PrintfOp.build(e.b, { format: `${pidText} idx ()${prefix}${operand}${spec}\n`, args: [...pid, arg], guard: ctx.firstThread() });
      return;
    }
    const l = ctx.layoutOf(value, op);
    const elt = value.type.elementType;
    const owner = ownerGuard(ctx, l);
    const rank = l.shape.length;
    // vprintf takes 32 arguments: the pid, the indices that fit, the element
    const shown = Math.min(rank, 32 - pid.length - 1);
    const idx = l.shape.slice(0, shown).map((size) => `%${tt.printIndexDigits(size) || ''}u`);
    const idxText = `idx (${idx.join(', ')}${shown < rank ? ', ... (truncated)' : ''})`;
    for (let r = 0; r < l.numRegs; r++) {
      if (r & l.dupRegMask) continue;
      const { arg, spec } = printfArg(e, regs[r], elt, hex, signed, op);
      const coords = Array.from({ length: shown }, (_, d) => ctx.coord(l, r, d));
      nvptx.PrintfOp.build(e.b, { format: `${pidText} ${idxText}${prefix}${operand}${spec}\n`, args: [...pid, ...coords, arg], guard: owner });
    }
  });
});

/** The name of the kernel around `op`. */
function kernelName(op: Operation): string {
  for (let p = op.parentOp; p; p = p.parentOp) {
    const name = symbolNameOf(p);
    if (name !== undefined) return name;
  }
  return 'unknown';
}

/** A failed `tt.assert`'s report: __assertfail("msg", file, line, kernel) (the caller traps after it). */
export function reportAssertion(ctx: LoweringContext, assert: Operation, message: string): void {
  const at = fileLineColOf(assert.loc);
  nvptx.AssertfailOp.build(ctx.b, { message, file: at?.file ?? 'unknown', line: at?.line ?? 0, function: kernelName(assert) });
}

/** tt.print. */
export const DEBUG_RULES: readonly Lowering[] = [lowerPrint];
