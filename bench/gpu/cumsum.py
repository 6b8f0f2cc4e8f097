"""Cumulative sum along the rows of an fp32 matrix (tl.cumsum), one program per row, 4 warps."""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    'b1024': {'src': 'bench/gpu/kernels/cumsum.b1024.ttir'},
    'b4096': {'src': 'bench/gpu/kernels/cumsum.b4096.ttir'},
}


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * row_stride + cols, mask=mask, other=0.0)
    y = tl.cumsum(x, axis=0)
    tl.store(out_ptr + row * row_stride + cols, y, mask=mask)


class Cumsum(casekit.RowCase):
    """out[m, j] = sum(x[m, :j+1]) for an M x N fp32 matrix."""
    kernel = cumsum_kernel
    params = [('x_ptr', 'pointer', 'f32'), ('out_ptr', 'pointer', 'f32'), ('row_stride', 'scalar', 'i32'),
              ('n_cols', 'scalar', 'i32')]
    outputs = ['out']
    sizes_time = [{'rows': 8192, 'cols': 1000}, {'rows': 8192, 'cols': 4096}]
    sizes_check = sizes_time + [{'rows': 1237, 'cols': 1000}]
    sizes_sanitize = [{'rows': 37, 'cols': 1000}, {'rows': 21, 'cols': 4096}]

    def make(self, size, gen):
        shape = (size['rows'], size['cols'])
        return {'x': casekit.randn(shape, torch.float32, gen), 'out': casekit.poisoned(shape, torch.float32)}

    def args(self, t, size):
        return [t['x'], t['out'], t['x'].stride(0), size['cols']]

    def reference(self, t, size):
        x = t['x'].double()
        # Any fp32 scan order is off by at most ~(log2 N + terms per thread) ulps of the prefix's sum|x|.
        return {'out': (x.cumsum(dim=1), 0.0, 4e-6 * x.abs().cumsum(dim=1) + 1e-6)}

    def bytes_moved(self, size):
        return 2 * size['rows'] * size['cols'] * 4


CASE = Cumsum()
