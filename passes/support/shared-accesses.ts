/**
 * The IR side of the bank-conflict model: which ops read or write a shared buffer, through which
 * view, and how (`TileAccess`, see bank-conflicts.ts). Used by `pad-shared` and
 * `test-print-bank-conflicts`.
 *  - `ttg.local_alloc %t`, `ttg.local_store %t, %m`: st.shared of %t's registers;
 *  - `ttg.local_load %m -> tensor<.., #dot_op<{parent = #mma v2, kWidth = 2}>>` of f16/bf16: ldmatrix.x4;
 *    `kWidth = 1` of 32-bit elements (tf32 operands): ldmatrix (8 rows of 4 floats) when the buffer
 *    is contiguous along K, else ld.shared of its registers, as the target reads them; to any other
 *    distributed layout: ld.shared of its registers;
 *  - `ttg.async_copy_global_to_local %p, %m`: cp.async, vectors capped by `contiguity`.
 * Views: `ttg.memdesc_index` (drops a leading buffer dim), `ttg.memdesc_subslice` (moves the
 * origin), `ttg.memdesc_trans` (renames the dims: an access through it is modeled in the alloc's
 * coordinates), and memdescs carried by scf.for. Other views (reshape, reinterpret) are not modeled.
 */
import type { Operation, Value } from '../../ir/ir.js';
import { BlockArgument, OpResult } from '../../ir/ir.js';
import type { Attribute } from '../../ir/attributes.js';
import { RankedTensorType } from '../../ir/types.js';
import { MemDescType } from '../../dialects/ttg/types.js';
import { DOT_OP, NVIDIA_MMA, isDistributed, isLayout } from '../../dialects/ttg/layout-attrs.js';
import { isSupportedLayout } from '../../dialects/ttg/layout-lib.js';
import { nvmmaOf, swizzleOf, transposedSharedEncoding } from '../../dialects/ttg/shared-layout.js';
import { elementBytes } from './alloc-shared-scratch.js';
import * as scf from '../../dialects/scf.js';
import * as ttg from '../../dialects/ttg/index.js';
import { aliasesOf, isSharedAlloc } from './alloc-shared-core.js';
import { ldmatrixAccess, vectorAccess, type TileAccess } from './bank-conflicts.js';

/**
 * Where a memdesc value points: its root alloc, the origin of the view in the alloc's
 * coordinates, and which of those coordinates each dim of the view is (`dims[k]`: view dim k is
 * alloc dim `dims[k]`; the identity unless the view went through `ttg.memdesc_trans`).
 */
export interface ViewOrigin {
  alloc: Operation;
  offsets: number[];
  dims: number[];
}

const identity = (n: number): number[] => Array.from({ length: n }, (_, k) => k);
const isIdentity = (dims: readonly number[]): boolean => dims.every((d, k) => d === k);

/**
 * The encoding a memdesc value of `origin` has when its alloc's tile has encoding `enc`: `enc`
 * itself, or for a transposed view the transposed encoding (null when it cannot be given).
 */
export function viewEncoding(origin: ViewOrigin, enc: Attribute | null): Attribute | null {
  if (isIdentity(origin.dims)) return enc;
  return transposedSharedEncoding(enc, origin.dims);
}

/**
 * The rank of the tile an alloc's encoding describes (its order's length; for `#ttg.nvmma_shared`,
 * whose leading dims stack whole tiles, the two matrix dims).
 */
export function encodingRank(alloc: Operation): number {
  const t = alloc.result(0).type as MemDescType;
  if (nvmmaOf(t.encoding)) return Math.min(2, t.allocShape.length);
  return swizzleOf(t.encoding, t.allocShape.length).order.length;
}

/** The encoded tile of `alloc`: the trailing dims of its shape (a leading dim indexes buffers). */
export function tileShapeOf(alloc: Operation): number[] {
  const t = alloc.result(0).type as MemDescType;
  return t.allocShape.slice(t.allocShape.length - encodingRank(alloc));
}

/** The origin of memdesc `v`, or why it cannot be modeled. */
export function viewOrigin(v: Value, memo = new Map<Value, ViewOrigin | string>()): ViewOrigin | string {
  const hit = memo.get(v);
  if (hit !== undefined) return hit;
  const r = computeOrigin(v, memo);
  memo.set(v, r);
  return r;
}

function computeOrigin(v: Value, memo: Map<Value, ViewOrigin | string>): ViewOrigin | string {
  if (v instanceof BlockArgument) {
    const loop = scf.ForOp.match(v.owner.parentOp);
    if (!loop || v.index === 0 || v.owner !== loop.region.entry) return 'the memdesc is a block argument pad-shared cannot follow';
    const init = viewOrigin(loop.initArgs[v.index - 1], memo);
    if (typeof init === 'string') return init;
    memo.set(v, init);
    const yielded = scf.YieldOp.match(v.owner.terminator)?.results[v.index - 1];
    const next = yielded ? viewOrigin(yielded, memo) : 'no yield';
    if (typeof next === 'string' || next.alloc !== init.alloc || next.offsets.join() !== init.offsets.join() || next.dims.join() !== init.dims.join()) {
      return 'the loop-carried memdesc does not keep one view';
    }
    return init;
  }
  if (!(v instanceof OpResult)) return 'unknown memdesc';
  const op = v.owner;
  if (isSharedAlloc(op)) {
    const rank = (v.type as MemDescType).rank;
    return { alloc: op, offsets: new Array(rank).fill(0), dims: identity(rank) };
  }
  const loop = scf.ForOp.match(op);
  if (loop) return viewOrigin(loop.region.entry!.args[v.index + 1], memo);
  // What the first operand views (a view op's source) comes first, whatever the op.
  const src = op.numOperands ? viewOrigin(op.operands[0].value, memo) : 'unknown memdesc';
  if (typeof src === 'string') return src;
  if (ttg.MemdescIndexOp.match(op)) {
    if (src.offsets.length <= encodingRank(src.alloc)) return "'ttg.memdesc_index' indexes into the encoded tile";
    if (!isIdentity(src.dims)) return "'ttg.memdesc_index' indexes a transposed view";
    return { alloc: src.alloc, offsets: src.offsets.slice(1), dims: identity(src.dims.length - 1) };
  }
  const subslice = ttg.MemdescSubsliceOp.match(op);
  if (subslice) {
    const offs = subslice.offsets;
    if (offs.length !== src.offsets.length) return "'ttg.memdesc_subslice' has bad offsets";
    const offsets = [...src.offsets];
    offs.forEach((o, k) => (offsets[src.dims[k]] += o));
    return { alloc: src.alloc, offsets, dims: src.dims };
  }
  const trans = ttg.MemdescTransOp.match(op);
  if (trans) {
    // view dim k of the result is dim order[k] of the source
    const order = trans.order;
    if (order.length !== src.dims.length) return "'ttg.memdesc_trans' has a bad order";
    if (src.dims.length !== encodingRank(src.alloc)) return "'ttg.memdesc_trans' of a buffer with leading dims";
    return { alloc: src.alloc, offsets: src.offsets, dims: order.map((d) => src.dims[d]) };
  }
  return `the view comes from '${op.name}'`;
}

/** The memdesc operand or result `op` accesses, and the register tensor it moves (null: not an access). */
export function accessedValues(op: Operation): { mem: Value; tensor: RankedTensorType } | null {
  const tensor = (v: Value) => (v.type instanceof RankedTensorType ? v.type : null);
  let mem: Value | undefined;
  let t: RankedTensorType | null = null;
  const alloc = ttg.LocalAllocOp.match(op);
  const store = ttg.LocalStoreOp.match(op);
  const copy = ttg.AsyncCopyGlobalToLocalOp.match(op);
  const load = ttg.LocalLoadOp.match(op);
  if (alloc?.src) [mem, t] = [alloc.result, tensor(alloc.src)];
  else if (store) [mem, t] = [store.dst, tensor(store.src)];
  else if (copy) [mem, t] = [copy.result, tensor(copy.src)];
  else if (load) [mem, t] = [load.src, tensor(load.result)];
  if (!mem || !t || !(mem.type instanceof MemDescType)) return null;
  return { mem, tensor: t };
}

/**
 * Whether the target reads `layout`, a dot operand of an mma v2 parent, from `mem` with ldmatrix:
 * always for kWidth 2 (16-bit operands), and for tf32 operands (kWidth 1, 32-bit) when `mem` is
 * contiguous along K (8 rows of 4 floats; an encoding that splits those rows is one the model
 * rejects). Other 32-bit kWidth-1 operands are read with ld.shared. A rank-3 (batched) operand
 * must be contiguous along one of its matrix dims (the last two), as the target requires.
 */
function isLdmatrixOperand(layout: Attribute, mem: MemDescType, elemBytes: number): boolean {
  if (!isLayout(layout, DOT_OP)) return false;
  const p = layout.attr('parent');
  if (!isLayout(p, NVIDIA_MMA) || p.int('versionMajor') !== 2) return false;
  const rank = mem.rank;
  const z = rank - 2;
  const contig = swizzleOf(mem.encoding, rank).order[0];
  if (contig < z) return false;
  if (layout.int('kWidth') === 2) return true;
  const kd = layout.int('opIdx') === 0 ? z + 1 : z;
  return layout.int('kWidth') === 1 && elemBytes === 4 && contig === kd;
}

/**
 * The tile access of `op` (null: `op` is not a shared access), or why pad-shared cannot model it.
 */
export function tileAccessOf(op: Operation, memo?: Map<Value, ViewOrigin | string>): { origin: ViewOrigin; access: TileAccess } | string | null {
  const vals = accessedValues(op);
  if (!vals) return null;
  const origin = viewOrigin(vals.mem, memo);
  if (typeof origin === 'string') return origin;
  const mem = vals.mem.type as MemDescType;
  const tileShape = tileShapeOf(origin.alloc);
  if (origin.offsets.length !== tileShape.length) return `the access has rank ${origin.offsets.length} but the encoded tile has rank ${tileShape.length}`;
  if (tileShape.length !== 2 && tileShape.length !== 3) return 'only tiles of rank 2 and 3 are modeled';
  const shape = vals.tensor.shape;
  if (shape.join() !== mem.shape.join()) return 'the tensor and the memdesc shapes differ';
  const layout = vals.tensor.encoding;
  if (!isDistributed(layout) || !isSupportedLayout(layout)) return 'the tensor has no layout the model knows';
  const tile = { tileShape, offsets: origin.offsets, elemBytes: elementBytes(mem.elementType) };
  const inAlloc = (access: TileAccess) => ({ origin, access: inAllocCoordinates(access, origin.dims) });
  try {
    const isLoad = ttg.LocalLoadOp.is(op);
    if (isLoad && isLdmatrixOperand(layout, mem, tile.elemBytes)) {
      if (layout.int('kWidth') === 2 && tile.elemBytes !== 2) return 'ldmatrix operands must have 16-bit elements';
      if (shape.slice(-2).some((n) => n % 16)) return 'ldmatrix operands must be multiples of 16x16';
      return inAlloc(ldmatrixAccess(layout, shape, tile));
    }
    if (isLayout(layout, DOT_OP) && isLayout(layout.attr('parent'), NVIDIA_MMA) && !(layout.int('kWidth') === 1 && tile.elemBytes === 4)) {
      return 'dot operands of an mma parent are only modeled as ldmatrix (kWidth = 2, 16-bit) or ld.shared (kWidth = 1, 32-bit)';
    }
    const copy = ttg.AsyncCopyGlobalToLocalOp.match(op);
    if (copy) return inAlloc(vectorAccess('cp.async', layout, shape, tile, Math.max(1, copy.contiguity)));
    return inAlloc(vectorAccess(isLoad ? 'ld.shared' : 'st.shared', layout, shape, tile));
  } catch (e) {
    return `the layout cannot be mapped (${(e as Error).message})`;
  }
}

/**
 * `access` (its coordinates in a view's dims) in the coordinates of the alloc: view dim k is
 * alloc dim `dims[k]`, so each coordinate vector is scattered there. The identity for a direct access.
 */
export function inAllocCoordinates(access: TileAccess, dims: readonly number[]): TileAccess {
  if (isIdentity(dims)) return access;
  const scatter = (c: readonly number[]): number[] => {
    const out = new Array<number>(c.length).fill(0);
    c.forEach((x, k) => (out[dims[k]] = x));
    return out;
  };
  if (access.kind === 'ldmatrix') return { ...access, origins: access.origins.map((mats) => mats.map(scatter)), matrixDims: access.matrixDims.map((k) => dims[k]) };
  return { ...access, register: access.register.map(scatter), lane: access.lane.map(scatter), warp: access.warp.map(scatter) };
}

/** Ops using a memdesc without reading or writing through it. */
const NON_ACCESS: ReadonlySet<string> = new Set([ttg.LocalDeallocOp.name, scf.ForOp.name, scf.YieldOp.name]);

/** One buffer, or several allocs whose memdescs meet (e.g. in one loop-carried value): they share an encoding. */
export interface BufferGroup {
  allocs: Operation[];
  /** Every memdesc value of the group (allocs, views, loop-carried values). */
  values: Value[];
  /** Every op that reads or writes through the group. */
  accessOps: Operation[];
  /** Uses pad-shared cannot follow: the op, and why. */
  unknown: { op: Operation; reason: string }[];
}

/** The shared buffers of `root` (every shared local_alloc), grouped by aliasing. */
export function bufferGroups(root: Operation): BufferGroup[] {
  const groups: BufferGroup[] = [];
  const groupOf = new Map<Value, BufferGroup>();
  root.walk((op) => {
    if (!isSharedAlloc(op)) return;
    const values = aliasesOf(op.result(0));
    const met = [...new Set(values.map((v) => groupOf.get(v)).filter((g): g is BufferGroup => !!g))];
    const g: BufferGroup = { allocs: [op], values: [], accessOps: [], unknown: [] };
    for (const m of met) {
      g.allocs.unshift(...m.allocs);
      groups.splice(groups.indexOf(m), 1);
    }
    g.values = [...new Set([...met.flatMap((m) => m.values), ...values])];
    for (const v of g.values) groupOf.set(v, g);
    groups.push(g);
  }, 'pre');
  for (const g of groups) {
    const ops = new Set<Operation>();
    for (const v of g.values) {
      if (v instanceof OpResult && ttg.LocalAllocOp.match(v.owner)?.src) ops.add(v.owner);
      for (const user of v.users()) {
        if (NON_ACCESS.has(user.name) || user.name.startsWith('ttg.memdesc_')) continue;
        if (accessedValues(user)) ops.add(user);
        else g.unknown.push({ op: user, reason: 'uses a shared buffer in a way pad-shared cannot model' });
      }
    }
    g.accessOps = [...ops];
  }
  return groups;
}
