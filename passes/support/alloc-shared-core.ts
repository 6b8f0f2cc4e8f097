/**
 * Shared-memory allocation of one function (after Triton's Allocation.cpp, our own code):
 *  1. buffers: every `ttg.local_alloc` in `#ttg.shared_memory` (with or without a source) is an
 *     explicit buffer of product(allocShape) x element bytes, aligned to its `alignment` attribute,
 *     else 1024 for `#ttg.nvmma_shared`, else 16; every op needing scratch (see
 *     alloc-shared-scratch.ts) gets a scratch buffer aligned to 128;
 *  2. liveness (passes/analysis/liveness.ts): an explicit buffer lives from its alloc to the last
 *     use of it or of any memdesc derived from it (views, loop-carried memdescs), a use inside a
 *     loop extending it over the loop; scratch lives only at its op;
 *  3. offsets: buffers sorted by size, largest first (stable: program order on ties), each placed at
 *     the lowest offset, aligned, that overlaps no already placed buffer whose lifetime intersects
 *     its own (first fit). The total is the largest end offset.
 */
import type { Operation, Value } from '../../ir/ir.js';
import { BlockArgument, OpResult } from '../../ir/ir.js';
import { IntegerAttr } from '../../ir/attributes.js';
import { MemDescType } from '../../dialects/ttg/types.js';
import { SharedMemorySpaceAttr, NVMMA_SHARED } from '../../dialects/ttg/layout-attrs.js';
import { sharedAllocElems } from '../../dialects/ttg/shared-layout.js';
import { StructAttr } from '../../dialects/ttg/struct-attr.js';
import { ProgramOrder, intersects, type Interval } from '../analysis/liveness.js';
import { elementBytes, scratchBytes } from './alloc-shared-scratch.js';
import { FunctionLike } from '../../ir/traits.js';
import * as scf from '../../dialects/scf.js';
import * as ttg from '../../dialects/ttg/index.js';
import * as ttng from '../../dialects/ttng.js';

/** Alignment of scratch buffers (Triton's `scratchAlignment`). */
export const SCRATCH_ALIGNMENT = 128;

/** One shared-memory buffer: a local_alloc's memory or an op's scratch. */
export interface SharedBuffer {
  kind: 'explicit' | 'scratch';
  /** The local_alloc, or the op using scratch. */
  owner: Operation;
  size: number;
  alignment: number;
  live: Interval;
  offset: number;
}

/** The allocation of one function: its buffers with offsets, and the bytes it needs. */
export interface FunctionAllocation {
  func: Operation;
  buffers: SharedBuffer[];
  total: number;
}

/** Whether `op` is a local_alloc of shared memory (Triton's `isSharedMemoryAlloc`). */
export function isSharedAlloc(op: Operation): boolean {
  const alloc = ttg.LocalAllocOp.match(op);
  if (!alloc) return false;
  const t = alloc.result.type;
  return t instanceof MemDescType && t.memorySpace instanceof SharedMemorySpaceAttr;
}

/** Bytes and alignment of a shared local_alloc. */
export function explicitSize(op: Operation): { size: number; alignment: number } {
  const t = op.result(0).type as MemDescType;
  const size = sharedAllocElems(t.encoding, t.allocShape) * elementBytes(t.elementType);
  const attr = op.getAttr('alignment');
  if (attr instanceof IntegerAttr) return { size, alignment: Number(attr.value) };
  const nvmma = t.encoding instanceof StructAttr && t.encoding.spec === NVMMA_SHARED;
  return { size, alignment: nvmma ? 1024 : 16 };
}

/** The values aliasing the memory of `root`: itself, memdesc views of it, loop-carried copies. */
export function aliasesOf(root: Value): Value[] {
  const seen = new Set<Value>([root]);
  const work = [root];
  const add = (v: Value | undefined): void => {
    if (!v || seen.has(v) || !(v.type instanceof MemDescType)) return;
    seen.add(v);
    work.push(v);
  };
  while (work.length) {
    const v = work.pop()!;
    for (const use of v.uses()) {
      const user = use.owner;
      if (user.name.startsWith('ttg.memdesc_')) user.results.forEach(add);
      else if (scf.ForOp.is(user) && use.index >= 3) {
        // init operand k = index - 3 (after lowerBound, upperBound, step): result k and iter arg k
        add(user.results[use.index - 3]);
        add(user.regions[0].entry?.args[use.index - 2]);
      } else if (scf.YieldOp.is(user) && user.parentOp) {
        const parent = user.parentOp;
        add(parent.results[use.index]);
        if (scf.ForOp.is(parent)) add(parent.regions[0].entry?.args[use.index + 1]);
      }
    }
  }
  return [...seen];
}

function liveOfAliases(order: ProgramOrder, root: OpResult): Interval {
  let live = order.valueInterval(root);
  for (const v of aliasesOf(root)) {
    if (v === root) continue;
    const i = order.valueInterval(v);
    if (v instanceof BlockArgument && i.end === 0) continue;
    live = { start: Math.min(live.start, i.start), end: Math.max(live.end, i.end) };
  }
  return live;
}

/**
 * How long `op`'s scratch is live: the op itself, except a tensor map written on the device, whose
 * scratch stays until the acquire of the same map in its block, so that the maps written one after
 * another before their acquires get scratch of their own and are written at once (tensormap.ts).
 */
function scratchInterval(order: ProgramOrder, op: Operation): Interval {
  const own = order.opInterval(op);
  if (!ttng.TensormapCreateOp.is(op)) return own;
  const acquire = op.operand(0).users().find((u) => ttng.TensormapFenceproxyAcquireOp.is(u) && u.parent === op.parent);
  return acquire ? { start: own.start, end: order.id(acquire) + 1 } : own;
}

/** Collects the buffers of `func` with their sizes and live intervals (offsets still 0). */
export function collectBuffers(func: Operation): SharedBuffer[] {
  const order = new ProgramOrder(func);
  const buffers: SharedBuffer[] = [];
  func.walk((op) => {
    if (op === func) return;
    if (isSharedAlloc(op)) {
      const { size, alignment } = explicitSize(op);
      buffers.push({ kind: 'explicit', owner: op, size, alignment, live: liveOfAliases(order, op.result(0)), offset: 0 });
    }
    const scratch = scratchBytes(op);
    if (scratch > 0) {
      buffers.push({ kind: 'scratch', owner: op, size: scratch, alignment: SCRATCH_ALIGNMENT, live: scratchInterval(order, op), offset: 0 });
    }
  }, 'pre');
  return buffers;
}

const alignUp = (n: number, a: number): number => Math.ceil(n / a) * a;

/** Assigns offsets first-fit, largest buffers first; returns the total bytes. */
export function packBuffers(buffers: SharedBuffer[]): number {
  const bySize = buffers.map((b, k) => ({ b, k })).sort((x, y) => y.b.size - x.b.size || x.k - y.k).map((e) => e.b);
  const placed: SharedBuffer[] = [];
  let total = 0;
  for (const buf of bySize) {
    const conflicts = placed.filter((p) => intersects(p.live, buf.live)).sort((x, y) => x.offset - y.offset);
    let offset = 0;
    for (;;) {
      offset = alignUp(offset, buf.alignment);
      const clash = conflicts.find((p) => offset < p.offset + p.size && p.offset < offset + buf.size);
      if (!clash) break;
      offset = clash.offset + clash.size;
    }
    buf.offset = offset;
    placed.push(buf);
    total = Math.max(total, offset + buf.size);
  }
  return total;
}

/** The allocation of one function. */
export function allocateFunction(func: Operation): FunctionAllocation {
  const buffers = collectBuffers(func);
  return { func, buffers, total: packBuffers(buffers) };
}

/** Allocations of every function-like op directly in `module`, and the module total (their max). */
export function allocateModule(module: Operation): { functions: FunctionAllocation[]; total: number } {
  const functions: FunctionAllocation[] = [];
  for (const r of module.regions) for (const b of r.blocks) for (const op of b.ops) {
    if (op.hasTrait(FunctionLike)) functions.push(allocateFunction(op));
  }
  return { functions, total: functions.reduce((m, f) => Math.max(m, f.total), 0) };
}
