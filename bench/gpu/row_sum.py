"""Row sum of an fp32 matrix (sum over the last axis), one program per row, 4 warps."""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    'b1024': {'src': 'bench/gpu/kernels/row_sum.b1024.ttir'},
    'b4096': {'src': 'bench/gpu/kernels/row_sum.b4096.ttir'},
}


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, x_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(x, axis=0))


class RowSum(casekit.RowCase):
    """out[m] = sum(x[m, :]) for an M x N fp32 matrix."""
    kernel = row_sum_kernel
    params = [('x_ptr', 'pointer', 'f32'), ('out_ptr', 'pointer', 'f32'), ('x_row_stride', 'scalar', 'i32'),
              ('n_cols', 'scalar', 'i32')]
    outputs = ['out']
    sizes_time = [{'rows': 8192, 'cols': 1000}, {'rows': 8192, 'cols': 4096}]
    sizes_check = sizes_time + [{'rows': 1237, 'cols': 1000}]
    sizes_sanitize = [{'rows': 37, 'cols': 1000}, {'rows': 21, 'cols': 4096}]

    def make(self, size, gen):
        shape = (size['rows'], size['cols'])
        return {'x': casekit.randn(shape, torch.float32, gen, shift=0.5), 'out': casekit.poisoned((size['rows'],), torch.float32)}

    def args(self, t, size):
        return [t['x'], t['out'], t['x'].stride(0), size['cols']]

    def reference(self, t, size):
        x = t['x'].double()
        # An fp32 sum in any order is off by at most ~(terms per thread + log2 N) ulps of sum|x|.
        return {'out': (x.sum(dim=1), 0.0, 4e-6 * x.abs().sum(dim=1) + 1e-6)}

    def bytes_moved(self, size):
        return size['rows'] * size['cols'] * 4 + size['rows'] * 4


CASE = RowSum()
