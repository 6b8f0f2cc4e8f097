"""libdevice calls (`tl.extra.cuda.libdevice`, `tt.extern_elementwise`): rounding to integral values,
IEEE division, the fast approximations and integer bit functions, BLOCK 1024, 4 warps.

rnd = round(x) + 4 rint(x) + 16 trunc(x) (halfway cases on purpose), quo = div_rn(x, y),
fast = fast_expf(y) * fast_logf(|x| + 1), bits = popc(k) + 64 clz(k) + 4096 ffs(k) + 2^20 signbit(x).
Triton specializes n on divisibility by 16: d16 and odd sizes have different TTIR.
"""
import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice
import torch

import casekit

BUILDS = {
    'd16': {'src': 'bench/gpu/kernels/libdevice.d16.ttir'},
    'odd': {'src': 'bench/gpu/kernels/libdevice.odd.ttir'},
}


@triton.jit
def libdevice_kernel(x_ptr, y_ptr, k_ptr, rnd_ptr, quo_ptr, fast_ptr, bits_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    k = tl.load(k_ptr + offs, mask=mask)
    tl.store(rnd_ptr + offs, libdevice.round(x) + 4.0 * libdevice.rint(x) + 16.0 * libdevice.trunc(x), mask=mask)
    tl.store(quo_ptr + offs, libdevice.div_rn(x, y), mask=mask)
    tl.store(fast_ptr + offs, libdevice.fast_expf(y) * libdevice.fast_logf(tl.abs(x) + 1.0), mask=mask)
    bits = libdevice.popc(k) + 64 * libdevice.clz(k) + 4096 * libdevice.ffs(k) + 1048576 * libdevice.signbit(x)
    tl.store(bits_ptr + offs, bits, mask=mask)


class Libdevice(casekit.BlockCase):
    """Four libdevice expressions over vectors; one program per 1024 elements."""
    kernel = libdevice_kernel
    outputs = ['rnd', 'quo', 'fast', 'bits']
    sizes_time = [{'n': 1 << 26}, {'n': 50_000_017}]
    sizes_check = sizes_time + [{'n': 1_000_003}]
    sizes_sanitize = [{'n': 10_007}, {'n': 16_384}]
    params = [('x_ptr', 'pointer', 'f32'), ('y_ptr', 'pointer', 'f32'), ('k_ptr', 'pointer', 'i32'),
              ('rnd_ptr', 'pointer', 'f32'), ('quo_ptr', 'pointer', 'f32'), ('fast_ptr', 'pointer', 'f32'),
              ('bits_ptr', 'pointer', 'i32'), ('n', 'scalar', 'i32')]

    def make(self, size, gen):
        n = size['n']
        x = casekit.randn(n, torch.float32, gen, scale=40.0)
        if casekit.DEVICE != 'meta':
            # a quarter of x on halfway cases (k + 0.5), where round, rint and trunc all differ
            x[::4] = torch.floor(x[::4]) + 0.5
        return {'x': x, 'y': casekit.randn(n, torch.float32, gen, shift=3.0),
                'k': casekit.randint((n,), -2 ** 31, 2 ** 31 - 1, torch.int32, gen),
                'rnd': casekit.poisoned((n,), torch.float32), 'quo': casekit.poisoned((n,), torch.float32),
                'fast': casekit.poisoned((n,), torch.float32), 'bits': casekit.poisoned((n,), torch.int32)}

    def args(self, t, size):
        return [t['x'], t['y'], t['k'], t['rnd'], t['quo'], t['fast'], t['bits'], size['n']]

    def reference(self, t, size):
        x, y = t['x'].double(), t['y'].double()
        away = torch.sign(x) * torch.floor(x.abs() + 0.5)  # exact in float64
        rnd = away + 4 * torch.round(x) + 16 * torch.trunc(x)  # torch.round: halfway to even (rint)
        k = t['k'].long() & 0xFFFFFFFF
        popc = torch.zeros_like(k)
        clz = torch.full_like(k, 32)
        ffs = torch.zeros_like(k)
        for b in range(32):
            bit = (k >> b) & 1
            popc += bit
            clz = torch.where(bit == 1, torch.full_like(k, 31 - b), clz)
        for b in reversed(range(32)):
            ffs = torch.where(((k >> b) & 1) == 1, torch.full_like(k, b + 1), ffs)
        bits = popc + 64 * clz + 4096 * ffs + 1048576 * (torch.signbit(t['x'])).long()
        # div_rn is correctly rounded (the float64 quotient rounds once more: half an ulp allowed);
        # the fast functions are MUFU approximations: ex2 to a few ulp, lg2 to about 2^-21 absolute
        # (large relative to a log near 0), then a product
        exp_y = torch.exp(y)
        return {'rnd': (rnd, 0.0, 1e-30), 'quo': (x / y, 6e-8, 1e-30),
                'fast': (exp_y * torch.log(x.abs() + 1), 2e-6, exp_y * 1e-6), 'bits': (bits.double(), 0.0, 1e-30)}

    def bytes_moved(self, size):
        return 28 * size['n']  # x, y, k in; rnd, quo, fast, bits out


CASE = Libdevice()
