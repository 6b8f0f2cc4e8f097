/**
 * A generator of small, valid tt-level kernels for differential testing (docs/fuzzing.md,
 * "Differential testing"): the form Triton's frontend emits (no layouts), with random
 * power-of-two 1-D or 2-D tiles, program ids, make_range / splat / expand_dims / broadcast
 * offsets, masked loads and stores against scalar bound arguments, f32 elementwise arithmetic,
 * selects, casts, reductions, transposes, f16 dots (in a K loop) and loops with loop-carried tensors.
 *
 * Each kernel comes with its launch: the grid, the buffers (inputs filled at random, outputs
 * filled with a sentinel so that a store outside the mask shows) and the scalar arguments.
 */
import { rng } from '../interpreter/cli.js';

/** One buffer argument of a generated kernel. */
export interface BufferSpec {
  /** The argument's name (without `%`). */
  name: string;
  /** Element type: f32, f16 or i32. */
  elt: 'f32' | 'f16' | 'i32';
  /** Number of elements. */
  size: number;
  /** `in`: filled with random values; `out`: filled with a sentinel and compared after the launch. */
  role: 'in' | 'out';
}

/** A generated kernel and its launch. */
export interface GeneratedKernel {
  /** The module's text (one `tt.func public @kernel`). */
  text: string;
  /** The kernel's name. */
  name: string;
  /** Grid [x, y, z]. */
  grid: [number, number, number];
  /** Buffer arguments, in argument order (before the scalars). */
  buffers: BufferSpec[];
  /** The scalar i32 arguments (the bounds), in order after the buffers. */
  scalars: number[];
  /** Features used (`reduce`, `dot`, `loop`, `trans`, ...): `reduce` and `dot` allow float reassociation. */
  features: Set<string>;
}

/** A random source with helpers. */
class Rand {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = rng(seed);
  }
  /** A float in [0, 1). */
  float(): number {
    return this.next();
  }
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  /** One element of `xs`. */
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** The type text of a tensor of `shape` and element `elt`. */
const ty = (shape: readonly number[], elt: string): string => `tensor<${shape.join('x')}x${elt}>`;
/** A float literal MLIR accepts. */
const flt = (v: number): string => v.toExponential(6);

/** Builds one kernel's text. */
class KernelBuilder {
  readonly body: string[] = [];
  readonly buffers: BufferSpec[] = [];
  readonly features = new Set<string>();
  private n = 0;
  private indent = '    ';
  constructor(readonly r: Rand) {}

  /** A fresh SSA name. */
  fresh(): string {
    return `%v${this.n++}`;
  }
  /** Emits `%x = <rhs>` and returns `%x`. */
  def(rhs: string): string {
    const v = this.fresh();
    this.body.push(`${this.indent}${v} = ${rhs}`);
    return v;
  }
  /** Emits a line without a result. */
  line(text: string): void {
    this.body.push(this.indent + text);
  }
  /** Runs `f` with the body indented one level deeper (inside a region). */
  nested<T>(f: () => T): T {
    const saved = this.indent;
    this.indent += '  ';
    try {
      return f();
    } finally {
      this.indent = saved;
    }
  }
  /** Adds a buffer argument and returns its SSA name. */
  buffer(elt: BufferSpec['elt'], size: number, role: BufferSpec['role']): string {
    const name = `${role}${this.buffers.length}`;
    this.buffers.push({ name, elt, size, role });
    return `%${name}`;
  }
  /** An i32 scalar constant. */
  i32(v: number): string {
    return this.def(`arith.constant ${v} : i32`);
  }
  /** A splat constant tensor. */
  splatConst(shape: readonly number[], elt: string, v: number): string {
    const lit = elt.startsWith('i') ? String(v) : flt(v);
    return this.def(`arith.constant dense<${lit}> : ${ty(shape, elt)}`);
  }
  /** `tt.splat` of a scalar. */
  splat(scalar: string, scalarType: string, shape: readonly number[], elt = scalarType): string {
    return this.def(`tt.splat ${scalar} : ${scalarType} -> ${ty(shape, elt)}`);
  }
  /** Pointers `base + offs` for a tensor of offsets of `shape`. */
  ptrs(base: string, elt: string, offs: string, shape: readonly number[]): string {
    const p = this.splat(base, `!tt.ptr<${elt}>`, shape, `!tt.ptr<${elt}>`);
    return this.def(`tt.addptr ${p}, ${offs} : ${ty(shape, `!tt.ptr<${elt}>`)}, ${ty(shape, 'i32')}`);
  }
  /** A masked load with a zero `other`. */
  load(ptrs: string, mask: string, shape: readonly number[], elt: string): string {
    const other = this.splatConst(shape, elt, 0);
    return this.def(`tt.load ${ptrs}, ${mask}, ${other} : ${ty(shape, `!tt.ptr<${elt}>`)}`);
  }
  /** A masked store. */
  store(ptrs: string, value: string, mask: string, shape: readonly number[], elt: string): void {
    this.line(`tt.store ${ptrs}, ${value}, ${mask} : ${ty(shape, `!tt.ptr<${elt}>`)}`);
  }
}

/** The index space of a kernel's tile: offsets into a row-major buffer and their mask. */
interface Tile {
  shape: number[];
  /** i32 offsets of each element into a buffer of `size` elements. */
  offs: string;
  /** i1 mask: the element is inside the bounds. */
  mask: string;
  /** Elements of one buffer ("sheet") the grid covers. */
  size: number;
  /** 2-D only: the row indices (Rx1, i32), the row mask (Rx1, i1), the column indices (1xC) and mask (1xC). */
  rows?: string;
  rowMask?: string;
  cols?: string;
  colMask?: string;
  /** 2-D only: the row stride of the buffers. */
  stride?: number;
}

/** Emits the program-id based offsets and masks of a 1-D or 2-D tile; returns it and the grid. */
function makeTile(b: KernelBuilder, scalars: number[]): { tile: Tile; grid: [number, number, number]; args: string[] } {
  const r = b.r;
  if (r.chance(0.4)) {
    const size = r.pick([16, 32, 64, 128, 256, 256, 512, 1024]);
    const g = r.int(1, 3);
    const total = size * g;
    scalars.push(r.chance(0.3) ? total : r.int(1, total));
    const pid = b.def('tt.get_program_id x : i32');
    const base = b.def(`arith.muli ${pid}, ${b.i32(size)} : i32`);
    const range = b.def(`tt.make_range {end = ${size} : i32, start = 0 : i32} : ${ty([size], 'i32')}`);
    const offs = b.def(`arith.addi ${b.splat(base, 'i32', [size])}, ${range} : ${ty([size], 'i32')}`);
    const mask = b.def(`arith.cmpi slt, ${offs}, ${b.splat('%n0', 'i32', [size])} : ${ty([size], 'i32')}`);
    return { tile: { shape: [size], offs, mask, size: total }, grid: [g, 1, 1], args: ['%n0'] };
  }
  const R = r.pick([16, 32, 64, 128]);
  const C = r.pick([16, 32, 64]);
  const gr = r.int(1, 2);
  const gc = r.int(1, 2);
  const rowsTotal = R * gr;
  const colsTotal = C * gc;
  scalars.push(r.chance(0.3) ? rowsTotal : r.int(1, rowsTotal), r.chance(0.3) ? colsTotal : r.int(1, colsTotal));
  const shape = [R, C];
  const index = (axis: 'x' | 'y', size: number, bound: string, expandAxis: number): [string, string] => {
    const pid = b.def(`tt.get_program_id ${axis} : i32`);
    const base = b.def(`arith.muli ${pid}, ${b.i32(size)} : i32`);
    const range = b.def(`tt.make_range {end = ${size} : i32, start = 0 : i32} : ${ty([size], 'i32')}`);
    const idx = b.def(`arith.addi ${b.splat(base, 'i32', [size])}, ${range} : ${ty([size], 'i32')}`);
    const s2 = expandAxis === 1 ? [size, 1] : [1, size];
    const idx2 = b.def(`tt.expand_dims ${idx} {axis = ${expandAxis} : i32} : ${ty([size], 'i32')} -> ${ty(s2, 'i32')}`);
    const m = b.def(`arith.cmpi slt, ${idx2}, ${b.splat(bound, 'i32', s2)} : ${ty(s2, 'i32')}`);
    return [idx2, m];
  };
  const [rows, rowMask] = index('x', R, '%n0', 1);
  const [cols, colMask] = index('y', C, '%n1', 0);
  const rowOff = b.def(`arith.muli ${rows}, ${b.splatConst([R, 1], 'i32', colsTotal)} : ${ty([R, 1], 'i32')}`);
  const bro = (v: string, from: number[], elt: string): string => b.def(`tt.broadcast ${v} : ${ty(from, elt)} -> ${ty(shape, elt)}`);
  const offs = b.def(`arith.addi ${bro(rowOff, [R, 1], 'i32')}, ${bro(cols, [1, C], 'i32')} : ${ty(shape, 'i32')}`);
  const mask = b.def(`arith.andi ${bro(rowMask, [R, 1], 'i1')}, ${bro(colMask, [1, C], 'i1')} : ${ty(shape, 'i1')}`);
  return { tile: { shape, offs, mask, size: rowsTotal * colsTotal, rows, rowMask, cols, colMask, stride: colsTotal }, grid: [gr, gc, 1], args: ['%n0', '%n1'] };
}

/** Adds an f32 value computed from the pool (or new loads) to the pool. */
function step(b: KernelBuilder, t: Tile, pool: string[], ints: string[]): void {
  const r = b.r;
  const T = ty(t.shape, 'f32');
  const any = (): string => r.pick(pool);
  const recent = (): string => pool[Math.max(0, pool.length - 1 - r.int(0, 2))];
  const kind = r.int(0, 15);
  const is2d = t.shape.length === 2;
  if (kind <= 3) {
    const op = r.pick(['addf', 'subf', 'mulf', 'maximumf', 'minimumf']);
    pool.push(b.def(`arith.${op} ${recent()}, ${any()} : ${T}`));
  } else if (kind === 4) {
    pool.push(b.def(`arith.mulf ${recent()}, ${b.splatConst(t.shape, 'f32', r.pick([0.5, -1.25, 3, 0.1]))} : ${T}`));
  } else if (kind === 5) {
    const x = recent();
    const y = any();
    const c = b.def(`arith.cmpf ${r.pick(['olt', 'ogt', 'oge'])}, ${x}, ${y} : ${T}`);
    pool.push(b.def(`arith.select ${c}, ${x}, ${y} : ${ty(t.shape, 'i1')}, ${T}`));
  } else if (kind === 6) {
    b.features.add('cast');
    const h = b.def(`arith.truncf ${recent()} : ${T} to ${ty(t.shape, 'f16')}`);
    pool.push(b.def(`arith.extf ${h} : ${ty(t.shape, 'f16')} to ${T}`));
  } else if (kind === 7) {
    b.features.add('cast');
    pool.push(b.def(`arith.sitofp ${r.pick(ints)} : ${ty(t.shape, 'i32')} to ${T}`));
  } else if (kind === 8 && r.chance(0.3)) {
    reduce(b, t, ints, r.pick(ints), 'i32');
  } else if (kind === 8) {
    const op = r.pick(['addi', 'muli', 'xori', 'andi', 'subi']);
    ints.push(b.def(`arith.${op} ${r.pick(ints)}, ${r.chance(0.5) ? r.pick(ints) : b.splatConst(t.shape, 'i32', r.int(1, 37))} : ${ty(t.shape, 'i32')}`));
  } else if (kind === 9) {
    const p = b.ptrs(b.buffer('f32', t.size, 'in'), 'f32', t.offs, t.shape);
    pool.push(b.load(p, t.mask, t.shape, 'f32'));
  } else if (kind === 10 || kind === 11) {
    reduce(b, t, pool, recent());
  } else if (kind === 12 && is2d && t.shape[0] === t.shape[1]) {
    b.features.add('trans');
    pool.push(b.def(`tt.trans ${recent()} {order = array<i32: 1, 0>} : ${T} -> ${T}`));
  } else if (kind === 12 && is2d) {
    // Transposed, scaled in the transposed shape, transposed back.
    b.features.add('trans');
    const TT = ty([t.shape[1], t.shape[0]], 'f32');
    const x = b.def(`tt.trans ${recent()} {order = array<i32: 1, 0>} : ${T} -> ${TT}`);
    const y = b.def(`arith.mulf ${x}, ${b.splatConst([t.shape[1], t.shape[0]], 'f32', 2)} : ${TT}`);
    pool.push(b.def(`tt.trans ${y} {order = array<i32: 1, 0>} : ${TT} -> ${T}`));

  } else if (kind === 13) {
    loop(b, t, pool);
  } else if (kind === 14 && is2d) {
    dot(b, t, pool);
  } else {
    pool.push(b.def(`math.absf ${recent()} : ${T}`));
  }
}

/** A sum or max reduction of `x` (f32 or i32) along an axis, broadcast back to the tile's shape. */
function reduce(b: KernelBuilder, t: Tile, pool: string[], x: string, elt: 'f32' | 'i32' = 'f32'): void {
  b.features.add(elt === 'f32' ? 'reduce' : 'reduce-i32');
  const r = b.r;
  const T = ty(t.shape, elt);
  const combine = r.pick(elt === 'f32' ? ['addf', 'maximumf'] : ['addi', 'maxsi', 'xori']);
  const axis = t.shape.length === 2 ? r.int(0, 1) : 0;
  const out = t.shape.filter((_, k) => k !== axis);
  const outT = out.length ? ty(out, elt) : elt;
  const res = b.def(`"tt.reduce"(${x}) <{axis = ${axis} : i32}> ({`);
  const [a1, a2] = [b.fresh(), b.fresh()];
  b.nested(() => {
    b.body.push(`    ^bb0(${a1}: ${elt}, ${a2}: ${elt}):`);
    const s = b.def(`arith.${combine} ${a1}, ${a2} : ${elt}`);
    b.line(`tt.reduce.return ${s} : ${elt}`);
  });
  b.line(`}) : (${T}) -> ${outT}`);
  if (!out.length) {
    pool.push(b.splat(res, elt, t.shape));
    return;
  }
  const s2 = axis === 0 ? [1, t.shape[1]] : [t.shape[0], 1];
  const e = b.def(`tt.expand_dims ${res} {axis = ${axis} : i32} : ${outT} -> ${ty(s2, elt)}`);
  pool.push(b.def(`tt.broadcast ${e} : ${ty(s2, elt)} -> ${T}`));
}

/**
 * An `scf.for` of 1..3 trips carrying the accumulator (a pool value) and the pointers into a
 * buffer of one sheet per trip: acc = op(acc, load) each trip.
 */
function loop(b: KernelBuilder, t: Tile, pool: string[]): void {
  b.features.add('loop');
  const r = b.r;
  const trips = r.int(1, 3);
  const T = ty(t.shape, 'f32');
  const PT = ty(t.shape, '!tt.ptr<f32>');
  const p0 = b.ptrs(b.buffer('f32', t.size * trips, 'in'), 'f32', t.offs, t.shape);
  const stride = b.splatConst(t.shape, 'i32', t.size);
  const init = pool[pool.length - 1];
  const [lo, hi, one] = [b.i32(0), b.i32(trips), b.i32(1)];
  const res = b.fresh();
  const [iv, acc, p] = [b.fresh(), b.fresh(), b.fresh()];
  b.line(`${res}:2 = scf.for ${iv} = ${lo} to ${hi} step ${one} iter_args(${acc} = ${init}, ${p} = ${p0}) -> (${T}, ${PT})  : i32 {`);
  b.nested(() => {
    const x = b.load(p, t.mask, t.shape, 'f32');
    const op = r.pick(['addf', 'maximumf', 'mulf', 'subf']);
    let next = b.def(`arith.${op} ${acc}, ${x} : ${T}`);
    if (r.chance(0.3)) next = b.def(`arith.mulf ${next}, ${b.splatConst(t.shape, 'f32', 0.5)} : ${T}`);
    const p2 = b.def(`tt.addptr ${p}, ${stride} : ${PT}, ${ty(t.shape, 'i32')}`);
    b.line(`scf.yield ${next}, ${p2} : ${T}, ${PT}`);
  });
  b.line('}');
  pool.push(`${res}#0`);
}

/**
 * acc = A (R x K f16) * B (K x C f16) over 1..2 K blocks in an `scf.for`, as a matmul kernel
 * does: A rows and B columns masked by the bounds; A is R_total x K_total, B K_total x C_total.
 */
function dot(b: KernelBuilder, t: Tile, pool: string[]): void {
  b.features.add('dot');
  const r = b.r;
  const [R, C] = t.shape;
  const K = r.pick([16, 32]);
  const kt = r.int(1, 2);
  const rowsTotal = t.size / t.stride!;
  const kTotal = K * kt;
  const a = b.buffer('f16', rowsTotal * kTotal, 'in');
  const bb = b.buffer('f16', kTotal * t.stride!, 'in');
  const kr = b.def(`tt.make_range {end = ${K} : i32, start = 0 : i32} : ${ty([K], 'i32')}`);
  const kRow = b.def(`tt.expand_dims ${kr} {axis = 0 : i32} : ${ty([K], 'i32')} -> ${ty([1, K], 'i32')}`);
  const kCol = b.def(`tt.expand_dims ${kr} {axis = 1 : i32} : ${ty([K], 'i32')} -> ${ty([K, 1], 'i32')}`);
  const aOffR = b.def(`arith.muli ${t.rows}, ${b.splatConst([R, 1], 'i32', kTotal)} : ${ty([R, 1], 'i32')}`);
  const AT = [R, K];
  const BT = [K, C];
  const aOffs = b.def(`arith.addi ${b.def(`tt.broadcast ${aOffR} : ${ty([R, 1], 'i32')} -> ${ty(AT, 'i32')}`)}, ${b.def(`tt.broadcast ${kRow} : ${ty([1, K], 'i32')} -> ${ty(AT, 'i32')}`)} : ${ty(AT, 'i32')}`);
  const bOffK = b.def(`arith.muli ${kCol}, ${b.splatConst([K, 1], 'i32', t.stride!)} : ${ty([K, 1], 'i32')}`);
  const bOffs = b.def(`arith.addi ${b.def(`tt.broadcast ${bOffK} : ${ty([K, 1], 'i32')} -> ${ty(BT, 'i32')}`)}, ${b.def(`tt.broadcast ${t.cols} : ${ty([1, C], 'i32')} -> ${ty(BT, 'i32')}`)} : ${ty(BT, 'i32')}`);
  const aMask = b.def(`tt.broadcast ${t.rowMask} : ${ty([R, 1], 'i1')} -> ${ty(AT, 'i1')}`);
  const bMask = b.def(`tt.broadcast ${t.colMask} : ${ty([1, C], 'i1')} -> ${ty(BT, 'i1')}`);
  const pa0 = b.ptrs(a, 'f16', aOffs, AT);
  const pb0 = b.ptrs(bb, 'f16', bOffs, BT);
  const aStep = b.splatConst(AT, 'i32', K);
  const bStep = b.splatConst(BT, 'i32', K * t.stride!);
  const accT = ty(t.shape, 'f32');
  const init = r.chance(0.5) ? b.splatConst(t.shape, 'f32', 0) : pool[pool.length - 1];
  const [lo, hi, one] = [b.i32(0), b.i32(kt), b.i32(1)];
  const res = b.fresh();
  const [iv, acc, pa, pb] = [b.fresh(), b.fresh(), b.fresh(), b.fresh()];
  const PA = ty(AT, '!tt.ptr<f16>');
  const PB = ty(BT, '!tt.ptr<f16>');
  b.line(`${res}:3 = scf.for ${iv} = ${lo} to ${hi} step ${one} iter_args(${acc} = ${init}, ${pa} = ${pa0}, ${pb} = ${pb0}) -> (${accT}, ${PA}, ${PB})  : i32 {`);
  b.nested(() => {
    const x = b.load(pa, aMask, AT, 'f16');
    const y = b.load(pb, bMask, BT, 'f16');
    const d = b.def(`tt.dot ${x}, ${y}, ${acc} : ${ty(AT, 'f16')} * ${ty(BT, 'f16')} -> ${accT}`);
    const pa2 = b.def(`tt.addptr ${pa}, ${aStep} : ${PA}, ${ty(AT, 'i32')}`);
    const pb2 = b.def(`tt.addptr ${pb}, ${bStep} : ${PB}, ${ty(BT, 'i32')}`);
    b.line(`scf.yield ${d}, ${pa2}, ${pb2} : ${accT}, ${PA}, ${PB}`);
  });
  b.line('}');
  pool.push(`${res}#0`);
}

/** Stores `v` (f32, the tile's shape) to a new output buffer, sometimes through a transpose of value, offsets and mask. */
function output(b: KernelBuilder, t: Tile, v: string, elt: 'f32' | 'f16' | 'i32', valueElt = elt): void {
  let [value, offs, mask, shape] = [v, t.offs, t.mask, t.shape];
  if (valueElt === 'f32' && elt === 'f16') value = b.def(`arith.truncf ${value} : ${ty(shape, 'f32')} to ${ty(shape, 'f16')}`);
  if (shape.length === 2 && b.r.chance(0.25)) {
    b.features.add('trans');
    const tr = (x: string, e: string): string => b.def(`tt.trans ${x} {order = array<i32: 1, 0>} : ${ty(shape, e)} -> ${ty([shape[1], shape[0]], e)}`);
    value = tr(value, elt);
    offs = tr(offs, 'i32');
    mask = tr(mask, 'i1');
    shape = [shape[1], shape[0]];
  }
  const p = b.ptrs(b.buffer(elt, t.size, 'out'), elt, offs, shape);
  b.store(p, value, mask, shape, elt);
}

/** Generates one kernel from `seed` (the same seed, the same kernel). */
export function generateKernel(seed: number): GeneratedKernel {
  const b = new KernelBuilder(new Rand(seed));
  const r = b.r;
  const scalars: number[] = [];
  const { tile, grid, args } = makeTile(b, scalars);
  const pool: string[] = [];
  const ints: string[] = [tile.offs];
  const loads = r.int(1, 2);
  for (let k = 0; k < loads; k++) pool.push(b.load(b.ptrs(b.buffer('f32', tile.size, 'in'), 'f32', tile.offs, tile.shape), tile.mask, tile.shape, 'f32'));
  const steps = r.int(2, 10);
  for (let k = 0; k < steps; k++) step(b, tile, pool, ints);
  output(b, tile, pool[pool.length - 1], 'f32');
  if (r.chance(0.4)) output(b, tile, r.pick(pool), r.chance(0.5) ? 'f16' : 'f32', 'f32');
  if (ints.length > 1 || r.chance(0.3)) output(b, tile, ints[ints.length - 1], 'i32');
  const bufArgs = b.buffers.map((x) => `%${x.name}: !tt.ptr<${x.elt}> {tt.divisibility = 16 : i32}`);
  const scalarArgs = args.map((a) => `${a}: i32`);
  const text = [
    'module {',
    `  tt.func public @kernel(${[...bufArgs, ...scalarArgs].join(', ')}) attributes {noinline = false} {`,
    ...b.body,
    '    tt.return',
    '  }',
    '}',
    '',
  ].join('\n');
  return { text, name: 'kernel', grid, buffers: b.buffers, scalars, features: b.features };
}
