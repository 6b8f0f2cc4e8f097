"""Vector add, fp32: the Triton tutorial 01 kernel, BLOCK_SIZE=1024, 4 warps.

Triton specializes n_elements on divisibility by 16, so a multiple of 16 (d16) and any other size
(odd) have different TTIR.
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    'd16': {'src': 'bench/gpu/kernels/vector_add_f32.d16.ttir'},
    'odd': {'src': 'bench/gpu/kernels/vector_add_f32.odd.ttir'},
}


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    tl.store(output_ptr + offsets, output, mask=mask)


class VectorAdd(casekit.Case):
    """out = x + y over n elements of one dtype; one program per 1024 elements."""
    kernel = add_kernel
    outputs = ['out']
    sizes_time = [{'n': 1 << 28}, {'n': 98_432_117}]
    sizes_check = sizes_time + [{'n': 1_000_003}]
    sizes_sanitize = [{'n': 10_007}, {'n': 16_384}]
    block = 1024

    def __init__(self, dtype, rtol, atol):
        self.dtype = dtype
        self.rtol, self.atol = rtol, atol
        ty = casekit.type_name(dtype)
        self.params = [('x_ptr', 'pointer', ty), ('y_ptr', 'pointer', ty), ('output_ptr', 'pointer', ty),
                       ('n_elements', 'scalar', 'i32')]

    def variant(self, size):
        return 'd16' if size['n'] % 16 == 0 else 'odd'

    def constexprs(self, size):
        return {'BLOCK_SIZE': self.block}

    def make(self, size, gen):
        n = size['n']
        return {'x': casekit.randn(n, self.dtype, gen), 'y': casekit.randn(n, self.dtype, gen),
                'out': casekit.poisoned((n,), self.dtype)}

    def args(self, t, size):
        return [t['x'], t['y'], t['out'], size['n']]

    def grid(self, size):
        return (triton.cdiv(size['n'], self.block),)

    def reference(self, t, size):
        return {'out': (t['x'].double() + t['y'].double(), self.rtol, self.atol)}

    def bytes_moved(self, size):
        return 3 * size['n'] * torch.empty((), dtype=self.dtype).element_size()


# fp32 addition is correctly rounded: half an ulp (6e-8 relative) is the most a right kernel is off.
CASE = VectorAdd(torch.float32, rtol=2e-7, atol=1e-30)
