/**
 * TritonGPU layout attributes (`#ttg.blocked`, `#ttg.slice`, `#ttg.nvidia_mma`, `#ttg.dot_op`,
 * `#ttg.swizzled_shared`, `#ttg.nvmma_shared`, `#ttg.linear`) declared as data on top of
 * `StructAttr`, and the memory-space attribute `#ttg.shared_memory`. Field order, elision and
 * alias names follow Triton 3.6's printers.
 */
import type { AsmParser, AsmPrinter } from '../../ir/asm.js';
import { Attribute, DialectAttr } from '../../ir/attributes.js';
import { unique } from '../../ir/uniquer.js';
import { StructAttr, type FieldGroup, type FieldValue, type FieldValues, type StructSpec } from './struct-attr.js';

/** `#ttg.shared_memory`: the shared-memory space of a `!ttg.memdesc` (alias `#smem`). */
export class SharedMemorySpaceAttr extends DialectAttr {
  readonly dialect = 'ttg';
  readonly mnemonic = 'shared_memory';
  private constructor() {
    super();
  }
  static get(): SharedMemorySpaceAttr {
    return unique('ttg.shared_memory', () => new SharedMemorySpaceAttr());
  }
  printBody(_p: AsmPrinter): void {}
  override aliasName(): string | null {
    return 'smem';
  }
  /** Nothing follows the mnemonic. */
  static parseBody(_p: AsmParser): SharedMemorySpaceAttr {
    return SharedMemorySpaceAttr.get();
  }
}

// ---- helpers -----------------------------------------------------------------------------

const ones = (n: number): number[] => new Array(n).fill(1);
const reversedRange = (n: number): number[] => Array.from({ length: n }, (_, k) => n - 1 - k);

/** Whether `order` is a permutation of 0..n-1. */
export function isPermutation(order: readonly number[]): boolean {
  const seen = new Set(order);
  return seen.size === order.length && order.every((x) => Number.isInteger(x) && x >= 0 && x < order.length);
}

/** Triton's CTALayout fields, printed only when not the default for `rank`. */
function ctaGroup(rankOf: (v: Record<string, FieldValue>) => number): FieldGroup {
  return {
    group: 'CTALayout',
    fields: [
      { name: 'CTAsPerCGA', kind: 'ints' },
      { name: 'CTASplitNum', kind: 'ints' },
      { name: 'CTAOrder', kind: 'ints' },
    ],
    defaults: (v) => {
      const r = rankOf(v);
      return { CTAsPerCGA: ones(r), CTASplitNum: ones(r), CTAOrder: reversedRange(r) };
    },
  };
}

const lenOf = (name: string) => (v: Record<string, FieldValue>): number => ((v[name] as number[] | undefined) ?? []).length;

function checkCTA(v: FieldValues, rank: number): string | void {
  for (const k of ['CTAsPerCGA', 'CTASplitNum', 'CTAOrder']) {
    const a = v[k] as number[];
    if (a.length !== rank) return `${k} has ${a.length} entries but the layout has rank ${rank}`;
    if (k !== 'CTAOrder') {
      const msg = checkCounts(k, a);
      if (msg) return msg;
    }
  }
  if (!isPermutation(v.CTAOrder as number[])) return `CTAOrder [${(v.CTAOrder as number[]).join(', ')}] is not a permutation`;
}

/** The largest per-dimension count a layout field may hold (2^20: far above any real tile). */
const MAX_LAYOUT_COUNT = 1 << 20;

/** Each entry of `values` must be a power of two from 1 to MAX_LAYOUT_COUNT (what linear layouts can express). */
function checkCounts(name: string, values: readonly number[]): string | void {
  const bad = values.find((x) => !Number.isSafeInteger(x) || x < 1 || x > MAX_LAYOUT_COUNT || (x & (x - 1)) !== 0);
  if (bad === undefined) return;
  // Beyond 2^53 the parsed number is no longer the one written: do not echo it.
  const shown = (x: number) => (Number.isSafeInteger(x) ? String(x) : 'a value beyond 2^53');
  return `${name} [${values.map(shown).join(', ')}] must hold powers of two from 1 to ${MAX_LAYOUT_COUNT}; ${shown(bad)} is not`;
}

function checkOrder(name: string, order: readonly number[]): string | void {
  if (!isPermutation(order)) return `${name} [${order.join(', ')}] is not a permutation of 0..${order.length - 1}`;
}

// ---- the layouts -------------------------------------------------------------------------

/** `#ttg.blocked<{sizePerThread, threadsPerWarp, warpsPerCTA, order[, CTA...]}>` (alias `#blocked`). */
export const BLOCKED: StructSpec = {
  dialect: 'ttg',
  mnemonic: 'blocked',
  alias: 'blocked',
  fields: [
    { name: 'sizePerThread', kind: 'ints' },
    { name: 'threadsPerWarp', kind: 'ints' },
    { name: 'warpsPerCTA', kind: 'ints' },
    { name: 'order', kind: 'ints' },
    ctaGroup(lenOf('sizePerThread')),
  ],
  verify(v) {
    const rank = (v.sizePerThread as number[]).length;
    for (const k of ['threadsPerWarp', 'warpsPerCTA', 'order']) {
      const n = (v[k] as number[]).length;
      if (n !== rank) return `${k} has ${n} entries but sizePerThread has ${rank}`;
    }
    for (const k of ['sizePerThread', 'threadsPerWarp', 'warpsPerCTA']) {
      const msg = checkCounts(k, v[k] as number[]);
      if (msg) return msg;
    }
    return checkOrder('order', v.order as number[]) ?? checkCTA(v, rank);
  },
};

/** `#ttg.nvidia_mma<{versionMajor, versionMinor, warpsPerCTA[, CTA...], instrShape}>` (alias `#mma`). */
export const NVIDIA_MMA: StructSpec = {
  dialect: 'ttg',
  mnemonic: 'nvidia_mma',
  alias: 'mma',
  fields: [
    { name: 'versionMajor', kind: 'int' },
    { name: 'versionMinor', kind: 'int' },
    { name: 'warpsPerCTA', kind: 'ints' },
    ctaGroup(lenOf('warpsPerCTA')),
    { name: 'instrShape', kind: 'ints' },
  ],
  verify(v) {
    const major = v.versionMajor as number;
    if (major < 1 || major > 3) return `versionMajor must be 1, 2 or 3, got ${major}`;
    const instr = v.instrShape as number[];
    // Out-of-range values get the 32-bit field check's message (it runs after this one).
    if (instr.some((d) => !Number.isSafeInteger(d) || d < -(2 ** 31) || d >= 2 ** 31)) return checkCTA(v, (v.warpsPerCTA as number[]).length);
    // The instruction a warp (v2: mma.sync m16n8) or warp group (v3: wgmma m64nNkK, 16 rows a warp) runs.
    if (major === 2 && !(instr.length >= 2 && instr.slice(0, -2).every((d) => d === 1) && instr[instr.length - 2] === 16 && instr[instr.length - 1] === 8)) {
      return `instrShape of a version-2 mma must be [16, 8] (mma.sync m16n8), got [${instr.join(', ')}]`;
    }
    if (major === 3) {
      const [m, n, k] = instr;
      if (instr.length !== 3 || m !== 16 || !(n >= 8 && n <= 256 && n % 8 === 0) || ![8, 16, 32].includes(k)) {
        return `instrShape of a version-3 mma must be [16, N, K] with N a multiple of 8 up to 256 and K 8, 16 or 32, got [${instr.join(', ')}]`;
      }
    }
    return checkCTA(v, (v.warpsPerCTA as number[]).length);
  },
};

/** `#ttg.slice<{dim, parent}>` (no alias). */
export const SLICE: StructSpec = {
  dialect: 'ttg',
  mnemonic: 'slice',
  alias: null,
  fields: [
    { name: 'dim', kind: 'int' },
    { name: 'parent', kind: 'attr' },
  ],
  verify(v) {
    const parent = v.parent as Attribute;
    if (!isDistributed(parent)) return 'expected a distributed encoding trait';
    const rank = layoutRank(parent) ?? 0;
    if (rank <= 1) return 'parent layout must have at least rank >= 2';
    const dim = v.dim as number;
    if (dim < 0 || dim >= rank) return `slice dim=${dim} must be less than the parent rank=${rank}`;
  },
};

/** `#ttg.dot_op<{opIdx, parent[, kWidth]}>` (no alias; kWidth printed when non-zero). */
export const DOT_OP: StructSpec = {
  dialect: 'ttg',
  mnemonic: 'dot_op',
  alias: null,
  fields: [
    { name: 'opIdx', kind: 'int' },
    { name: 'parent', kind: 'attr' },
    { name: 'kWidth', kind: 'int', default: 0 },
  ],
  verify(v) {
    const idx = v.opIdx as number;
    if (idx !== 0 && idx !== 1) return `opIdx must be 0 or 1, got ${idx}`;
    if (!isDistributed(v.parent as Attribute)) return 'expected a distributed encoding trait as parent';
    const kWidth = v.kWidth as number;
    if (kWidth !== 0 && !(kWidth >= 1 && kWidth <= 64 && (kWidth & (kWidth - 1)) === 0))
      return `kWidth must be 0 or a power of two from 1 to 64 (elements per thread along K), got ${kWidth}`;
  },
};

/** `#ttg.swizzled_shared<{vec, perPhase, maxPhase, order[, CTA...]}>` (alias `#shared`). */
export const SWIZZLED_SHARED: StructSpec = {
  dialect: 'ttg',
  mnemonic: 'swizzled_shared',
  alias: 'shared',
  fields: [
    { name: 'vec', kind: 'int' },
    { name: 'perPhase', kind: 'int' },
    { name: 'maxPhase', kind: 'int' },
    { name: 'order', kind: 'ints' },
    ctaGroup(lenOf('order')),
  ],
  verify(v) {
    return checkOrder('order', v.order as number[]) ?? checkCTA(v, (v.order as number[]).length);
  },
};

/** `#ttg.nvmma_shared<{swizzlingByteWidth, transposed, elementBitWidth[, fp4Padded][, CTA...]}>` (alias `#shared`). */
export const NVMMA_SHARED: StructSpec = {
  dialect: 'ttg',
  mnemonic: 'nvmma_shared',
  alias: 'shared',
  fields: [
    { name: 'swizzlingByteWidth', kind: 'int' },
    { name: 'transposed', kind: 'bool', default: false, printIf: () => true },
    { name: 'elementBitWidth', kind: 'int' },
    { name: 'fp4Padded', kind: 'bool', default: false },
    ctaGroup(() => 2),
  ],
  verify(v) {
    const w = v.swizzlingByteWidth as number;
    if (![0, 32, 64, 128].includes(w)) return `swizzlingByteWidth must be 0, 32, 64 or 128, got ${w}`;
    return checkCTA(v, 2);
  },
};

/** `#ttg.linear<{register = [[..]], lane = [[..]], warp = [[..]], block = [[..]]}>` (alias `#linear`). */
export const LINEAR: StructSpec = {
  dialect: 'ttg',
  mnemonic: 'linear',
  alias: 'linear',
  fields: [
    { name: 'register', kind: 'ints2' },
    { name: 'lane', kind: 'ints2' },
    { name: 'warp', kind: 'ints2' },
    { name: 'block', kind: 'ints2' },
  ],
  verify(v) {
    const all = ['register', 'lane', 'warp', 'block'].flatMap((k) => v[k] as number[][]);
    const rank = linearRank(v);
    if (all.some((b) => b.length !== rank)) return 'all bases of a linear layout must have the same number of dimensions';
    if (all.some((b) => b.filter((x) => x !== 0).length > 1)) return 'In a distributed layout, each base must move in at most one dimension.';
  },
};

function linearRank(v: FieldValues): number {
  for (const k of ['register', 'lane', 'warp', 'block']) {
    const b = v[k] as number[][];
    if (b.length) return b[0].length;
  }
  return 0;
}

/** Every ttg layout spec, by mnemonic. */
export const LAYOUT_SPECS: readonly StructSpec[] = [BLOCKED, NVIDIA_MMA, SLICE, DOT_OP, SWIZZLED_SHARED, NVMMA_SHARED, LINEAR];

/** Builds a `#ttg.blocked` layout (CTA fields default). */
export function blocked(sizePerThread: number[], threadsPerWarp: number[], warpsPerCTA: number[], order: number[]): StructAttr {
  return StructAttr.get(BLOCKED, { sizePerThread, threadsPerWarp, warpsPerCTA, order });
}

/** Builds a `#ttg.slice` layout. */
export function slice(dim: number, parent: Attribute): StructAttr {
  return StructAttr.get(SLICE, { dim, parent });
}

// ---- queries -----------------------------------------------------------------------------

/** Whether `a` is the ttg layout of `spec`. */
export function isLayout(a: Attribute | null | undefined, spec: StructSpec): a is StructAttr {
  return a instanceof StructAttr && a.spec === spec;
}

/** Whether `a` is any ttg layout attribute (distributed or shared). */
export function isTtgLayout(a: Attribute | null | undefined): a is StructAttr {
  return a instanceof StructAttr && LAYOUT_SPECS.includes(a.spec);
}

/** Whether `a` is a distributed (register) layout. */
export function isDistributed(a: Attribute | null | undefined): a is StructAttr {
  return a instanceof StructAttr && [BLOCKED, NVIDIA_MMA, SLICE, DOT_OP, LINEAR].includes(a.spec);
}

/** Whether `a` is a shared-memory layout. */
export function isSharedLayout(a: Attribute | null | undefined): a is StructAttr {
  return a instanceof StructAttr && (a.spec === SWIZZLED_SHARED || a.spec === NVMMA_SHARED);
}

/** The tensor rank a layout describes, or null when it fits any rank (nvmma_shared: >= 2). */
export function layoutRank(a: Attribute): number | null {
  if (!(a instanceof StructAttr)) return null;
  switch (a.spec) {
    case BLOCKED:
      return a.ints('sizePerThread').length;
    case NVIDIA_MMA:
      return a.ints('warpsPerCTA').length;
    case SWIZZLED_SHARED:
      return a.ints('order').length;
    case LINEAR:
      return linearRank(a.values);
    case SLICE: {
      const r = layoutRank(a.attr('parent')!);
      return r === null ? null : r - 1;
    }
    case DOT_OP:
      return layoutRank(a.attr('parent')!);
    default:
      return null;
  }
}

const product = (xs: readonly number[]): number => xs.reduce((x, y) => x * y, 1);

/**
 * Threads per warp and warps per CTA a distributed layout implies (null where the layout does
 * not fix them), for comparison with the module's `ttg.threads-per-warp` / `ttg.num-warps`.
 */
export function threadsAndWarps(a: Attribute): { threads: number | null; warps: number | null } {
  if (!(a instanceof StructAttr)) return { threads: null, warps: null };
  switch (a.spec) {
    case BLOCKED:
      return { threads: product(a.ints('threadsPerWarp')), warps: product(a.ints('warpsPerCTA')) };
    case NVIDIA_MMA:
      return { threads: null, warps: product(a.ints('warpsPerCTA')) };
    case LINEAR:
      return { threads: 2 ** a.ints2('lane').length, warps: 2 ** a.ints2('warp').length };
    case SLICE:
    case DOT_OP:
      return threadsAndWarps(a.attr('parent')!);
    default:
      return { threads: null, warps: null };
  }
}

/** Re-runs a layout's own consistency check (parsing already does; built attributes may not have). */
export function verifyLayout(a: StructAttr): string | void {
  if (a.spec === SLICE || a.spec === DOT_OP) {
    const parent = a.attr('parent');
    if (parent instanceof StructAttr) {
      const msg = verifyLayout(parent);
      if (msg) return msg;
    }
  }
  const msg = a.spec.verify?.(a.values);
  if (msg) return `layout ${a} is invalid: ${msg}`;
}
