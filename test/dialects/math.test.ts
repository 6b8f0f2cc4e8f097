/**
 * Tests of the math dialect table (dialects/math.ts) against mlir-opt 19.
 * Every expected text marked "mlir-opt 19" was produced by running /usr/lib/llvm-19/bin/mlir-opt
 * on the same input (custom form: plain run; generic form: --mlir-print-op-generic), minus the
 * blank line mlir-opt writes after the module.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import '../../ir/format.js';
import { defaultContext } from '../../ir/context.js';
import { parseText } from '../../ir/parser.js';
import { printModule } from '../../ir/printer.js';
import { verify } from '../../ir/verifier.js';
import { DiagnosticError } from '../../ir/diagnostics.js';
import { builtinDialect } from '../../dialects/builtin.js';
import { funcDialect } from '../../dialects/func.js';
import { mathDialect } from '../../dialects/math.js';
import { arithAttrParsers } from '../../dialects/arith-attrs.js';

defaultContext.loadDialect(builtinDialect);
defaultContext.loadDialect(funcDialect);
defaultContext.loadDialect(mathDialect);
// `#arith.fastmath` is parsed through the arith dialect; register just its attribute parsers when the
// arith table is not loaded (registering a stub 'arith' dialect would shadow the real one).
for (const [k, f] of Object.entries(arithAttrParsers)) if (!defaultContext.attrParsers.has(`arith.${k}`)) defaultContext.attrParsers.set(`arith.${k}`, f);

function load(text: string) {
  const { module } = parseText(text);
  verify(module);
  return module;
}

/** The error message that parsing + verifying `text` produces. */
function errorOf(text: string): string {
  try {
    load(text);
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostic.message;
    throw e;
  }
  return '(no error)';
}

/** Wraps op lines in a function with the given argument list. */
function fn(args: string, body: string): string {
  return `func.func @f(${args}) {\n${body}\n  return\n}\n`;
}

// mlir-opt 19 output (custom form) for every MLIR 19 math op.
const CUSTOM = `module {
  func.func @f(%arg0: f32, %arg1: f32, %arg2: f32, %arg3: i32, %arg4: i32, %arg5: tensor<4xf32>, %arg6: tensor<4xi32>) {
    %0 = math.absf %arg0 : f32
    %1 = math.absi %arg3 : i32
    %2 = math.acos %arg0 : f32
    %3 = math.acosh %arg0 : f32
    %4 = math.asin %arg0 : f32
    %5 = math.asinh %arg0 : f32
    %6 = math.atan %arg0 fastmath<fast> : f32
    %7 = math.atan2 %arg0, %arg1 : f32
    %8 = math.atanh %arg0 : f32
    %9 = math.cbrt %arg0 : f32
    %10 = math.ceil %arg0 : f32
    %11 = math.copysign %arg0, %arg1 fastmath<nnan,ninf> : f32
    %12 = math.cos %arg0 : f32
    %13 = math.cosh %arg0 : f32
    %14 = math.ctlz %arg3 : i32
    %15 = math.ctpop %arg6 : tensor<4xi32>
    %16 = math.cttz %arg3 : i32
    %17 = math.erf %arg0 : f32
    %18 = math.exp %arg0 fastmath<fast> : f32
    %19 = math.exp2 %arg0 : f32
    %20 = math.expm1 %arg0 : f32
    %21 = math.floor %arg0 : f32
    %22 = math.fma %arg0, %arg1, %arg2 fastmath<contract> : f32
    %23 = math.fpowi %arg0, %arg3 fastmath<afn> : f32, i32
    %24 = math.fpowi %arg5, %arg6 : tensor<4xf32>, tensor<4xi32>
    %25 = math.ipowi %arg3, %arg4 : i32
    %26 = math.log %arg0 : f32
    %27 = math.log10 %arg0 : f32
    %28 = math.log1p %arg0 : f32
    %29 = math.log2 %arg0 : f32
    %30 = math.powf %arg0, %arg1 : f32
    %31 = math.round %arg0 : f32
    %32 = math.roundeven %arg0 : f32
    %33 = math.rsqrt %arg0 : f32
    %34 = math.sin %arg0 : f32
    %35 = math.sinh %arg0 : f32
    %36 = math.sqrt %arg5 : tensor<4xf32>
    %37 = math.tan %arg0 : f32
    %38 = math.tanh %arg5 fastmath<nnan,afn> : tensor<4xf32>
    %39 = math.trunc %arg0 : f32
    return
  }
}
`;

// mlir-opt 19 --mlir-print-op-generic output for the same input.
const GENERIC = `"builtin.module"() ({
  "func.func"() <{function_type = (f32, f32, f32, i32, i32, tensor<4xf32>, tensor<4xi32>) -> (), sym_name = "f"}> ({
  ^bb0(%arg0: f32, %arg1: f32, %arg2: f32, %arg3: i32, %arg4: i32, %arg5: tensor<4xf32>, %arg6: tensor<4xi32>):
    %0 = "math.absf"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %1 = "math.absi"(%arg3) : (i32) -> i32
    %2 = "math.acos"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %3 = "math.acosh"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %4 = "math.asin"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %5 = "math.asinh"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %6 = "math.atan"(%arg0) <{fastmath = #arith.fastmath<fast>}> : (f32) -> f32
    %7 = "math.atan2"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %8 = "math.atanh"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %9 = "math.cbrt"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %10 = "math.ceil"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %11 = "math.copysign"(%arg0, %arg1) <{fastmath = #arith.fastmath<nnan,ninf>}> : (f32, f32) -> f32
    %12 = "math.cos"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %13 = "math.cosh"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %14 = "math.ctlz"(%arg3) : (i32) -> i32
    %15 = "math.ctpop"(%arg6) : (tensor<4xi32>) -> tensor<4xi32>
    %16 = "math.cttz"(%arg3) : (i32) -> i32
    %17 = "math.erf"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %18 = "math.exp"(%arg0) <{fastmath = #arith.fastmath<fast>}> : (f32) -> f32
    %19 = "math.exp2"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %20 = "math.expm1"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %21 = "math.floor"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %22 = "math.fma"(%arg0, %arg1, %arg2) <{fastmath = #arith.fastmath<contract>}> : (f32, f32, f32) -> f32
    %23 = "math.fpowi"(%arg0, %arg3) <{fastmath = #arith.fastmath<afn>}> : (f32, i32) -> f32
    %24 = "math.fpowi"(%arg5, %arg6) <{fastmath = #arith.fastmath<none>}> : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
    %25 = "math.ipowi"(%arg3, %arg4) : (i32, i32) -> i32
    %26 = "math.log"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %27 = "math.log10"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %28 = "math.log1p"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %29 = "math.log2"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %30 = "math.powf"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %31 = "math.round"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %32 = "math.roundeven"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %33 = "math.rsqrt"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %34 = "math.sin"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %35 = "math.sinh"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %36 = "math.sqrt"(%arg5) <{fastmath = #arith.fastmath<none>}> : (tensor<4xf32>) -> tensor<4xf32>
    %37 = "math.tan"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %38 = "math.tanh"(%arg5) <{fastmath = #arith.fastmath<nnan,afn>}> : (tensor<4xf32>) -> tensor<4xf32>
    %39 = "math.trunc"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
`;

test('every MLIR 19 math op round-trips in custom form as mlir-opt prints it', () => {
  assert.is(printModule(load(CUSTOM)), CUSTOM);
});

test('generic form matches mlir-opt and reads back to the same custom form', () => {
  const m = load(CUSTOM);
  assert.is(printModule(m, { generic: true }), GENERIC);
  assert.is(printModule(load(GENERIC)), CUSTOM);
});

test('the table declares every op of the MLIR 19 math dialect', () => {
  const names = CUSTOM.match(/math\.\w+/g)!;
  for (const n of names) assert.ok(defaultContext.lookupOp(n), n);
});

// Input spellings of fastmath flags and the normalized form mlir-opt 19 prints.
const FM_IN = `func.func @f(%arg0: f32) {
  %0 = math.exp %arg0 fastmath<reassoc,nnan,ninf,nsz,arcp,contract,afn> : f32
  %1 = math.exp %arg0 fastmath<ninf, nnan> : f32
  %2 = math.exp %arg0 fastmath<afn,reassoc,nsz> : f32
  %3 = math.exp %arg0 fastmath<none> : f32
  %4 = math.exp %arg0 fastmath<fast,nnan> : f32
  %5 = "math.exp"(%arg0) : (f32) -> f32
  %6 = "math.exp"(%arg0) {fastmath = #arith.fastmath<arcp,contract>} : (f32) -> f32
  %7 = math.exp %arg0 {fastmath = #arith.fastmath<nsz>} : f32
  return
}
`;
const FM_OUT = `module {
  func.func @f(%arg0: f32) {
    %0 = math.exp %arg0 fastmath<fast> : f32
    %1 = math.exp %arg0 fastmath<nnan,ninf> : f32
    %2 = math.exp %arg0 fastmath<reassoc,nsz,afn> : f32
    %3 = math.exp %arg0 : f32
    %4 = math.exp %arg0 fastmath<fast> : f32
    %5 = math.exp %arg0 : f32
    %6 = math.exp %arg0 fastmath<arcp,contract> : f32
    %7 = math.exp %arg0 fastmath<nsz> : f32
    return
  }
}
`;

test('fastmath flags normalize as mlir-opt prints them (order, fast, none, attr-dict form)', () => {
  assert.is(printModule(load(FM_IN)), FM_OUT);
});

// Ops newer than MLIR 19 (no oracle): classification ops and erfc, in upstream's later syntax.
const NEWER = `module {
  func.func @f(%arg0: f32, %arg1: tensor<4xf16>) {
    %0 = math.isnan %arg0 : f32
    %1 = math.isinf %arg1 fastmath<ninf> : tensor<4xf16>
    %2 = math.isfinite %arg0 : f32
    %3 = math.isnormal %arg1 : tensor<4xf16>
    %4 = math.erfc %arg0 fastmath<fast> : f32
    return
  }
}
`;

test('ops newer than MLIR 19 round-trip (results inferred as i1-like)', () => {
  const m = load(NEWER);
  assert.is(printModule(m), NEWER);
  const g = printModule(m, { generic: true });
  assert.ok(g.includes('%1 = "math.isinf"(%arg1) <{fastmath = #arith.fastmath<ninf>}> : (tensor<4xf16>) -> tensor<4xi1>'), g);
  assert.ok(g.includes('%0 = "math.isnan"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> i1'), g);
  assert.is(printModule(load(g)), NEWER);
});

// Messages below are mlir-opt 19's for the same input.
test('verifier: float op on an integer', () => {
  assert.is(errorOf(fn('%arg0: i32', '  %0 = math.exp %arg0 : i32')), "'math.exp' op operand #0 must be floating-point-like, but got 'i32'");
});

test('verifier: integer op on a float', () => {
  assert.is(errorOf(fn('%arg0: f32', '  %0 = math.ctlz %arg0 : f32')), "'math.ctlz' op operand #0 must be signless-integer-like, but got 'f32'");
});

test('verifier: mismatched operand types', () => {
  const text = fn('%arg0: f32, %arg1: f64', '  %0 = "math.powf"(%arg0, %arg1) : (f32, f64) -> f32');
  assert.is(errorOf(text), "'math.powf' op requires the same type for all operands and results");
});

test('verifier: fpowi result type and shapes', () => {
  assert.is(
    errorOf(fn('%arg0: f32, %arg1: i32', '  %0 = "math.fpowi"(%arg0, %arg1) : (f32, i32) -> f64')),
    "'math.fpowi' op failed to verify that all of {lhs, result} have same type",
  );
  assert.is(
    errorOf(fn('%arg0: f32, %arg1: tensor<2xi32>', '  %0 = math.fpowi %arg0, %arg1 : f32, tensor<2xi32>')),
    "'math.fpowi' op requires the same shape for all operands and results",
  );
});

test('verifier: fastmath of the wrong kind', () => {
  const text = fn('%arg0: f32', '  %0 = "math.exp"(%arg0) {fastmath = 1 : i32} : (f32) -> f32');
  // mlir-opt 19 says "... failed to satisfy constraint: Floating point fast math flags" (capital F).
  assert.match(errorOf(text), /^'math\.exp' op attribute 'fastmath' failed to satisfy constraint: [Ff]loating point fast math flags$/);
});

test('parser: unknown fastmath flag', () => {
  assert.match(errorOf(fn('%arg0: f32', '  %0 = math.exp %arg0 fastmath<bogus> : f32')), /bogus|FastMathFlags/);
});

test.run();
