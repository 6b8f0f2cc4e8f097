/**
 * The parser's shortcuts keep MLIR's meaning: integer attributes unique whichever path made them,
 * block arguments get their source position as a location on demand, repeated type spellings
 * give the same type, reused name scopes start empty, and the greedy driver never visits an op
 * nested in one it erased.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { FileLineColLoc, IntegerAttr, NameLoc } from '../../ir/attributes.js';
import { DiagnosticError } from '../../ir/diagnostics.js';
import { parseText } from '../../ir/parser.js';
import { printModule } from '../../ir/printer.js';
import { RangeTable } from '../../ir/range-table.js';
import { IntegerType, RankedTensorType, i } from '../../ir/types.js';
import { applyPatternsGreedily } from '../../ir/patterns.js';
import type { Operation } from '../../ir/ir.js';
import { Builder } from '../../ir/builder.js';
import * as arith from '../../dialects/arith.js';

registerAllDialects();

/** The diagnostic parsing `text` stops with (fails the test if it parses or throws anything else). */
function diagnosticOf(text: string, file: string): string {
  try {
    parseText(text, {}, file);
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostic.format();
    throw e;
  }
  assert.unreachable('parsed');
  return '';
}

test('IntegerAttr: one object per normalized value, from numbers and bigints alike', () => {
  const i8 = i(8);
  assert.is(IntegerAttr.get(5, i(32)), IntegerAttr.get(5n, i(32)));
  assert.is(IntegerAttr.get(255, i8), IntegerAttr.get(-1, i8)); // wraps to -1 in a signless i8
  assert.is(IntegerAttr.get(255, i8).value, -1n);
  assert.is(IntegerAttr.get(-1, i(1)), IntegerAttr.get(1, i(1)));
  assert.is(IntegerAttr.get(-0, i(32)), IntegerAttr.get(0n, i(32)));
  const u8 = IntegerType.get(8, 'unsigned');
  assert.is(IntegerAttr.get(-1, u8), IntegerAttr.get(255n, u8));
  assert.is(IntegerAttr.get(2 ** 53 - 1, i(64)), IntegerAttr.get(2n ** 53n - 1n, i(64)));
  assert.is(IntegerAttr.get(2n ** 60n, i(64)), IntegerAttr.get(2n ** 60n, i(64)));
  assert.is(IntegerAttr.get(2n ** 60n, i(64)).value, 2n ** 60n);
  assert.is.not(IntegerAttr.get(5, i(32)), IntegerAttr.get(5, i(64)));
});

test('block arguments without loc(...) are located at their name, made on demand', () => {
  const text = 'func.func @f(%a: i32,\n             %b: i32 loc("given")) -> i32 {\n  return %a : i32\n}\n';
  const fn = parseText(text, {}, 'args.mlir').module.region(0).entry!.first!;
  const [a, b] = fn.region(0).entry!.args;
  assert.ok(a.loc instanceof FileLineColLoc);
  const loc = a.loc as FileLineColLoc;
  assert.equal([loc.line, loc.col], [1, 14]);
  assert.ok(b.loc instanceof NameLoc);
  const given = NameLoc.get('mine');
  a.loc = given;
  assert.is(a.loc, given);
});

test('ops built at a parsed op share its source position; a set location wins', () => {
  const text = 'func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n  %1 = arith.muli %0, %0 : i32 loc("given")\n  return %1 : i32\n}\n';
  const fn = parseText(text, {}, 'build.mlir').module.region(0).entry!.first!;
  const [add, mul] = [...fn.region(0).entry!];
  const b = new Builder();
  // built before the add (no loc(...)): its position in the file, with no location object made
  const c1 = b.before(add).constant(IntegerAttr.get(1, i(32))).definingOp!;
  assert.is(c1.hasExplicitLoc, false);
  assert.equal(c1.srcPos, add.srcPos);
  assert.ok(c1.loc instanceof FileLineColLoc);
  assert.is(c1.loc, add.loc);
  assert.is((c1.loc as FileLineColLoc).line, 2);
  // built before the mul: its given location
  const c2 = b.before(mul).constant(IntegerAttr.get(2, i(32))).definingOp!;
  assert.is(c2.loc, mul.loc);
  // a location set on the builder wins, and typed builders follow the same rule
  b.before(add).loc = NameLoc.get('set');
  assert.is(b.constant(IntegerAttr.get(3, i(32))).definingOp!.loc, NameLoc.get('set'));
  const c4 = arith.ConstantOp.build(b.before(add), { value: IntegerAttr.get(4, i(32)) }).op;
  assert.equal(c4.srcPos, add.srcPos);
  assert.is(c4.hasExplicitLoc, false);
});

test('a type spelled twice is one type; aliases inside resolve the same way', () => {
  const text = [
    '#enc = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>',
    'module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {',
    '  tt.func @f(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>) {',
    '    %x = arith.constant dense<1.0> : tensor<128xf32, #enc>',
    '    %y = arith.constant dense<2.0> : tensor<128xf32, #enc>',
    '    %z = arith.constant dense<2.0> : tensor<128xf32,#enc>',
    '    tt.return',
    '  }',
    '}',
  ].join('\n');
  const module = parseText(text, {}, 'types.ttgir').module;
  const fn = module.region(0).entry!.first!;
  const [p, q] = fn.region(0).entry!.args;
  assert.is(p.type, q.type);
  const ops: Operation[] = [];
  fn.walk((op) => void ops.push(op));
  const [x, y, z] = ops.filter((op) => op.name === 'arith.constant').map((op) => op.result(0).type);
  assert.is(x, y);
  assert.is(x, z); // another spelling, the same uniqued type
  assert.ok(x instanceof RankedTensorType && x.shape[0] === 128);
  // Printing is unchanged by the shortcut: the same text back.
  assert.is((printModule(module).match(/: tensor<128xf32, #\w+>/g) ?? []).length, 3);
});

test('a bad type is reported where it is spelled, after good ones of the same shape', () => {
  const text = 'func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xbad>) {\n  return\n}\n';
  assert.match(diagnosticOf(text, 'bad.mlir'), "bad.mlir:1:65: error: unknown type 'bad'");
  // A long spelling (past the remembered length) still parses, twice.
  const shape = Array(200).fill('1').join('x');
  const long = `func.func @g(%a: tensor<${shape}xf32>, %b: tensor<${shape}xf32>) {\n  return\n}\n`;
  const g = parseText(long, {}, 'long.mlir').module.region(0).entry!.first!;
  const [a, b] = g.region(0).entry!.args;
  assert.is(a.type, b.type);
});

test('RangeTable.clear empties small and large tables for reuse', () => {
  const text = 'alpha beta gamma ' + Array.from({ length: 300 }, (_, k) => `n${k}`).join(' ');
  const table = new RangeTable<number>(text, 4);
  table.add(0, 5, 1);
  table.clear();
  assert.is(table.size, 0);
  assert.is(table.find(0, 5), -1);
  assert.ok(table.add(0, 5, 2));
  assert.is(table.valueAt(table.find(0, 5)), 2);
  let at = 17;
  for (let k = 0; k < 300; k++) {
    const end = text.indexOf(' ', at);
    table.add(at, end < 0 ? text.length : end, k);
    at = end + 1;
  }
  table.clear();
  assert.is(table.size, 0);
  assert.is(table.find(0, 5), -1);
  assert.is(table.find(17, 19), -1);
  assert.ok(table.add(6, 10, 7));
  assert.is(table.valueAt(table.find(6, 10)), 7);
});

test('names of one function do not leak into the next (scopes are reused)', () => {
  const text = 'func.func @f() -> i32 {\n  %x = arith.constant 1 : i32\n  return %x : i32\n}\nfunc.func @g() -> i32 {\n  return %x : i32\n}\n';
  assert.match(diagnosticOf(text, 'scopes.mlir'), "scopes.mlir:6:10: error: use of undeclared SSA value name '%x'");
});

test('the greedy driver does not visit ops nested in an op it erased', () => {
  const text = [
    'func.func @f(%c: i1, %a: i32) {',
    '  %r = scf.if %c -> (i32) {',
    '    %s = arith.addi %a, %a : i32',
    '    scf.yield %s : i32',
    '  } else {',
    '    scf.yield %a : i32',
    '  }',
    '  return',
    '}',
  ].join('\n');
  const module = parseText(text, {}, 'erase.mlir').module;
  const visited: string[] = [];
  const result = applyPatternsGreedily(module, [
    { name: 'watch', root: 'arith.addi', rewrite: (op) => void visited.push(op.name) },
  ]);
  // The unused scf.if is dead and erased before its body is reached; its add is never visited.
  assert.ok(result.erased >= 1);
  assert.equal(visited, []);
  assert.not.match(printModule(module), 'scf.if');
});

test.run();
