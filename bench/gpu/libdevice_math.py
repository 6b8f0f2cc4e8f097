"""Accurate f32 functions: `libdevice.exp` (`__nv_expf`), `libdevice.tanh` (`__nv_tanhf`) and
`tl.math.erf` (`math.erf`, which Triton computes with libdevice's `__nv_erff`) and `libdevice.log`
(`__nv_logf`), BLOCK 1024, 4 warps: e = exp(x) over the whole finite range (subnormal results
included), t = tanh(y) around its branch point 0.55 and far out, r = erf(y) around its branch point
1, g = log(z) over every positive binade (subnormals included), p = log1p(|y| - 0.75) and
q = expm1(min(y, 80)) on both sides of their branch points. Checked against float64 to 3 ulp
(libdevice documents 2; err/tol x 3 reads as ulps). Triton specializes n on divisibility by 16.
"""
import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice
import torch

import casekit

BUILDS = {
    'd16': {'src': 'bench/gpu/kernels/libdevice_math.d16.ttir'},
    'odd': {'src': 'bench/gpu/kernels/libdevice_math.odd.ttir'},
}

ULP = 2.0 ** -23
X_SPECIALS = [0.0, -0.0, 88.72, -87.3, -100.0, -103.9, 1e-30, -1e-30, 0.5, -0.5, 44.3, 1.0]
Z_SPECIALS = [1.0, 2.0, 0.5, 1.4142135, 1.4142137, 0.70710677, 1e-40, 1e-45, 3.4e38, 1.0000001, 0.99999994]
Y_SPECIALS = [0.0, -0.0, 0.55, -0.55, 0.5499999, 0.5500001, 9.0, -9.0, 1e5, -1e5, 1e-30, 1e-20, 3.0, 0.1, 1.0, -1.0, 0.9999999, 3.92, 3.9, -4.0,
              1.1642135, 0.45710677, 0.3466, -0.3466, 10.0, -10.0, 10.5, -10.5]


@triton.jit
def libdevice_math_kernel(x_ptr, y_ptr, z_ptr, e_ptr, t_ptr, r_ptr, g_ptr, p_ptr, q_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(e_ptr + offs, libdevice.exp(x), mask=mask)
    tl.store(t_ptr + offs, libdevice.tanh(y), mask=mask)
    tl.store(r_ptr + offs, tl.math.erf(y), mask=mask)
    z = tl.load(z_ptr + offs, mask=mask)
    tl.store(g_ptr + offs, libdevice.log(z), mask=mask)
    tl.store(p_ptr + offs, libdevice.log1p(tl.abs(y) - 0.75), mask=mask)
    tl.store(q_ptr + offs, libdevice.expm1(tl.minimum(y, 80.0)), mask=mask)


class LibdeviceMath(casekit.BlockCase):
    """exp, tanh, erf, log, log1p and expm1 of three vectors; one program per 1024 elements."""
    kernel = libdevice_math_kernel
    outputs = ['e', 't', 'r', 'g', 'p', 'q']
    sizes_time = [{'n': 1 << 26}, {'n': 50_000_017}]
    sizes_check = sizes_time + [{'n': 1_000_003}]
    sizes_sanitize = [{'n': 10_007}, {'n': 16_384}]
    params = [('x_ptr', 'pointer', 'f32'), ('y_ptr', 'pointer', 'f32'), ('z_ptr', 'pointer', 'f32'),
              ('e_ptr', 'pointer', 'f32'), ('t_ptr', 'pointer', 'f32'), ('r_ptr', 'pointer', 'f32'),
              ('g_ptr', 'pointer', 'f32'), ('p_ptr', 'pointer', 'f32'), ('q_ptr', 'pointer', 'f32'), ('n', 'scalar', 'i32')]

    def make(self, size, gen):
        n = size['n']
        # exp: uniform over [-104, 88.7] (up to the largest finite result); tanh: mostly where it bends
        x = casekit.rand((n,), torch.float32, gen) * 192.7 - 104.0 if casekit.DEVICE != 'meta' else casekit.rand((n,), torch.float32, gen)
        return {'x': casekit.with_specials(x, X_SPECIALS), 'y': casekit.with_specials(casekit.randn(n, torch.float32, gen, scale=2.0), Y_SPECIALS),
                'e': casekit.poisoned((n,), torch.float32), 't': casekit.poisoned((n,), torch.float32),
                'r': casekit.poisoned((n,), torch.float32), 'g': casekit.poisoned((n,), torch.float32),
                'p': casekit.poisoned((n,), torch.float32), 'q': casekit.poisoned((n,), torch.float32),
                # log: log-uniform over the positive floats, subnormals included
                'z': casekit.with_specials(torch.exp(casekit.rand((n,), torch.float32, gen).double() * 190.0 - 102.0).float()
                                           if casekit.DEVICE != 'meta' else casekit.rand((n,), torch.float32, gen), Z_SPECIALS)}

    def args(self, t, size):
        return [t['x'], t['y'], t['z'], t['e'], t['t'], t['r'], t['g'], t['p'], t['q'], size['n']]

    def reference(self, t, size):
        x, y = t['x'].double(), t['y'].double()
        # 3 ulp of each result (relative 3 * 2^-23 bounds it), and 3 of the smallest subnormal below
        return {'e': (torch.exp(x), 3 * ULP, 3 * 2.0 ** -149), 't': (torch.tanh(y), 3 * ULP, 3 * 2.0 ** -149),
                'r': (torch.erf(y), 3 * ULP, 3 * 2.0 ** -149), 'g': (torch.log(t['z'].double()), 3 * ULP, 3 * 2.0 ** -149),
                # the kernel's arguments, computed in f32 as it does (IEEE, so the same values)
                'p': (torch.log1p((t['y'].abs() - 0.75).double()), 3 * ULP, 3 * 2.0 ** -149),
                'q': (torch.expm1(torch.clamp(t['y'], max=80.0).double()), 3 * ULP, 3 * 2.0 ** -149)}

    def bytes_moved(self, size):
        return 36 * size['n']


CASE = LibdeviceMath()
