/**
 * A kernel's hidden tensor-map parameters: a `!tt.tensordesc` argument whose TMA tensor map the
 * launcher builds from other arguments instead of taking it from the caller. `pointer-to-tma`
 * adds them for pointer loads it turns into TMA copies; the nvptx target describes them to the
 * launcher (`"kind": "tensormap"`), and the interpreter builds them the same way.
 *
 *   %a_map: !tt.tensordesc<tensor<128x64xf16>> {tir.tensormap = {base = 0 : i32, shape = [3 : i32, 5 : i32], strides = [6 : i32]}}
 *
 * The tensor starts at the pointer passed as argument `base`; its shape (outermost dim first) is
 * the integer arguments `shape`, its strides in elements the integer arguments `strides`, one per
 * dim but the innermost, whose stride is 1. Hidden parameters come after every other parameter.
 * An entry may also be a product of integer arguments and a constant, `{params = [2 : i32, 3 : i32],
 * times = 64 : i64}` (a descriptor the kernel makes over a (Z * H * N_CTX, 64) view).
 *
 * A shape entry of -1 is an unbounded dim: the kernel's copies along it stand for unmasked
 * pointer loads, whose every address is inside the base pointer's allocation, so the launcher
 * gives the dim every coordinate whose address stays inside it (`unboundedExtent`), and no valid
 * read becomes a zero. `positive` (optional) lists integer arguments that must be greater than
 * zero at launch (a coordinate divided by one is then never negative); the launcher refuses a
 * launch where one is not.
 */
import { ArrayAttr, DictionaryAttr, IntegerAttr, type Attribute } from '../../ir/attributes.js';
import type { Operation } from '../../ir/ir.js';
import { IntegerType, signless, type Type } from '../../ir/types.js';
import { argAttrsOf } from '../../ir/function-syntax.js';
import { PointerType, TensorDescType } from './types.js';

/** The argument attribute that marks a hidden tensor-map parameter. */
export const TENSORMAP_ATTR = 'tir.tensormap';

/** A `shape` entry for a dim with no bound (see `unboundedExtent`). */
export const UNBOUNDED = -1;

/** The most an unbounded dim gets: past every int32 coordinate (a map of 2^32 faults on an H200). */
export const UNBOUNDED_EXTENT = 2 ** 31;

/**
 * The extent of an unbounded dim `stride` elements apart over an allocation of `rest` elements
 * from the base (null: unknown): the coordinates whose address stays inside it, at most
 * `UNBOUNDED_EXTENT` (tools/gpu/runner.py's `unbounded_extent` is the launcher's copy of this rule).
 */
export function unboundedExtent(rest: number | null, stride: number): number {
  if (rest === null) return UNBOUNDED_EXTENT;
  return Math.max(1, Math.min(UNBOUNDED_EXTENT, Math.ceil(rest / stride)));
}

/** A shape or stride of a hidden tensor map: an integer argument (its index), or the product of integer arguments and a constant. */
export type TensormapTerm = number | { readonly params: readonly number[]; readonly times: number };

/** The argument indices term `t` reads. */
export const termParams = (t: TensormapTerm): readonly number[] => (typeof t === 'number' ? (t === UNBOUNDED ? [] : [t]) : t.params);

/** The value of term `t` given each argument's value. */
export function termValue(t: TensormapTerm, arg: (k: number) => number): number {
  if (typeof t === 'number') return arg(t);
  return t.params.reduce((p, k) => p * arg(k), t.times);
}

/** Where a hidden tensor map's tensor comes from: argument indices of its base pointer, shape and strides. */
export interface HostTensormap {
  readonly base: number;
  /** Outermost dim first; `UNBOUNDED` for a dim without a bound. */
  readonly shape: readonly TensormapTerm[];
  /** In elements, outermost dim first; the innermost dim's stride (1) is not listed. */
  readonly strides: readonly TensormapTerm[];
  /** Integer arguments that must be > 0 at launch (empty: none). */
  readonly positive: readonly number[];
}

const i32 = (v: number): IntegerAttr => IntegerAttr.get(v, IntegerType.get(32));

/** The attribute of term `t`: an argument index, or `{params = [...], times = C : i64}`. */
function termAttr(t: TensormapTerm): Attribute {
  if (typeof t === 'number') return i32(t);
  return DictionaryAttr.get([['params', ArrayAttr.get(t.params.map(i32))], ['times', IntegerAttr.get(t.times, IntegerType.get(64))]]);
}

/** The attribute value describing `h`. */
export function tensormapAttr(h: HostTensormap): DictionaryAttr {
  return DictionaryAttr.get([
    ['base', i32(h.base)],
    ...(h.positive.length ? [['positive', ArrayAttr.get(h.positive.map(i32))] as [string, Attribute]] : []),
    ['shape', ArrayAttr.get(h.shape.map(termAttr))],
    ['strides', ArrayAttr.get(h.strides.map(termAttr))],
  ]);
}

/** Attribute `a` read as a term, or null. */
function parseTerm(a: Attribute): TensormapTerm | null {
  if (a instanceof IntegerAttr) return Number(a.value);
  if (!(a instanceof DictionaryAttr) || a.entries.length !== 2) return null;
  const params = a.get('params');
  const times = a.get('times');
  if (!(params instanceof ArrayAttr) || !params.value.every((x) => x instanceof IntegerAttr) || !(times instanceof IntegerAttr)) return null;
  return { params: params.value.map((x) => Number((x as IntegerAttr).value)), times: Number(times.value) };
}

/** `value` read as a description, or why it is not one. */
function parseTensormap(value: Attribute): HostTensormap | string {
  if (!(value instanceof DictionaryAttr)) return `'${TENSORMAP_ATTR}' must be a dictionary {base, shape, strides}`;
  const base = value.get('base');
  const list = (name: string): number[] | null => {
    const a = value.get(name);
    if (!(a instanceof ArrayAttr) || !a.value.every((x) => x instanceof IntegerAttr)) return null;
    return a.value.map((x) => Number((x as IntegerAttr).value));
  };
  const terms = (name: string): TensormapTerm[] | null => {
    const a = value.get(name);
    if (!(a instanceof ArrayAttr)) return null;
    const ts = a.value.map(parseTerm);
    return ts.every((t) => t !== null) ? (ts as TensormapTerm[]) : null;
  };
  const shape = terms('shape');
  const strides = terms('strides');
  const given = value.get('positive') !== undefined;
  const positive = given ? list('positive') : [];
  if (!(base instanceof IntegerAttr) || !shape || !strides || !positive || value.entries.length !== (given ? 4 : 3)) {
    return `'${TENSORMAP_ATTR}' must be {base = i : i32, [positive = [...],] shape = [...], strides = [...]} of argument indices (or {params = [...], times = C : i64} products)`;
  }
  return { base: Number(base.value), shape, strides, positive };
}

/** The `tir.tensormap` attribute of argument `k` of `fn`, if any. */
const attrOf = (fn: Operation, k: number): Attribute | undefined => argAttrsOf(fn, k).find(([name]) => name === TENSORMAP_ATTR)?.[1];

/** The hidden tensor map argument `k` of function `fn` stands for, or null when it is an ordinary argument. */
export function tensormapOf(fn: Operation, k: number): HostTensormap | null {
  const attr = attrOf(fn, k);
  if (!attr) return null;
  const h = parseTensormap(attr);
  return typeof h === 'string' ? null : h;
}

/** Why the `tir.tensormap` attributes of `fn`'s arguments (of types `inputs`) are wrong, or undefined. */
export function verifyTensormapArgs(fn: Operation, inputs: readonly Type[]): string | undefined {
  let hidden = false;
  for (let k = 0; k < inputs.length; k++) {
    const attr = attrOf(fn, k);
    if (!attr) {
      if (hidden) return `argument #${k}: follows a hidden tensor-map parameter; those come after every other parameter`;
      continue;
    }
    hidden = true;
    const h = parseTensormap(attr);
    if (typeof h === 'string') return `argument #${k}: ${h}`;
    const t = inputs[k];
    if (!(t instanceof TensorDescType)) return `argument #${k}: '${TENSORMAP_ATTR}' is for '!tt.tensordesc' arguments, not '${t}'`;
    const rank = t.blockType.rank;
    if (h.shape.length !== rank || h.strides.length !== rank - 1) {
      return `argument #${k}: a rank-${rank} tensor map needs ${rank} shape and ${rank - 1} stride arguments, got ${h.shape.length} and ${h.strides.length}`;
    }
    const inRange = (j: number) => j >= 0 && j < k && !(inputs[j] instanceof TensorDescType);
    const base = inputs[h.base];
    if (!inRange(h.base) || !(base instanceof PointerType) || signless(base.pointee) !== signless(t.blockType.elementType)) {
      return `argument #${k}: base #${h.base} must be an earlier '!tt.ptr<${signless(t.blockType.elementType)}>' argument`;
    }
    for (const j of [...h.shape.flatMap(termParams), ...h.strides.flatMap(termParams), ...h.positive]) {
      if (!inRange(j) || !(inputs[j] instanceof IntegerType)) return `argument #${k}: shape, stride and positive #${j} must be earlier integer arguments (or -1 in shape: unbounded)`;
    }
  }
  return undefined;
}
