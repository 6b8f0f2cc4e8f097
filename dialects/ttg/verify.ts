/**
 * Layout checks in context: a layout against the tensor (or memdesc) that carries it, and
 * against the enclosing module's `ttg.threads-per-warp` / `ttg.num-warps`.
 */
import { IntegerAttr, type Attribute } from '../../ir/attributes.js';
import type { Operation } from '../../ir/ir.js';
import { bitWidth, RankedTensorType, type Type } from '../../ir/types.js';
import { TensorDescType } from '../tt/types.js';
import { MAX_SHARED_BYTES_PER_CTA } from './target.js';
import { StructAttr } from './struct-attr.js';
import { NVMMA_SHARED, isDistributed, isSharedLayout, isTtgLayout, layoutRank, threadsAndWarps, verifyLayout } from './layout-attrs.js';
import { MemDescType } from './types.js';
import { PaddedSharedAttr } from './padded-shared.js';
import { MAX_TENSOR_ELEMENTS } from '../tt/util.js';
import { toLinearLayout } from './layout-lib.js';

/**
 * Checks a ttg layout against the ranked tensor it encodes: the layout is self-consistent,
 * its rank equals the tensor's, and a shared layout is not put on a register tensor.
 */
export function verifyEncoding(attr: Attribute, t: RankedTensorType): string | void {
  if (attr instanceof PaddedSharedAttr) return `tensor ${t} cannot have the shared-memory layout ${attr}`;
  if (!isTtgLayout(attr)) return;
  const own = verifyLayout(attr);
  if (own) return own;
  if (isSharedLayout(attr)) return `tensor ${t} cannot have the shared-memory layout ${attr}`;
  // What layouts map: power-of-two dimensions, at most 2^20 elements (Triton's TensorSizeTrait).
  const odd = t.shape.find((n) => !(n >= 1 && (n & (n - 1)) === 0));
  if (odd !== undefined) return `tensor ${t} has a layout but a dimension of ${odd}; laid-out tensors have power-of-two dimensions`;
  if (t.numElements > MAX_TENSOR_ELEMENTS) return `tensor ${t} has more than ${MAX_TENSOR_ELEMENTS} elements, the most a tensor may have`;
  const rank = layoutRank(attr);
  if (rank !== null && rank !== t.rank) return `layout ${attr} has rank ${rank} but the tensor ${t} has rank ${t.rank}`;
  return checkRegisters(attr, t);
}

/**
 * The most registers a distributed layout may give one thread: 65536 values of up to 8 bytes fill
 * the 512 KiB of local memory a CUDA thread can have, so a layout past it cannot run even with every
 * register spilled. It is also what keeps analyses and the target, which enumerate a thread's
 * registers, fast (`sizePerThread = [1, 1048576]` was a fuzz hang). Real kernels stay far below
 * (an FMA dot operand of a 256x128 tile on 4 warps is 16384).
 */
export const MAX_REGISTERS_PER_THREAD = 65536;

function checkRegisters(attr: Attribute, t: RankedTensorType): string | void {
  if (!isDistributed(attr)) return;
  let ll;
  try {
    ll = toLinearLayout(attr, t.shape);
  } catch {
    return; // a layout the library does not map is reported by whoever needs it
  }
  const regs = ll.inSize('register');
  if (regs > MAX_REGISTERS_PER_THREAD) return `layout ${attr} gives tensor ${t} ${regs} registers per thread; at most ${MAX_REGISTERS_PER_THREAD}`;
}

/**
 * Checks the encoding of a `!ttg.memdesc`: a shared layout whose rank is at most the memdesc's
 * (leading dimensions may be pipeline buffers), and an alloc shape that covers the shape.
 */
export function verifyMemDesc(t: MemDescType): string | void {
  if (t.allocShape.length < t.rank) return `memdesc ${t} has an alloc shape of lower rank than its shape`;
  // Shared memory holds at most 227 KB: a buffer of more than 2^20 elements is a mistake, caught here.
  const n = t.allocShape.reduce((a, b) => a * b, 1);
  if (t.allocShape.some((d) => d < 1) || n > MAX_TENSOR_ELEMENTS) return `memdesc ${t} has ${n} elements; a shared buffer has 1 to ${MAX_TENSOR_ELEMENTS}`;
  const enc = t.encoding;
  if (enc instanceof PaddedSharedAttr && enc.rank > t.rank) return `memdesc ${t} has rank ${t.rank} but its layout ${enc} has rank ${enc.rank}`;
  if (!(enc instanceof StructAttr) || !isTtgLayout(enc)) return;
  const own = verifyLayout(enc);
  if (own) return own;
  if (isDistributed(enc as Attribute)) return;
  const rank = enc.spec === NVMMA_SHARED ? 2 : layoutRank(enc);
  if (rank !== null && rank > t.rank) return `memdesc ${t} has rank ${t.rank} but its layout ${enc} has rank ${rank}`;
}

function moduleInt(mod: Operation, name: string): number | null {
  const a = mod.getAttr(name);
  return a instanceof IntegerAttr ? a.num : null;
}

/** Checks a distributed layout against the module's threads per warp and number of warps. */
export function verifyAgainstModule(attr: Attribute, op: Operation): string | void {
  if (!isDistributed(attr)) return;
  const mod = op.name === 'builtin.module' ? op : op.parentOfType('builtin.module');
  if (!mod) return;
  const { threads, warps } = threadsAndWarps(attr);
  const tpw = moduleInt(mod, 'ttg.threads-per-warp');
  if (threads !== null && tpw !== null && threads !== tpw)
    return `layout ${attr} has threadsPerWarp product ${threads} but the module has ttg.threads-per-warp = ${tpw}`;
  const nw = moduleInt(mod, 'ttg.num-warps');
  if (warps !== null && nw !== null && warps !== nw)
    return `layout ${attr} has warpsPerCTA product ${warps} but the module has ttg.num-warps = ${nw}`;
}

/**
 * A tensor descriptor's block lands in (or leaves) shared memory: one larger than any CTA's can never
 * be copied (and its TMA boxes are not worth enumerating), so it is rejected where the type enters.
 */
function verifyTensorDesc(t: TensorDescType): string | void {
  const bytes = (t.blockType.shape.reduce((p, n) => p * n, 1) * bitWidth(t.blockType.elementType)) / 8;
  if (bytes > MAX_SHARED_BYTES_PER_CTA) return `tensor descriptor '${t}' has a block of ${bytes} bytes, more than the ${MAX_SHARED_BYTES_PER_CTA} bytes of shared memory a CTA has`;
}

/** `DialectDecl.verifyType` of ttg: every ranked tensor or memdesc with a ttg layout, and tensor descriptors, in context. */
export function verifyTtgType(t: Type, op: Operation): string | void {
  if (t instanceof MemDescType) return verifyMemDesc(t);
  if (t instanceof TensorDescType) return verifyTensorDesc(t);
  if (!(t instanceof RankedTensorType) || !t.encoding) return;
  return verifyEncoding(t.encoding, t) ?? verifyAgainstModule(t.encoding, op);
}
