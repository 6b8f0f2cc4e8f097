"""`tl.histogram`: the histogram of each block of 1024 int32 values (256 bins, 4 warps).

Each program counts its block's values (masked past n) with `tl.histogram` and stores its row of
counts. Values are drawn in [0, 256), so every unmasked element lands in a bin. Triton specializes
n on divisibility by 16: d16 and odd sizes have different TTIR.
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    'd16': {'src': 'bench/gpu/kernels/histogram.d16.ttir'},
    'odd': {'src': 'bench/gpu/kernels/histogram.odd.ttir'},
}


@triton.jit
def histogram_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    offs = tl.program_id(axis=0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    h = tl.histogram(x, BINS, mask=mask)
    tl.store(out_ptr + tl.program_id(axis=0) * BINS + tl.arange(0, BINS), h)


class Histogram(casekit.BlockCase):
    """out[p, b] = number of i in block p with x[i] == b, over n int32 values in [0, BINS)."""
    kernel = histogram_kernel
    outputs = ['out']
    sizes_time = [{'n': 1 << 24}]
    sizes_check = sizes_time + [{'n': 1_000_003}]
    sizes_sanitize = [{'n': 10_007}, {'n': 16_384}]
    bins = 256
    params = [('x_ptr', 'pointer', 'i32'), ('out_ptr', 'pointer', 'i32'), ('n', 'scalar', 'i32')]

    def constexprs(self, size):
        return {'BLOCK': self.block, 'BINS': self.bins}

    def make(self, size, gen):
        n = size['n']
        x = casekit.randint((n,), 0, self.bins, torch.int32, gen)
        return {'x': x, 'out': casekit.poisoned((triton.cdiv(n, self.block), self.bins), torch.int32)}

    def args(self, t, size):
        return [t['x'], t['out'], size['n']]

    def reference(self, t, size):
        n = size['n']
        x = t['x'].to(torch.int64)
        block = torch.arange(n, device=x.device) // self.block
        counts = torch.zeros(triton.cdiv(n, self.block) * self.bins, dtype=torch.float64, device=x.device)
        counts.index_add_(0, block * self.bins + x, torch.ones(n, dtype=torch.float64, device=x.device))
        return {'out': (counts.view(-1, self.bins), 0.0, 1e-30)}

    def bytes_moved(self, size):
        return 4 * size['n'] + 4 * self.bins * triton.cdiv(size['n'], self.block)


CASE = Histogram()
