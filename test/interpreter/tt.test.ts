/** Interpreter unit tests of tt ops: shapes, memory (masks, other, bounds), dot, reduce, scan, atomics, casts, print/assert, calls. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { halfBitsToNumber, numberToHalfBits } from '../../ir/attributes.js';
import { loadLines as L, storeLines as S, run, runBinary, runUnary, throwsWith } from './helpers.js';

/** Wraps a body in `tt.func @k(params)` inside a module. */
const kernel = (params: string, body: string, extra = ''): string => `module {
  tt.func @k(${params}) {${body}
    tt.return
  }${extra}
}`;

test('make_range, splat, expand_dims, broadcast, reshape, trans (2x4)', () => {
  const text = kernel('%o: !tt.ptr<i32>, %o2: !tt.ptr<i32>', `
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %c10 = arith.constant 10 : i32
    %s = tt.splat %c10 : i32 -> tensor<2x1xi32>
    %r2 = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
    %e = tt.expand_dims %r2 {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
    %m = arith.muli %e, %s : tensor<2x1xi32>
    %b = tt.broadcast %m : tensor<2x1xi32> -> tensor<2x4xi32>
    %er = tt.expand_dims %r {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
    %br = tt.broadcast %er : tensor<1x4xi32> -> tensor<2x4xi32>
    %v = arith.addi %b, %br : tensor<2x4xi32>
    %flat = tt.reshape %v : tensor<2x4xi32> -> tensor<8xi32>${S('flat', 'o', 'i32', 8)}
    %t = tt.trans %v {order = array<i32: 1, 0>} : tensor<2x4xi32> -> tensor<4x2xi32>
    %tf = tt.reshape %t : tensor<4x2xi32> -> tensor<8xi32>${S('tf', 'o2', 'i32', 8)}`);
  const { mem } = run(text, (m) => [m.alloc('i32', 8), m.alloc('i32', 8)]);
  assert.equal(mem.buffers[0].toNumbers(), [0, 1, 2, 3, 10, 11, 12, 13]);
  assert.equal(mem.buffers[1].toNumbers(), [0, 10, 1, 11, 2, 12, 3, 13]);
});

test('cat, join, split', () => {
  const text = kernel('%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %o: !tt.ptr<f32>, %o2: !tt.ptr<f32>, %o3: !tt.ptr<f32>', `${L('x', 'a', 'f32', 4)}${L('y', 'b', 'f32', 4)}
    %c = tt.cat %x, %y : tensor<4xf32> -> tensor<8xf32>${S('c', 'o', 'f32', 8)}
    %j = tt.join %x, %y : tensor<4xf32> -> tensor<4x2xf32>
    %jf = tt.reshape %j : tensor<4x2xf32> -> tensor<8xf32>${S('jf', 'o2', 'f32', 8)}
    %l, %r = tt.split %j : tensor<4x2xf32> -> tensor<4xf32>
    %d = arith.subf %l, %r : tensor<4xf32>${S('d', 'o3', 'f32', 4)}`);
  const { mem } = run(text, (m) => [m.alloc('f32', 4).fill([1, 2, 3, 4]), m.alloc('f32', 4).fill([10, 20, 30, 40]), m.alloc('f32', 8), m.alloc('f32', 8), m.alloc('f32', 4)]);
  assert.equal(mem.buffers[2].toNumbers(), [1, 2, 3, 4, 10, 20, 30, 40]);
  assert.equal(mem.buffers[3].toNumbers(), [1, 10, 2, 20, 3, 30, 4, 40]);
  assert.equal(mem.buffers[4].toNumbers(), [-9, -18, -27, -36]);
});

const maskedCopy = kernel('%a: !tt.ptr<f32>, %o: !tt.ptr<f32>, %n: i32', `
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %ns = tt.splat %n : i32 -> tensor<8xi32>
    %m = arith.cmpi slt, %r, %ns : tensor<8xi32>
    %other = arith.constant dense<-1.500000e+00> : tensor<8xf32>
    %ap = tt.splat %a : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %ap2 = tt.addptr %ap, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %x = tt.load %ap2, %m, %other : tensor<8x!tt.ptr<f32>>
    %op = tt.splat %o : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %op2 = tt.addptr %op, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    tt.store %op2, %x : tensor<8x!tt.ptr<f32>>`);

test('masked load with other: masked-off lanes take other and never touch memory', () => {
  // The input buffer has only 5 elements: lanes 5..7 would be out of bounds if they were read.
  const { mem } = run(maskedCopy, (m) => [m.alloc('f32', 5).fill([1, 2, 3, 4, 5]), m.alloc('f32', 8), 5]);
  assert.equal(mem.buffers[1].toNumbers(), [1, 2, 3, 4, 5, -1.5, -1.5, -1.5]);
});

test('out-of-bounds load is an error naming the op, location, program id, lane and buffer', () => {
  throwsWith(() => run(maskedCopy, (m) => [m.alloc('f32', 5, 'inp'), m.alloc('f32', 8), 6]),
    "'tt.load'", 'test.ttir:', 'program (0, 0, 0)', 'out-of-bounds load', 'lane [5]', "buffer #0 'inp'", 'element 5');
});

test('out-of-bounds store and negative offsets are errors; masked stores skip lanes', () => {
  const text = kernel('%o: !tt.ptr<i32>, %n: i32, %base: i32', `
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %bs = tt.splat %base : i32 -> tensor<4xi32>
    %idx = arith.addi %r, %bs : tensor<4xi32>
    %ns = tt.splat %n : i32 -> tensor<4xi32>
    %m = arith.cmpi slt, %r, %ns : tensor<4xi32>
    %op = tt.splat %o : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>
    %op2 = tt.addptr %op, %idx : tensor<4x!tt.ptr<i32>>, tensor<4xi32>
    tt.store %op2, %r, %m : tensor<4x!tt.ptr<i32>>`);
  const { mem } = run(text, (m) => [m.alloc('i32', 4).fill([9, 9, 9, 9]), 2, 0]);
  assert.equal(mem.buffers[0].toNumbers(), [0, 1, 9, 9]);
  throwsWith(() => run(text, (m) => [m.alloc('i32', 4), 4, 1], [3, 1, 1]), "'tt.store'", 'out-of-bounds store', 'lane [3]', 'element 4');
  throwsWith(() => run(text, (m) => [m.alloc('i32', 4), 4, -1]), 'out-of-bounds store', 'lane [0]', 'element -1');
});

test('loading through a pointer of the wrong element type is an error', () => {
  throwsWith(() => run(maskedCopy, (m) => [m.alloc('f16', 8), m.alloc('f32', 8), 8]), "load of 'f32'", "holds 'f16'");
});

test('scalar load/store through addptr; program ids and grid size', () => {
  const text = kernel('%o: !tt.ptr<i32>', `
    %x = tt.get_program_id x : i32
    %y = tt.get_program_id y : i32
    %nx = tt.get_num_programs x : i32
    %ny = tt.get_num_programs y : i32
    %row = arith.muli %y, %nx : i32
    %lin = arith.addi %row, %x : i32
    %p = tt.addptr %o, %lin : !tt.ptr<i32>, i32
    %c100 = arith.constant 100 : i32
    %v0 = arith.muli %ny, %c100 : i32
    %v = arith.addi %v0, %lin : i32
    tt.store %p, %v : !tt.ptr<i32>`);
  const { mem } = run(text, (m) => [m.alloc('i32', 6)], [3, 2, 1]);
  assert.equal(mem.buffers[0].toNumbers(), [200, 201, 202, 203, 204, 205]);
});

test('tt.dot f16 x f16 -> f32 (exact products, f32 sums) and i8 x i8 -> i32', () => {
  const text = (t: string, acc: string) => kernel(`%a: !tt.ptr<${t}>, %b: !tt.ptr<${t}>, %o: !tt.ptr<${acc}>`, `${L('x', 'a', t, 8)}${L('y', 'b', t, 8)}
    %xa = tt.reshape %x : tensor<8x${t}> -> tensor<2x4x${t}>
    %yb = tt.reshape %y : tensor<8x${t}> -> tensor<4x2x${t}>
    %c = arith.constant dense<${acc === 'f32' ? '1.000000e+00' : '1'}> : tensor<2x2x${acc}>
    %d = tt.dot %xa, %yb, %c : tensor<2x4x${t}> * tensor<4x2x${t}> -> tensor<2x2x${acc}>
    %df = tt.reshape %d : tensor<2x2x${acc}> -> tensor<4x${acc}>${S('df', 'o', acc, 4)}`);
  const h = (v: number) => halfBitsToNumber(numberToHalfBits(v));
  const A = [0.1, 0.2, 0.3, 0.4, -1, 2, -3, 4].map(h);
  const B = [1 / 3, 0.5, 0.25, -2, 7, 1.5, 0.125, 3].map(h);
  const { mem } = run(text('f16', 'f32'), (m) => [m.alloc('f16', 8).fill(A), m.alloc('f16', 8).fill(B), m.alloc('f32', 4)]);
  const ref: number[] = [];
  for (let i = 0; i < 2; i++)
    for (let j = 0; j < 2; j++) {
      let s = 1;
      for (let k = 0; k < 4; k++) s = Math.fround(s + A[i * 4 + k] * B[k * 2 + j]);
      ref.push(s);
    }
  assert.equal(mem.buffers[2].toNumbers(), ref);
  const I = [127, -128, 5, 3, 1, 2, 3, 4];
  const r2 = run(text('i8', 'i32'), (m) => [m.alloc('i8', 8).fill(I), m.alloc('i8', 8).fill([127, 1, -128, 2, 3, 4, 5, 6]), m.alloc('i32', 4)]);
  const J = [127, 1, -128, 2, 3, 4, 5, 6];
  const ref2: number[] = [];
  for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) ref2.push(1 + [0, 1, 2, 3].reduce((s, k) => s + I[i * 4 + k] * J[k * 2 + j], 0));
  assert.equal(r2.mem.buffers[2].toNumbers(), ref2);
});

test('tt.reduce (sum along each axis; two-operand argmax) and tt.scan (forward and reverse)', () => {
  const text = kernel('%a: !tt.ptr<f32>, %o: !tt.ptr<f32>, %o2: !tt.ptr<f32>, %o3: !tt.ptr<i32>, %o4: !tt.ptr<f32>, %o5: !tt.ptr<f32>', `${L('x', 'a', 'f32', 8)}
    %m = tt.reshape %x : tensor<8xf32> -> tensor<2x4xf32>
    %s0 = "tt.reduce"(%m) <{axis = 1 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %t = arith.addf %p, %q : f32
      tt.reduce.return %t : f32
    }) : (tensor<2x4xf32>) -> tensor<2xf32>${S('s0', 'o', 'f32', 2)}
    %s1 = "tt.reduce"(%m) <{axis = 0 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %t = arith.maxnumf %p, %q : f32
      tt.reduce.return %t : f32
    }) : (tensor<2x4xf32>) -> tensor<4xf32>${S('s1', 'o2', 'f32', 4)}
    %idx = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %mv, %mi = "tt.reduce"(%x, %idx) <{axis = 0 : i32}> ({
    ^bb0(%v1: f32, %i1: i32, %v2: f32, %i2: i32):
      %gt = arith.cmpf ogt, %v2, %v1 : f32
      %v = arith.select %gt, %v2, %v1 : f32
      %i = arith.select %gt, %i2, %i1 : i32
      tt.reduce.return %v, %i : f32, i32
    }) : (tensor<8xf32>, tensor<8xi32>) -> (f32, i32)
    %pi = tt.addptr %o3, %c0 : !tt.ptr<i32>, i32
    %c0 = arith.constant 0 : i32
    tt.store %o3, %mi : !tt.ptr<i32>
    %cs = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%p: f32, %q: f32):
      %t = arith.addf %p, %q : f32
      tt.scan.return %t : f32
    }) : (tensor<8xf32>) -> tensor<8xf32>${S('cs', 'o4', 'f32', 8)}
    %rs = "tt.scan"(%x) <{axis = 0 : i32, reverse = true}> ({
    ^bb0(%p: f32, %q: f32):
      %t = arith.addf %p, %q : f32
      tt.scan.return %t : f32
    }) : (tensor<8xf32>) -> tensor<8xf32>${S('rs', 'o5', 'f32', 8)}`.replace('    %pi = tt.addptr %o3, %c0 : !tt.ptr<i32>, i32\n', ''));
  const X = [1, 5, 2, 3, 7, 0, 4, 6];
  const { mem } = run(text, (m) => [m.alloc('f32', 8).fill(X), m.alloc('f32', 2), m.alloc('f32', 4), m.alloc('i32', 1), m.alloc('f32', 8), m.alloc('f32', 8)]);
  assert.equal(mem.buffers[1].toNumbers(), [11, 17]);
  assert.equal(mem.buffers[2].toNumbers(), [7, 5, 4, 6]);
  assert.equal(mem.buffers[3].toNumbers(), [4]);
  assert.equal(mem.buffers[4].toNumbers(), [1, 6, 8, 11, 18, 18, 22, 28]);
  assert.equal(mem.buffers[5].toNumbers(), [28, 27, 22, 20, 17, 10, 10, 6]);
});

test('tt.atomic_rmw (add, fadd, max, min, umax, and, or, xor, exch) with masks, and tt.atomic_cas', () => {
  const ops: [string, string, number[], number[]][] = [
    ['add', 'i32', [10, 20, 30, 40], [11, 22, 30, 40]],
    ['max', 'i32', [10, 20, 30, 40], [10, 20, 30, 40]],
    ['min', 'i32', [-10, 20, 30, 40], [-10, 2, 30, 40]],
    ['umax', 'i32', [-10, 20, 30, 40], [-10, 20, 30, 40]],
    ['and', 'i32', [7, 6, 30, 40], [1, 2, 30, 40]],
    ['or', 'i32', [8, 4, 30, 40], [9, 6, 30, 40]],
    ['xor', 'i32', [3, 3, 30, 40], [2, 1, 30, 40]],
    ['exch', 'i32', [3, 3, 30, 40], [1, 2, 30, 40]],
    ['fadd', 'f32', [0.5, 0.25, 30, 40], [1.5, 2.25, 30, 40]],
  ];
  for (const [op, t, init, expect] of ops) {
    const text = kernel(`%o: !tt.ptr<${t}>, %old: !tt.ptr<${t}>`, `
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %c2 = arith.constant dense<2> : tensor<4xi32>
    %m = arith.cmpi slt, %r, %c2 : tensor<4xi32>
    %one = arith.constant dense<1> : tensor<4xi32>
    %v0 = arith.addi %r, %one : tensor<4xi32>
    ${t === 'f32' ? '%v = arith.sitofp %v0 : tensor<4xi32> to tensor<4xf32>' : '%v = arith.addi %v0, %v0 : tensor<4xi32>\n    %v2 = arith.shrsi %v, %one : tensor<4xi32>'}
    %p = tt.splat %o : !tt.ptr<${t}> -> tensor<4x!tt.ptr<${t}>>
    %p2 = tt.addptr %p, %r : tensor<4x!tt.ptr<${t}>>, tensor<4xi32>
    %res = tt.atomic_rmw ${op}, acq_rel, gpu, %p2, ${t === 'f32' ? '%v' : '%v2'}, %m : (tensor<4x!tt.ptr<${t}>>, tensor<4x${t}>, tensor<4xi1>) -> tensor<4x${t}>${S('res', 'old', t, 4)}`);
    const { mem } = run(text, (m) => [m.alloc(t, 4).fill(init), m.alloc(t, 4)]);
    assert.equal(mem.buffers[0].toNumbers(), expect, op);
    assert.equal(mem.buffers[1].toNumbers(), [init[0], init[1], 0, 0], `${op} old values`);
  }
  const cas = kernel('%o: !tt.ptr<i32>, %old: !tt.ptr<i32>', `
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %c1 = arith.constant dense<1> : tensor<4xi32>
    %c9 = arith.constant dense<9> : tensor<4xi32>
    %p = tt.splat %o : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>
    %p2 = tt.addptr %p, %r : tensor<4x!tt.ptr<i32>>, tensor<4xi32>
    %res = tt.atomic_cas acq_rel, gpu, %p2, %c1, %c9 : (tensor<4x!tt.ptr<i32>>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>${S('res', 'old', 'i32', 4)}`);
  const { mem } = run(cas, (m) => [m.alloc('i32', 4).fill([1, 2, 1, 0]), m.alloc('i32', 4)]);
  assert.equal(mem.buffers[0].toNumbers(), [9, 2, 9, 0]);
  assert.equal(mem.buffers[1].toNumbers(), [1, 2, 1, 0]);
});

test('atomic adds from many programs accumulate (programs run one after another)', () => {
  const text = kernel('%o: !tt.ptr<i32>', `
    %c1 = arith.constant 1 : i32
    %t = arith.constant true
    %old = tt.atomic_rmw add, acq_rel, gpu, %o, %c1, %t : (!tt.ptr<i32>, i32, i1) -> i32`);
  const { mem } = run(text, (m) => [m.alloc('i32', 1)], [4, 3, 2]);
  assert.equal(mem.buffers[0].toNumbers(), [24]);
});

test('tt.fp_to_fp (rtne and rtz), tt.clampf, tt.precise_sqrt, tt.precise_divf, tt.mulhiui, tt.bitcast', () => {
  assert.equal(runUnary('tt.fp_to_fp %x, rounding = rtne : tensor<3xf32> -> tensor<3xf16>', 'f32', 'f16', [1 / 3, 65519, 70000]), [0.333251953125, 65504, Infinity]);
  assert.equal(runUnary('tt.fp_to_fp %x, rounding = rtz : tensor<3xf32> -> tensor<3xf16>', 'f32', 'f16', [1 / 3, 65519, -70000]), [0.333251953125, 65504, -65504]);
  assert.equal(runUnary('tt.fp_to_fp %x, rounding = rtz : tensor<1xf32> -> tensor<1xf16>', 'f32', 'f16', [2 / 3]), [0.66650390625]);
  assert.equal(runUnary('tt.fp_to_fp %x : tensor<1xf16> -> tensor<1xf32>', 'f16', 'f32', [0.5]), [0.5]);
  assert.equal(runBinary('tt.clampf %x, %y, %y, propagateNan = none : tensor<2xf32>', 'f32', 'f32', [5, NaN], [1, 2]), [1, 2]);
  const c = runBinary('tt.clampf %x, %y, %y, propagateNan = all : tensor<2xf32>', 'f32', 'f32', [5, NaN], [1, 2]);
  assert.equal(c[0], 1);
  assert.ok(Number.isNaN(c[1]));
  assert.equal(runUnary('tt.precise_sqrt %x : tensor<2xf32>', 'f32', 'f32', [2, 9]), [Math.fround(Math.SQRT2), 3]);
  assert.equal(runBinary('tt.precise_divf %x, %y : tensor<1xf32>', 'f32', 'f32', [1], [3]), [Math.fround(1 / 3)]);
  assert.equal(runBinary('tt.mulhiui %x, %y : tensor<2xi32>', 'i32', 'i32', [-1, 65536], [-1, 65536]), [-2, 1]);
  assert.equal(runBinary('tt.mulhiui %x, %y : tensor<1xi64>', 'i64', 'i64', [-1n], [2n]), [1n]);
  assert.equal(runUnary('tt.bitcast %x : tensor<2xf32> -> tensor<2xi32>', 'f32', 'i32', [1, -0]), [0x3f800000, -2147483648]);
});

test('tt.gather and tt.histogram', () => {
  const text = kernel('%a: !tt.ptr<f32>, %i: !tt.ptr<i32>, %o: !tt.ptr<f32>, %h: !tt.ptr<i32>', `${L('x', 'a', 'f32', 8)}${L('ix', 'i', 'i32', 8)}
    %g = tt.gather %x[%ix] {axis = 0 : i32} : (tensor<8xf32>, tensor<8xi32>) -> tensor<8xf32>${S('g', 'o', 'f32', 8)}
    %hh = tt.histogram %ix : tensor<8xi32> -> tensor<4xi32>${S('hh', 'h', 'i32', 4)}`);
  const { mem } = run(text, (m) => [m.alloc('f32', 8).fill([10, 11, 12, 13, 14, 15, 16, 17]), m.alloc('i32', 8).fill([7, 0, 1, 1, 3, 2, 2, 2]), m.alloc('f32', 8), m.alloc('i32', 4)]);
  assert.equal(mem.buffers[2].toNumbers(), [17, 10, 11, 11, 13, 12, 12, 12]);
  assert.equal(mem.buffers[3].toNumbers(), [1, 2, 3, 1]);
});

test('tt.print collects lines; tt.assert fails with its message and program id', () => {
  const text = kernel('%n: i32', `
    %r = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
    tt.print " r: " {hex = false, isSigned = array<i32: 1>} : %r : tensor<2xi32>
    %ns = tt.splat %n : i32 -> tensor<2xi32>
    %ok = arith.cmpi slt, %r, %ns : tensor<2xi32>
    tt.assert %ok, "r must be below n" : tensor<2xi1>`);
  const { result } = run(text, () => [2], [2, 1, 1]);
  // the GPU's lines (targets/nvptx/device-debug.ts): indices padded to the dimension's digits
  assert.equal(result.prints, ['pid (0, 0, 0) idx (0) r: 0', 'pid (0, 0, 0) idx (1) r: 1', 'pid (1, 0, 0) idx (0) r: 0', 'pid (1, 0, 0) idx (1) r: 1']);
  throwsWith(() => run(text, () => [1], [2, 1, 1]), "'tt.assert'", 'assertion failed: r must be below n', 'lane [1]', 'program (0, 0, 0)');
});

test('scf.for with iter_args, scf.if with results, scf.while, tt.call', () => {
  const text = `module {
  tt.func @k(%o: !tt.ptr<i32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
      %two = arith.constant 2 : i32
      %rem = arith.remsi %i, %two : i32
      %even = arith.cmpi eq, %rem, %c0 : i32
      %add = scf.if %even -> (i32) {
        scf.yield %i : i32
      } else {
        %neg = arith.subi %c0, %i : i32
        scf.yield %neg : i32
      }
      %next = arith.addi %acc, %add : i32
      scf.yield %next : i32
    }
    tt.store %o, %sum : !tt.ptr<i32>
    %w = scf.while (%x = %c1) : (i32) -> i32 {
      %lim = arith.constant 100 : i32
      %go = arith.cmpi slt, %x, %lim : i32
      scf.condition(%go) %x : i32
    } do {
    ^bb0(%x: i32):
      %d = tt.call @double(%x) : (i32) -> i32
      scf.yield %d : i32
    }
    %p1 = tt.addptr %o, %c1 : !tt.ptr<i32>, i32
    tt.store %p1, %w : !tt.ptr<i32>
    tt.return
  }
  tt.func private @double(%x: i32) -> i32 {
    %y = arith.addi %x, %x : i32
    tt.return %y : i32
  }
}`;
  const { mem } = run(text, (m) => [m.alloc('i32', 2), 7]);
  assert.equal(mem.buffers[0].toNumbers(), [0 - 1 + 2 - 3 + 4 - 5 + 6, 128]);
});

test('cf.br / cf.cond_br between blocks', () => {
  const text = `module {
  tt.func @k(%o: !tt.ptr<i32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    cf.br ^bb1(%c0, %c0 : i32, i32)
  ^bb1(%i: i32, %acc: i32):
    %done = arith.cmpi sge, %i, %n : i32
    cf.cond_br %done, ^bb3, ^bb2
  ^bb2:
    %c1 = arith.constant 1 : i32
    %acc2 = arith.addi %acc, %i : i32
    %i2 = arith.addi %i, %c1 : i32
    cf.br ^bb1(%i2, %acc2 : i32, i32)
  ^bb3:
    tt.store %o, %acc : !tt.ptr<i32>
    tt.return
  }
}`;
  const { mem } = run(text, (m) => [m.alloc('i32', 1), 5]);
  assert.equal(mem.buffers[0].toNumbers(), [10]);
});

test('an op without an implementation is an error naming it', () => {
  const text = `module {
  tt.func @k(%x: i32) {
    %y = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : i32 -> i32
    tt.return
  }
}`;
  throwsWith(() => run(text, () => [1]), "interpreter: no implementation for 'tt.elementwise_inline_asm'", 'test.ttir:3:', 'program (0, 0, 0)');
});

test('a libdevice call the interpreter does not compute is an error naming its symbol', () => {
  const text = `module {
  tt.func @k(%x: i32) {
    %y = tt.extern_elementwise %x {libname = "m", libpath = "/lib.bc", pure = true, symbol = "foo"} : (i32) -> i32
    tt.return
  }
}`;
  throwsWith(() => run(text, () => [1]), "no implementation for 'tt.extern_elementwise' of 'foo'", 'test.ttir:3:', 'program (0, 0, 0)');
});

test('libdevice calls: rounding, classification, bit functions', () => {
  const text = `module {
  tt.func @k(%a: !tt.ptr<f32>, %b: !tt.ptr<i32>, %o: !tt.ptr<f32>, %o2: !tt.ptr<i32>) {${L('x', 'a', 'f32', 4)}${L('k', 'b', 'i32', 4)}
    %r = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_roundf"} : (tensor<4xf32>) -> tensor<4xf32>
    %e = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_rintf"} : (tensor<4xf32>) -> tensor<4xf32>
    %s = arith.addf %r, %e : tensor<4xf32>${S('s', 'o', 'f32', 4)}
    %p = tt.extern_elementwise %k {libname = "", libpath = "", pure = true, symbol = "__nv_ffs"} : (tensor<4xi32>) -> tensor<4xi32>
    %c = tt.extern_elementwise %k {libname = "", libpath = "", pure = true, symbol = "__nv_clz"} : (tensor<4xi32>) -> tensor<4xi32>
    %sb = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_signbitf"} : (tensor<4xf32>) -> tensor<4xi32>
    %c100 = arith.constant dense<100> : tensor<4xi32>
    %c10000 = arith.constant dense<10000> : tensor<4xi32>
    %cm = arith.muli %c, %c100 : tensor<4xi32>
    %sm = arith.muli %sb, %c10000 : tensor<4xi32>
    %q = arith.addi %p, %cm : tensor<4xi32>
    %t = arith.addi %q, %sm : tensor<4xi32>${S('t', 'o2', 'i32', 4)}
    tt.return
  }
}`;
  const { mem } = run(text, (m) => [m.alloc('f32', 4).fill([2.5, -2.5, 1.25, -0.0]), m.alloc('i32', 4).fill([0, 8, -1, 0x10000]), m.alloc('f32', 4), m.alloc('i32', 4)]);
  // round: halfway away from zero (3, -3); rint: to even (2, -2)
  assert.equal(mem.buffers[2].toNumbers(), [5, -5, 2, 0]);
  // ffs(0) = 0 and clz(0) = 32; ffs(8) = 4, clz(8) = 28; ffs(-1) = 1, clz(-1) = 0; ffs(2^16) = 17, clz = 15;
  // signbit of -2.5 and of -0 is 1
  assert.equal(mem.buffers[3].toNumbers(), [3200, 2804 + 10000, 1, 1517 + 10000]);
});

test('argument count and types are checked', () => {
  throwsWith(() => run(maskedCopy, (m) => [m.alloc('f32', 8)]), 'takes 3 arguments, got 1');
  throwsWith(() => run(maskedCopy, (m) => [1, m.alloc('f32', 8), 8]), 'argument #0 has pointer type');
});

test.run();
