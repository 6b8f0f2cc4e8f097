"""`tl.gather` along rows: out[i, j] = x[i, idx[i, j]] (fp32, 16 rows of 128 per program, 4 warps).

Indices are drawn in [0, 128) afresh; rows past n_rows are masked. Triton specializes n_rows on
divisibility by 16: d16 and odd sizes have different TTIR.
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    'd16': {'src': 'bench/gpu/kernels/gather.d16.ttir'},
    'odd': {'src': 'bench/gpu/kernels/gather.odd.ttir'},
}


@triton.jit
def gather_kernel(x_ptr, idx_ptr, out_ptr, n_rows, BLOCK_N: tl.constexpr, ROWS: tl.constexpr):
    rows = tl.program_id(axis=0) * ROWS + tl.arange(0, ROWS)
    offs = rows[:, None] * BLOCK_N + tl.arange(0, BLOCK_N)[None, :]
    mask = rows[:, None] < n_rows
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    idx = tl.load(idx_ptr + offs, mask=mask, other=0)
    y = tl.gather(x, idx, axis=1)
    tl.store(out_ptr + offs, y, mask=mask)


class Gather(casekit.Case):
    """out[i, j] = x[i, idx[i, j]] over n_rows rows of 128 fp32 values."""
    kernel = gather_kernel
    outputs = ['out']
    sizes_time = [{'rows': 65536}]
    sizes_check = sizes_time + [{'rows': 65531}]
    sizes_sanitize = [{'rows': 1000}, {'rows': 1024}]
    cols = 128
    rows_per_program = 16
    params = [('x_ptr', 'pointer', 'f32'), ('idx_ptr', 'pointer', 'i32'), ('out_ptr', 'pointer', 'f32'),
              ('n_rows', 'scalar', 'i32')]

    def variant(self, size):
        return 'd16' if size['rows'] % 16 == 0 else 'odd'

    def shape(self, size):
        return f"{size['rows']}x{self.cols}"

    def constexprs(self, size):
        return {'BLOCK_N': self.cols, 'ROWS': self.rows_per_program}

    def make(self, size, gen):
        shape = (size['rows'], self.cols)
        idx = casekit.randint(shape, 0, self.cols, torch.int32, gen)
        return {'x': casekit.randn(shape, torch.float32, gen), 'idx': idx, 'out': casekit.poisoned(shape, torch.float32)}

    def args(self, t, size):
        return [t['x'], t['idx'], t['out'], size['rows']]

    def grid(self, size):
        return (triton.cdiv(size['rows'], self.rows_per_program),)

    def reference(self, t, size):
        # a gather copies values: exact
        return {'out': (torch.gather(t['x'].double(), 1, t['idx'].to(torch.int64)), 0.0, 1e-30)}

    def bytes_moved(self, size):
        return 3 * 4 * size['rows'] * self.cols


CASE = Gather()
