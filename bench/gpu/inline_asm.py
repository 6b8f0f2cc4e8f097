"""`tl.inline_asm_elementwise`: user PTX on each element or packed group (BLOCK 1024, 4 warps).

y = x << 3 (`shl.b32`, one i32 each); (s0, s1) = (y, x) from one asm with two results and two
operands; h2 = h + h on f16 pairs (`add.rn.f16x2`, packed_element 2); b2 = b & 0x7f on uint8
quadruples (`and.b32`, packed_element 4); f2 = f * f (`mul.rn.f32` with `f` constraints). Triton
specializes n on divisibility by 16: d16 and odd sizes have different TTIR.
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    'd16': {'src': 'bench/gpu/kernels/inline_asm.d16.ttir'},
    'odd': {'src': 'bench/gpu/kernels/inline_asm.odd.ttir'},
}


@triton.jit
def inline_asm_kernel(x_ptr, h_ptr, b_ptr, f_ptr, y_ptr, s0_ptr, s1_ptr, h2_ptr, b2_ptr, f2_ptr, n,
                      BLOCK: tl.constexpr):
    offs = tl.program_id(axis=0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    y = tl.inline_asm_elementwise("shl.b32 $0, $1, 3;", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
    s0, s1 = tl.inline_asm_elementwise("mov.b32 $0, $3;\nmov.b32 $1, $2;", "=r,=r,r,r", [x, y],
                                       dtype=(tl.int32, tl.int32), is_pure=True, pack=1)
    h = tl.load(h_ptr + offs, mask=mask, other=0.0)
    h2 = tl.inline_asm_elementwise("add.rn.f16x2 $0, $1, $1;", "=r,r", [h], dtype=tl.float16, is_pure=True, pack=2)
    b = tl.load(b_ptr + offs, mask=mask, other=0)
    b2 = tl.inline_asm_elementwise("and.b32 $0, $1, 0x7F7F7F7F;", "=r,r", [b], dtype=tl.uint8, is_pure=True, pack=4)
    f = tl.load(f_ptr + offs, mask=mask, other=0.0)
    f2 = tl.inline_asm_elementwise("mul.rn.f32 $0, $1, $1;", "=f,f", [f], dtype=tl.float32, is_pure=True, pack=1)
    tl.store(y_ptr + offs, y, mask=mask)
    tl.store(s0_ptr + offs, s0, mask=mask)
    tl.store(s1_ptr + offs, s1, mask=mask)
    tl.store(h2_ptr + offs, h2, mask=mask)
    tl.store(b2_ptr + offs, b2, mask=mask)
    tl.store(f2_ptr + offs, f2, mask=mask)


class InlineAsm(casekit.BlockCase):
    """Five inline-asm forms (one and two results, packed 1, 2 and 4, `r` and `f` constraints)."""
    kernel = inline_asm_kernel
    outputs = ['y', 's0', 's1', 'h2', 'b2', 'f2']
    sizes_time = [{'n': 1 << 24}]
    sizes_check = sizes_time + [{'n': 1_000_003}]
    sizes_sanitize = [{'n': 10_007}, {'n': 16_384}]
    params = [('x_ptr', 'pointer', 'i32'), ('h_ptr', 'pointer', 'f16'), ('b_ptr', 'pointer', 'i8'),
              ('f_ptr', 'pointer', 'f32'), ('y_ptr', 'pointer', 'i32'), ('s0_ptr', 'pointer', 'i32'),
              ('s1_ptr', 'pointer', 'i32'), ('h2_ptr', 'pointer', 'f16'), ('b2_ptr', 'pointer', 'i8'),
              ('f2_ptr', 'pointer', 'f32'), ('n', 'scalar', 'i32')]

    def make(self, size, gen):
        n = size['n']
        return {'x': casekit.randint((n,), -2**31, 2**31, torch.int32, gen),
                'h': casekit.randn(n, torch.float16, gen, scale=100.0),
                'b': casekit.randint((n,), 0, 256, torch.uint8, gen),
                'f': casekit.randn(n, torch.float32, gen, scale=1000.0),
                'y': casekit.poisoned((n,), torch.int32), 's0': casekit.poisoned((n,), torch.int32),
                's1': casekit.poisoned((n,), torch.int32), 'h2': casekit.poisoned((n,), torch.float16),
                'b2': casekit.poisoned((n,), torch.uint8), 'f2': casekit.poisoned((n,), torch.float32)}

    def args(self, t, size):
        return [t['x'], t['h'], t['b'], t['f'], t['y'], t['s0'], t['s1'], t['h2'], t['b2'], t['f2'], size['n']]

    def reference(self, t, size):
        # every result is exact: integer bit operations, f16 doubling, and f32 products rounded
        # once (float64 holds the exact product; rounding it to float32 is what mul.rn.f32 does)
        x = t['x'].to(torch.int64)
        y = ((x << 3) & 0xFFFFFFFF)
        y = torch.where(y >= 2**31, y - 2**32, y)
        f = t['f'].double()
        exact = 1e-30
        return {'y': (y.double(), 0.0, exact), 's0': (y.double(), 0.0, exact), 's1': (x.double(), 0.0, exact),
                'h2': ((t['h'].double() * 2).half().double(), 0.0, exact),
                'b2': ((t['b'].to(torch.int64) & 0x7F).double(), 0.0, exact),
                'f2': ((f * f).float().double(), 0.0, exact)}

    def bytes_moved(self, size):
        return size['n'] * (4 + 2 + 1 + 4 + 4 * 3 + 2 + 1 + 4)


CASE = InlineAsm()
