/**
 * Device printf and assertion reports in PTX (targets/nvptx/device-debug.ts, ptx-printer.ts): the
 * `nvptx.printf` and `nvptx.assertfail` ops' verifier, the PTX they print (runtime functions
 * declared once per module, each text one global, a kernel's argument buffer sized by its largest
 * call). The GPU check of `tt.print` and `tt.assert` against
 * Triton's own output is tools/gpu/device_print.py.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { parseText } from '../../ir/parser.js';
import { verify } from '../../ir/verifier.js';
import { printPtx } from '../../targets/nvptx/ptx-printer.js';
import { DiagnosticError } from '../../ir/diagnostics.js';

registerAllDialects();

/** A module of nvptx kernels with `bodies` (each a kernel taking one i32 `%n`). */
function nvptxModule(...bodies: string[]): string {
  const kernels = bodies.map(
    (body, k) => `  func.func @k${k}(%n: i32) attributes {nvptx.kernel, nvptx.reqntid = 128 : i32} {\n${body}\n    return\n  }`,
  );
  return `module attributes {nvptx.arch = "sm_80"} {\n${kernels.join('\n')}\n}`;
}

function ptxOf(text: string): string {
  const { module } = parseText(text);
  verify(module);
  return printPtx(module, 'sm_80');
}

/** The verifier's message for `text`, or null when it verifies. */
function verifyError(text: string): string | null {
  try {
    verify(parseText(text).module);
    return null;
  } catch (e) {
    if (e instanceof DiagnosticError) return e.message;
    throw e;
  }
}

test('a printf without arguments passes a null buffer and declares none', () => {
  const ptx = ptxOf(nvptxModule('    nvptx.printf "hello\\0A" : () -> ()'));
  assert.match(ptx, /\tmov\.u64 \t%printf_args, 0;/);
  assert.not.match(ptx, /__printf_buf\[/);
  assert.match(ptx, /\.global \.align 1 \.b8 \$str_0\[7\] = \{104, 101, 108, 108, 111, 10, 0\}; \/\/ "hello\\n"/);
});

test('runtime functions and texts are declared once for the whole module', () => {
  const call = '    nvptx.printf "n=%d\\0A"(%n) : (i32) -> ()';
  const ptx = ptxOf(nvptxModule(call, `${call}\n${call}`));
  assert.is(ptx.split('.extern .func (.param .b32 func_retval0) vprintf').length - 1, 1);
  assert.is(ptx.split('.global .align 1 .b8').length - 1, 1);
  assert.is(ptx.split('call (vprintf_ret), vprintf').length - 1, 3);
  assert.not.match(ptx, /__assertfail/);
});

test("a kernel's argument buffer is its largest call's, each argument aligned to its size", () => {
  const body = [
    '    %w = nvptx.cvt "s64.s32" %n : (i32) -> i64',
    '    %d = nvptx.cvt "rn.f64.s32" %n : (i32) -> f64',
    '    nvptx.printf "%d %lld %f\\0A"(%n, %w, %d) : (i32, i64, f64) -> ()',
  ].join('\n');
  const ptx = ptxOf(nvptxModule(body));
  assert.match(ptx, /\.local \.align 8 \.b8 \t__printf_buf\[24\];/);
  assert.match(ptx, /st\.local\.b32 \t\[__printf_buf\+0\]/);
  assert.match(ptx, /st\.local\.b64 \t\[__printf_buf\+8\]/);
  assert.match(ptx, /st\.local\.f64 \t\[__printf_buf\+16\]/);
});

test('a guarded printf is skipped where its guard is false', () => {
  const body = ['    %z = nvptx.imm 0 : i32', '    %p = nvptx.setp "eq.u32" %n, %z : (i32, i32) -> i1', '    nvptx.printf "x\\0A"(%n) if %p : (i1, i32) -> ()'].join('\n');
  const ptx = ptxOf(nvptxModule(body));
  const skip = /@!(%p\d+) bra \t(\$L__printf_skip_\d+);/.exec(ptx);
  assert.ok(skip, ptx);
  assert.ok(ptx.indexOf(`${skip![2]}:`) > ptx.indexOf('call (vprintf_ret)'));
});

test('an assertion report passes message, file, line, function and a char size of 1', () => {
  const ptx = ptxOf(nvptxModule('    nvptx.assertfail "x < 1" at "k.py" : 12 in "k0"'));
  assert.match(ptx, /\.extern \.func __assertfail\n\(\n\t\.param \.b64 __assertfail_param_0,/);
  assert.match(ptx, /mov\.b32 \t%assert_line, 12;/);
  assert.match(ptx, /mov\.u64 \t%assert_char_size, 1;/);
  assert.match(ptx, /\/\/ "x < 1"/);
  assert.match(ptx, /\/\/ "k\.py"/);
  assert.match(ptx, /call __assertfail, \(__assertfail_arg_0, __assertfail_arg_1, __assertfail_arg_2, __assertfail_arg_3, __assertfail_arg_4\);/);
});

test('printf arguments must be what vprintf reads: i32, i64 or f64, at most 32', () => {
  const f32 = nvptxModule('    %f = nvptx.cvt "rn.f32.s32" %n : (i32) -> f32\n    nvptx.printf "%f\\0A"(%f) : (f32) -> ()');
  assert.match(verifyError(f32) ?? '', "argument of type 'f32' cannot be passed to vprintf (i32, i64 or f64)");
  const many = Array.from({ length: 33 }, () => '%n').join(', ');
  const types = Array.from({ length: 33 }, () => 'i32').join(', ');
  assert.match(verifyError(nvptxModule(`    nvptx.printf "x\\0A"(${many}) : (${types}) -> ()`)) ?? '', 'takes at most 32 arguments (vprintf prints garbage past 32), got 33');
  assert.is(verifyError(nvptxModule('    nvptx.printf "%d\\0A"(%n) : (i32) -> ()')), null);
});

test.run();
