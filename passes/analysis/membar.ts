/**
 * Shared-memory access model of the `insert-barriers` pass (our take on Triton's Membar analysis):
 * which shared-memory ranges an op reads and writes, whether two ranges may overlap, and the
 * pending reads/writes since the last barrier (`MembarState`) that flow through the function.
 *
 * Ranges: an access is to a buffer (the `ttg.local_alloc` reached through memdesc views, or the
 * scratch of one op) and a byte range inside it. A constant `ttg.memdesc_index` narrows the range
 * to its slot; other views keep their source's range. When the buffer's op carries
 * `allocation.offset` (written by the shared-memory allocator), the access also has an absolute
 * address range [offset + lo, offset + hi).
 *
 * Overlap (`mayOverlap`): two accesses to the same buffer overlap iff their ranges intersect; two
 * accesses that both have absolute ranges overlap iff those intersect; otherwise (different
 * buffers without allocated offsets, or an unknown buffer such as a memdesc block argument) they
 * are assumed to overlap, because the allocator may place buffers with disjoint live ranges at the
 * same address.
 */
import { IntegerAttr, type Attribute } from '../../ir/attributes.js';
import type { Operation, Value } from '../../ir/ir.js';
import { RankedTensorType, bitWidth, type Type } from '../../ir/types.js';
import { conversionScratchBytes, cvtNeedsSharedMemory } from '../../dialects/ttg/layout-scratch.js';
import { SharedMemorySpaceAttr } from '../../dialects/ttg/layout-attrs.js';
import { MemDescType } from '../../dialects/ttg/types.js';
import { TENSOR_MAP_BYTES } from '../../dialects/ttg/target.js';
import type { View } from '../../ir/op-def.js';
import { constantInt } from '../../ir/patterns.js';
import * as ttg from '../../dialects/ttg/index.js';
import * as ttng from '../../dialects/ttng.js';

type ConvertView = View<typeof ttg.ConvertLayoutOp.decl>;

/** One shared-memory access: buffer id (-1 unknown), byte range in the buffer, absolute range if allocated. */
export interface Access {
  buffer: number;
  lo: number;
  hi: number;
  abs: [number, number] | null;
}

/**
 * The shared-memory effects of one op (a scratch op writes then reads `scratch`). `asyncWrites`
 * are a TMA copy's: they must not race with pending accesses (a barrier goes first), but they
 * leave nothing pending, since readers wait on the copy's mbarrier, which orders them.
 */
export interface OpEffects {
  reads: Access[];
  writes: Access[];
  asyncWrites: Access[];
  scratch: Access | null;
}

/** The memdesc that `op` makes a new view of (memdesc_index, _subslice, _trans, _reshape, _reinterpret), else undefined. */
function viewSource(op: Operation): Value | undefined {
  const view =
    ttg.MemdescIndexOp.match(op) ?? ttg.MemdescSubsliceOp.match(op) ?? ttg.MemdescTransOp.match(op) ?? ttg.MemdescReshapeOp.match(op) ?? ttg.MemdescReinterpretOp.match(op);
  return view?.src;
}

const UNKNOWN: Access = { buffer: -1, lo: 0, hi: Infinity, abs: null };

/** Bytes of one element in shared memory (sub-byte types round up; pointers are 8). */
function elementBytes(t: Type): number {
  const w = bitWidth(t);
  return w === 0 ? 8 : Math.max(1, Math.ceil(w / 8));
}

/** Bytes of a memdesc's own shape. */
export function memdescBytes(t: MemDescType): number {
  return t.shape.reduce((a, b) => a * b, 1) * elementBytes(t.elementType);
}

/** The integer value of attribute `name` of `op`, if it is an integer attribute. */
function intAttr(op: Operation, name: string): number | null {
  const a = op.getAttr(name);
  return a instanceof IntegerAttr ? Number(a.value) : null;
}

/** Whether memdesc type `t` lives in shared memory (not tensor memory). */
function isShared(t: Type): t is MemDescType {
  return t instanceof MemDescType && (t.memorySpace === null || t.memorySpace instanceof SharedMemorySpaceAttr);
}

/** Gives buffers (alloc roots and scratch ops) stable small ids, so accesses can be keyed by string. */
export class BufferIds {
  private readonly ids = new Map<Operation, number>();
  /** The id of `op`'s buffer. */
  of(op: Operation): number {
    let id = this.ids.get(op);
    if (id === undefined) this.ids.set(op, (id = this.ids.size));
    return id;
  }
}

/** The access through memdesc `v`: follows views to a `ttg.local_alloc`; unknown roots cover everything. */
export function accessOf(v: Value, ids: BufferIds): Access {
  const t = v.type;
  if (!(t instanceof MemDescType)) return UNKNOWN;
  const d = v.definingOp;
  if (!d) return UNKNOWN;
  if (ttg.LocalAllocOp.match(d)) return rooted(d, 0, memdescBytes(t), ids);
  const src = viewSource(d);
  if (!src) return UNKNOWN;
  const parent = accessOf(src, ids);
  const index = ttg.MemdescIndexOp.match(d)?.index;
  const idx = index ? constantInt(index) : null;
  if (idx === null || parent.buffer < 0) return parent;
  const slot = memdescBytes(t);
  return rooted(d, 0, 0, ids, parent, parent.lo + idx * slot, parent.lo + (idx + 1) * slot);
}

/** An access to a range of a root buffer (or a narrowed range of `parent`'s buffer). */
function rooted(root: Operation, lo: number, hi: number, ids: BufferIds, parent?: Access, plo = lo, phi = hi): Access {
  if (parent) {
    const base = parent.abs ? parent.abs[0] - parent.lo : null;
    return { buffer: parent.buffer, lo: plo, hi: phi, abs: base === null ? null : [base + plo, base + phi] };
  }
  const off = intAttr(root, 'allocation.offset');
  return { buffer: ids.of(root), lo, hi, abs: off === null ? null : [off + lo, off + hi] };
}

/** Whether two accesses may touch a common byte (see the file comment). */
export function mayOverlap(a: Access, b: Access): boolean {
  if (a.buffer >= 0 && a.buffer === b.buffer) return a.lo < b.hi && b.lo < a.hi;
  if (a.abs && b.abs) return a.abs[0] < b.abs[1] && b.abs[0] < a.abs[1];
  return true;
}

/** Whether a `ttg.convert_layout` goes through shared memory (conservatively yes when unsure). */
function cvtUsesScratch(cvt: ConvertView): boolean {
  const s = cvt.src.type;
  const r = cvt.result.type;
  if (!(s instanceof RankedTensorType) || !(r instanceof RankedTensorType) || !s.encoding || !r.encoding) return false;
  try {
    return cvtNeedsSharedMemory(s.encoding, r.encoding, s.shape);
  } catch {
    return true;
  }
}

/** Bytes of `op`'s scratch: `allocation.size`, else a tensor map's or the conversion's scratch, else unbounded. */
function scratchBytes(op: Operation): number {
  const size = intAttr(op, 'allocation.size');
  if (size !== null) return size;
  if (ttng.TensormapCreateOp.is(op)) return TENSOR_MAP_BYTES;
  const cvt = ttg.ConvertLayoutOp.match(op);
  if (!cvt) return Infinity;
  const s = cvt.src.type as RankedTensorType;
  const enc = (cvt.result.type as RankedTensorType).encoding as Attribute;
  try {
    return conversionScratchBytes(s.encoding as Attribute, enc, s.shape, elementBytes(s.elementType)) || Infinity;
  } catch {
    return Infinity;
  }
}

/** The scratch access of `op`, or null if it uses no shared scratch. */
function scratchOf(op: Operation, ids: BufferIds): Access | null {
  if (ttg.LocalAllocOp.match(op)) return null;
  const hasOffset = intAttr(op, 'allocation.offset') !== null;
  const cvt = ttg.ConvertLayoutOp.match(op);
  if (!hasOffset && !(cvt && cvtUsesScratch(cvt))) return null;
  return rooted(op, 0, scratchBytes(op), ids);
}

/** The shared-memory effects of `op` itself (not of ops nested in its regions). */
export function effectsOf(op: Operation, ids: BufferIds): OpEffects {
  const fx: OpEffects = { reads: [], writes: [], asyncWrites: [], scratch: scratchOf(op, ids) };
  const shared = (v: Value): boolean => isShared(v.type);
  const alloc = ttg.LocalAllocOp.match(op);
  if (alloc?.src) fx.writes.push(accessOf(alloc.result, ids));
  const load = ttg.LocalLoadOp.match(op);
  if (load && shared(load.src)) fx.reads.push(accessOf(load.src, ids));
  const store = ttg.LocalStoreOp.match(op);
  if (store && shared(store.dst)) fx.writes.push(accessOf(store.dst, ids));
  const copy = ttg.AsyncCopyGlobalToLocalOp.match(op);
  if (copy && shared(copy.result)) fx.writes.push(accessOf(copy.result, ids));
  // A warp-group dot reads its shared operands (until its wait retires it; the pipeline places
  // the copies that overwrite them after that wait).
  const wgmma = ttng.WarpGroupDotOp.match(op);
  if (wgmma) for (const v of [wgmma.a, wgmma.b]) if (shared(v)) fx.reads.push(accessOf(v, ids));
  mbarrierEffects(op, fx, ids);
  return fx;
}

/**
 * TMA copies and mbarriers: a TMA load writes its tile asynchronously (`asyncWrites`) and signals
 * its mbarrier (a read of it); a TMA store reads its tile. Initializing or invalidating an
 * mbarrier writes it (one thread does it; the others must not use it before a barrier, nor while
 * it is invalidated); expecting bytes on it and waiting for it read it.
 */
function mbarrierEffects(op: Operation, fx: OpEffects, ids: BufferIds): void {
  const load = ttng.AsyncTmaCopyGlobalToLocalOp.match(op);
  if (load) {
    fx.asyncWrites.push(accessOf(load.result, ids));
    fx.reads.push(accessOf(load.barrier, ids));
    return;
  }
  const store = ttng.AsyncTmaCopyLocalToGlobalOp.match(op) ?? ttng.AsyncTmaReduceOp.match(op);
  if (store) return void fx.reads.push(accessOf(store.src, ids));
  const written = ttng.InitBarrierOp.match(op)?.alloc ?? ttng.InvalBarrierOp.match(op)?.alloc;
  if (written) return void fx.writes.push(accessOf(written, ids));
  const read = ttng.BarrierExpectOp.match(op)?.alloc ?? ttng.WaitBarrierOp.match(op)?.alloc;
  if (read) fx.reads.push(accessOf(read, ids));
}

/**
 * Unit attribute the software pipeliner sets on a `ttg.async_copy_global_to_local` in a loop body
 * when the slot it writes was last read before the barrier at the top of the iteration (its
 * buffers have a spare slot: the copy refills the slot of an iteration every thread has left).
 * Such a write does not race with the reads of its own buffer pending since that barrier (they
 * read other slots); it still orders after everything else. Honoured only after a barrier in the
 * same iteration.
 */
export const FREE_SLOT = 'tir.free_slot';

const keyOf = (a: Access): string => `${a.buffer}:${a.lo}:${a.hi}:${a.abs?.[0] ?? ''}`;

/** Pending shared-memory reads and writes since the last barrier, keyed by buffer and range. */
export class MembarState {
  readonly reads = new Map<string, Access>();
  readonly writes = new Map<string, Access>();
  /** Whether a barrier certainly ran since the start of the innermost loop iteration (see FREE_SLOT). */
  syncedThisIteration = false;

  /** A copy of this state. */
  clone(): MembarState {
    const s = new MembarState();
    s.join(this);
    s.syncedThisIteration = this.syncedThisIteration;
    return s;
  }

  /** Adds the pending accesses of `other` (control-flow merge: synced only if both paths are). */
  join(other: MembarState): this {
    for (const [k, a] of other.reads) this.reads.set(k, a);
    for (const [k, a] of other.writes) this.writes.set(k, a);
    this.syncedThisIteration &&= other.syncedThisIteration;
    return this;
  }

  /** This state at the start of a loop iteration (no barrier in it yet). */
  iterationStart(): MembarState {
    const s = this.clone();
    s.syncedThisIteration = false;
    return s;
  }

  /** Forgets everything (a barrier orders all earlier accesses). */
  sync(): void {
    this.reads.clear();
    this.writes.clear();
    this.syncedThisIteration = true;
  }

  /** Records a read or a write. */
  add(a: Access, write: boolean): void {
    (write ? this.writes : this.reads).set(keyOf(a), a);
  }

  /** Whether both states hold the same pending accesses. */
  equals(other: MembarState): boolean {
    const same = (x: Map<string, Access>, y: Map<string, Access>): boolean => x.size === y.size && [...x.keys()].every((k) => y.has(k));
    return same(this.reads, other.reads) && same(this.writes, other.writes);
  }

  /**
   * Whether reading `reads` and writing `writes` now races with a pending access (RAW, WAR, WAW).
   * With `freeSlot`, the writes skip the pending reads of their own buffer (FREE_SLOT).
   */
  conflicts(reads: readonly Access[], writes: readonly Access[], freeSlot = false): boolean {
    const hits = (pending: Map<string, Access>, a: Access, skipOwn = false): boolean =>
      [...pending.values()].some((p) => !(skipOwn && p.buffer >= 0 && p.buffer === a.buffer) && mayOverlap(p, a));
    return reads.some((r) => hits(this.writes, r)) || writes.some((w) => hits(this.writes, w) || hits(this.reads, w, freeSlot));
  }
}
