/**
 * Tests for ir/op-def.ts, written as a pass author uses it: parse a kernel, find ops with
 * `match` / `is`, read named operands, results and attributes through the typed views, and
 * build new ops from named fields at a builder's insertion point.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as arith from '../../dialects/arith.js';
import { registerAllDialects } from '../../dialects/index.js';
import * as scf from '../../dialects/scf.js';
import * as tt from '../../dialects/tt/index.js';
import { DenseArrayAttr, FloatAttr, IntegerAttr, StringAttr, UnitAttr } from '../../ir/attributes.js';
import { Builder } from '../../ir/builder.js';
import type { Operation } from '../../ir/ir.js';
import { OpView } from '../../ir/op-def.js';
import { parseText } from '../../ir/parser.js';
import { printModule } from '../../ir/printer.js';
import { verifyDiagnostic } from '../../ir/verifier.js';
import { FloatType, RankedTensorType, i } from '../../ir/types.js';

registerAllDialects();

const KERNEL = `module {
  tt.func @k(%p: !tt.ptr<f32>, %n: i32) {
    %pid = tt.get_program_id y : i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %ptrs = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %ns = tt.splat %n : i32 -> tensor<128xi32>
    %m = arith.cmpi slt, %r, %ns : tensor<128xi32>
    %zero = arith.constant dense<0.000000e+00> : tensor<128xf32>
    %a = tt.load %ptrs : tensor<128x!tt.ptr<f32>>
    %b = tt.load %ptrs, %m : tensor<128x!tt.ptr<f32>>
    %c = tt.load %ptrs, %m, %zero cacheModifier = cg : tensor<128x!tt.ptr<f32>>
    %t = arith.constant dense<1.000000e+00> : tensor<16x16xf32>
    %d = tt.dot %t, %t, %t, inputPrecision = tf32 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    %e = tt.dot %t, %t, %t : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    %a2 = tt.reshape %a allow_reorder : tensor<128xf32> -> tensor<8x16xf32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %sum:2 = scf.for %iv = %c0 to %n step %c1 iter_args(%acc = %a, %acc2 = %b) -> (tensor<128xf32>, tensor<128xf32>) : i32 {
      %x = arith.addf %acc, %c : tensor<128xf32>
      scf.yield %x, %acc2 : tensor<128xf32>, tensor<128xf32>
    }
    tt.store %ptrs, %sum#0, %m : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}
`;

/** The kernel's ops in order (pre-order), parsed and verified. */
function parseKernel(text = KERNEL): { module: Operation; ops: Operation[] } {
  const { module } = parseText(text);
  const d = verifyDiagnostic(module);
  if (d) throw new Error(d.format());
  const ops: Operation[] = [];
  module.walk((op) => void ops.push(op), 'pre');
  return { module, ops };
}

/** The `operandSegmentSizes` of `op`. */
function segments(op: Operation): number[] {
  const a = op.getAttr('operandSegmentSizes');
  return a instanceof DenseArrayAttr ? [...a.values] : [];
}

/** Every op the definition matches, as typed views. */
function all<V>(ops: Operation[], def: { match(op: Operation): V | null }): V[] {
  return ops.map((op) => def.match(op)).filter((v): v is V => v !== null);
}

test('match, is and view: the right op gives a view, any other op gives null / false', () => {
  const { ops } = parseKernel();
  const loads = all(ops, tt.LoadOp);
  assert.is(loads.length, 3);
  assert.ok(loads[0] instanceof OpView);
  assert.is(loads[0].op.name, 'tt.load');
  assert.is(loads[0].constructor.name, 'LoadOp');
  const store = ops.find((op) => op.name === 'tt.store')!;
  assert.is(tt.LoadOp.match(store), null);
  assert.is(tt.LoadOp.match(null), null);
  assert.is(tt.LoadOp.match(undefined), null);
  assert.ok(tt.StoreOp.is(store));
  assert.not.ok(tt.LoadOp.is(store));
  assert.not.ok(tt.LoadOp.is(null));
  assert.is(tt.StoreOp.view(store).op, store);
  assert.throws(() => tt.LoadOp.view(store), /internal error: 'tt.store' viewed as 'tt.load'/);
});

test('single operands and results by name', () => {
  const { ops } = parseKernel();
  const cmp = all(ops, arith.CmpIOp)[0];
  assert.is(cmp.lhs, cmp.op.operand(0));
  assert.is(cmp.rhs, cmp.op.operand(1));
  assert.is(cmp.result, cmp.op.result(0));
  const add = all(ops, tt.AddptrOp)[0];
  assert.is(add.ptr.definingOp?.name, 'tt.splat');
  assert.is(add.offset.definingOp?.name, 'tt.make_range');
});

test('optional operands in segmented groups: tt.load mask / other present and absent', () => {
  const { ops } = parseKernel();
  const [plain, masked, full] = all(ops, tt.LoadOp);
  const mask = all(ops, arith.CmpIOp)[0].result;
  const zero = all(ops, arith.ConstantOp)[0].result;
  assert.is(plain.mask, undefined);
  assert.is(plain.other, undefined);
  assert.is(masked.mask, mask);
  assert.is(masked.other, undefined);
  assert.is(full.mask, mask);
  assert.is(full.other, zero);
  assert.is(full.result, full.op.result(0));
  assert.is(all(ops, tt.StoreOp)[0].mask, mask);
});

test('variadic groups and regions: scf.for', () => {
  const { ops } = parseKernel();
  const loop = all(ops, scf.ForOp)[0];
  assert.equal(loop.initArgs.map((v) => v.definingOp?.name), ['tt.load', 'tt.load']);
  assert.is(loop.results.length, 2);
  assert.is(loop.results[1], loop.op.result(1));
  assert.is(loop.region, loop.op.regions[0]);
  const y = scf.YieldOp.view(loop.region.blocks[0].last!);
  assert.is(y.results.length, 2);
});

// A single operand of an op that also has variable-size groups reads as the value, not a one-element group.
test('single operands next to variable-size groups: tt.load ptr, tt.store value, scf.for bounds', () => {
  const { ops } = parseKernel();
  for (const l of all(ops, tt.LoadOp)) assert.is(l.ptr.definingOp?.name, 'tt.addptr');
  assert.is(all(ops, tt.StoreOp)[0].value.definingOp?.name, 'scf.for');
  const loop = all(ops, scf.ForOp)[0];
  const [c0, c1] = all(ops, arith.ConstantOp).slice(2).map((c) => c.result);
  assert.is(loop.lowerBound, c0);
  assert.is(loop.step, c1);
  assert.is(loop.upperBound, loop.op.parentOp!.regions[0].blocks[0].args[1]);
});

test('attributes read as native values: i32, enum case name, unit present and absent, defaults', () => {
  const { ops } = parseKernel();
  const range = all(ops, tt.MakeRangeOp)[0];
  assert.is(range.start, 0);
  assert.is(range.end, 128);
  assert.is(all(ops, tt.GetProgramIdOp)[0].axis, 'y');
  assert.is(all(ops, arith.CmpIOp)[0].predicate, 'slt');
  const [plain, , full] = all(ops, tt.LoadOp);
  assert.is(full.cache, 'cg');
  assert.is(plain.cache, 'none'); // default
  assert.is(plain.padding, undefined); // optional, absent
  const [d, e] = all(ops, tt.DotOp);
  assert.is(d.inputPrecision, 'tf32');
  assert.is(e.inputPrecision, 'ieee'); // default
  assert.is(e.maxNumImpreciseAcc, 0);
  const reshape = all(ops, tt.ReshapeOp)[0];
  assert.is(reshape.allow_reorder, true);
  assert.is(reshape.efficient_layout, false);
  const fn = all(ops, tt.FuncOp)[0];
  assert.ok(fn.sym_name instanceof StringAttr); // no native value: the attribute itself
  assert.is(fn.sym_name.value, 'k');
  assert.is(fn.sym_visibility, undefined);
  assert.is(fn.body.blocks[0].args.length, 2);
});

test('build: attributes as attributes or native values, at the insertion point', () => {
  const { module, ops } = parseKernel();
  const range = all(ops, tt.MakeRangeOp)[0];
  const b = new Builder().setInsertionPointAfter(range.op);
  const r2 = tt.MakeRangeOp.build(b, { start: 0, end: IntegerAttr.get(64, i(32)) }, { results: { result: RankedTensorType.get([64], i(32)) } });
  assert.is(range.op.next, r2.op);
  assert.is(r2.start, 0);
  assert.is(r2.end, 64);
  assert.ok(r2.op.getAttr('end') instanceof IntegerAttr);
  const cmp = all(ops, arith.CmpIOp)[0];
  b.setInsertionPointAfter(cmp.op);
  const ge = arith.CmpIOp.build(b, { lhs: cmp.lhs, rhs: cmp.rhs, predicate: 'sge' });
  assert.is(cmp.op.next, ge.op);
  assert.is(ge.predicate, 'sge');
  assert.is(String(ge.result.type), 'tensor<128xi1>');
  const reshape = all(ops, tt.ReshapeOp)[0];
  b.setInsertionPoint(reshape.op);
  const plain = tt.ReshapeOp.build(b, { src: reshape.src, allow_reorder: false }, { results: { result: reshape.result.type } });
  assert.is(plain.op.next, reshape.op);
  assert.is(plain.op.getAttr('allow_reorder'), undefined);
  const reorder = tt.ReshapeOp.build(b, { src: reshape.src, allow_reorder: UnitAttr.get() }, { results: { result: reshape.result.type } });
  assert.is(reorder.allow_reorder, true);
  const f32 = FloatType.get('f32');
  const one = arith.ConstantOp.build(b, { value: FloatAttr.get(1, f32) });
  assert.is(one.result.type, f32);
  const d = verifyDiagnostic(module);
  assert.is(d, null, d?.format());
  const text = printModule(module);
  assert.match(text, /\n {4}%r = tt.make_range .*\n {4}%\w+ = tt.make_range \{end = 64 : i32, start = 0 : i32\} : tensor<64xi32>\n/);
  assert.match(text, /= arith.cmpi slt, %r, %ns : tensor<128xi32>\n {4}%\w+ = arith.cmpi sge, %r, %ns : tensor<128xi32>\n/);
  assert.match(text, /= tt.reshape %a : tensor<128xf32> -> tensor<8x16xf32>\n {4}%\w+ = tt.reshape %a allow_reorder : .*\n {4}%cst\w* = arith.constant 1.000000e\+00 : f32\n {4}%a2 = tt.reshape %a allow_reorder/);
});

test('build: optional operands of segmented groups, given and left out', () => {
  const { module, ops } = parseKernel();
  const [plain, masked] = all(ops, tt.LoadOp);
  const ptr = all(ops, tt.AddptrOp)[0].result;
  const b = new Builder().setInsertionPointAfter(masked.op);
  const zero = all(ops, arith.ConstantOp)[0].result;
  const l1 = tt.LoadOp.build(b, { ptr, mask: masked.mask, other: zero, cache: 'ca' }, { results: { result: plain.result.type } });
  assert.is(l1.mask, masked.mask);
  assert.is(l1.other, zero);
  assert.is(l1.cache, 'ca');
  assert.equal(segments(l1.op), [1, 1, 1]);
  const l2 = tt.LoadOp.build(b, { ptr, mask: masked.mask }, { results: { result: plain.result.type } });
  assert.is(l2.mask, masked.mask);
  assert.is(l2.other, undefined);
  assert.equal(segments(l2.op), [1, 1, 0]);
  const l3 = tt.LoadOp.build(b, { ptr }, { results: { result: plain.result.type } });
  assert.is(l3.mask, undefined);
  assert.equal(segments(l3.op), [1, 0, 0]);
  assert.equal([l1.op, l2.op, l3.op].map((op) => op.operands.length), [3, 2, 1]);
  assert.is(verifyDiagnostic(module), null);
});

test('build: a misspelt field is an internal error', () => {
  const { ops } = parseKernel();
  const cmp = all(ops, arith.CmpIOp)[0];
  const b = new Builder().setInsertionPointAfter(cmp.op);
  assert.throws(
    // @ts-expect-error: 'predicat' is no field of arith.cmpi
    () => arith.CmpIOp.build(b, { lhs: cmp.lhs, rhs: cmp.rhs, predicate: 'slt', predicat: 'slt' }),
    /internal error: 'arith.cmpi' has no operand or attribute 'predicat'/,
  );
  assert.is(cmp.op.next?.name, 'arith.constant'); // nothing inserted
});

test.run();
