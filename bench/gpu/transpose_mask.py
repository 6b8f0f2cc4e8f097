"""A masked transposition written in Triton: Y (N x M) = X^T for an M x N fp32 X, ldx = N, ldy = M,
one TM x TN tile per program on a (cdiv(M, TM), cdiv(N, TN)) grid. Unlike transpose_tc, the store's
mask is tl.trans of the load's mask (the same mask transposed, not a second comparison), and the
compiler input is Triton 3.6's TTIR of this kernel.

Variants: `<config>.d16` (M, N, ldx, ldy multiples of 16: Triton gives them tt.divisibility = 16) and
`<config>.odd` (none of them a multiple of 16). A config is a square tile and a number of warps (as in
transpose_tc): t32w4, t64w4, t64w8, t128w8 (e.g. t64w4 = 64x64 tiles, 4 warps). The config is part of
each size (key 'config'), and every config has every size.
"""
import triton
import triton.language as tl

import casekit

BUILDS = {
    't32w4.d16': {'src': 'bench/gpu/kernels/transpose_mask.t32w4.d16.ttir', 'num_warps': 4},
    't32w4.odd': {'src': 'bench/gpu/kernels/transpose_mask.t32w4.odd.ttir', 'num_warps': 4},
    't64w4.d16': {'src': 'bench/gpu/kernels/transpose_mask.t64w4.d16.ttir', 'num_warps': 4},
    't64w4.odd': {'src': 'bench/gpu/kernels/transpose_mask.t64w4.odd.ttir', 'num_warps': 4},
    't64w8.d16': {'src': 'bench/gpu/kernels/transpose_mask.t64w8.d16.ttir', 'num_warps': 8},
    't64w8.odd': {'src': 'bench/gpu/kernels/transpose_mask.t64w8.odd.ttir', 'num_warps': 8},
    't128w8.d16': {'src': 'bench/gpu/kernels/transpose_mask.t128w8.d16.ttir', 'num_warps': 8},
    't128w8.odd': {'src': 'bench/gpu/kernels/transpose_mask.t128w8.odd.ttir', 'num_warps': 8},
}

# config -> tile (TM = TN); the warps are in BUILDS.
CONFIGS = {'t32w4': 32, 't64w4': 64, 't64w8': 64, 't128w8': 128}


@triton.jit
def transpose_mask_kernel(X, Y, M, N, ldx, ldy, TM: tl.constexpr, TN: tl.constexpr):
    pidm = tl.program_id(0)
    pidn = tl.program_id(1)
    rm = pidm * TM + tl.arange(0, TM)
    rn = pidn * TN + tl.arange(0, TN)
    px = X + rm[:, None] * ldx + rn[None, :]
    py = Y + rm[None, :] + rn[:, None] * ldy
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(py, tl.trans(tl.load(px, mask=mask)), mask=tl.trans(mask))


def _sizes(shapes):
    return [{'M': m, 'N': n, 'config': c} for c in CONFIGS for m, n in shapes]


class TransposeMask(casekit.TransposeCase):
    """Y = X^T, fp32, store mask = tl.trans(load mask); size keys M, N, config."""
    kernel = transpose_mask_kernel
    sizes_time = _sizes([(16384, 16384), (10007, 7001)])
    sizes_check = sizes_time + _sizes([(1000, 333)])
    sizes_sanitize = _sizes([(256, 192), (131, 75)])

    def variant(self, size):
        # ldx = N and ldy = M: all four are multiples of 16 or none is.
        d16 = [size['M'] % 16 == 0, size['N'] % 16 == 0]
        if all(d16):
            return f"{size['config']}.d16"
        if not any(d16):
            return f"{size['config']}.odd"
        raise ValueError(f'transpose_mask: no variant for {size} (M and N must both be multiples of 16 or neither)')

    def tile(self, size):
        t = CONFIGS[size['config']]
        return {'TM': t, 'TN': t}


CASE = TransposeMask()
