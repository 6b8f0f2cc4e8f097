/**
 * Tests of Triton-C IR generation (frontend/triton-c/irgen*.ts): small snippets checked against
 * exact printed lines, the seed kernels (vector add, transpose, matmul, softmax) compiled, verified
 * and round-tripped through the IR parser.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileTritonC } from '../../frontend/triton-c/index.js';
import type { Operation } from '../../ir/ir.js';
import { parseText } from '../../ir/parser.js';
import { printModule } from '../../ir/printer.js';
import { verify } from '../../ir/verifier.js';

function compile(src: string, defines: Record<string, string> = {}): { module: Operation; text: string } {
  const module = compileTritonC(src, 'kernel.c', defines);
  verify(module);
  const text = printModule(module);
  const again = parseText(text).module;
  verify(again);
  assert.is(printModule(again), text, 'printed IR must round-trip');
  return { module, text };
}

/** The printed lines of the function body (without the module and func lines). */
function body(text: string): string[] {
  return text.split('\n').slice(2, -3).map((l) => l.slice(4));
}

/** Asserts that `lines` appear in order (each exactly) in the printed body. */
function hasInOrder(text: string, lines: string[]): void {
  const got = body(text);
  let k = 0;
  for (const l of lines) {
    const at = got.indexOf(l, k);
    if (at < 0) assert.unreachable(`missing line (in order): ${l}\n--- got ---\n${got.join('\n')}`);
    k = at + 1;
  }
}

export const VECTOR_ADD = `
// launched on a grid of (N / SIZE) programs of 1 thread each
__global__  void add(int N, TYPE* a, TYPE* b, TYPE* c) {
  int id = get_program_id(0);
  int off[SIZE] = id * SIZE + (0 ... SIZE);
  *(c + off) = *(a + off) + *(b + off);
}`;

export const TRANSPOSE = `
__global__ void transpose(TYPE * X, TYPE * Y,  int M, int N, int ldx __multipleof(8), int ldy __multipleof(8)) {
  int pidm = get_program_id(0);
  int pidn = get_program_id(1);
  int rm[TM] = pidm * TM + 0 ... TM;
  int rn[TN] = pidn * TN + 0 ... TN;
  TYPE* px[TM, TN] = X + rm[:, newaxis] + rn[newaxis, :] * ldx;
  TYPE* py[TN, TM] = Y + rm[newaxis, :] * ldy + rn[:, newaxis];
  bool checkx[TM, TN] = (rm[:, newaxis] < M) && (rn[newaxis, :] < N);
  bool checky[TN, TM] = (rm[newaxis, :] < M) && (rn[:, newaxis] < N);
  *?(checky)py = ^(*?(checkx)px);
}`;

export const MATMUL = `
__global__ void dot(TYPE * A, TYPE * B, TYPE * C,  int M, int N, int K,
                    int lda __multipleof(8),  int ldb __multipleof(8),  int ldc __multipleof(8)) {
  int pm = get_program_id(0);
  int pn = get_program_id(1);
  int rm[TM] = pm * TM + 0 ... TM;
  int rn[TN] = pn * TN + 0 ... TN;
  int rk[TK] = 0 ... TK;
  float c[TM, TN] = 0;
  TYPE* pa[TM, TK] = A + rk[newaxis, :] * 1 + rm[:, newaxis] * lda;
  TYPE* pb[TK, TN] = B + rk[:, newaxis] * ldb + rn[newaxis, :] * 1;
  for(int k = K; k > 0; k-= TK){
    TYPE a[TM, TK] = *pa;
    TYPE b[TK, TN] = *pb;
    c += a @ b;
    pa = pa + TK * 1;
    pb = pb + TK * ldb;
  }
  TYPE* pc[TM, TN] = C + rn[newaxis, :] + rm[:, newaxis] * ldc;
  *pc = c;
}`;

/** The prefetching matmul variant (conditional loads in the loop) with a bounds-checked epilogue. */
export const MATMUL_PREFETCH = `
__global__ void dot(TYPE * A, TYPE * B, TYPE * C, int M, int N, int K, int lda, int ldb, int ldc) {
  int pm = get_program_id(0);
  int pn = get_program_id(1);
  int rm[TM] = pm * TM + 0 ... TM;
  int rn[TN] = pn * TN + 0 ... TN;
  int rk[TK] = 0 ... TK;
  float c[TM, TN] = 0;
  TYPE* pa[TM, TK] = A + rk[newaxis, :] * 1 + rm[:, newaxis] * lda;
  TYPE* pb[TK, TN] = B + rk[:, newaxis] * ldb + rn[newaxis, :] * 1;
  TYPE a[TM, TK] = *pa;
  TYPE b[TK, TN] = *pb;
  for(int k = K; k > 0; k-= TK){
    c += a @ b;
    pa = pa + TK * 1;
    pb = pb + TK * ldb;
    bool check = k > TK;
    a = check ? *pa : 0;
    b = check ? *pb : 0;
  }
  int rcm[TM] = pm * TM + 0 ... TM;
  int rcn[TN] = pn * TN + 0 ... TN;
  TYPE* pc[TM, TN] = C + rcn[newaxis, :] + rcm[:, newaxis] * ldc;
  *?(rcm[:, newaxis] < M && rcn[newaxis, :] < N) pc = c;
}`;

export const SOFTMAX = `
__global__ void softmax(float* out, float* in, int in_stride, int out_stride, int n_cols) {
  int row = get_program_id(0);
  int cols[BLOCK] = 0 ... BLOCK;
  bool mask[BLOCK] = cols < n_cols;
  float* pin[BLOCK] = in + row * in_stride + cols;
  float x[BLOCK] = mask ? *pin : -F32_INFINITY;
  float num[BLOCK] = exp(x - x[max]);
  float den = num[+];
  float* pout[BLOCK] = out + row * out_stride + cols;
  *?(mask) pout = num / den;
}`;

test('vector add: exact IR', () => {
  const { text } = compile(VECTOR_ADD, { SIZE: '128', TYPE: 'float' });
  assert.is(text, `module {
  tt.func public @add(%N: i32, %a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c128_i32 = arith.constant 128 : i32
    %id = tt.get_program_id x : i32
    %off = arith.muli %id, %c128_i32 : i32
    %off_0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %off_1 = tt.splat %off : i32 -> tensor<128xi32>
    %off_2 = arith.addi %off_1, %off_0 : tensor<128xi32>
    %0 = tt.splat %a : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %1 = tt.addptr %0, %off_2 : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %2 = tt.load %1 : tensor<128x!tt.ptr<f32>>
    %3 = tt.splat %b : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %4 = tt.addptr %3, %off_2 : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %5 = tt.load %4 : tensor<128x!tt.ptr<f32>>
    %6 = arith.addf %2, %5 : tensor<128xf32>
    %7 = tt.splat %c : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %8 = tt.addptr %7, %off_2 : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    tt.store %8, %6 : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}
`);
});

test('transpose: masks, newaxis, broadcast, trans', () => {
  const { text } = compile(TRANSPOSE, { TM: '32', TN: '64', TYPE: 'half' });
  assert.ok(text.includes('%ldx: i32 {tt.divisibility = 8 : i32}'));
  hasInOrder(text, [
    '%cst = arith.constant dense<0.000000e+00> : tensor<32x64xf16>',
    '%px = tt.expand_dims %rm_2 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>',
    '%px_11 = tt.broadcast %px_7 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x64x!tt.ptr<f16>>',
    '%checkx_29 = arith.andi %checkx_27, %checkx_28 : tensor<32x64xi1>',
    '%0 = tt.load %px_13, %checkx_29, %cst : tensor<32x64x!tt.ptr<f16>>',
    '%1 = tt.trans %0 {order = array<i32: 1, 0>} : tensor<32x64xf16> -> tensor<64x32xf16>',
    'tt.store %py_21, %1, %checky_37 : tensor<64x32x!tt.ptr<f16>>',
  ]);
});

test('matmul: counted loop becomes scf.for over the trip count, c += a @ b accumulates in tt.dot', () => {
  const { text } = compile(MATMUL, { TM: '64', TN: '64', TK: '32', TYPE: 'half' });
  hasInOrder(text, [
    '%cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>',
    '%0 = arith.addi %K, %c31_i32 : i32',
    '%1 = arith.divsi %0, %c32_i32 : i32',
    '%2:3 = scf.for %k = %c0_i32 to %1 step %c1_i32 iter_args(%c = %cst, %pa_35 = %pa_17, %pb_36 = %pb_26) -> (tensor<64x64xf32>, tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>)  : i32 {',
    '  %k_37 = arith.muli %k, %c32_i32 : i32',
    '  %k_38 = arith.subi %K, %k_37 : i32',
    '  %a = tt.load %pa_35 : tensor<64x32x!tt.ptr<f16>>',
    '  %c_39 = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>',
    '  %pa_40 = tt.addptr %pa_35, %cst_2 : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>',
    '  scf.yield %c_39, %pa_40, %pb_43 : tensor<64x64xf32>, tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>',
    '%3 = arith.truncf %2#0 : tensor<64x64xf32> to tensor<64x64xf16>',
    'tt.store %pc_34, %3 : tensor<64x64x!tt.ptr<f16>>',
  ]);
});

test('matmul with prefetching: conditional loads take a splatted scalar mask and `other`', () => {
  const { text } = compile(MATMUL_PREFETCH, { TM: '64', TN: '32', TK: '16', TYPE: 'half' });
  assert.match(text, /%check = arith.cmpi sgt, %k_\d+, %c16_i32 : i32/);
  assert.match(text, /%a_\d+ = tt.splat %check : i1 -> tensor<64x16xi1>/);
  assert.match(text, /%a_\d+ = tt.load %pa_\d+, %a_\d+, %cst_\d+ : tensor<64x16x!tt.ptr<f16>>/);
  assert.match(text, /tt.store %pc_\d+, %\d+, %\d+ : tensor<64x32x!tt.ptr<f16>>/);
});

test('softmax: reductions with max and + combiners, math.exp', () => {
  const { text } = compile(SOFTMAX, { BLOCK: '1024' });
  hasInOrder(text, [
    '%x_6 = tt.load %pin_3, %mask_0, %x_5 : tensor<1024x!tt.ptr<f32>>',
    '%num = "tt.reduce"(%x_6) <{axis = 0 : i32}> ({',
    '^bb0(%num_13: f32, %num_14: f32):',
    '  %num_15 = arith.maxnumf %num_13, %num_14 : f32',
    '  tt.reduce.return %num_15 : f32',
    '}) : (tensor<1024xf32>) -> f32',
    '%num_9 = math.exp %num_8 : tensor<1024xf32>',
    '  %den_15 = arith.addf %den_13, %den_14 : f32',
    '%1 = arith.divf %num_9, %0 : tensor<1024xf32>',
    'tt.store %pout_12, %1, %mask_0 : tensor<1024x!tt.ptr<f32>>',
  ]);
});

test('tiles: splat initialisers, 2-D reduction, newaxis broadcast, implicit float -> half', () => {
  const { text } = compile(`
__global__ void k(half* Y) {
  float x[16, 8] = 3.14;
  float y[16, 8] = 5.17;
  float z[16, 8] = x + y;
  float u[16] = z[:, +];
  float v[16, 32] = u[:, newaxis];
  *(Y + (0 ... 32)[newaxis, :] + (0 ... 16)[:, newaxis] * 32) = v;
}`);
  hasInOrder(text, [
    '%cst = arith.constant dense<3.140000e+00> : tensor<16x8xf32>',
    '%cst_0 = arith.constant dense<5.170000e+00> : tensor<16x8xf32>',
    '%z = arith.addf %cst, %cst_0 : tensor<16x8xf32>',
    '%u = "tt.reduce"(%z) <{axis = 1 : i32}> ({',
    '}) : (tensor<16x8xf32>) -> tensor<16xf32>',
    '%v = tt.expand_dims %u {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>',
    '%v_2 = tt.broadcast %v : tensor<16x1xf32> -> tensor<16x32xf32>',
    '%10 = arith.truncf %v_2 : tensor<16x32xf32> to tensor<16x32xf16>',
  ]);
});

test('control flow: while, if with results, up-counting for', () => {
  const { text } = compile(`
__global__ void k(float* X, int n) {
  int i = 0;
  float acc = 0;
  while (i < n) { acc = acc + 1.5f; i++; }
  if (n > 4) { acc = acc * 2; } else { i = 7; }
  for (int j = 0; j < n; j += 2) acc += j;
  *X = acc + i;
}`);
  hasInOrder(text, [
    '%0:2 = scf.while (%acc = %cst, %i = %c0_i32) : (f32, i32) -> (f32, i32) {',
    '  %6 = arith.cmpi slt, %i, %n : i32',
    '  scf.condition(%6) %acc, %i : f32, i32',
    '} do {',
    '^bb0(%acc: f32, %i: i32):',
    '  %acc_2 = arith.addf %acc, %cst_0 : f32',
    '  %i_3 = arith.addi %i, %c1_i32 : i32',
    '  scf.yield %acc_2, %i_3 : f32, i32',
    '%2:2 = scf.if %1 -> (f32, i32) {',
    '  %acc = arith.mulf %0#0, %cst_1 : f32',
    '  scf.yield %acc, %0#1 : f32, i32',
    '} else {',
    '  scf.yield %0#0, %c7_i32 : f32, i32',
    '%3 = scf.for %j = %c0_i32 to %n step %c2_i32 iter_args(%acc = %2#0) -> (f32)  : i32 {',
    '  %acc_2 = arith.sitofp %j : i32 to f32',
    '  %acc_3 = arith.addf %acc, %acc_2 : f32',
    '  scf.yield %acc_3 : f32',
    '%4 = arith.sitofp %2#1 : i32 to f32',
    'tt.store %X, %5 : !tt.ptr<f32>',
  ]);
});

test('casts, bitcast, min/max, unsigned ops and select', () => {
  const { text } = compile(`
__global__ void k(int* X, uint32 a, float f, int b) {
  int8 c = (int8) b;
  uint32 d = a / 3;
  float g = max(f, (float) c);
  int h = bitcast<int>(g);
  int s = min(b, h);
  *X = b > 0 ? s : d;
}`);
  hasInOrder(text, [
    '%c = arith.trunci %b : i32 to i8',
    '%d = arith.divui %a, %c3_i32 : i32',
    '%g = arith.sitofp %c : i8 to f32',
    '%g_0 = arith.maxnumf %f, %g : f32',
    '%h = tt.bitcast %g_0 : f32 -> i32',
    '%s = arith.minsi %b, %h : i32',
    '%0 = arith.cmpi sgt, %b, %c0_i32 : i32',
    '%1 = arith.select %0, %s, %d : i32',
    'tt.store %X, %1 : !tt.ptr<i32>',
  ]);
});

test('scalar pointer arithmetic and multiple kernels', () => {
  const { text } = compile(`
__global__ void k1(float* X, int off __multipleof(4)) { *(X + off - 1) = 1; }
__global__ void k2(double* Y) { *Y = 2; }`);
  assert.ok(text.includes('tt.func public @k1(%X: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %off: i32 {tt.divisibility = 4 : i32})'));
  hasInOrder(text, [
    '%0 = tt.addptr %X, %off : !tt.ptr<f32>, i32',
    '%1 = tt.addptr %0, %c-1_i32 : !tt.ptr<f32>, i32',
    'tt.store %1, %cst : !tt.ptr<f32>',
  ]);
  assert.ok(text.includes('tt.func public @k2(%Y: !tt.ptr<f64> {tt.divisibility = 16 : i32}) attributes {noinline = false} {'));
});

test('seed kernels compile for several configurations', () => {
  for (const TYPE of ['float', 'half']) {
    compile(VECTOR_ADD, { SIZE: '256', TYPE });
    compile(TRANSPOSE, { TM: '16', TN: '128', TYPE });
    compile(MATMUL, { TM: '128', TN: '64', TK: '16', TYPE });
    compile(MATMUL_PREFETCH, { TM: '32', TN: '32', TK: '8', TYPE });
  }
  compile(SOFTMAX, { BLOCK: '256' });
});

test.run();
