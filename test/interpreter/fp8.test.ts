/**
 * Interpreter: fp8 buffers hold bytes, tt.fp_to_fp into fp8 rounds to nearest even and saturates
 * (as the GPU's `cvt.rn.satfinite`, infinities included), arith.truncf overflows as APFloat does,
 * and widening is exact. Expected values are worked out from the formats (E4M3: largest 448, a
 * step of 32 at the top; E5M2: largest 57344).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadLines as L, storeLines as S, run } from './helpers.js';

const kernel = (params: string, body: string): string => `module {
  tt.func @k(${params}) {${body}
    tt.return
  }
}`;

const INPUTS = [1.0625, 1.1875, 460, 470, -1e9, Infinity, -Infinity, NaN, 2 ** -10, 3 * 2 ** -11];

test('fp_to_fp f32 -> e4m3 saturates; arith.truncf overflows to NaN; both read back exactly', () => {
  const text = kernel('%x: !tt.ptr<f32>, %q: !tt.ptr<f8E4M3FN>, %t: !tt.ptr<f8E4M3FN>, %w: !tt.ptr<f32>', `${L('v', 'x', 'f32', 16)}
    %s = tt.fp_to_fp %v, rounding = rtne : tensor<16xf32> -> tensor<16xf8E4M3FN>${S('s', 'q', 'f8E4M3FN', 16)}
    %n = arith.truncf %v : tensor<16xf32> to tensor<16xf8E4M3FN>${S('n', 't', 'f8E4M3FN', 16)}
    %b = tt.fp_to_fp %s : tensor<16xf8E4M3FN> -> tensor<16xf32>${S('b', 'w', 'f32', 16)}`);
  const { mem } = run(text, (m) => [m.alloc('f32', 16).fill((k) => INPUTS[k] ?? 0), m.alloc('f8E4M3FN', 16), m.alloc('f8E4M3FN', 16), m.alloc('f32', 16)]);
  const sat = mem.buffers[1].toNumbers().slice(0, INPUTS.length);
  const ieee = mem.buffers[2].toNumbers().slice(0, INPUTS.length);
  const back = mem.buffers[3].toNumbers().slice(0, INPUTS.length);
  // ties to even at 1.0625 (-> 1) and 1.1875 (-> 1.25); 460 -> 448, 470 past the range
  assert.equal(sat.slice(0, 7), [1, 1.25, 448, 448, -448, 448, -448]);
  assert.ok(Number.isNaN(sat[7]));
  // half the smallest subnormal (2^-9) ties to 0; three quarters of it rounds up to it
  assert.equal(sat.slice(8), [0, 2 ** -9]);
  assert.equal(ieee.slice(0, 3), [1, 1.25, 448]);
  assert.ok([3, 4, 5, 6, 7].every((k) => Number.isNaN(ieee[k])), `APFloat overflow is NaN in E4M3FN: ${ieee}`);
  assert.equal(back.slice(0, 7), sat.slice(0, 7));
  // the stored bytes: 448 is 0x7E, -448 0xFE
  assert.equal([...(mem.buffers[1].storage as Uint8Array).slice(2, 5)], [0x7e, 0x7e, 0xfe]);
});

test('fp_to_fp f16 -> e5m2 saturates infinities; rtz rounds toward zero', () => {
  const text = kernel('%x: !tt.ptr<f16>, %q: !tt.ptr<f8E5M2>, %z: !tt.ptr<f8E5M2>', `${L('v', 'x', 'f16', 4)}
    %s = tt.fp_to_fp %v, rounding = rtne : tensor<4xf16> -> tensor<4xf8E5M2>${S('s', 'q', 'f8E5M2', 4)}
    %r = tt.fp_to_fp %v, rounding = rtz : tensor<4xf16> -> tensor<4xf8E5M2>${S('r', 'z', 'f8E5M2', 4)}`);
  const { mem } = run(text, (m) => [m.alloc('f16', 4).fill([Infinity, 61440, 1.375, -1.375]), m.alloc('f8E5M2', 4), m.alloc('f8E5M2', 4)]);
  assert.equal(mem.buffers[1].toNumbers(), [57344, 57344, 1.5, -1.5]);
  assert.equal(mem.buffers[2].toNumbers(), [57344, 57344, 1.25, -1.25]);
});

test.run();
