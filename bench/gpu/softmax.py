"""Fused softmax over the rows of an fp32 matrix, one program per row (Triton tutorial 02 kernel,
in its one-row-per-program form: the grid is the number of rows).

BLOCK_SIZE = next_power_of_2(n_cols). Warps: Triton 3.x's tutorial uses 8 for every size (older ones 8
from 2048 columns, 16 from 4096). Timed with Triton on an H200 (`tools/gpu/dump_triton.py --tune`,
cold L2, median of 100): 4096x1000: 4 warps 12.7 us, 8 warps 13.9, 16 warps 19.1; 4096x4096: 36.5,
36.6, 36.8. So 4 warps (the default) for 1000 columns, where it is fastest, and the tutorial's 8 for
4096 columns, where all three are within 1%.
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    'b1024': {'src': 'bench/gpu/kernels/softmax.b1024.ttir'},
    'b4096': {'src': 'bench/gpu/kernels/softmax.b4096.ttir', 'num_warps': 8},
}


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    row_start_ptr = input_ptr + row_idx * input_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    input_ptrs = row_start_ptr + col_offsets
    mask = col_offsets < n_cols
    row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    softmax_output = numerator / denominator
    output_row_start_ptr = output_ptr + row_idx * output_row_stride
    output_ptrs = output_row_start_ptr + col_offsets
    tl.store(output_ptrs, softmax_output, mask=mask)


def softmax_reference(x):
    """Row softmax in float64."""
    x = x.double()
    z = torch.exp(x - x.max(dim=1, keepdim=True).values)
    return z / z.sum(dim=1, keepdim=True)


class Softmax(casekit.RowCase):
    """y[m, :] = softmax(x[m, :]) for an M x N fp32 matrix."""
    kernel = softmax_kernel
    params = [('output_ptr', 'pointer', 'f32'), ('input_ptr', 'pointer', 'f32'), ('input_row_stride', 'scalar', 'i32'),
              ('output_row_stride', 'scalar', 'i32'), ('n_cols', 'scalar', 'i32')]
    outputs = ['y']
    sizes_time = [{'rows': 4096, 'cols': 1000}, {'rows': 4096, 'cols': 4096}]
    sizes_check = sizes_time + [{'rows': 823, 'cols': 1000}]
    sizes_sanitize = [{'rows': 37, 'cols': 1000}, {'rows': 21, 'cols': 4096}]
    tune_warps = [4, 8, 16]

    def make(self, size, gen):
        shape = (size['rows'], size['cols'])
        return {'x': casekit.randn(shape, torch.float32, gen, scale=3.0), 'y': casekit.poisoned(shape, torch.float32)}

    def args(self, t, size):
        return [t['y'], t['x'], t['x'].stride(0), t['y'].stride(0), size['cols']]

    def reference(self, t, size):
        # exp is approximate (ex2.approx, like __expf): a few 1e-7 relative; sums of 4096 terms add ~1e-6.
        return {'y': (softmax_reference(t['x']), 2e-5, 1e-12)}

    def bytes_moved(self, size):
        return 2 * size['rows'] * size['cols'] * 4


CASE = Softmax()
