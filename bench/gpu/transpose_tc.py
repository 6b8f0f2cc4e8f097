"""The seeds' Triton-C transposition (examples/triton-c/transpose-checked.tc): Y (N x M) = X^T for an
M x N fp32 X, ldx = N, ldy = M, one TM x TN tile per program on a (cdiv(M, TM), cdiv(N, TN)) grid,
compared with the same kernel in Triton (2-D tl.load, tl.trans, tl.store, same tiles and warps).

Variants: `<config>.d16` (M, N, ldx, ldy multiples of 16: bench/gpu/kernels/transpose_tc.d16.tc, the
same kernel with the seeds' `__multipleof(16)`, as Triton specializes them) and `<config>.odd` (the
.tc as it is). A config is a tile and a number of warps, e.g. t64w4 = 64x64 tiles, 4 warps; the
environment variable TRANSPOSE_CONFIG picks one (default t64w8, where Triton is fastest) so several can be timed next to
Triton in one device call. `<variant>_nobar` is built without insert-barriers (the runner's
--sanitize runs racecheck on it and expects hazards).
"""
import os

import triton
import triton.language as tl

import casekit

BUILDS = {
    't32w4.d16': {'src': 'bench/gpu/kernels/transpose_tc.d16.tc', 'flags': ['-DTYPE=float', '-DTM=32', '-DTN=32'], 'num_warps': 4},
    't32w4.odd': {'src': 'examples/triton-c/transpose-checked.tc', 'flags': ['-DTYPE=float', '-DTM=32', '-DTN=32'], 'num_warps': 4},
    't64w4.d16': {'src': 'bench/gpu/kernels/transpose_tc.d16.tc', 'flags': ['-DTYPE=float', '-DTM=64', '-DTN=64'], 'num_warps': 4},
    't64w4.odd': {'src': 'examples/triton-c/transpose-checked.tc', 'flags': ['-DTYPE=float', '-DTM=64', '-DTN=64'], 'num_warps': 4},
    't64w8.d16': {'src': 'bench/gpu/kernels/transpose_tc.d16.tc', 'flags': ['-DTYPE=float', '-DTM=64', '-DTN=64'], 'num_warps': 8},
    't64w8.odd': {'src': 'examples/triton-c/transpose-checked.tc', 'flags': ['-DTYPE=float', '-DTM=64', '-DTN=64'], 'num_warps': 8},
    't128w8.d16': {'src': 'bench/gpu/kernels/transpose_tc.d16.tc', 'flags': ['-DTYPE=float', '-DTM=128', '-DTN=128'], 'num_warps': 8},
    't128w8.odd': {'src': 'examples/triton-c/transpose-checked.tc', 'flags': ['-DTYPE=float', '-DTM=128', '-DTN=128'], 'num_warps': 8},
    't32w4.d16_nobar': {'src': 'bench/gpu/kernels/transpose_tc.d16.tc', 'flags': ['-DTYPE=float', '-DTM=32', '-DTN=32', '--without-pass=insert-barriers'], 'num_warps': 4},
    't32w4.odd_nobar': {'src': 'examples/triton-c/transpose-checked.tc', 'flags': ['-DTYPE=float', '-DTM=32', '-DTN=32', '--without-pass=insert-barriers'], 'num_warps': 4},
    't64w4.d16_nobar': {'src': 'bench/gpu/kernels/transpose_tc.d16.tc', 'flags': ['-DTYPE=float', '-DTM=64', '-DTN=64', '--without-pass=insert-barriers'], 'num_warps': 4},
    't64w4.odd_nobar': {'src': 'examples/triton-c/transpose-checked.tc', 'flags': ['-DTYPE=float', '-DTM=64', '-DTN=64', '--without-pass=insert-barriers'], 'num_warps': 4},
    't64w8.d16_nobar': {'src': 'bench/gpu/kernels/transpose_tc.d16.tc', 'flags': ['-DTYPE=float', '-DTM=64', '-DTN=64', '--without-pass=insert-barriers'], 'num_warps': 8},
    't64w8.odd_nobar': {'src': 'examples/triton-c/transpose-checked.tc', 'flags': ['-DTYPE=float', '-DTM=64', '-DTN=64', '--without-pass=insert-barriers'], 'num_warps': 8},
    't128w8.d16_nobar': {'src': 'bench/gpu/kernels/transpose_tc.d16.tc', 'flags': ['-DTYPE=float', '-DTM=128', '-DTN=128', '--without-pass=insert-barriers'], 'num_warps': 8},
    't128w8.odd_nobar': {'src': 'examples/triton-c/transpose-checked.tc', 'flags': ['-DTYPE=float', '-DTM=128', '-DTN=128', '--without-pass=insert-barriers'], 'num_warps': 8},
}


@triton.jit
def transpose_kernel(X, Y, M, N, ldx, ldy, TM: tl.constexpr, TN: tl.constexpr):
    """transpose-checked.tc written in Triton."""
    pidm = tl.program_id(0)
    pidn = tl.program_id(1)
    rm = pidm * TM + tl.arange(0, TM)
    rn = pidn * TN + tl.arange(0, TN)
    px = X + rm[:, None] * ldx + rn[None, :]
    py = Y + rm[None, :] + rn[:, None] * ldy
    checkx = (rm[:, None] < M) & (rn[None, :] < N)
    checky = (rm[None, :] < M) & (rn[:, None] < N)
    tl.store(py, tl.trans(tl.load(px, mask=checkx)), mask=checky)


class TransposeTC(casekit.TransposeCase):
    """Y = X^T, fp32, through the Triton-C frontend."""
    kernel = transpose_kernel
    dump_ttir = False
    sizes_time = [{'M': 16384, 'N': 16384}, {'M': 10007, 'N': 7001}]
    sizes_check = sizes_time + [{'M': 4096, 'N': 1024}, {'M': 1000, 'N': 333}]
    sizes_sanitize = [{'M': 256, 'N': 192}, {'M': 131, 'N': 75}]
    # Suffix of the variants built without insert-barriers: racecheck must report hazards on them.
    race_suffix = '_nobar'

    def __init__(self):
        self.config = os.environ.get('TRANSPOSE_CONFIG', 't64w8')

    def variant(self, size):
        aligned = size['M'] % 16 == 0 and size['N'] % 16 == 0
        return f'{self.config}.{"d16" if aligned else "odd"}'

    def tile(self, size):
        flags = self.builds[self.variant(size)]['flags']
        return {k: int(f.split('=')[1]) for f in flags for k in ('TM', 'TN') if f.startswith(f'-D{k}=')}


CASE = TransposeTC()
