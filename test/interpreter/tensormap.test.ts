/**
 * Hidden tensor-map parameters (`tir.tensormap`) in the CPU interpreter: the caller passes only
 * the ordinary arguments, and the interpreter builds the map from the base pointer, shape and
 * stride arguments its attribute names, as the launcher does. A hand-written kernel copies
 * Y = 2X + 1 in 16x16 blocks read through such a map; its output must match an independent
 * computation (blocks past the tensor's edge read zeros, padding columns are skipped), before
 * and after the sm_90a `default` pipeline, and through `triton-run`.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Operation } from '../../ir/ir.js';
import { parseText } from '../../ir/parser.js';
import { verify } from '../../ir/verifier.js';
import { symbolNameOf } from '../../ir/function-syntax.js';
import * as tt from '../../dialects/tt/index.js';
import { registerAllPasses } from '../../passes/all.js';
import { runPipeline } from '../../passes/manager.js';
import { rng, runCli } from '../../tools/interpreter/cli.js';
import { InterpreterError } from '../../tools/interpreter/errors.js';
import { type ArgValue, interpret } from '../../tools/interpreter/interpreter.js';
import { type Buffer, Memory } from '../../tools/interpreter/memory.js';
import { parse, throwsWith } from './helpers.js';

registerAllPasses();

const BLOCK = 16;

/**
 * `@tile_kernel(x, y, M, N, stride)`: program (m, n) reads block (16m, 16n) of the M x N tensor
 * at x (row stride `stride`) through the hidden map `%map` and stores 2 * block + 1 to y, a
 * row-major array of (16 * programs along x) x (16 * programs along y) elements.
 */
const KERNEL = `module {
  tt.func public @tile_kernel(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %M: i32, %N: i32, %stride: i32, %map: !tt.tensordesc<tensor<16x16xf32>> {tir.tensormap = {base = 0 : i32, shape = [2 : i32, 3 : i32], strides = [4 : i32]}}) {
    %c16 = arith.constant 16 : i32
    %one = arith.constant dense<1.000000e+00> : tensor<16x16xf32>
    %two = arith.constant dense<2.000000e+00> : tensor<16x16xf32>
    %pid_m = tt.get_program_id x : i32
    %pid_n = tt.get_program_id y : i32
    %num_n = tt.get_num_programs y : i32
    %row = arith.muli %pid_m, %c16 : i32
    %col = arith.muli %pid_n, %c16 : i32
    %y_stride = arith.muli %num_n, %c16 : i32
    %tile = tt.descriptor_load %map[%row, %col] : !tt.tensordesc<tensor<16x16xf32>> -> tensor<16x16xf32>
    %twice = arith.mulf %tile, %two : tensor<16x16xf32>
    %out = arith.addf %twice, %one : tensor<16x16xf32>
    %range = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %row_s = tt.splat %row : i32 -> tensor<16xi32>
    %rows = arith.addi %row_s, %range : tensor<16xi32>
    %rows_2d = tt.expand_dims %rows {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %y_stride_s = tt.splat %y_stride : i32 -> tensor<16x1xi32>
    %row_offs = arith.muli %rows_2d, %y_stride_s : tensor<16x1xi32>
    %col_s = tt.splat %col : i32 -> tensor<16xi32>
    %cols = arith.addi %col_s, %range : tensor<16xi32>
    %cols_2d = tt.expand_dims %cols {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %row_offs_b = tt.broadcast %row_offs : tensor<16x1xi32> -> tensor<16x16xi32>
    %cols_b = tt.broadcast %cols_2d : tensor<1x16xi32> -> tensor<16x16xi32>
    %offs = arith.addi %row_offs_b, %cols_b : tensor<16x16xi32>
    %y_s = tt.splat %y : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %y_ptrs = tt.addptr %y_s, %offs : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    tt.store %y_ptrs, %out : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}
`;

/** A tensor whose shape is not a multiple of the block, with padding columns (stride > N), at an offset in its buffer. */
const M = 37;
const N = 45;
const STRIDE = 52;
const OFFSET = 5;
const GRID = [Math.ceil(M / BLOCK), Math.ceil(N / BLOCK), 1];
const Y_ROWS = GRID[0] * BLOCK;
const Y_COLS = GRID[1] * BLOCK;
/** Exactly the elements up to the tensor's last one: a map reading past it would be an error. */
const X_LENGTH = OFFSET + (M - 1) * STRIDE + N;
/** Values outside the tensor (before the offset, in padding columns): none of them may reach y. */
const OUTSIDE = 1e6;

/** X's buffer contents: random values inside the tensor, OUTSIDE elsewhere. */
function xContents(): number[] {
  const random = rng(7);
  return Array.from({ length: X_LENGTH }, (_, k) => {
    const inside = k >= OFFSET && (k - OFFSET) % STRIDE < N;
    return inside ? Math.fround(random() * 4 - 2) : OUTSIDE;
  });
}

/** Y as the kernel should leave it, computed directly from X's contents: 2X + 1 inside the tensor, 2 * 0 + 1 past its edge. */
function expectedY(x: readonly number[], offset: number, stride: number): number[] {
  return Array.from({ length: Y_ROWS * Y_COLS }, (_, k) => {
    const [i, j] = [Math.floor(k / Y_COLS), k % Y_COLS];
    return i < M && j < N ? Math.fround(2 * x[offset + i * stride + j] + 1) : 1;
  });
}

/** Runs `@tile_kernel` of `module` on X (as a buffer view at OFFSET) into a fresh Y; returns Y. */
function runTile(module: Operation): number[] {
  const mem = new Memory();
  const x = mem.alloc('f32', X_LENGTH, 'x').fill(xContents());
  const y = mem.alloc('f32', Y_ROWS * Y_COLS, 'y').fill(() => -7);
  interpret(module, 'tile_kernel', { grid: GRID, args: [{ buffer: x, offset: OFFSET }, y, M, N, STRIDE], memory: mem });
  return y.toNumbers();
}

/** The kernel after the default pipeline for sm_90a. */
function compiled(): Operation {
  const m = parse(KERNEL);
  const r = runPipeline(m, 'default{arch=sm_90a num-warps=4}');
  assert.ok(r.ok, r.diagnostics.map((d) => d.format()).join('\n'));
  verify(m);
  return m;
}

/** The `tt.func` named `name` in `module`. */
function funcNamed(module: Operation, name: string): Operation {
  let found: Operation | null = null;
  module.walk((op) => void (tt.FuncOp.is(op) && symbolNameOf(op) === name && (found = op)));
  assert.ok(found, `no @${name}`);
  return found!;
}

/** Whether `module` has an op named `name`. */
function hasOp(module: Operation, name: string): boolean {
  let found = false;
  module.walk((op) => void (op.name === name && (found = true)));
  return found;
}

/** Asserts that running `@tile_kernel` with `makeArgs` fails with an InterpreterError whose message has every fragment. */
function failsWith(makeArgs: (mem: Memory) => ArgValue[], ...fragments: string[]): void {
  const mem = new Memory();
  const args = makeArgs(mem);
  throwsWith(() => {
    try {
      interpret(parse(KERNEL), 'tile_kernel', { grid: GRID, args, memory: mem });
    } catch (e) {
      assert.instance(e, InterpreterError);
      throw e;
    }
  }, ...fragments);
}

/** A fresh X buffer of `length` elements with `xContents` (as far as it goes), and a Y buffer. */
function buffers(mem: Memory, length = X_LENGTH): { x: Buffer; y: Buffer } {
  const contents = xContents();
  return { x: mem.alloc('f32', length, 'x').fill((k) => contents[k] ?? 0), y: mem.alloc('f32', Y_ROWS * Y_COLS, 'y') };
}

test('the hidden map is built from x, M, N and stride: partial edge blocks read zeros, padding and offset respected', () => {
  const y = runTile(parse(KERNEL));
  const expected = expectedY(xContents(), OFFSET, STRIDE);
  y.forEach((v, k) => assert.is(v, expected[k], `y[${Math.floor(k / Y_COLS)}, ${k % Y_COLS}]`));
  assert.ok(expected.includes(1) && expected.some((v) => v !== 1), 'the check covers both inside and past the edge');
});

test('after the sm_90a default pipeline (a TMA copy through the hidden map) the output is the same', () => {
  const m = compiled();
  assert.ok(hasOp(m, 'ttng.async_tma_copy_global_to_local'), 'the descriptor load should become a TMA copy');
  assert.ok(!hasOp(m, 'tt.descriptor_load'), 'no descriptor load should be left');
  assert.equal(tt.tensormapOf(funcNamed(m, 'tile_kernel'), 5), { base: 0, shape: [2, 3], strides: [4], positive: [] });
  assert.equal(runTile(m), expectedY(xContents(), OFFSET, STRIDE));
});

test('the caller passes the ordinary arguments only: fewer or more are errors naming the hidden parameter', () => {
  failsWith((mem) => {
    const { x, y } = buffers(mem);
    return [x, y, M, N];
  }, "'@tile_kernel' takes 5 arguments, got 4", 'hidden tensor-map parameter #5 is built from them, not passed');
  failsWith((mem) => {
    const { x, y } = buffers(mem);
    return [x, y, M, N, STRIDE, x];
  }, "'@tile_kernel' takes 5 arguments, got 6");
});

test('a map that cannot be built is an InterpreterError naming its argument', () => {
  failsWith(() => [3, 4, M, N, STRIDE], 'argument #0 has pointer type');
  failsWith((mem) => [mem.alloc('f16', X_LENGTH, 'x16'), mem.alloc('f32', 4, 'y'), M, N, STRIDE], "hidden tensor map #5 of 'f32' elements is built over argument #0, buffer 'x16' of 'f16'");
  failsWith((mem) => {
    const { x, y } = buffers(mem);
    return [x, y, M, N, -1];
  }, 'hidden tensor map #5', 'dim 0 stride (argument #4) is -1');
  failsWith((mem) => {
    const { x, y } = buffers(mem);
    return [x, y, -2, N, STRIDE];
  }, 'dim 0 size (argument #2) is -2');
});

test('a shape or stride that does not fit the base buffer fails where the block is read', () => {
  failsWith((mem) => {
    const { x, y } = buffers(mem, X_LENGTH - 1);
    return [{ buffer: x, offset: OFFSET }, y, M, N, STRIDE];
  }, "'tt.descriptor_load'", 'in program (2, 2, 0)', 'do not fit its buffer');
});

test('a hidden parameter before an ordinary one (an unverified module) is an InterpreterError', () => {
  const text = KERNEL.replace('%stride: i32, %map: !tt.tensordesc<tensor<16x16xf32>> {tir.tensormap = {base = 0 : i32, shape = [2 : i32, 3 : i32], strides = [4 : i32]}}', '%map: !tt.tensordesc<tensor<16x16xf32>> {tir.tensormap = {base = 0 : i32, shape = [2 : i32, 3 : i32], strides = [3 : i32]}}, %stride: i32');
  assert.is.not(text, KERNEL);
  const { module } = parseText(text, {}, 'unverified.ttir');
  const mem = new Memory();
  const { x, y } = buffers(mem);
  const msg = throwsWith(() => interpret(module, 'tile_kernel', { grid: GRID, args: [x, y, M, N, STRIDE], memory: mem }), 'follows a hidden tensor-map parameter');
  assert.ok(msg.startsWith('interpreter: hidden tensor-map parameter: argument #5'), msg);
});

test('triton-run takes no --arg for the hidden map and says so in --help', () => {
  const read = () => KERNEL;
  const size = (M - 1) * STRIDE + N;
  const specs = [`ptr:f32:${size}:arange`, `ptr:f32:${Y_ROWS * Y_COLS}:-7`, `i32:${M}`, `i32:${N}`, `i32:${STRIDE}`];
  const r = runCli(['k.ttir', `--grid=${GRID.join(',')}`, '--print=full', ...specs.flatMap((s) => ['--arg', s])], read);
  assert.is(r.code, 0, r.stdout);
  const line = /\* y: f32\[\d+\] .*\n {2}\[(.*)\]/.exec(r.stdout);
  assert.ok(line, r.stdout);
  const arange = Array.from({ length: size }, (_, k) => k);
  assert.equal(line![1].split(', ').map(Number), expectedY(arange, 0, STRIDE));
  const extra = runCli(['k.ttir', `--grid=${GRID.join(',')}`, ...[...specs, 'ptr:f32:4'].flatMap((s) => ['--arg', s])], read);
  assert.is(extra.code, 1);
  assert.match(extra.stdout, /takes 5 arguments, got 6 \(its hidden tensor-map parameter #5 is built from them, not passed\)/);
  assert.match(runCli(['--help'], read).stdout, /takes no --arg: it is built/);
});

test.run();
