"""A check of the NVPTX target's `#ttg.padded_shared` addressing on the GPU: Y = X for an M x 32 fp32
matrix, one 64x32 tile per program, through a shared tile padded by one f32 per 32-element row
(bench/gpu/kernels/shared_padded.ttgir: written by rows in 16-byte vectors, read by columns, the
tile pad-shared pads). The input is TTGIR with the padding in it, lowered by the target as it is.
Checked exactly and under compute-sanitizer; not timed (a copy through shared memory has nothing
to compare with). The Triton kernel is the plain copy, a check of the runner only.
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    '': {'src': 'bench/gpu/kernels/shared_padded.ttgir', 'num_warps': 4},
}


@triton.jit
def copy_tiles(x, y):
    """Y = X, one 64x32 tile per program."""
    off = tl.program_id(0) * 2048 + tl.arange(0, 64)[:, None] * 32 + tl.arange(0, 32)[None, :]
    tl.store(y + off, tl.load(x + off))


class SharedPadded(casekit.Case):
    """Y = X (M x 32 fp32, M a multiple of 64) through a padded shared tile."""
    kernel = copy_tiles
    dump_ttir = False
    params = [('x', 'pointer', 'f32'), ('y', 'pointer', 'f32')]
    outputs = ['y']
    sizes_check = [{'M': 64 * 1000}, {'M': 64 * 3}]
    sizes_sanitize = [{'M': 64 * 5}]
    race_suffix = ''  # no build without insert-barriers

    def shape(self, size):
        return f'{size["M"]}x32'

    def make(self, size, gen):
        return {'x': casekit.randn((size['M'], 32), torch.float32, gen), 'y': casekit.poisoned((size['M'], 32), torch.float32)}

    def args(self, t, size):
        return [t['x'], t['y']]

    def grid(self, size):
        return (size['M'] // 64,)

    def reference(self, t, size):
        # A copy moves bits: exact (atol only keeps 0/0 out of the error ratio).
        return {'y': (t['x'].double(), 0.0, 1e-30)}

    def bytes_moved(self, size):
        return 2 * size['M'] * 32 * 4


CASE = SharedPadded()
