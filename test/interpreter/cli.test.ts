/** Tests of the triton-run CLI (run in-process through runCli). */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { minMax, runCli } from '../../tools/interpreter/cli.js';

const read = (p: string): string => readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8');

test('runs add_kernel with buffers from specs and marks the written buffer', () => {
  const r = runCli(['examples/ttir/add_kernel.ttir', '--grid=2', '--arg', 'ptr:f32:2000:arange', '--arg', 'ptr:f32:2000:ones', '--arg', 'ptr:f32:2000', '--arg', 'i32:2000'], read);
  assert.is(r.code, 0, r.stdout);
  assert.match(r.stdout, /ran @add_kernel on grid \(2, 1, 1\): \d+ ops/);
  assert.match(r.stdout, /\* out_ptr: f32\[2000\] min 1 max 2000 mean 1000\.50 sum 2001000\n {2}\[1, 2, 3, 4, 5, 6, 7, 8, \.\.\.\]/);
  assert.match(r.stdout, / {2}x_ptr: f32\[2000\]/);
});

test('--print=full prints every element; --pipeline runs passes first', () => {
  const r = runCli(['examples/ttir/add_kernel.ttir', '--grid=1', '--print=full', '--pipeline=canonicalize,cse', '--arg', 'ptr:f32:4:arange', '--arg', 'ptr:f32:4:2.5', '--arg', 'ptr:f32:4', '--arg', 'i32:4'], read);
  assert.is(r.code, 0, r.stdout);
  assert.match(r.stdout, /\* out_ptr: f32\[4\] .*\n {2}\[2\.50000, 3\.50000, 4\.50000, 5\.50000\]/);
});

test('out-of-bounds access reports the op and program; bad specs are errors', () => {
  const r = runCli(['examples/ttir/add_kernel.ttir', '--grid=2', '--arg', 'ptr:f32:1500', '--arg', 'ptr:f32:2048', '--arg', 'ptr:f32:2048', '--arg', 'i32:2048'], read);
  assert.is(r.code, 1);
  assert.match(r.stdout, /triton-run: interpreter: 'tt\.load' at kernels\.py:13:16.* in program \(1, 0, 0\): out-of-bounds load/);
  const bad = runCli(['examples/ttir/add_kernel.ttir', '--arg', 'ptr:f33:4'], read);
  assert.is(bad.code, 1);
  assert.match(bad.stdout, /unknown element type 'f33'/);
  assert.match(runCli([], read).stdout, /triton-run: no input file \(use - for stdin\)/);
});

test('--help and --version are output with code 0; unknown flags and a missing file are errors', () => {
  const help = runCli(['--help'], read);
  assert.is(help.code, 0);
  assert.match(help.stdout, /usage: triton-run <file\.ttir\|->/);
  assert.match(help.stdout, /ptr:<elt>:<count>\[:<init>\]/);
  assert.equal(runCli(['--version'], read), { stdout: '0.1.0\n', code: 0 });
  const flag = runCli(['k.ttir', '--grid=1', '--frob'], read);
  assert.is(flag.code, 1);
  assert.match(flag.stdout, /Unknown argument: frob/);
  const grid = runCli(['examples/ttir/add_kernel.ttir', '--grid=1,x'], read);
  assert.match(grid.stdout, /--grid: expected a non-negative integer, got 'x'/);
});

test('the input file may follow --arg specs', () => {
  const r = runCli(['--grid=1', '--arg', 'ptr:f32:4:arange', '--arg', 'ptr:f32:4:ones', '--arg', 'ptr:f32:4', '--arg', 'i32:4', 'examples/ttir/add_kernel.ttir'], read);
  assert.is(r.code, 0, r.stdout);
  assert.match(r.stdout, /\* out_ptr: f32\[4\] min 1 max 4/);
});

test('minMax: a loop, fine on buffers far larger than the call stack allows to spread', () => {
  const big = Array.from({ length: 1 << 20 }, (_, k) => (k * 7919) % 1000003);
  assert.equal(minMax(big), [0, 1000002]);
  assert.equal(minMax([3, -2, 5]), [-2, 5]);
});

test.run();
