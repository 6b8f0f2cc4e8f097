/**
 * Tests of the tt dialect: every op round-trips in custom and generic form, every tt op line of
 * the example Triton dumps round-trips in isolation, and the verifiers report what they should.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, readdirSync } from 'fs';
import { defaultContext } from '../../ir/context.js';
import '../../ir/format.js';
import { builtinDialect } from '../../dialects/builtin.js';
import { funcDialect } from '../../dialects/func.js';
import { ttDialect } from '../../dialects/tt/index.js';
import { parseText } from '../../ir/parser.js';
import { printModule } from '../../ir/printer.js';
import { verify } from '../../ir/verifier.js';
import { DiagnosticError } from '../../ir/diagnostics.js';
import { IntegerAttr } from '../../ir/attributes.js';
import type { Operation } from '../../ir/ir.js';
import { i } from '../../ir/types.js';
import { CacheModifier, InputPrecision, PropagateNan, RMWOp } from '../../dialects/tt/enums.js';
import {
  computeText, coreText, memoryText, operandTypes, stripEncodings, stripLocs, usesOf,
} from './tt-fixtures.js';

defaultContext.loadDialect(builtinDialect);
defaultContext.loadDialect(funcDialect);
defaultContext.loadDialect(ttDialect);

/** Parses, verifies and checks custom and generic round trips; returns the op names seen. */
function roundTrip(text: string): Set<string> {
  const m = parseText(text).module;
  verify(m);
  const custom = printModule(m);
  assert.fixture(custom, text);
  const generic = printModule(m, { generic: true });
  const m2 = parseText(generic).module;
  verify(m2);
  assert.fixture(printModule(m2), text);
  assert.fixture(printModule(m2, { generic: true }), generic);
  const names = new Set<string>();
  m.walk((op: Operation) => void names.add(op.name));
  return names;
}

/** Expects verification (or parsing) of `text` to fail with a message containing `msg`. */
function expectError(text: string, msg: string): void {
  try {
    verify(parseText(text).module);
  } catch (e) {
    if (!(e instanceof DiagnosticError)) throw e;
    assert.ok(e.diagnostic.message.includes(msg), `expected '${msg}' in '${e.diagnostic.message}'`);
    return;
  }
  assert.unreachable(`expected an error containing '${msg}'`);
}

/** Wraps op lines in a tt.func taking `args`. */
function inFunc(args: string, body: string): string {
  return `module {\n  tt.func @t(${args}) {\n${body}    tt.return\n  }\n}\n`;
}

test('every tt op round-trips in custom and generic form', () => {
  const seen = new Set<string>();
  for (const t of [coreText, computeText, memoryText]) for (const n of roundTrip(t)) seen.add(n);
  const missing = ttDialect.ops.map((o) => o.name).filter((n) => !seen.has(n));
  assert.equal(missing, []);
});

test('enums are stored as i32 with Triton values', () => {
  assert.is(CacheModifier.byName('none'), IntegerAttr.get(1, i(32)));
  assert.is(CacheModifier.byName('cv').num, 7);
  assert.is(InputPrecision.byName('ieee').num, 2);
  assert.is(InputPrecision.byName('bf16x6').num, 4);
  assert.is(PropagateNan.byName('all').num, 0xffff);
  assert.is(RMWOp.byName('exch').num, 10);
  const m = parseText(coreText).module;
  const generic = printModule(m, { generic: true });
  assert.ok(generic.includes('"tt.get_program_id"() <{axis = 2 : i32}>'));
  assert.ok(generic.includes('cache = 2 : i32, evict = 3 : i32, isVolatile = true'));
  assert.ok(generic.includes('operandSegmentSizes = array<i32: 1, 1, 1>'));
});

// ---- every tt op line of the example dumps, in isolation --------------------------------------

const EXAMPLES = '/work/shared/examples/ttir';

function exampleFiles(): string[] {
  return readdirSync(EXAMPLES).filter((f) => f.endsWith('.ttir') || f.endsWith('.ttgir')).map((f) => `${EXAMPLES}/${f}`);
}

/** Builds a module around one custom-form tt op line, with its operands as function arguments. */
function isolate(line: string): string | null {
  const opName = /^(?:%[\w$.]+(?::\d+)? = )?(tt\.[\w.]+)/.exec(line)?.[1];
  if (!opName || opName === 'tt.func' || opName === 'tt.reduce.return') return null;
  // Values Triton names automatically (%0, %cst, %c1_i32) would print under other names as arguments.
  const uses = usesOf(line).filter((u) => !u.includes('#'));
  for (const u of uses) {
    if (/^%(\d+|cst(_\d+)?|c\d+_i\d+)$/.test(u)) line = line.replace(new RegExp(`${u}(?![\\w$.])`, 'g'), `%u${u.slice(1)}`);
  }
  line = line.replace(/^%\d+ = /, '%0 = ');
  const renamed = usesOf(line).filter((u) => !u.includes('#'));
  const types = operandTypes(opName, line);
  const args = renamed.map((u, k) => `${u}: ${types[k]}`).join(', ');
  if (opName === 'tt.return') return line === 'tt.return' ? null : `module {\n  tt.func @t(${args}) -> ${types.join(', ')} {\n    ${line}\n  }\n}\n`;
  return inFunc(args, `    ${line}\n`);
}

test('every tt op line of the example dumps round-trips in isolation', () => {
  let count = 0;
  for (const file of exampleFiles()) {
    const lines = readFileSync(file, 'utf8').split('\n').map((l) => stripEncodings(stripLocs(l)).trim());
    for (const line of lines) {
      const text = isolate(line);
      if (!text) continue;
      try {
        roundTrip(text);
      } catch (e) {
        throw new Error(`${file}: ${line}\n${e instanceof DiagnosticError ? e.diagnostic.format() : e}`);
      }
      count++;
    }
  }
  assert.ok(count > 200, `only ${count} lines tested`);
  if (process.env.TT_TEST_VERBOSE) console.log(`${count} example lines`);
});

test('tt.func headers and tt.reduce regions of the example dumps round-trip', () => {
  let funcs = 0;
  let reduces = 0;
  for (const file of exampleFiles()) {
    const lines = readFileSync(file, 'utf8').split('\n').map((l) => stripEncodings(stripLocs(l)));
    for (let k = 0; k < lines.length; k++) {
      const l = lines[k];
      if (l.trim().startsWith('tt.func')) {
        roundTrip(`module {\n${l}\n    tt.return\n  }\n}\n`);
        funcs++;
      }
      if (!l.includes('"tt.reduce"')) continue;
      // "%r = "tt.reduce"(%x) <{axis}> ({", "^bb0(...):", <combiner>, "tt.reduce.return %v : T", "}) : (T) -> R"
      const head = l.trim();
      const bb = lines[k + 1].trim();
      const ret = lines[k + 3].trim();
      const tail = lines[k + 4].trim();
      const src = /\(%([\w$.]+)\)/.exec(head)![1];
      const srcType = /^\}\) : \((.*)\) -> /.exec(tail)![1];
      const firstArg = /\^bb0\((%[\w$.]+):/.exec(bb)![1];
      const retLine = ret.replace(/tt\.reduce\.return %[\w$.]+/, `tt.reduce.return ${firstArg}`);
      roundTrip(inFunc(`%${src}: ${srcType}`, `    ${head}\n    ${bb}\n      ${retLine}\n    ${tail}\n`));
      reduces++;
    }
  }
  assert.ok(funcs >= 7 && reduces >= 4);
});

// ---- verifier ---------------------------------------------------------------------------------

test('verifier: make_range', () => {
  expectError(inFunc('', '    %0 = tt.make_range {end = 0 : i32, start = 16 : i32} : tensor<16xi32>\n'), 'start must be less than end');
  expectError(inFunc('', '    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<16xi32>\n'), 'must match size of range [0, 32)');
  expectError(inFunc('', '    %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi64>\n'), 'returned tensor must have i32 elements');
});

test('verifier: splat, broadcast, expand_dims', () => {
  expectError(inFunc('%x: i32', '    %0 = tt.splat %x : i32 -> tensor<16xf32>\n'), 'requires the same element type for all operands and results');
  expectError(inFunc('%x: tensor<2x1xi32>', '    %0 = tt.broadcast %x : tensor<2x1xi32> -> tensor<4x8xi32>\n'), 'Broadcast requires the source dimension to be 1');
  expectError(inFunc('%x: tensor<16xi32>', '    %0 = tt.expand_dims %x {axis = 2 : i32} : tensor<16xi32> -> tensor<16x1xi32>\n'), 'axis 2 is out of range');
  expectError(inFunc('%x: tensor<16xi32>', '    %0 = tt.expand_dims %x {axis = 0 : i32} : tensor<16xi32> -> tensor<16x1xi32>\n'), 'result shape must be 1x16');
});

test('verifier: addptr, load and store types', () => {
  expectError(inFunc('%p: tensor<16x!tt.ptr<f32>>, %o: tensor<8xi32>', '    %0 = tt.addptr %p, %o : tensor<16x!tt.ptr<f32>>, tensor<8xi32>\n'), 'requires the same shape for all operands and results');
  const generic = '    %0 = "tt.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<16x!tt.ptr<f32>>, tensor<8xi1>) -> tensor<16xf32>\n';
  expectError(inFunc('%p: tensor<16x!tt.ptr<f32>>, %m: tensor<8xi1>', generic), "mask type 'tensor<8xi1>' must be i1 with the shape of the pointer");
  const store = '    "tt.store"(%p, %v) : (tensor<16x!tt.ptr<f32>>, tensor<16xf16>) -> ()\n';
  expectError(inFunc('%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf16>', store), "value type 'tensor<16xf16>' must be the pointee type");
});

test('verifier: dot shapes and accumulator', () => {
  const body = '    %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x16xf16> -> tensor<16x16xf32>\n';
  expectError(inFunc('%a: tensor<16x32xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>', body), 'reduction dimension of a (32) to equal that of b (16)');
  const acc = '    %0 = tt.dot %a, %a, %c : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x32xf32>\n';
  expectError(inFunc('%a: tensor<16x16xf16>, %c: tensor<16x32xf32>', acc), 'expected the accumulator shape 16x32 to be 16x16');
});

test('verifier: reduce axis and combine region', () => {
  const bad = (axis: number, args: string) =>
    `    %0 = "tt.reduce"(%x) <{axis = ${axis} : i32}> ({\n    ^bb0(${args}):\n      tt.reduce.return %a : f32\n    }) : (tensor<16xf32>) -> f32\n`;
  expectError(inFunc('%x: tensor<16xf32>', bad(1, '%a: f32, %b: f32')), 'reduction axis must be < inputs rank');
  expectError(inFunc('%x: tensor<16xf32>', bad(0, '%a: f32')), 'nested block must take 2 arguments');
  expectError(inFunc('%x: tensor<16xf32>', bad(0, '%a: f32, %b: i32')), "combine region argument #1 has type 'i32'");
});

test('verifier: return, call, trans, tensor sizes, parents', () => {
  expectError(`module {\n  tt.func @f(%x: i32) -> f32 {\n    tt.return %x : i32\n  }\n}\n`, "doesn't match function result type ('f32')");
  expectError(inFunc('%x: i32', '    %0 = tt.call @nope(%x) : (i32) -> i32\n'), "'nope' does not reference a valid function");
  expectError(inFunc('%x: tensor<2x4xf32>', '    %0 = tt.trans %x {order = array<i32: 0, 0>} : tensor<2x4xf32> -> tensor<4x2xf32>\n'), 'order must be a permutation');
  expectError(inFunc('%x: i32', '    %0 = tt.splat %x : i32 -> tensor<12xi32>\n'), 'Number of elements must be power-of-two');
  const scan = '    %0 = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({\n    ^bb0(%a: f32, %b: f32):\n      tt.reduce.return %a : f32\n    }) : (tensor<16xf32>) -> tensor<16xf32>\n';
  expectError(inFunc('%x: tensor<16xf32>', scan), "expects parent op 'tt.reduce'");
});

test('verifier: fp_to_fp, bitcast, make_tensor_ptr, atomics', () => {
  expectError(inFunc('%x: f32', '    %0 = tt.fp_to_fp %x : f32 -> f16\n'), 'Rounding mode is required for FP downcast');
  expectError(inFunc('%x: f32', '    %0 = tt.bitcast %x : f32 -> i16\n'), 'Cannot bitcast data-type of size 32 to data-type of size 16');
  const mtp = '    %0 = tt.make_tensor_ptr %p, [%s], [%s], [%o] {order = array<i32: 0>} : <tensor<16x16xf16>>\n';
  expectError(inFunc('%p: !tt.ptr<f16>, %s: i64, %o: i32', mtp), 'expected 2 shape, strides and offsets operands');
  const rmw = '    %0 = tt.atomic_rmw add, relaxed, gpu, %p, %v : (!tt.ptr<f32>, i32) -> i32\n';
  expectError(inFunc('%p: !tt.ptr<f32>, %v: i32', rmw), "must be a pointer to the value type 'i32'");
});

test.run();
