"""Reverse scans along the rows of fp32 matrices, one program per row, 4 warps: a suffix sum
(`tl.cumsum(b, reverse=True)`) and a linear recurrence run backward, h[j] = a[j] * h[j + 1] + b[j]
(`tl.associative_scan` of (a, b) pairs with reverse=True, as in the backward pass of a linear RNN). The
recurrence's combiner is not commutative, so an output is right only if every element is joined after
the ones behind it (Triton's flip-scan-flip order). Checked against float64 torch.
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    'b1024': {'src': 'bench/gpu/kernels/scan_reverse.b1024.ttir'},
    'b4096': {'src': 'bench/gpu/kernels/scan_reverse.b4096.ttir'},
}


@triton.jit
def _first_order(a1, b1, a2, b2):
    # (a1, b1) is what is behind (later columns), (a2, b2) the element: h = a2 * h_behind + b2
    return a1 * a2, a2 * b1 + b2


@triton.jit
def scan_reverse_kernel(a_ptr, b_ptr, suffix_ptr, h_ptr, row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    offs = row * row_stride + cols
    a = tl.load(a_ptr + offs, mask=mask, other=1.0)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0)
    suffix = tl.cumsum(b, axis=0, reverse=True)
    _, h = tl.associative_scan((a, b), axis=0, combine_fn=_first_order, reverse=True)
    tl.store(suffix_ptr + offs, suffix, mask=mask)
    tl.store(h_ptr + offs, h, mask=mask)


class ScanReverse(casekit.RowCase):
    """suffix[m, j] = sum(b[m, j:]), h[m, j] = a[m, j] * h[m, j + 1] + b[m, j] for M x N fp32 a, b."""
    kernel = scan_reverse_kernel
    params = [('a_ptr', 'pointer', 'f32'), ('b_ptr', 'pointer', 'f32'), ('suffix_ptr', 'pointer', 'f32'),
              ('h_ptr', 'pointer', 'f32'), ('row_stride', 'scalar', 'i32'), ('n_cols', 'scalar', 'i32')]
    outputs = ['suffix', 'h']
    sizes_time = [{'rows': 8192, 'cols': 1000}, {'rows': 8192, 'cols': 4096}]
    sizes_check = sizes_time + [{'rows': 1237, 'cols': 1000}, {'rows': 333, 'cols': 4096}]
    sizes_sanitize = [{'rows': 37, 'cols': 1000}, {'rows': 21, 'cols': 4096}]

    def make(self, size, gen):
        shape = (size['rows'], size['cols'])
        a = casekit.rand(shape, torch.float32, gen)
        if casekit.DEVICE != 'meta':
            a = a * 0.5 + 0.5  # decays in [0.5, 1)
        return {'a': a, 'b': casekit.randn(shape, torch.float32, gen),
                'suffix': casekit.poisoned(shape, torch.float32), 'h': casekit.poisoned(shape, torch.float32)}

    def args(self, t, size):
        return [t['a'], t['b'], t['suffix'], t['h'], t['a'].stride(0), size['cols']]

    def reference(self, t, size):
        a, b = t['a'].double(), t['b'].double()
        suffix = b.flip(1).cumsum(dim=1).flip(1)
        h = torch.empty_like(b)
        behind = torch.zeros_like(b[:, 0])
        for j in range(b.shape[1] - 1, -1, -1):
            behind = a[:, j] * behind + b[:, j]
            h[:, j] = behind
        # fp32 in any association order: a few ulps of the terms' magnitudes (the recurrence contracts)
        return {'suffix': (suffix, 0.0, 4e-6 * b.abs().flip(1).cumsum(dim=1).flip(1) + 1e-6),
                'h': (h, 2e-5, 2e-5 * (1 + h.abs().max()))}

    def bytes_moved(self, size):
        return 4 * size['rows'] * size['cols'] * 4


CASE = ScanReverse()
