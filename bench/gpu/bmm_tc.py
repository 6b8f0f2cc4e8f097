"""Batched matmul through the Triton-C frontend: examples/triton-c/bmm.tc, C[z] = A[z] @ B[z] for a batch
of Z matrices (einsum 'zmk,zkn->zmn'), batched `@` on 3-D tiles (batch last in Triton-C, Triton's 3-D
tt.dot batch first). fp16 (tensor cores: a rank-3 #ttg.nvidia_mma, mma.sync, TM=TN=32, TK=16, TZ=4,
4 warps, one matrix of the batch per warp) and fp32 (CUDA cores, ieee: a rank-3 blocked FMA dot, TM=TN=32,
TK=16, TZ=2, 4 warps). Masks make any M, N, K, Z work; A's and B's leading dimensions and batch
strides are multiples of 8 (`__multipleof(8)`), so their rows are padded to a multiple of 8
elements, with NaN that the masks must keep out. C is contiguous. The check sizes are odd in every
dimension.

The `.a8` builds add -DALIGNED: N, K, ldc and C's batch stride are multiples of 8 too
(`__multipleof(8)`), so the rows of A, B and C move in 16-byte vectors; they are checked and timed on
sizes whose N and K are multiples of 8 (M and Z stay odd). f16.a8 has larger tiles (TM=64, TN=32,
TK=16, TZ=4), f32.a8 the f32 build's.

The Triton kernel beside it is the same tiling with `tl.dot` on 3-D blocks [TZ, TM, TK] x [TZ, TK, TN]
(fp32 with input_precision="ieee"); torch.bmm (cuBLAS) on the same inputs is the other baseline.
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    'f16': {'src': 'examples/triton-c/bmm.tc', 'num_warps': 4, 'flags': ['-DTYPE=half', '-DTM=32', '-DTN=32', '-DTK=16', '-DTZ=4']},
    'f32': {'src': 'examples/triton-c/bmm.tc', 'num_warps': 4, 'flags': ['-DTYPE=float', '-DTM=32', '-DTN=32', '-DTK=16', '-DTZ=2']},
    'f16.a8': {'src': 'examples/triton-c/bmm.tc', 'num_warps': 4, 'flags': ['-DTYPE=half', '-DTM=64', '-DTN=32', '-DTK=16', '-DTZ=4', '-DALIGNED']},
    'f32.a8': {'src': 'examples/triton-c/bmm.tc', 'num_warps': 4, 'flags': ['-DTYPE=float', '-DTM=32', '-DTN=32', '-DTK=16', '-DTZ=2', '-DALIGNED']},
}

# Tiles (TM, TN, TK, TZ) of each build, for the Triton kernel and the grid.
TILES = {'f16': (32, 32, 16, 4), 'f32': (32, 32, 16, 2), 'f16.a8': (64, 32, 16, 4), 'f32.a8': (32, 32, 16, 2)}
UNALIGNED = ['f16', 'f32']
ALIGNED = ['f16.a8', 'f32.a8']


@triton.jit
def tc_bmm(A, B, C, M, N, K, Z, lda, ldb, ldc, stride_za, stride_zb, stride_zc,
           TM: tl.constexpr, TN: tl.constexpr, TK: tl.constexpr, TZ: tl.constexpr, PRECISION: tl.constexpr):
    """bmm.tc in Triton: 3-D blocks, batch first."""
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    pz = tl.program_id(2)
    rm = pm * TM + tl.arange(0, TM)
    rn = pn * TN + tl.arange(0, TN)
    rz = pz * TZ + tl.arange(0, TZ)
    rk = tl.arange(0, TK)
    pa = A + rz[:, None, None] * stride_za + rm[None, :, None] * lda + rk[None, None, :]
    pb = B + rz[:, None, None] * stride_zb + rk[None, :, None] * ldb + rn[None, None, :]
    check_m = (rz[:, None, None] < Z) & (rm[None, :, None] < M)
    check_n = (rz[:, None, None] < Z) & (rn[None, None, :] < N)
    acc = tl.zeros((TZ, TM, TN), dtype=tl.float32)
    for k in range(0, K, TK):
        a = tl.load(pa, mask=check_m & (rk[None, None, :] < K - k), other=0.0)
        b = tl.load(pb, mask=check_n & (rk[None, :, None] < K - k), other=0.0)
        acc = tl.dot(a, b, acc, input_precision=PRECISION)
        pa += TK
        pb += TK * ldb
    pc = C + rz[:, None, None] * stride_zc + rm[None, :, None] * ldc + rn[None, None, :]
    check_c = (rz[:, None, None] < Z) & (rm[None, :, None] < M) & (rn[None, None, :] < N)
    tl.store(pc, acc.to(C.dtype.element_ty), mask=check_c)


def _pad8(n):
    return (n + 7) // 8 * 8


class BmmTC(casekit.Case):
    """C[z] = A[z] @ B[z]; size keys Z, M, N, K, variant v (a key of BUILDS)."""
    kernel = tc_bmm
    dump_ttir = False
    outputs = ['c']
    variants = list(BUILDS)
    # The aligned builds need N and K multiples of 8 (ALIGNED); M and Z stay odd. The unaligned builds
    # run version-alignment's fast copy where N and K are multiples of 4 (N = K = 36, 52, 512) and
    # the element-wise one elsewhere: sizes of both kinds are checked.
    sizes_time = [{'Z': z, 'M': m, 'N': m, 'K': m, 'v': v} for v in UNALIGNED for (z, m) in ((64, 512), (61, 509))] + \
        [{'Z': z, 'M': m, 'N': n, 'K': n, 'v': v} for v in ALIGNED for (z, m, n) in ((64, 512, 512), (61, 509, 504))]
    sizes_check = [{'Z': 7, 'M': 75, 'N': 53, 'K': 37, 'v': v} for v in UNALIGNED] + \
        [{'Z': 13, 'M': 301, 'N': 199, 'K': 267, 'v': v} for v in UNALIGNED] + \
        [{'Z': 7, 'M': 75, 'N': 52, 'K': 36, 'v': v} for v in UNALIGNED] + \
        [{'Z': 7, 'M': 75, 'N': 56, 'K': 40, 'v': v} for v in ALIGNED] + \
        [{'Z': 13, 'M': 301, 'N': 200, 'K': 264, 'v': v} for v in ALIGNED] + sizes_time
    sizes_sanitize = [{'Z': 5, 'M': 45, 'N': 37, 'K': 29, 'v': v} for v in UNALIGNED] + \
        [{'Z': 5, 'M': 45, 'N': 36, 'K': 28, 'v': v} for v in UNALIGNED] + \
        [{'Z': 5, 'M': 45, 'N': 40, 'K': 32, 'v': v} for v in ALIGNED]

    def variant(self, size):
        return size['v']

    def shape(self, size):
        return f"{size['Z']}x{size['M']}x{size['N']}x{size['K']}"

    def _tiles(self, size):
        return TILES[size['v']]

    def _f16(self, size):
        return size['v'].startswith('f16')

    def params_for(self, size):
        ty = 'f16' if self._f16(size) else 'f32'
        return [('A', 'pointer', ty), ('B', 'pointer', ty), ('C', 'pointer', ty)] + \
            [(n, 'scalar', 'i32') for n in ('M', 'N', 'K', 'Z', 'lda', 'ldb', 'ldc', 'stride_za', 'stride_zb', 'stride_zc')]

    def make(self, size, gen):
        Z, M, N, K = size['Z'], size['M'], size['N'], size['K']
        dt = torch.float16 if self._f16(size) else torch.float32
        # Rows padded to a multiple of 8 elements (the kernel's __multipleof(8) leading dims); the padding is NaN
        # (the masks must keep it out), the views are the logical matrices.
        a_store = torch.full((Z, M, _pad8(K)), float('nan'), dtype=dt, device=casekit.DEVICE)
        b_store = torch.full((Z, K, _pad8(N)), float('nan'), dtype=dt, device=casekit.DEVICE)
        a, b = a_store[:, :, :K], b_store[:, :, :N]
        a.copy_(casekit.randn((Z, M, K), dt, gen))
        b.copy_(casekit.randn((Z, K, N), dt, gen))
        return {'a': a, 'b': b, 'c': casekit.poisoned((Z, M, N), dt), 'keep': (a_store, b_store)}

    def args(self, t, size):
        a, b, c = t['a'], t['b'], t['c']
        return [a, b, c, size['M'], size['N'], size['K'], size['Z'], a.stride(1), b.stride(1), c.stride(1),
                a.stride(0), b.stride(0), c.stride(0)]

    def constexprs(self, size):
        TM, TN, TK, TZ = self._tiles(size)
        return {'TM': TM, 'TN': TN, 'TK': TK, 'TZ': TZ, 'PRECISION': 'ieee'}

    def grid(self, size):
        TM, TN, _, TZ = self._tiles(size)
        return (triton.cdiv(size['M'], TM), triton.cdiv(size['N'], TN), triton.cdiv(size['Z'], TZ))

    def reference(self, t, size):
        K = size['K']
        ref = torch.bmm(t['a'].double(), t['b'].double())
        if self._f16(size):
            return {'c': (ref, 2e-3, 1e-2 * (K ** 0.5) / 16)}
        return {'c': (ref, 1e-5, 1e-5 * K ** 0.5 * 4)}

    def baselines(self, t, size):
        """cuBLAS through torch.bmm on the same inputs, into a preallocated output."""
        out = torch.empty((size['Z'], size['M'], size['N']), dtype=t['a'].dtype, device=t['a'].device)
        a, b = t['a'], t['b']
        return {'torch.bmm': lambda: torch.bmm(a, b, out=out)}

    def bytes_moved(self, size):
        e = 2 if self._f16(size) else 4
        Z, M, N, K = size['Z'], size['M'], size['N'], size['K']
        return e * Z * (M * K + K * N + M * N)

    def flops(self, size):
        return 2 * size['Z'] * size['M'] * size['N'] * size['K']


CASE = BmmTC()
