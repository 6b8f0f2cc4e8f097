/**
 * Mutations of fuzz inputs, driven by a seeded random generator so that a campaign is
 * repeatable: character-range edits (delete, duplicate, swap), dictionary tokens (MLIR and
 * Triton keywords, types, layouts, punctuation), boundary numbers, deep nesting, line edits,
 * and token-level splices from another corpus file.
 */

/** A small seeded pseudo-random generator (mulberry32): the same seed gives the same campaign. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)];
  }
}

/** Tokens inserted at random places: IR and Triton-C syntax, types, layouts, punctuation. */
export const DICTIONARY: readonly string[] = [
  '(', ')', '{', '}', '[', ']', '<', '>', ',', ':', '=', '->', '%', '@', '#', '^', '!', '"', '//', '/*', '*/', ';', '?', 'x',
  ' ', '\n', '\t', '%0', '%arg0', '%c0_i32', '^bb0', '^bb1:', '#blocked', '#blocked1', '#shared', '#mma', '#loc', '#loc1',
  'loc(', 'loc(unknown)', 'loc("f.py":1:2)', 'callsite(', 'fused[', 'dense<', 'array<i32:', 'unit', 'true', 'false',
  'i1', 'i8', 'i16', 'i32', 'i64', 'index', 'f16', 'bf16', 'f32', 'f64', 'f8E4M3FN', 'f8E5M2', 'tf32', 'none',
  'tensor<', 'tensor<128xf32>', 'tensor<64x64xf16, #blocked>', 'tensor<0xf32>', 'tensor<1x0xi32>', '!tt.ptr<f32>', '!tt.ptr<f16>',
  '!ttg.memdesc<64x64xf16, #shared, #smem, mutable>', '#smem', 'mutable',
  '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>',
  '#ttg.blocked<{sizePerThread = [0], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>',
  '#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>',
  '#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>',
  '#ttg.slice<{dim = 0, parent = #blocked}>', '#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>',
  'module', 'module {', 'module attributes {"ttg.num-warps" = 4 : i32} {', '"ttg.num-warps" = 0 : i32', '"ttg.target" = "cuda:90"',
  'tt.func', 'tt.func public @k(', 'func.func @f() {', 'tt.return', 'return', 'scf.for', 'scf.if', 'scf.yield', 'scf.while',
  'cf.br', 'cf.cond_br', 'arith.constant', 'arith.addi', 'arith.muli', 'arith.divsi', 'arith.addf', 'arith.cmpi', 'arith.select',
  'tt.load', 'tt.store', 'tt.dot', 'tt.splat', 'tt.broadcast', 'tt.expand_dims', 'tt.make_range', 'tt.addptr', 'tt.reduce',
  'tt.trans', 'tt.reshape', 'tt.get_program_id', 'tt.call', 'ttg.convert_layout', 'ttg.local_alloc', 'ttg.local_load',
  'ttg.async_copy_global_to_local', 'ttng.warp_group_dot', '{start = 0 : i32, end = 128 : i32}', 'iter_args(', 'to', 'step',
  'x = ', 'int', 'float', 'half', 'void', '__global__', 'for', 'if', 'else', 'while', 'return', '#define', '#if', '#endif',
  '@', '...', 'get_program_id(0)', 'trans(', 'dot(', '*?', '[:, newaxis]', '[newaxis, :]', 'TM', 'TN', 'TK', 'TYPE',
];

/** Numbers that sit on a boundary: zero, signs, powers of two, the integer limits, overflowing floats. */
export const BOUNDARY_NUMBERS: readonly string[] = [
  '0', '-1', '1', '2', '3', '7', '31', '32', '33', '63', '64', '65', '127', '128', '255', '256', '1023', '65536', '-2147483648',
  '2147483647', '2147483648', '4294967295', '4294967296', '9223372036854775807', '-9223372036854775808', '9223372036854775808',
  '18446744073709551616', '1073741824', '1e309', '-1e309', '1e-400', 'NaN', 'inf', '-inf', '0x7FFFFFFF', '0xFFFFFFFFFFFFFFFF',
  '0.0', '-0.0', '1.5', '99999999999999999999999999999',
];

/** Splits text into tokens (identifiers, SSA names, numbers, strings, whitespace, single characters). */
export function tokenize(text: string): string[] {
  return text.match(/\s+|"(?:[^"\\\n]|\\.)*"|[%@#^!]?[A-Za-z_][\w.$-]*|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|./gs) ?? [];
}

/** What a mutation gets: the input, the corpus to splice from, and the random generator. */
interface MutationContext {
  text: string;
  corpus: readonly string[];
  random: Random;
}

/** A random range [start, end) of `length` characters, short more often than long. */
function range(random: Random, length: number): [number, number] {
  const start = random.below(length + 1);
  const span = random.next() < 0.7 ? 1 + random.below(8) : 1 + random.below(Math.max(1, length >> 2));
  return [start, Math.min(length, start + span)];
}

/** Pairs of brackets and keywords that nest. */
const NESTERS: readonly [string, string][] = [
  ['(', ')'], ['[', ']'], ['{', '}'], ['<', '>'], ['loc(callsite(', ' at "f":1:1))'], ['{a = ', '}'], ['scf.if %c {', '}'], ['if (x) {', '}'],
];

/** The mutations, each a function from the context to the new text. */
const MUTATIONS: readonly ((c: MutationContext) => string)[] = [
  // delete a range
  ({ text, random }) => {
    const [a, b] = range(random, text.length);
    return text.slice(0, a) + text.slice(b);
  },
  // duplicate a range
  ({ text, random }) => {
    const [a, b] = range(random, text.length);
    return text.slice(0, b) + text.slice(a, b) + text.slice(b);
  },
  // swap two ranges
  ({ text, random }) => {
    let [a, b] = range(random, text.length);
    let [c, d] = range(random, text.length);
    if (c < a) [a, b, c, d] = [c, d, a, b];
    if (c < b) return text;
    return text.slice(0, a) + text.slice(c, d) + text.slice(b, c) + text.slice(a, b) + text.slice(d);
  },
  // insert a dictionary token
  ({ text, random }) => {
    const at = random.below(text.length + 1);
    return text.slice(0, at) + random.pick(DICTIONARY) + text.slice(at);
  },
  // replace a token by a dictionary token
  ({ text, random }) => {
    const tokens = tokenize(text);
    if (!tokens.length) return text;
    tokens[random.below(tokens.length)] = random.pick(DICTIONARY);
    return tokens.join('');
  },
  // replace a number by a boundary value
  ({ text, random }) => {
    const numbers = [...text.matchAll(/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g)];
    if (!numbers.length) return text;
    const m = random.pick(numbers);
    return text.slice(0, m.index) + random.pick(BOUNDARY_NUMBERS) + text.slice((m.index ?? 0) + m[0].length);
  },
  // replace a number by a huge dimension or its neighbour
  ({ text, random }) => {
    const numbers = [...text.matchAll(/\d+/g)];
    if (!numbers.length) return text;
    const m = random.pick(numbers);
    const n = Number(m[0]);
    const value = random.pick([n + 1, n - 1, n * 2, Math.floor(n / 2), 1 << 30, 1 << 20, 3 * 5 * 7]);
    return text.slice(0, m.index) + String(value) + text.slice((m.index ?? 0) + m[0].length);
  },
  // nest: wrap a point in many brackets or blocks
  ({ text, random }) => {
    const at = random.below(text.length + 1);
    const [open, close] = random.pick(NESTERS);
    const depth = random.pick([10, 100, 1000, 3000]);
    return text.slice(0, at) + open.repeat(depth) + close.repeat(random.next() < 0.8 ? depth : 0) + text.slice(at);
  },
  // delete, duplicate or swap whole lines
  ({ text, random }) => {
    const lines = text.split('\n');
    const k = random.below(lines.length);
    const j = random.below(lines.length);
    const choice = random.below(3);
    if (choice === 0) lines.splice(k, 1 + random.below(3));
    else if (choice === 1) lines.splice(k, 0, lines[j]);
    else [lines[k], lines[j]] = [lines[j], lines[k]];
    return lines.join('\n');
  },
  // splice: a run of tokens from another corpus file, inserted or replacing a run here
  ({ text, corpus, random }) => {
    const mine = tokenize(text);
    const other = tokenize(random.pick(corpus));
    if (!other.length) return text;
    const from = random.below(other.length);
    const piece = other.slice(from, from + 1 + random.below(40));
    const at = random.below(mine.length + 1);
    const drop = random.next() < 0.5 ? random.below(piece.length + 1) : 0;
    mine.splice(at, drop, ...piece);
    return mine.join('');
  },
  // crossover: the head of this file with the tail of another, cut at line boundaries
  ({ text, corpus, random }) => {
    const a = text.split('\n');
    const b = random.pick(corpus).split('\n');
    return [...a.slice(0, random.below(a.length + 1)), ...b.slice(random.below(b.length + 1))].join('\n');
  },
];

/**
 * One fuzz input: a random corpus file with 1 to 4 stacked mutations, kept under `maxBytes`
 * (an input that grows past it is cut).
 */
export function mutate(corpus: readonly string[], random: Random, maxBytes: number): string {
  let text = random.pick(corpus);
  const count = 1 + random.below(4);
  for (let k = 0; k < count; k++) text = random.pick(MUTATIONS)({ text, corpus, random });
  return text.length > maxBytes ? text.slice(0, maxBytes) : text;
}
