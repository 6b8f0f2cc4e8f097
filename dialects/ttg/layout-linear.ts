/**
 * A small linear-layout engine over GF(2), after Triton's `LinearLayout`: each input dimension
 * (`register`, `lane`, `warp`, `block`) has one basis vector per bit, and the tensor coordinates
 * of an input are the XOR of the bases of its set bits. Only what the ttg layout library needs.
 */

/** One input dimension: its name and one basis (a vector over the output dims) per bit. */
export interface InDim {
  name: string;
  bases: number[][];
}

/** One output dimension: its name and size (a power of two). */
export interface OutDim {
  name: string;
  size: number;
}

/** The name Triton gives tensor dimension `k`. */
export const dimName = (k: number): string => `dim${k}`;

/** `dim0 .. dim{rank-1}`. */
export const standardDims = (rank: number): string[] => Array.from({ length: rank }, (_, k) => dimName(k));

const log2 = (n: number): number => {
  if (!Number.isInteger(n) || n < 1 || (n & (n - 1)) !== 0) throw new Error(`layout size ${n} is not a power of two`);
  return Math.round(Math.log2(n));
};

/** Merges two ordered name lists keeping both relative orders (Triton's `supremum`). */
function supremum(x: readonly string[], y: readonly string[]): string[] {
  const out: string[] = [];
  const xs = new Set(x);
  const ys = new Set(y);
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) (out.push(x[i]), i++, j++);
    else if (!ys.has(x[i])) out.push(x[i++]);
    else if (!xs.has(y[j])) out.push(y[j++]);
    else throw new Error(`dimension orders [${x.join(', ')}] and [${y.join(', ')}] disagree`);
  }
  return [...out, ...x.slice(i), ...y.slice(j)];
}

/** A linear layout: input dims with bases, and ordered output dims with sizes. */
export class LinearLayout {
  constructor(readonly ins: readonly InDim[], readonly outs: readonly OutDim[]) {}

  /** No input and no output dimensions. */
  static empty(): LinearLayout {
    return new LinearLayout([], []);
  }

  /** `inDim` bit k maps to `outDim` = 2^k, for `size` values. */
  static identity1D(size: number, inDim: string, outDim: string): LinearLayout {
    const bases = Array.from({ length: log2(size) }, (_, k) => [1 << k]);
    return new LinearLayout([{ name: inDim, bases }], [{ name: outDim, size }]);
  }

  /** `size` values of `inDim` that all map to 0 of `outDim` (broadcast). */
  static zeros1D(size: number, inDim: string, outDim: string): LinearLayout {
    const bases = Array.from({ length: log2(size) }, () => [0]);
    return new LinearLayout([{ name: inDim, bases }], [{ name: outDim, size: 1 }]);
  }

  /** The bases of `name` (empty when absent). */
  bases(name: string): number[][] {
    return this.ins.find((d) => d.name === name)?.bases ?? [];
  }

  /** The number of values of input dim `name`. */
  inSize(name: string): number {
    return 1 << this.bases(name).length;
  }

  /** The size of output dim `name` (1 when absent). */
  outSize(name: string): number {
    return this.outs.find((d) => d.name === name)?.size ?? 1;
  }

  /** Output dim names in this layout's order. */
  outNames(): string[] {
    return this.outs.map((d) => d.name);
  }

  /** `this * outer`: outer's bases follow this one's, shifted past this one's output sizes. */
  mul(outer: LinearLayout): LinearLayout {
    const inNames = supremum(
      this.ins.map((d) => d.name),
      outer.ins.map((d) => d.name),
    );
    const outNames = supremum(this.outNames(), outer.outNames());
    const extend = (l: LinearLayout, b: number[], shift: boolean): number[] =>
      outNames.map((n) => {
        const k = l.outs.findIndex((d) => d.name === n);
        if (k < 0) return 0;
        return shift ? b[k] * this.outSize(n) : b[k];
      });
    const ins = inNames.map((name) => ({
      name,
      bases: [...this.bases(name).map((b) => extend(this, b, false)), ...outer.bases(name).map((b) => extend(outer, b, true))],
    }));
    const outs = outNames.map((name) => ({ name, size: this.outSize(name) * outer.outSize(name) }));
    return new LinearLayout(ins, outs);
  }

  /** The same layout with output dims in `names` order (all must be present). */
  transposeOuts(names: readonly string[]): LinearLayout {
    const perm = names.map((n) => {
      const k = this.outs.findIndex((d) => d.name === n);
      if (k < 0) throw new Error(`no output dimension ${n}`);
      return k;
    });
    if (perm.length !== this.outs.length) throw new Error('transposeOuts needs every output dimension');
    return new LinearLayout(
      this.ins.map((d) => ({ name: d.name, bases: d.bases.map((b) => perm.map((k) => b[k])) })),
      perm.map((k) => this.outs[k]),
    );
  }

  /** Repeats along the first input dim until each output dim covers `shape` (Triton's `ensureLayoutNotSmallerThan`). */
  ensureNotSmaller(shape: ReadonlyMap<string, number>): LinearLayout {
    if (!this.ins.length) return this;
    const first = this.ins[0].name;
    let ret: LinearLayout = this;
    for (const d of this.outs) {
      const want = shape.get(d.name) ?? 1;
      if (want > d.size) ret = ret.mul(LinearLayout.identity1D(want / d.size, first, d.name));
    }
    return ret;
  }

  /**
   * Zeroes (broadcasts) every basis that reaches past `shape` (Triton's `ensureLayoutNotLargerThan`);
   * with `broadcastRegisters` false such register bases are dropped instead.
   */
  ensureNotLarger(shape: ReadonlyMap<string, number>, broadcastRegisters = true): LinearLayout {
    const ins = this.ins.map((d) => ({ name: d.name, bases: d.bases.map((b) => [...b]) }));
    const drop = new Set<number[]>();
    this.outs.forEach((o, k) => {
      const want = shape.get(o.name) ?? 1;
      if (o.size <= want) return;
      for (const d of ins) {
        for (const b of d.bases) {
          if (b[k] < want) continue;
          if (!broadcastRegisters && d.name === 'register') drop.add(b);
          else b[k] = 0;
        }
      }
    });
    const outs = this.outs.map((o) => ({ name: o.name, size: Math.min(o.size, shape.get(o.name) ?? 1) }));
    return new LinearLayout(
      ins.map((d) => ({ name: d.name, bases: d.bases.filter((b) => !drop.has(b)) })),
      outs,
    );
  }

  /** Removes output dim `name` from every basis (Triton's `removeStandardDim`, without renaming). */
  removeOut(name: string): LinearLayout {
    const k = this.outs.findIndex((d) => d.name === name);
    if (k < 0) return this;
    const cut = <T>(xs: readonly T[]): T[] => xs.filter((_, j) => j !== k);
    return new LinearLayout(
      this.ins.map((d) => ({ name: d.name, bases: d.bases.map(cut) })),
      cut(this.outs),
    );
  }

  /** The same bases with output dims renamed by `rename`. */
  renameOuts(rename: (name: string) => string): LinearLayout {
    return new LinearLayout(this.ins, this.outs.map((d) => ({ name: rename(d.name), size: d.size })));
  }

  /** The same layout with the bases of `inDim` replaced. */
  withBases(inDim: string, bases: number[][]): LinearLayout {
    const has = this.ins.some((d) => d.name === inDim);
    const ins = has ? this.ins.map((d) => (d.name === inDim ? { name: d.name, bases } : d)) : [...this.ins, { name: inDim, bases }];
    return new LinearLayout(ins, this.outs);
  }

  /**
   * For each value of `inDim`, its contribution as a row-major linear index into a tensor whose
   * dims are `dims` (XOR of these per in-dim values gives the element: sizes are powers of two).
   */
  flatContributions(inDim: string, dims: readonly string[]): number[] {
    const flat = this.flatBases(inDim, dims);
    const out = new Array<number>(1 << flat.length).fill(0);
    for (let v = 1; v < out.length; v++) {
      const bit = 31 - Math.clz32(v);
      out[v] = out[v ^ (1 << bit)] ^ flat[bit];
    }
    return out;
  }

  /** What each basis of `inDim` adds as a row-major linear index into a tensor whose dims are `dims`. */
  flatBases(inDim: string, dims: readonly string[]): number[] {
    const strides: number[] = new Array(dims.length);
    let s = 1;
    for (let k = dims.length - 1; k >= 0; k--) ((strides[k] = s), (s *= this.outSize(dims[k])));
    const idx = dims.map((n) => this.outs.findIndex((d) => d.name === n));
    return this.bases(inDim).map((b) => idx.reduce((acc, k, j) => acc + (k < 0 ? 0 : b[k]) * strides[j], 0));
  }

  /** Text form for messages and tests: `register=[[0,1],[0,2]] lane=[..] ... -> dim0:16 dim1:32`. */
  toString(): string {
    const ins = this.ins.map((d) => `${d.name}=[${d.bases.map((b) => `[${b.join(',')}]`).join(',')}]`).join(' ');
    return `${ins} -> ${this.outs.map((d) => `${d.name}:${d.size}`).join(' ')}`;
  }
}

/** Identity along `shape`, filling dims in `order` (minor first); output dims end up in `order` order. */
export function identityStandardND(inDim: string, shape: readonly number[], order: readonly number[]): LinearLayout {
  let ret = LinearLayout.empty();
  for (const d of order) ret = ret.mul(LinearLayout.identity1D(shape[d], inDim, dimName(d)));
  return ret;
}
