"""fp8 conversions in registers: quantize f32 -> e4m3 with a scale, f16 -> e5m2, dequantize e4m3 -> f32
and -> bf16 (BLOCK 1024, 4 warps), as an fp8 quantization kernel does.

q4 = (x * scale).to(float8e4nv), q5 = h.to(float8e5), w = b.to(float32) * scale, d = b.to(bfloat16).
Both conversions into fp8 round to nearest even and saturate (infinities become the largest finite
value), as Triton's do on Hopper; the inputs hold such values, ties and subnormals on purpose.
Triton specializes n on divisibility by 16: d16 and odd sizes have different TTIR.
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    'd16': {'src': 'bench/gpu/kernels/fp8_cast.d16.ttir'},
    'odd': {'src': 'bench/gpu/kernels/fp8_cast.odd.ttir'},
}

E4M3_MAX = 448.0
E5M2_MAX = 57344.0
# Values after scaling (scale 0.5): past the range, infinities, ties between fp8 neighbours, subnormals.
X_SPECIALS = [float('inf'), float('-inf'), 1e6, -930.0, 928.0, 2 * 464.0, 2 * 0.0625 * 1.0625, 2 * 2 ** -9,
              2 * 2 ** -10, 2 * 3 * 2 ** -11, -2 * 1e-9, 2 * 17.0, 2 * 19.0]
H_SPECIALS = [float('inf'), float('-inf'), 61440.0, -60000.0, 2 ** -16, 3 * 2 ** -18, 5 * 2 ** -17, 1.125, 1.375]


@triton.jit
def fp8_cast_kernel(x_ptr, h_ptr, b_ptr, q4_ptr, q5_ptr, w_ptr, d_ptr, n, scale, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    h = tl.load(h_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    tl.store(q4_ptr + offs, (x * scale).to(tl.float8e4nv), mask=mask)
    tl.store(q5_ptr + offs, h.to(tl.float8e5), mask=mask)
    tl.store(w_ptr + offs, b.to(tl.float32) * scale, mask=mask)
    tl.store(d_ptr + offs, b.to(tl.bfloat16), mask=mask)


class Fp8Cast(casekit.BlockCase):
    """fp8 quantize / dequantize of four vectors; one program per 1024 elements."""
    kernel = fp8_cast_kernel
    outputs = ['q4', 'q5', 'w', 'd']
    sizes_time = [{'n': 1 << 26}, {'n': 50_000_017}]
    sizes_check = sizes_time + [{'n': 1_000_003}]
    sizes_sanitize = [{'n': 10_007}, {'n': 16_384}]
    scale = 0.5
    params = [('x_ptr', 'pointer', 'f32'), ('h_ptr', 'pointer', 'f16'), ('b_ptr', 'pointer', 'f8E4M3FN'),
              ('q4_ptr', 'pointer', 'f8E4M3FN'), ('q5_ptr', 'pointer', 'f8E5M2'), ('w_ptr', 'pointer', 'f32'),
              ('d_ptr', 'pointer', 'bf16'), ('n', 'scalar', 'i32'), ('scale', 'scalar', 'f32')]

    def make(self, size, gen):
        n = size['n']
        x = casekit.with_specials(casekit.randn(n, torch.float32, gen, scale=300.0), X_SPECIALS)
        h = casekit.with_specials(casekit.randn(n, torch.float16, gen, scale=20000.0), H_SPECIALS)
        # every e4m3 byte but the two NaNs (0x7F, 0xFF), whose bytes a reference cannot compare
        raw = casekit.randint((n,), 0, 254, torch.int16, gen)
        raw = raw + (raw >= 0x7F).to(torch.int16)
        b = raw.to(torch.uint8).view(torch.float8_e4m3fn) if casekit.DEVICE != 'meta' else torch.empty(n, dtype=torch.float8_e4m3fn, device='meta')
        return {'x': x, 'h': h, 'b': b,
                'q4': casekit.poisoned((n,), torch.float8_e4m3fn), 'q5': casekit.poisoned((n,), torch.float8_e5m2),
                'w': casekit.poisoned((n,), torch.float32), 'd': casekit.poisoned((n,), torch.bfloat16)}

    def args(self, t, size):
        return [t['x'], t['h'], t['b'], t['q4'], t['q5'], t['w'], t['d'], size['n'], self.scale]

    def reference(self, t, size):
        # torch rounds to nearest even into fp8 (and overflows to NaN): clamping first gives the
        # saturating conversion; x * scale is exact (scale is a power of two)
        q4 = (t['x'].double() * self.scale).clamp(-E4M3_MAX, E4M3_MAX).to(torch.float8_e4m3fn)
        q5 = t['h'].double().clamp(-E5M2_MAX, E5M2_MAX).to(torch.float8_e5m2)
        b = t['b'].double()
        return {'q4': (q4.double(), 0.0, 1e-30), 'q5': (q5.double(), 0.0, 1e-30),
                'w': (b * self.scale, 0.0, 1e-30), 'd': (b, 0.0, 1e-30)}

    def bytes_moved(self, size):
        return 15 * size['n']  # x 4, h 2, b 1 in; q4 1, q5 1, w 4, d 2 out


CASE = Fp8Cast()
