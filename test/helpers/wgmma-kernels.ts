/**
 * Hopper test kernels: a product on `ttng.warp_group_dot` whose operands are loaded from global
 * memory and stored with `ttg.local_alloc` into `#ttg.nvmma_shared` tiles (K-major or MN-major,
 * directly or through `ttg.memdesc_trans`), for the wgmma emulation test and the lit tests.
 */

/** One product: shapes, types, warps, accumulator layout and how each operand is stored. */
export interface WgmmaCase {
  /** Operand type; tf32: f32 in memory, a dot with `inputPrecision = tf32` (tt-level kernels only). */
  type: 'f16' | 'bf16' | 'tf32';
  M: number;
  N: number;
  K: number;
  warps: number;
  warpsPerCTA: [number, number];
  instrN: number;
  /** A stored K x M (M contiguous, wgmma reads it M-major) and viewed through memdesc_trans. */
  aMN?: boolean;
  /** B stored N x K (K contiguous, read K-major) and viewed through memdesc_trans. */
  bK?: boolean;
  /** Swizzle bytes of each stored tile (default: the widest its contiguous row fills). */
  swA?: number;
  swB?: number;
  /** Store C from the accumulator layout itself (no ttg.convert_layout to a blocked layout). */
  direct?: boolean;
  /** Put a ttng.fence_async_shared before the dot. */
  fence?: boolean;
  /** The kernel's name (default `k`). */
  name?: string;
}

/** A blocked layout loading rows of `cols` elements, 8 per thread. */
function blocked(cols: number, warps: number): string {
  const tc = Math.min(32, Math.max(1, cols / 8));
  return `#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [${32 / tc}, ${tc}], warpsPerCTA = [${warps}, 1], order = [1, 0]}>`;
}

/** Row-major pointers `base + i * cols + j` of a rows x cols tensor of `elt` in `layout`. */
function ptrs(name: string, base: string, rows: number, cols: number, layout: string, elt: string): string {
  const t = (s: string) => `tensor<${s}, ${layout}>`;
  const slice = (d: number, n: number) => `tensor<${n}xi32, #ttg.slice<{dim = ${d}, parent = ${layout}}>>`;
  return `
    %${name}r = tt.make_range {end = ${rows} : i32, start = 0 : i32} : ${slice(1, rows)}
    %${name}c = tt.make_range {end = ${cols} : i32, start = 0 : i32} : ${slice(0, cols)}
    %${name}r1 = tt.expand_dims %${name}r {axis = 1 : i32} : ${slice(1, rows)} -> ${t(`${rows}x1xi32`)}
    %${name}w = arith.constant dense<${cols}> : ${t(`${rows}x1xi32`)}
    %${name}ro = arith.muli %${name}r1, %${name}w : ${t(`${rows}x1xi32`)}
    %${name}c1 = tt.expand_dims %${name}c {axis = 0 : i32} : ${slice(0, cols)} -> ${t(`1x${cols}xi32`)}
    %${name}o0 = tt.broadcast %${name}ro : ${t(`${rows}x1xi32`)} -> ${t(`${rows}x${cols}xi32`)}
    %${name}o1 = tt.broadcast %${name}c1 : ${t(`1x${cols}xi32`)} -> ${t(`${rows}x${cols}xi32`)}
    %${name}o = arith.addi %${name}o0, %${name}o1 : ${t(`${rows}x${cols}xi32`)}
    %${name}s = tt.splat %${base} : !tt.ptr<${elt}> -> ${t(`${rows}x${cols}x!tt.ptr<${elt}>`)}
    %${name} = tt.addptr %${name}s, %${name}o : ${t(`${rows}x${cols}x!tt.ptr<${elt}>`)}, ${t(`${rows}x${cols}xi32`)}`;
}

export const nvmma = (sw: number, transposed: boolean) => `#ttg.nvmma_shared<{swizzlingByteWidth = ${sw}, transposed = ${transposed}, elementBitWidth = 16}>`;
/** The widest swizzle a row of `elems` 16-bit elements fills. */
const widest = (elems: number) => [128, 64, 32].find((s) => elems * 2 >= s && (elems * 2) % s === 0)!;
const swizzles = (c: WgmmaCase) => ({ swA: c.swA ?? widest(c.aMN ? c.M : c.K), swB: c.swB ?? widest(c.bK ? c.K : c.N) });

/** Loads `rows x cols` (row-major in global memory) and stores it to shared memory as `%name`, viewed transposed when `trans`. */
function operand(name: string, base: string, rows: number, cols: number, sw: number, trans: boolean, c: WgmmaCase): string {
  const ty = c.type;
  const lay = blocked(cols, c.warps);
  const mem = `!ttg.memdesc<${rows}x${cols}x${ty}, ${nvmma(sw, false)}, #smem>`;
  const stored = trans ? `%s${name}` : `%${name}`;
  const view = trans
    ? `
    %${name} = ttg.memdesc_trans %s${name} {order = array<i32: 1, 0>} : ${mem} -> !ttg.memdesc<${cols}x${rows}x${ty}, ${nvmma(sw, true)}, #smem>`
    : '';
  return `${ptrs(`p${name}`, base, rows, cols, lay, ty)}
    %l${name} = tt.load %p${name} : tensor<${rows}x${cols}x!tt.ptr<${ty}>, ${lay}>
    ${stored} = ttg.local_alloc %l${name} : (tensor<${rows}x${cols}x${ty}, ${lay}>) -> ${mem}${view}`;
}

/**
 * The ttg-level kernel of case `c` (ttg.target = "cuda:90"): C (M x N, f32, row-major) = A (M x K) x B (K x N)
 * with A at %a (M x K row-major, or K x M for an M-major tile), B at %b (K x N, or N x K for a
 * K-major tile) and C at %c; with `fence`, a ttng.fence_async_shared precedes the dot (as
 * fence-async-shared or Triton's TTGIR put it).
 */
export function kernel(c: WgmmaCase): string {
  const { M, N, K, type: ty } = c;
  if (ty === 'tf32') throw new Error('kernel: tf32 cases are tt-level only (ttKernel)');
  const { swA, swB } = swizzles(c);
  const aT = `!ttg.memdesc<${M}x${K}x${ty}, ${nvmma(swA, !!c.aMN)}, #smem>`;
  const bT = `!ttg.memdesc<${K}x${N}x${ty}, ${nvmma(swB, !!c.bK)}, #smem>`;
  const mma = `#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [${c.warpsPerCTA.join(', ')}], instrShape = [16, ${c.instrN}, 16]}>`;
  const out = c.direct ? mma : `#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [${c.warps}, 1], order = [1, 0]}>`;
  const result = c.direct ? '%d' : '%z';
  const convert = c.direct ? '' : `
    %z = ttg.convert_layout %d : tensor<${M}x${N}xf32, ${mma}> -> tensor<${M}x${N}xf32, ${out}>`;
  return `#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = ${c.warps} : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @${c.name ?? 'k'}(%a: !tt.ptr<${ty}> {tt.divisibility = 16 : i32}, %b: !tt.ptr<${ty}> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {${
    c.aMN ? operand('A', 'a', K, M, swA, true, c) : operand('A', 'a', M, K, swA, false, c)}${
    c.bK ? operand('B', 'b', N, K, swB, true, c) : operand('B', 'b', K, N, swB, false, c)}
    %zero = arith.constant dense<0.000000e+00> : tensor<${M}x${N}xf32, ${mma}>${c.fence ? '\n    ttng.fence_async_shared {bCluster = false}' : ''}
    %d = ttng.warp_group_dot %A, %B, %zero : ${aT} * ${bT} -> tensor<${M}x${N}xf32, ${mma}>
${convert}${ptrs('pc', 'c', M, N, out, 'f32')}
    tt.store %pc, ${result} : tensor<${M}x${N}x!tt.ptr<f32>, ${out}>
    tt.return
  }
}
`;
}


/** Row-major pointers of a rows x cols tensor of `elt` at `%base`, at the tt level (no layouts). */
export function ttPtrs(name: string, base: string, rows: number, cols: number, elt: string): string {
  const t = (s: string) => `tensor<${s}>`;
  return `
    %${name}r = tt.make_range {end = ${rows} : i32, start = 0 : i32} : tensor<${rows}xi32>
    %${name}c = tt.make_range {end = ${cols} : i32, start = 0 : i32} : tensor<${cols}xi32>
    %${name}r1 = tt.expand_dims %${name}r {axis = 1 : i32} : tensor<${rows}xi32> -> ${t(`${rows}x1xi32`)}
    %${name}w = arith.constant dense<${cols}> : ${t(`${rows}x1xi32`)}
    %${name}ro = arith.muli %${name}r1, %${name}w : ${t(`${rows}x1xi32`)}
    %${name}c1 = tt.expand_dims %${name}c {axis = 0 : i32} : tensor<${cols}xi32> -> ${t(`1x${cols}xi32`)}
    %${name}o0 = tt.broadcast %${name}ro : ${t(`${rows}x1xi32`)} -> ${t(`${rows}x${cols}xi32`)}
    %${name}o1 = tt.broadcast %${name}c1 : ${t(`1x${cols}xi32`)} -> ${t(`${rows}x${cols}xi32`)}
    %${name}o = arith.addi %${name}o0, %${name}o1 : ${t(`${rows}x${cols}xi32`)}
    %${name}s = tt.splat %${base} : !tt.ptr<${elt}> -> ${t(`${rows}x${cols}x!tt.ptr<${elt}>`)}
    %${name} = tt.addptr %${name}s, %${name}o : ${t(`${rows}x${cols}x!tt.ptr<${elt}>`)}, ${t(`${rows}x${cols}xi32`)}`;
}

/** Loads `rows x cols` as `%name`, through `tt.trans` when `trans` (then `%name` is cols x rows). */
export function ttOperand(name: string, base: string, rows: number, cols: number, trans: boolean, ty: string): string {
  const load = `${ttPtrs(`p${name}`, base, rows, cols, ty)}
    %${trans ? `l${name}` : name} = tt.load %p${name} : tensor<${rows}x${cols}x!tt.ptr<${ty}>>`;
  return trans ? `${load}
    %${name} = tt.trans %l${name} {order = array<i32: 1, 0>} : tensor<${rows}x${cols}x${ty}> -> tensor<${cols}x${rows}x${ty}>` : load;
}

/**
 * The tt-level kernel of case `c` (for the default pipeline: mma-lowering picks the layouts and
 * swizzles; the case's layout fields are ignored): the same memory as `kernel`, with an M-major A
 * or K-major B loaded as stored and transposed by `tt.trans`.
 */
export function ttKernel(c: WgmmaCase): string {
  const { M, N, K } = c;
  const ty = c.type === 'tf32' ? 'f32' : c.type;
  const precision = c.type === 'tf32' ? ', inputPrecision = tf32' : '';
  return `tt.func public @${c.name ?? 'k'}(%a: !tt.ptr<${ty}> {tt.divisibility = 16 : i32}, %b: !tt.ptr<${ty}> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {${
    c.aMN ? ttOperand('A', 'a', K, M, true, ty) : ttOperand('A', 'a', M, K, false, ty)}${
    c.bK ? ttOperand('B', 'b', N, K, true, ty) : ttOperand('B', 'b', K, N, false, ty)}
    %zero = arith.constant dense<0.000000e+00> : tensor<${M}x${N}xf32>
    %d = tt.dot %A, %B, %zero${precision} : tensor<${M}x${K}x${ty}> * tensor<${K}x${N}x${ty}> -> tensor<${M}x${N}xf32>${ttPtrs('pc', 'c', M, N, 'f32')}
    tt.store %pc, %d : tensor<${M}x${N}x!tt.ptr<f32>>
    tt.return
}
`;
}

/**
 * A chained product as attention has it: P = A x B1 (M x N1, f32), rounded to f16, then
 * C = P x B2 (M x N2). mma-lowering puts both on wgmma with all warps along M; P, computed in
 * registers, is the second product's A operand from registers (#ttg.dot_op with the v3 parent).
 */
export function ttChainedKernel(M: number, K: number, N1: number, N2: number): string {
  return `tt.func public @chained(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b2: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {${
    ttOperand('A', 'a', M, K, false, 'f16')}${ttOperand('B1', 'b1', K, N1, false, 'f16')}${ttOperand('B2', 'b2', N1, N2, false, 'f16')}
    %z1 = arith.constant dense<0.000000e+00> : tensor<${M}x${N1}xf32>
    %s = tt.dot %A, %B1, %z1 : tensor<${M}x${K}xf16> * tensor<${K}x${N1}xf16> -> tensor<${M}x${N1}xf32>
    %p = arith.truncf %s : tensor<${M}x${N1}xf32> to tensor<${M}x${N1}xf16>
    %z2 = arith.constant dense<0.000000e+00> : tensor<${M}x${N2}xf32>
    %d = tt.dot %p, %B2, %z2 : tensor<${M}x${N1}xf16> * tensor<${N1}x${N2}xf16> -> tensor<${M}x${N2}xf32>${ttPtrs('pc', 'c', M, N2, 'f32')}
    tt.store %pc, %d : tensor<${M}x${N2}x!tt.ptr<f32>>
    tt.return
}
`;
}
