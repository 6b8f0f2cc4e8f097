/**
 * The state of lowering one kernel to the nvptx dialect: the registers that stand for each
 * source value (one per element a thread holds), values hoisted into the kernel's prologue
 * (thread ids, layout coordinates), and the op dispatch shared by every pattern table.
 */
import type { Builder } from '../../ir/builder.js';
import { Block, type Operation, type Region, type Value } from '../../ir/ir.js';
import { IndexType, RankedTensorType, type Type } from '../../ir/types.js';
import { isFp8 } from './fp8.js';
import { PointerType, TensorDescType } from '../../dialects/tt/types.js';
import { AsyncTokenType, MemDescType } from '../../dialects/ttg/types.js';
import { I8, I32, I64, PtxEmitter, internalError, targetError, type Arch } from './emitter.js';
import { constantRunSources, disjointBits, regLayout, type RegLayout } from './layout.js';
import { hasAxisInfo, type AxisInfoAnalysis } from '../../passes/analysis/axis-info.js';
import { Terminator } from '../../ir/traits.js';
import type { OpDef, View } from '../../ir/op-def.js';
import type { OpDecl } from '../../ir/op-spec.js';

/** Lowers one source op; the rule of one op kind in the dispatch table. */
export type LowerRule = (ctx: LoweringContext, op: Operation) => void;

/** One entry of a lowering table: an op kind's name and its rule. */
export interface Lowering {
  readonly name: string;
  readonly rule: LowerRule;
}

/** The entry lowering `def`'s ops: `rule` reads each op through its typed view (`load.mask`, `dot.c`). */
export function lowering<D extends OpDecl>(def: OpDef<D>, rule: (ctx: LoweringContext, op: View<D>) => void): Lowering {
  return { name: def.name, rule: (ctx, op) => rule(ctx, def.view(op)) };
}

/** The dispatch table of `entries` by op name; an op kind with two entries is an internal error. */
export function loweringTable(entries: readonly Lowering[]): ReadonlyMap<string, LowerRule> {
  const table = new Map<string, LowerRule>();
  for (const { name, rule } of entries) {
    if (table.has(name)) throw new Error(`internal error: two nvptx lowerings of '${name}'`);
    table.set(name, rule);
  }
  return table;
}

/** The register type standing for one element of `t` (pointers and index are 64-bit, fp8 its byte). */
export function registerType(t: Type): Type {
  const elt = t instanceof RankedTensorType ? t.elementType : t;
  // A tensor descriptor is the generic address of its tensor map.
  if (elt instanceof PointerType || elt instanceof IndexType || elt instanceof TensorDescType) return I64;
  // A shared-memory descriptor is its tile's address; an async token carries nothing (a dummy word).
  if (elt instanceof MemDescType || elt instanceof AsyncTokenType) return I32;
  // An fp8 element is its byte (targets/nvptx/fp8.ts).
  if (isFp8(elt)) return I8;
  return elt;
}

/**
 * A kernel's global scratch: a hidden pointer parameter to `bytesPerProgram` bytes per program
 * (the launcher allocates them for the whole grid), and each `ttg.global_scratch_alloc`'s offset there.
 */
export interface GlobalScratch {
  base: Value;
  bytesPerProgram: number;
  offsets: ReadonlyMap<Operation, number>;
}

/** Per-kernel lowering state. */
export class LoweringContext {
  /** The kernel's global scratch (`ttg.global_scratch_alloc`), when it has any: set by the kernel's lowering. */
  globalScratch: GlobalScratch | null = null;
  private readonly regs = new Map<Value, Value[]>();
  private readonly hoisted = new Map<string, Value>();
  private readonly blocks = new Map<Block, Block>();
  readonly e: PtxEmitter;

  constructor(
    readonly b: Builder,
    arch: Arch,
    readonly numWarps: number,
    readonly threadsPerWarp: number,
    /** Dynamic shared memory the module allocated (`ttg.shared`), in bytes. */
    readonly sharedBytes: number,
    /** The prologue's terminator: hoisted values go just before it. */
    private readonly prologueEnd: Operation,
    /** The kernel's region, where lowered blocks go. */
    readonly region: Region,
    /** Lowers one op (the dispatch over every pattern table). */
    readonly lowerOp: (ctx: LoweringContext, op: Operation) => void,
    /** Axis info of the source module (constancy lets elementwise ops compute a run once). */
    readonly axis: AxisInfoAnalysis | null = null,
  ) {
    this.e = new PtxEmitter(b, arch);
  }

  /** The registers of `v` (one per element this thread holds; one for a scalar). */
  get(v: Value, user: Operation): Value[] {
    const r = this.regs.get(v);
    if (!r) throw internalError(user, `operand of type '${v.type}' was not lowered before its use`);
    return r;
  }

  /** The single register of scalar `v`. */
  scalar(v: Value, user: Operation): Value {
    const r = this.get(v, user);
    if (r.length !== 1) throw internalError(user, `expected a scalar, got ${r.length} registers`);
    return r[0];
  }

  /** Records the registers of `v`. */
  set(v: Value, registers: Value[]): void {
    this.regs.set(v, registers);
  }

  /**
   * For a tensor `v` whose elements repeat in aligned runs (axis info's constancy), the register each
   * register may copy instead of computing it (`constantRunSources`); null when none repeats.
   */
  repeatedRegisters(v: Value, op: Operation): Int32Array | null {
    if (!this.axis || !(v.type instanceof RankedTensorType) || !hasAxisInfo(v.type) || !this.axis.has(v)) return null;
    return constantRunSources(regLayout(v.type, op), this.axis.lookup(v).constancy);
  }

  /** The register types standing for `v`'s type. */
  expand(t: Type, op: Operation): Type[] {
    if (!(t instanceof RankedTensorType)) return [registerType(t)];
    return new Array(regLayout(t, op).numRegs).fill(registerType(t));
  }

  /** The lowered block standing for source block `src` (created on first use; its arguments bound). */
  blockFor(src: Block, user: Operation): Block {
    const hit = this.blocks.get(src);
    if (hit) return hit;
    const types = src.args.flatMap((a) => this.expand(a.type, user));
    const blk = this.region.addBlock(new Block(types));
    let k = 0;
    for (const a of src.args) {
      const n = this.expand(a.type, user).length;
      this.set(a, blk.args.slice(k, k + n));
      k += n;
    }
    this.blocks.set(src, blk);
    return blk;
  }

  /** `build()` once per kernel, in the prologue (dominating every block). */
  hoist(key: string, build: () => Value): Value {
    const hit = this.hoisted.get(key);
    if (hit) return hit;
    const saved = this.b.insertionPoint;
    this.b.setInsertionPoint(this.prologueEnd);
    const v = build();
    this.b.restoreInsertionPoint(saved);
    this.hoisted.set(key, v);
    return v;
  }

  /** `%tid.x`. */
  tid(): Value {
    return this.hoist('tid', () => this.e.sreg('tid.x'));
  }
  /** The predicate `tid.x == 0`: thread 0 does what is done once per program (a scalar store, a print). */
  firstThread(): Value {
    return this.hoist('tid0', () => this.e.setp('eq', 'b', this.tid(), this.e.imm(this.tid().type, 0)));
  }
  /** The lane id (`tid.x % threadsPerWarp`). */
  laneId(): Value {
    return this.hoist('lane', () => this.e.and(this.tid(), this.e.imm(this.tid().type, this.threadsPerWarp - 1)));
  }
  /** The warp id (`tid.x / threadsPerWarp`). */
  warpId(): Value {
    return this.hoist('warp', () => this.e.shrU(this.tid(), Math.log2(this.threadsPerWarp)));
  }
  /** The shared-window address of dynamic shared memory. */
  smemBase(): Value {
    return this.hoist('smem', () => this.e.smemBase());
  }

  /** What this thread's lane and warp ids add to coordinate `d` of layout `l` (hoisted). */
  threadCoord(l: RegLayout, d: number): Value {
    return this.hoist(`coord:${l.key}:${d}`, () => {
      const along = (bases: readonly number[][]) => bases.map((b) => b[d]);
      const parts = [...this.idTerms(this.laneId(), along(l.laneBases)), ...this.idTerms(this.warpId(), along(l.warpBases))];
      if (!parts.length) return this.e.imm(this.tid().type, 0);
      const combine = disjointBits(l, d) ? (a: Value, b: Value) => this.e.or(a, b) : (a: Value, b: Value) => this.e.xor(a, b);
      return parts.reduce(combine);
    });
  }

  /**
   * The terms `id` contributes when bit k of it adds `values[k]` (combined by XOR, or OR where
   * disjoint): each run of bits mapping to consecutive powers of two is one mask and shift.
   */
  idTerms(id: Value, values: readonly number[]): Value[] {
    const e = this.e;
    const out: Value[] = [];
    let k = 0;
    while (k < values.length) {
      const b = values[k];
      if (b === 0) {
        k++;
        continue;
      }
      if ((b & (b - 1)) !== 0) {
        // A basis that is not a power of two: bit * b.
        out.push(e.mulImm(e.shrU(e.and(id, e.imm(id.type, 1 << k)), k), b));
        k++;
        continue;
      }
      let n = 1;
      while (k + n < values.length && values[k + n] === b << n) n++;
      const field = e.and(id, e.imm(id.type, ((1 << n) - 1) << k));
      const shift = Math.log2(b) - k;
      out.push(shift >= 0 ? e.shl(field, shift) : e.shrU(field, -shift));
      k += n;
    }
    return out;
  }

  /** Coordinate `d` of the element register `r` of layout `l` holds. */
  coord(l: RegLayout, r: number, d: number): Value {
    const t = this.threadCoord(l, d);
    const c = l.regCoords[r][d];
    if (c === 0) return t;
    const imm = this.e.imm(t.type, c);
    return disjointBits(l, d) ? this.e.add(t, imm) : this.e.xor(t, imm);
  }

  /** The row-major index of register `r`'s element over the dims of `l` other than `skip` (a runtime value). */
  rowMajorIndex(l: RegLayout, r: number, skip = -1): Value {
    let acc: Value | null = null;
    let stride = 1;
    for (let d = l.shape.length - 1; d >= 0; d--) {
      if (d === skip) continue;
      const term = this.e.mulImm(this.coord(l, r, d), stride);
      acc = acc ? this.e.add(acc, term) : term;
      stride *= l.shape[d];
    }
    return acc ?? this.e.imm(I32, 0);
  }

  /** The layout of a tensor-typed value, blaming `op`. */
  layoutOf(v: Value | Type, op: Operation): RegLayout {
    const t = 'type' in v ? v.type : v;
    if (!(t instanceof RankedTensorType)) throw internalError(op, `expected a tensor, got '${t}'`);
    return regLayout(t, op);
  }

  /** Lowers the ops of a single-block region (not its terminator) with `args` bound to its arguments; returns the terminator. */
  lowerBody(block: Block, args: Value[][], owner: Operation): Operation {
    if (block.args.length !== args.length) throw internalError(owner, `region takes ${block.args.length} arguments, given ${args.length}`);
    block.args.forEach((a, k) => this.set(a, args[k]));
    for (const op of block) {
      if (op.hasTrait(Terminator)) return op;
      this.lowerOp(this, op);
    }
    throw targetError(owner, 'region has no terminator');
  }

  /** Lowers a single-block region in place and returns the registers its terminator yields (reduce/scan combiners). */
  inlineRegion(block: Block, args: Value[][], owner: Operation): Value[][] {
    const term = this.lowerBody(block, args, owner);
    return term.operandValues().map((v) => this.get(v, term));
  }
}

/** The located error for a Hopper-only op printed for an older architecture (the PTX would not assemble). */
export function requireHopper(ctx: LoweringContext, op: Operation, what: string): void {
  if (ctx.e.arch !== 'sm_90a') throw targetError(op, `${what} needs sm_90a; it cannot be printed for ${ctx.e.arch} (compile with --arch sm_90a)`);
}
