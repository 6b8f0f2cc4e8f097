/**
 * The nvptx dialect: one op per PTX instruction, on SSA virtual registers. An op's name is the
 * PTX opcode and its `ptx` property the rest of the instruction name (`rn.f32`, `lo.s32`,
 * `global.v4.b32`), so `%2 = nvptx.add "s32" %0, %1 : (i32, i32) -> i32` prints as
 * `add.s32 %r2, %r0, %r1;`. Register classes follow the SSA types: i1 is `.pred`, 16-bit types
 * `.b16`, i32 `.b32`, f32 `.f32`, i64 `.b64`, f64 `.f64`. Arithmetic ops are pure, so CSE and DCE
 * run on this dialect like on any other; memory, shuffle and barrier ops are not.
 */
import { AnyType, I1, I32Attr, StrAttr, TypedAttr } from '../ir/constraints.js';
import type { OpDecl, DialectDecl } from '../ir/op-spec.js';
import { FloatAttr, IntegerAttr, StringAttr } from '../ir/attributes.js';
import { defineOp, type OpDef } from '../ir/op-def.js';
import type { Operation, Value } from '../ir/ir.js';
import { i as intType } from '../ir/types.js';
import { ConstantLike, Pure } from '../ir/traits.js';

const PTX = { name: 'ptx', kind: StrAttr } as const;
const i32Type = intType(32);

/** Bits of an mma operand type. */
const MMA_BITS: Record<string, number> = { f16: 16, bf16: 16, tf32: 32, f32: 32, s32: 32, s8: 8, u8: 8, e4m3: 8, e5m2: 8 };

/**
 * The per-thread registers of `mma.<ptx>` for an m16n8kK form (`sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32`):
 * A holds 16 x K, B K x 8, C and D 16 x 8 elements spread over 32 lanes, packed into b32
 * registers (f32/s32 accumulators: one element each). Null for forms this dialect does not know.
 */
export function mmaFragments(ptx: string): { a: number; b: number; c: number; d: number } | null {
  const m = /^sync\.aligned\.m16n8k(8|16|32)\.row\.col\.(\w+)\.(\w+)\.(\w+)\.(\w+)$/.exec(ptx);
  if (!m) return null;
  const k = Number(m[1]);
  const [d, a, b, c] = m.slice(2).map((t) => MMA_BITS[t]);
  if (!d || !a || !b || !c || a !== b || (k * a) % 128) return null;
  const regs = (elems: number, bits: number) => (elems * bits) / 32 / 32;
  return { a: regs(16 * k, a), b: regs(8 * k, b), c: regs(128, c), d: regs(128, d) };
}
/** `"mods" %a, %b : (T, T) -> R`: every plain instruction reads this way. */
const PLAIN_FORMAT = '$ptx $args attr-dict `:` functional-type($args, results)';

/** A pure instruction `opcode.ptx dst, args...` with `arity` operands. */
function plain(opcode: string, summary: string, arity: number): OpDecl {
  return {
    name: `nvptx.${opcode}`,
    summary,
    operands: [{ name: 'args', kind: 'variadic', type: AnyType }],
    results: [{ name: 'dst', type: AnyType }],
    attrs: [PTX],
    traits: [Pure],
    format: PLAIN_FORMAT,
    verify: (op) => {
      const want = operandCount(opcode, op, arity);
      return op.numOperands === want ? undefined : `expects ${want} operand${want === 1 ? '' : 's'}, got ${op.numOperands}`;
    },
  };
}

/**
 * The operands of a plain instruction: its table count, but two for a conversion of two f32 into a
 * pair (`cvt.rn.f16x2.f32 d, hi, lo`, `cvt.rn.satfinite.e4m3x2.f32 d, hi, lo`); a pair converted to a pair
 * (`cvt.rn.f16x2.e4m3x2 d, a`) has one.
 */
function operandCount(opcode: string, op: Operation, arity: number): number {
  const ptx = op.getAttr('ptx');
  return opcode === 'cvt' && ptx instanceof StringAttr && /x2\.f32$/.test(ptx.value) ? 2 : arity;
}

/** Every pure instruction: name, summary, operand count. */
const PLAIN: [string, string, number][] = [
  ['add', 'addition', 2], ['sub', 'subtraction', 2], ['mul', 'multiplication (lo, hi, wide for integers)', 2],
  ['mad', 'integer multiply-add', 3], ['fma', 'fused float multiply-add', 3], ['div', 'division', 2], ['rem', 'integer remainder', 2],
  ['min', 'minimum', 2], ['max', 'maximum', 2], ['neg', 'negation', 1], ['abs', 'absolute value', 1],
  ['and', 'bitwise and', 2], ['or', 'bitwise or', 2], ['xor', 'bitwise xor', 2], ['not', 'bitwise not', 1],
  ['shl', 'shift left', 2], ['shr', 'shift right (arithmetic for .s types)', 2],
  ['setp', 'comparison into a predicate; ptx is `cmp.type`', 2], ['selp', 'select by a predicate', 3],
  ['cvt', 'conversion; ptx is `[rnd.]dst.src` (`rn.f16x2.f32` packs two: hi, lo)', 1], ['mov', 'register copy', 1],
  ['sqrt', 'square root', 1], ['rsqrt', 'reciprocal square root', 1], ['rcp', 'reciprocal', 1],
  ['ex2', 'base-2 exponential', 1], ['lg2', 'base-2 logarithm', 1], ['sin', 'sine', 1], ['cos', 'cosine', 1],
  ['tanh', 'hyperbolic tangent', 1], ['copysign', 'copy sign', 2], ['popc', 'population count', 1],
  ['clz', 'count leading zeros', 1], ['brev', 'bit reverse', 1], ['prmt', 'byte permute', 3], ['testp', 'float class test into a predicate', 1],
];

/** The pure instructions of `PLAIN` (`nvptx.add`, `nvptx.setp`...), in its order. */
export const plainOps: readonly OpDef[] = PLAIN.map(([name, summary, arity]) => defineOp(plain(name, summary, arity)));

/** `nvptx.imm`: an immediate moved into a register (`mov.b32 %r, 42;`). */
export const ImmOp = defineOp({
  name: 'nvptx.imm',
  summary: 'an immediate moved into a register (`mov.b32 %r, 42;`)',
  results: [{ name: 'dst', type: AnyType }],
  attrs: [{ name: 'value', kind: TypedAttr }],
  traits: [Pure, ConstantLike],
  format: '$value attr-dict',
  inferTypes: { dst: (env) => { const v = env.attr('value'); return v instanceof IntegerAttr || v instanceof FloatAttr ? [v.type] : undefined; } },
  verify: (op) => { const v = op.getAttr('value'); return v instanceof IntegerAttr || v instanceof FloatAttr ? (v.type === op.result(0).type ? undefined : 'value type must be the result type') : 'expects an integer or float value'; },
});
/** `nvptx.sreg`: reads a special register (`mov.u32 %r, %tid.x;`). */
export const SregOp = defineOp({
  name: 'nvptx.sreg',
  summary: 'reads a special register (`mov.u32 %r, %tid.x;`)',
  results: [{ name: 'dst', type: AnyType }],
  attrs: [{ name: 'reg', kind: StrAttr }],
  traits: [Pure],
  format: '$reg attr-dict `:` type($dst)',
});
/** `nvptx.smem_base`: the 32-bit shared-window address of the dynamic shared memory (`mov.u32 %r, global_smem;`). */
export const SmemBaseOp = defineOp({
  name: 'nvptx.smem_base',
  summary: 'the 32-bit shared-window address of the dynamic shared memory (`mov.u32 %r, global_smem;`)',
  results: [{ name: 'dst', type: AnyType }],
  traits: [Pure],
  format: 'attr-dict `:` type($dst)',
});
/** `nvptx.pack`: joins registers into a wider one (`mov.b64 %rd, {%r1, %r2};`). */
export const PackOp = defineOp({
  name: 'nvptx.pack',
  summary: 'joins registers into a wider one (`mov.b64 %rd, {%r1, %r2};`)',
  operands: [{ name: 'args', kind: 'variadic', type: AnyType }],
  results: [{ name: 'dst', type: AnyType }],
  attrs: [PTX],
  traits: [Pure],
  format: PLAIN_FORMAT,
});
/** `nvptx.unpack`: splits a register into narrower ones (`mov.b64 {%r1, %r2}, %rd;`). */
export const UnpackOp = defineOp({
  name: 'nvptx.unpack',
  summary: 'splits a register into narrower ones (`mov.b64 {%r1, %r2}, %rd;`)',
  operands: [{ name: 'args', kind: 'variadic', type: AnyType }],
  results: [{ name: 'dst', kind: 'variadic', type: AnyType }],
  attrs: [PTX],
  traits: [Pure],
  format: PLAIN_FORMAT,
});
/** `nvptx.ld`: a load; with `guard`, lanes whose guard is false keep the `other` values. */
export const LdOp = defineOp({
  name: 'nvptx.ld',
  summary: 'a load; with `guard`, lanes whose guard is false keep the `other` values',
  operands: [
    { name: 'addr', type: AnyType },
    { name: 'guard', kind: 'optional', type: I1 },
    { name: 'other', kind: 'variadic', type: AnyType },
  ],
  results: [{ name: 'dst', kind: 'variadic', type: AnyType }],
  attrs: [PTX],
  format: '$ptx $addr (`if` $guard^)? (`else` $other^)? attr-dict `:` functional-type(operands, results)',
});
/** `nvptx.st`: a store, predicated by `guard` when present. */
export const StOp = defineOp({
  name: 'nvptx.st',
  summary: 'a store, predicated by `guard` when present',
  operands: [
    { name: 'addr', type: AnyType },
    { name: 'guard', kind: 'optional', type: I1 },
    { name: 'values', kind: 'variadic', type: AnyType },
  ],
  attrs: [PTX],
  format: '$ptx $addr (`if` $guard^)? `,` $values attr-dict `:` functional-type(operands, results)',
});
/** `nvptx.atom`: an atomic read-modify-write (or cas), predicated by `guard` when present. */
export const AtomOp = defineOp({
  name: 'nvptx.atom',
  summary: 'an atomic read-modify-write (or cas), predicated by `guard` when present',
  operands: [
    { name: 'addr', type: AnyType },
    { name: 'guard', kind: 'optional', type: I1 },
    { name: 'values', kind: 'variadic', type: AnyType },
  ],
  results: [{ name: 'dst', type: AnyType }],
  attrs: [PTX],
  format: '$ptx $addr (`if` $guard^)? `,` $values attr-dict `:` functional-type(operands, results)',
});
/** `nvptx.shfl`: a warp shuffle (`shfl.sync.bfly.b32 %r, %a, lane, clamp, mask;`). */
export const ShflOp = defineOp({
  name: 'nvptx.shfl',
  summary: 'a warp shuffle (`shfl.sync.bfly.b32 %r, %a, lane, clamp, mask;`)',
  operands: [{ name: 'args', kind: 'variadic', type: AnyType }],
  results: [{ name: 'dst', type: AnyType }],
  attrs: [PTX],
  format: PLAIN_FORMAT,
  verify: (op) => (op.numOperands === 4 ? undefined : `expects 4 operands (value, lane, clamp, member mask), got ${op.numOperands}`),
});
/** `nvptx.bar`: a block barrier (`bar.sync 0;`), or with `warp.sync` a barrier of the warp's lanes (`bar.warp.sync -1;`). */
export const BarOp = defineOp({
  name: 'nvptx.bar',
  summary: 'a block barrier (`bar.sync 0;`), or with `warp.sync` the warp\'s (`bar.warp.sync -1;`)',
  attrs: [{ name: 'ptx', kind: StrAttr, default: StringAttr.get('sync') }],
  format: '($ptx^)? attr-dict',
});
/** `nvptx.ldmatrix`: loads 8x8 b16 matrices from shared memory into a warp (`ldmatrix.sync.aligned.m8n8.x4[.trans].shared.b16`). */
export const LdmatrixOp = defineOp({
  name: 'nvptx.ldmatrix',
  summary: 'loads 8x8 b16 matrices from shared memory into a warp (`ldmatrix.sync.aligned.m8n8.x4[.trans].shared.b16`)',
  operands: [{ name: 'addr', type: AnyType }],
  results: [{ name: 'dst', kind: 'variadic', type: AnyType }],
  attrs: [PTX],
  format: '$ptx $addr attr-dict `:` functional-type(operands, results)',
  verify: (op) => ([1, 2, 4].includes(op.results.length) ? undefined : `expects 1, 2 or 4 results, got ${op.results.length}`),
});
/** `nvptx.mma`: a warp-wide tensor-core product (`mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {d}, {a}, {b}, {c}`): the A, B, C and D register counts follow the shape and types in `ptx`. */
export const MmaOp = defineOp({
  name: 'nvptx.mma',
  summary: 'a warp-wide tensor-core product (`mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {d}, {a}, {b}, {c}`): the A, B, C and D register counts follow the shape and types in `ptx`',
  operands: [{ name: 'args', kind: 'variadic', type: AnyType }],
  results: [{ name: 'dst', kind: 'variadic', type: AnyType }],
  attrs: [PTX],
  traits: [Pure],
  format: PLAIN_FORMAT,
  verify: (op) => {
    const attr = op.getAttr('ptx');
    const ptx = attr instanceof StringAttr ? attr.value : '';
    const n = mmaFragments(ptx);
    if (!n) return `has an unknown mma form '${ptx}'; expected sync.aligned.m16n8k{8,16,32}.row.col.<d>.<a>.<b>.<c>`;
    const want = n.a + n.b + n.c;
    return op.numOperands === want && op.results.length === n.d ? undefined : `expects ${want} operands and ${n.d} results for '${ptx}', got ${op.numOperands} and ${op.results.length}`;
  },
});
/** `nvptx.cp_async`: an asynchronous global-to-shared copy of `size` bytes, of which `srcBytes` are read and the rest zero-filled (`cp.async.cg.shared.global [dst], [src], 16, n;`). */
export const CpAsyncOp = defineOp({
  name: 'nvptx.cp_async',
  summary: 'an asynchronous global-to-shared copy of `size` bytes, of which `srcBytes` are read and the rest zero-filled (`cp.async.cg.shared.global [dst], [src], 16, n;`)',
  operands: [{ name: 'dst', type: AnyType }, { name: 'src', type: AnyType }, { name: 'srcBytes', type: AnyType }],
  attrs: [PTX, { name: 'size', kind: I32Attr }],
  format: '$ptx $dst `,` $src `,` $srcBytes attr-dict `:` functional-type(operands, results)',
});
/** `nvptx.cp_async_group`: commits the copies issued so far as a group (`commit_group`), or waits until at most N groups are pending (`wait_group N`). */
export const CpAsyncGroupOp = defineOp({
  name: 'nvptx.cp_async_group',
  summary: 'commits the copies issued so far as a group (`commit_group`), or waits until at most N groups are pending (`wait_group N`)',
  attrs: [PTX],
  format: '$ptx attr-dict',
});
/**
 * `nvptx.wgmma`: a warp-group tensor-core product
 * (`wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {d}, descA, descB, p, 1, 1, tA, tB;`, or with
 * A in registers `{d}, {a0, a1, a2, a3}, descB, p, 1, 1, tB;`). Operands: A (one 64-bit
 * shared-memory descriptor, or four b32 registers of f16/bf16 pairs), B's descriptor, the scale-d
 * predicate (false: D = A*B), then the accumulator registers; the results are the accumulator
 * after the product, which the instruction writes in place (the printer gives each result its
 * input's register, or copies the input first when the `in_place` unit attribute is absent and
 * the input is read again).
 */
export const WgmmaOp = defineOp({
  name: 'nvptx.wgmma',
  summary: 'a warp-group tensor-core product (`wgmma.mma_async...`) on a shared-memory or register A and a shared-memory B, accumulating in place',
  operands: [
    { name: 'a', kind: 'variadic', type: AnyType },
    { name: 'descB', type: AnyType },
    { name: 'scaleD', type: I1 },
    { name: 'acc', kind: 'variadic', type: AnyType },
  ],
  results: [{ name: 'dst', kind: 'variadic', type: AnyType }],
  attrs: [PTX, { name: 'transA', kind: I32Attr }, { name: 'transB', kind: I32Attr }],
  format: '$ptx `(` $a `)` `,` $descB `,` $scaleD `,` `(` $acc `)` attr-dict `:` functional-type(operands, results)',
  verify: (op) => {
    const m = /^sync\.aligned\.m64n(\d+)k(8|16|32)\.(f32|s32)\.(\w+)\.(\w+)$/.exec(((op.getAttr('ptx') as StringAttr | undefined)?.value) ?? '');
    if (!m) return 'expects a form sync.aligned.m64nNkK.f32.<a>.<b> (or .s32.s8.s8)';
    const regs = Number(m[1]) / 2;
    // As many accumulator registers go in as come out; the rest before B's descriptor and scale-d is A.
    const a = op.numOperands - 2 - op.results.length;
    if (a !== 1 && a !== 4) return `expects A as one descriptor or four registers, got ${a} operands`;
    return op.numOperands === a + 2 + regs && op.results.length === regs ? undefined : `expects ${regs} accumulator registers in and out for n = ${m[1]}`;
  },
});
/** `nvptx.wgmma_sync`: a warp-group MMA fence, commit or wait (`wgmma.fence.sync.aligned;`, `wgmma.commit_group.sync.aligned;`, `wgmma.wait_group.sync.aligned 1;`). */
export const WgmmaSyncOp = defineOp({
  name: 'nvptx.wgmma_sync',
  summary: 'a warp-group MMA fence, commit or wait (`wgmma.fence.sync.aligned;`, `wgmma.commit_group.sync.aligned;`, `wgmma.wait_group.sync.aligned N;`)',
  attrs: [PTX],
  format: '$ptx attr-dict',
});
/** `nvptx.fence`: a memory or proxy fence (`fence.proxy.async.shared::cta;`). */
export const FenceOp = defineOp({
  name: 'nvptx.fence',
  summary: 'a memory or proxy fence (`fence.proxy.async.shared::cta;`)',
  attrs: [PTX],
  format: '$ptx attr-dict',
});
/**
 * `nvptx.mbarrier`: an mbarrier operation on a shared-memory barrier, predicated by `guard` when
 * present: `init` (`mbarrier.init.shared::cta.b64 [addr], count;`), `arrive.expect_tx`
 * (`mbarrier.arrive.expect_tx.shared::cta.b64 _, [addr], count;`: one arrival that also expects
 * `count` bytes of asynchronous copies) or `inval` (`mbarrier.inval.shared::cta.b64 [addr];`).
 */
export const MbarrierOp = defineOp({
  name: 'nvptx.mbarrier',
  summary: 'an mbarrier init, arrive.expect_tx or inval on a shared-memory barrier, predicated by `guard` when present',
  operands: [{ name: 'addr', type: AnyType }, { name: 'guard', kind: 'optional', type: I1 }],
  attrs: [PTX, { name: 'count', kind: I32Attr, default: IntegerAttr.get(0, i32Type) }],
  format: '$ptx $addr (`if` $guard^)? attr-dict `:` functional-type(operands, results)',
  verify: (op) => {
    const ptx = (op.getAttr('ptx') as StringAttr | undefined)?.value ?? '';
    return /^(init|arrive\.expect_tx|inval)\.shared::cta\.b64$/.test(ptx) ? undefined : `expects init, arrive.expect_tx or inval .shared::cta.b64, got '${ptx}'`;
  },
});
/** `nvptx.mbarrier_wait`: spins until the phase of parity `phase` of a shared-memory mbarrier has completed (`mbarrier.try_wait.parity` in a loop). */
export const MbarrierWaitOp = defineOp({
  name: 'nvptx.mbarrier_wait',
  summary: 'spins until the phase of parity `phase` of a shared-memory mbarrier has completed (`mbarrier.try_wait.parity` in a loop)',
  operands: [{ name: 'addr', type: AnyType }, { name: 'phase', type: AnyType }],
  format: '$addr `,` $phase attr-dict `:` functional-type(operands, results)',
});
/**
 * `nvptx.tma_load`: a TMA copy of one box of a tensor into shared memory, completing on an mbarrier
 * (`cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [dst], [tmap, {x, y}], [bar];`),
 * predicated by `guard` when present. `tmap` is the generic address of the tensor map; the
 * coordinates are in the order the instruction takes them, innermost dim first.
 */
export const TmaLoadOp = defineOp({
  name: 'nvptx.tma_load',
  summary: 'a TMA copy of one box of a tensor into shared memory, completing on an mbarrier (`cp.async.bulk.tensor...mbarrier::complete_tx::bytes`)',
  operands: [
    { name: 'dst', type: AnyType },
    { name: 'tmap', type: AnyType },
    { name: 'bar', type: AnyType },
    { name: 'guard', kind: 'optional', type: I1 },
    { name: 'coords', kind: 'variadic', type: AnyType },
  ],
  format: '$dst `,` $tmap `[` $coords `]` `,` $bar (`if` $guard^)? attr-dict `:` functional-type(operands, results)',
});
/**
 * `nvptx.tma_store`: a TMA copy of one box from shared memory to a tensor, in the thread's bulk
 * group (`cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [tmap, {x, y}], [src];`),
 * predicated by `guard` when present; coordinates innermost first. With `reduce` (add, min, max,
 * inc, dec, and, or, xor) the box is reduced into the tensor
 * (`cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group`).
 */
export const TmaStoreOp = defineOp({
  name: 'nvptx.tma_store',
  summary: 'a TMA copy of one box from shared memory to a tensor, in the bulk group (`cp.async.bulk.tensor...bulk_group`); with `reduce`, a reduction into it (`cp.reduce.async.bulk.tensor...add...`)',
  operands: [
    { name: 'tmap', type: AnyType },
    { name: 'src', type: AnyType },
    { name: 'guard', kind: 'optional', type: I1 },
    { name: 'coords', kind: 'variadic', type: AnyType },
  ],
  attrs: [{ name: 'reduce', kind: StrAttr, optional: true }],
  format: '$tmap `[` $coords `]` `,` $src (`if` $guard^)? attr-dict `:` functional-type(operands, results)',
});
/** `nvptx.bulk_group`: commits this thread's bulk copies as a group (`cp.async.bulk.commit_group;`) or waits until at most N groups still read shared memory (`cp.async.bulk.wait_group.read N;`). */
export const BulkGroupOp = defineOp({
  name: 'nvptx.bulk_group',
  summary: "commits this thread's bulk copies as a group (`cp.async.bulk.commit_group;`) or waits until at most N still read their source (`cp.async.bulk.wait_group.read N;`)",
  operands: [{ name: 'guard', kind: 'optional', type: I1 }],
  attrs: [PTX],
  format: '$ptx (`if` $guard^)? attr-dict',
});
/**
 * The fields `nvptx.tensormap_replace` writes (PTX ISA, `tensormap.replace.tile`): whether each takes
 * a dim (`ord`) and whether its value must be an immediate (the encoding fields).
 */
export const TENSORMAP_FIELDS: Readonly<Record<string, { ord: boolean; immediate: boolean }>> = {
  global_address: { ord: false, immediate: false }, rank: { ord: false, immediate: false },
  box_dim: { ord: true, immediate: false }, global_dim: { ord: true, immediate: false },
  global_stride: { ord: true, immediate: false }, element_stride: { ord: true, immediate: false },
  elemtype: { ord: false, immediate: true }, interleave_layout: { ord: false, immediate: true },
  swizzle_mode: { ord: false, immediate: true }, fill_mode: { ord: false, immediate: true },
};
/**
 * `nvptx.tensormap_replace`: writes one field of a tensor map in shared memory
 * (`tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [addr], 1, %r;`), predicated by `guard`
 * when present; `ord` is the dim (innermost first) of the per-dim fields. The value is the `value`
 * register, or the `immediate` attribute (which the encoding fields require).
 */
export const TensormapReplaceOp = defineOp({
  name: 'nvptx.tensormap_replace',
  summary: 'writes one field of a tensor map in shared memory (`tensormap.replace.tile.<field>.shared::cta.b1024.b32 [addr], value;`)',
  operands: [{ name: 'addr', type: AnyType }, { name: 'value', kind: 'optional', type: AnyType }, { name: 'guard', kind: 'optional', type: I1 }],
  attrs: [{ name: 'field', kind: StrAttr }, { name: 'ord', kind: I32Attr, optional: true }, { name: 'immediate', kind: I32Attr, optional: true }],
  format: '$field $addr (`,` $value^)? (`if` $guard^)? attr-dict `:` functional-type(operands, results)',
  verify: (op) => {
    const field = (op.getAttr('field') as StringAttr).value;
    const f = TENSORMAP_FIELDS[field];
    if (!f) return `unknown tensor map field '${field}' (one of ${Object.keys(TENSORMAP_FIELDS).join(', ')})`;
    if (f.ord !== (op.getAttr('ord') !== undefined)) return f.ord ? `field '${field}' needs the dim it writes ('ord')` : `field '${field}' takes no 'ord'`;
    const immediate = op.getAttr('immediate') !== undefined;
    const view = TensormapReplaceOp.view(op);
    if (immediate === Boolean(view.value)) return 'expects either a value register or an immediate';
    if (f.immediate && !immediate) return `field '${field}' takes an immediate`;
  },
});
/**
 * `nvptx.tensormap_copy`: copies a 128-byte tensor map from shared to global memory and releases it
 * to the tensormap proxy, by a whole warp
 * (`tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [dst], [src], 128;`).
 */
export const TensormapCopyOp = defineOp({
  name: 'nvptx.tensormap_copy',
  summary: 'copies a tensor map from shared to global memory and releases it to the tensormap proxy (`tensormap.cp_fenceproxy...`)',
  operands: [{ name: 'dst', type: AnyType }, { name: 'src', type: AnyType }, { name: 'guard', kind: 'optional', type: I1 }],
  format: '$dst `,` $src (`if` $guard^)? attr-dict `:` functional-type(operands, results)',
});
/** `nvptx.tensormap_acquire`: makes the tensor map at a global address visible to this thread's TMA copies (`fence.proxy.tensormap::generic.acquire.gpu [addr], 128;`). */
export const TensormapAcquireOp = defineOp({
  name: 'nvptx.tensormap_acquire',
  summary: 'acquire fence of the tensormap proxy on a tensor map in global memory (`fence.proxy.tensormap::generic.acquire.gpu [addr], 128;`)',
  operands: [{ name: 'addr', type: AnyType }, { name: 'guard', kind: 'optional', type: I1 }],
  format: '$addr (`if` $guard^)? attr-dict `:` functional-type(operands, results)',
});
/** `nvptx.prefetch_tensormap`: brings the tensor map at a generic address (a kernel parameter's) into the SM's descriptor cache (`prefetch.tensormap [addr];`). */
export const PrefetchTensormapOp = defineOp({
  name: 'nvptx.prefetch_tensormap',
  summary: "prefetches a tensor map into the SM's descriptor cache (`prefetch.tensormap [addr];`)",
  operands: [{ name: 'addr', type: AnyType }],
  format: '$addr attr-dict `:` type($addr)',
});
/** `nvptx.trap`: aborts the kernel (`trap;`). */
export const TrapOp = defineOp({
  name: 'nvptx.trap',
  summary: 'aborts the kernel (`trap;`)',
  format: 'attr-dict',
});

/** The argument types `vprintf` reads from its buffer, by their bytes there: 32-bit and 64-bit integers and doubles (C's promotions). */
const PRINTF_ARG_BYTES = new Map([['i32', 4], ['i64', 8], ['f64', 8]]);

/**
 * Where `vprintf` reads each of `args` (of `nvptx.printf`, verified) in its buffer, each aligned to
 * its size, and the buffer's size in bytes: the layout both the PTX printer and the LLVM export write.
 */
export function printfBufferLayout(args: readonly Value[]): { offsets: number[]; bytes: number } {
  const offsets: number[] = [];
  let end = 0;
  for (const v of args) {
    const size = PRINTF_ARG_BYTES.get(String(v.type)) ?? 8;
    end = Math.ceil(end / size) * size;
    offsets.push(end);
    end += size;
  }
  return { offsets, bytes: end };
}

/**
 * The text of an `nvptx.inline_asm` template with each `$N` (or `${N}`) replaced by `operand(N)`
 * (results first, then operands) and `$$` by `$`; `operand` may throw for an N out of range.
 */
export function fillAsmTemplate(template: string, operand: (n: number) => string): string {
  return template.replace(/\$(\$|\{(\d+)\}|(\d+))/g, (_whole, dollar: string, braced?: string, plain?: string) =>
    dollar === '$' ? '$' : operand(Number(braced ?? plain)),
  );
}

/**
 * `nvptx.printf`: one `vprintf(format, args)` call, the arguments laid out in a local buffer
 * (each aligned to its size); skipped where `guard` is false. The format is the whole text
 * printed, newline included.
 */
export const PrintfOp = defineOp({
  name: 'nvptx.printf',
  summary: 'a device printf: one `vprintf` call with its arguments in a local buffer',
  operands: [
    { name: 'guard', kind: 'optional', type: I1 },
    { name: 'args', kind: 'variadic', type: AnyType },
  ],
  attrs: [{ name: 'format', kind: StrAttr }],
  format: '$format (`(` $args^ `)`)? (`if` $guard^)? attr-dict `:` functional-type(operands, results)',
  verify: (op): string | undefined => {
    const args: readonly Value[] = PrintfOp.view(op).args;
    const bad = args.find((v) => !PRINTF_ARG_BYTES.has(String(v.type)));
    if (bad) return `argument of type '${bad.type}' cannot be passed to vprintf (i32, i64 or f64)`;
    if (args.length > 32) return `takes at most 32 arguments (vprintf prints garbage past 32), got ${args.length}`;
    return undefined;
  },
});
/**
 * `nvptx.assertfail`: reports a failed device assertion through the CUDA runtime's
 * `__assertfail(message, file, line, function, 1)`, which prints
 * `file:line: function: block: [..], thread: [..] Assertion `message` failed.` and stops the kernel.
 */
export const AssertfailOp = defineOp({
  name: 'nvptx.assertfail',
  summary: "a failed device assertion: the CUDA runtime's `__assertfail` call",
  attrs: [
    { name: 'message', kind: StrAttr },
    { name: 'file', kind: StrAttr },
    { name: 'line', kind: I32Attr },
    { name: 'function', kind: StrAttr },
  ],
  format: '$message `at` $file `:` $line `in` $function attr-dict',
});

/**
 * `nvptx.inline_asm`: user PTX (`tt.elementwise_inline_asm`), printed as written with `$N` naming
 * result N, then operand N - results (`$$` is a literal `$`). Never pure: it stays where it is.
 */
export const InlineAsmOp = defineOp({
  name: 'nvptx.inline_asm',
  summary: 'user PTX with `$N` naming its results, then its operands',
  operands: [{ name: 'args', kind: 'variadic', type: AnyType }],
  results: [{ name: 'dst', kind: 'variadic', type: AnyType }],
  attrs: [{ name: 'asm', kind: StrAttr }],
  format: '$asm (`(` $args^ `)`)? attr-dict `:` functional-type(operands, results)',
});

/** The nvptx dialect table. */
export const nvptxDialect: DialectDecl = {
  name: 'nvptx',
  summary: 'PTX instructions on virtual registers',
  ops: [
    ...plainOps,
    ImmOp,
    SregOp,
    SmemBaseOp,
    PackOp,
    UnpackOp,
    LdOp,
    StOp,
    AtomOp,
    ShflOp,
    BarOp,
    LdmatrixOp,
    MmaOp,
    CpAsyncOp,
    CpAsyncGroupOp,
    WgmmaOp,
    WgmmaSyncOp,
    FenceOp,
    MbarrierOp,
    MbarrierWaitOp,
    TmaLoadOp,
    TmaStoreOp,
    BulkGroupOp,
    TensormapReplaceOp,
    TensormapCopyOp,
    TensormapAcquireOp,
    PrefetchTensormapOp,
    TrapOp,
    PrintfOp,
    AssertfailOp,
    InlineAsmOp,
  ],
};
