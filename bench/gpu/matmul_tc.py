"""The seeds' matmuls through the Triton-C frontend: the plain kernel (examples/triton-c/matmul.tc,
variants `*.plain`, loads in the loop: our pipeline pass prefetches them) and the one with fused
transpositions and hand-written register prefetching (examples/triton-c/matmul-fused-trans.tc): fp16 (tensor cores, TM=TN=128, TK=32, 8 warps) and fp32 (CUDA cores, TM=TN=64,
TK=16, 4 warps), each in the four variants NN, TN (A stored K x M), NT (B stored N x K) and TT,
selected with the tutorial's -D options. Compared with the same tiling written in Triton
(tl.trans for the transposed operands; fp32 with input_precision="ieee", i.e. no tf32).
`tf32.plain` is the plain kernel on fp32 data compiled with `--allow-tf32` (TM=TN=128, TK=32,
8 warps: mma.sync m16n8k8 tf32, also on sm_90a: its B tile is N-major, which wgmma reads only for
16-bit types), and `tf32.NT` the fused-transposition kernel with B stored N x K (both tiles K-major:
wgmma m64nNk8 tf32 on sm_90a), each next to Triton with input_precision="tf32"; they are checked
with a tolerance for tf32's 10-bit mantissa.

The kernel has no bounds checks (M, N, K multiples of the tiles) and prefetches one K tile past the
end, so A and B are allocated with TK spare rows after them.
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    'f16.plain': {'src': 'examples/triton-c/matmul.tc', 'num_warps': 8, 'flags': ['-DTYPE=half', '-DTM=128', '-DTN=128', '-DTK=32']},
    'f32.plain': {'src': 'examples/triton-c/matmul.tc', 'num_warps': 4, 'flags': ['-DTYPE=float', '-DTM=64', '-DTN=64', '-DTK=16']},
    'tf32.plain': {'src': 'examples/triton-c/matmul.tc', 'num_warps': 8, 'flags': ['-DTYPE=float', '-DTM=128', '-DTN=128', '-DTK=32', '--allow-tf32']},
    'tf32.NT': {'src': 'examples/triton-c/matmul-fused-trans.tc', 'num_warps': 8,
                'flags': ['-DTYPE=float', '-DTM=128', '-DTN=128', '-DTK=32', '-DUSE_A=a', '-DSTRIDE_AK=1', '-DSTRIDE_AM=lda', '-DBROADCAST_AK=newaxis,:', '-DBROADCAST_AM=:,newaxis', '-DSHAPE_A=TM,TK', '-DUSE_B=^b', '-DSTRIDE_BK=1', '-DSTRIDE_BN=ldb', '-DBROADCAST_BK=newaxis,:', '-DBROADCAST_BN=:,newaxis', '-DSHAPE_B=TN,TK', '--allow-tf32']},
    'f16.NN': {'src': 'examples/triton-c/matmul-fused-trans.tc', 'num_warps': 8,
               'flags': ['-DTYPE=half', '-DTM=128', '-DTN=128', '-DTK=32', '-DUSE_A=a', '-DSTRIDE_AK=1', '-DSTRIDE_AM=lda', '-DBROADCAST_AK=newaxis,:', '-DBROADCAST_AM=:,newaxis', '-DSHAPE_A=TM,TK', '-DUSE_B=b', '-DSTRIDE_BK=ldb', '-DSTRIDE_BN=1', '-DBROADCAST_BK=:,newaxis', '-DBROADCAST_BN=newaxis,:', '-DSHAPE_B=TK,TN']},
    'f16.NT': {'src': 'examples/triton-c/matmul-fused-trans.tc', 'num_warps': 8,
               'flags': ['-DTYPE=half', '-DTM=128', '-DTN=128', '-DTK=32', '-DUSE_A=a', '-DSTRIDE_AK=1', '-DSTRIDE_AM=lda', '-DBROADCAST_AK=newaxis,:', '-DBROADCAST_AM=:,newaxis', '-DSHAPE_A=TM,TK', '-DUSE_B=^b', '-DSTRIDE_BK=1', '-DSTRIDE_BN=ldb', '-DBROADCAST_BK=newaxis,:', '-DBROADCAST_BN=:,newaxis', '-DSHAPE_B=TN,TK']},
    'f16.TN': {'src': 'examples/triton-c/matmul-fused-trans.tc', 'num_warps': 8,
               'flags': ['-DTYPE=half', '-DTM=128', '-DTN=128', '-DTK=32', '-DUSE_A=^a', '-DSTRIDE_AK=lda', '-DSTRIDE_AM=1', '-DBROADCAST_AK=:,newaxis', '-DBROADCAST_AM=newaxis,:', '-DSHAPE_A=TK,TM', '-DUSE_B=b', '-DSTRIDE_BK=ldb', '-DSTRIDE_BN=1', '-DBROADCAST_BK=:,newaxis', '-DBROADCAST_BN=newaxis,:', '-DSHAPE_B=TK,TN']},
    'f16.TT': {'src': 'examples/triton-c/matmul-fused-trans.tc', 'num_warps': 8,
               'flags': ['-DTYPE=half', '-DTM=128', '-DTN=128', '-DTK=32', '-DUSE_A=^a', '-DSTRIDE_AK=lda', '-DSTRIDE_AM=1', '-DBROADCAST_AK=:,newaxis', '-DBROADCAST_AM=newaxis,:', '-DSHAPE_A=TK,TM', '-DUSE_B=^b', '-DSTRIDE_BK=1', '-DSTRIDE_BN=ldb', '-DBROADCAST_BK=newaxis,:', '-DBROADCAST_BN=:,newaxis', '-DSHAPE_B=TN,TK']},
    'f32.NN': {'src': 'examples/triton-c/matmul-fused-trans.tc', 'num_warps': 4,
               'flags': ['-DTYPE=float', '-DTM=64', '-DTN=64', '-DTK=16', '-DUSE_A=a', '-DSTRIDE_AK=1', '-DSTRIDE_AM=lda', '-DBROADCAST_AK=newaxis,:', '-DBROADCAST_AM=:,newaxis', '-DSHAPE_A=TM,TK', '-DUSE_B=b', '-DSTRIDE_BK=ldb', '-DSTRIDE_BN=1', '-DBROADCAST_BK=:,newaxis', '-DBROADCAST_BN=newaxis,:', '-DSHAPE_B=TK,TN']},
    'f32.NT': {'src': 'examples/triton-c/matmul-fused-trans.tc', 'num_warps': 4,
               'flags': ['-DTYPE=float', '-DTM=64', '-DTN=64', '-DTK=16', '-DUSE_A=a', '-DSTRIDE_AK=1', '-DSTRIDE_AM=lda', '-DBROADCAST_AK=newaxis,:', '-DBROADCAST_AM=:,newaxis', '-DSHAPE_A=TM,TK', '-DUSE_B=^b', '-DSTRIDE_BK=1', '-DSTRIDE_BN=ldb', '-DBROADCAST_BK=newaxis,:', '-DBROADCAST_BN=:,newaxis', '-DSHAPE_B=TN,TK']},
    'f32.TN': {'src': 'examples/triton-c/matmul-fused-trans.tc', 'num_warps': 4,
               'flags': ['-DTYPE=float', '-DTM=64', '-DTN=64', '-DTK=16', '-DUSE_A=^a', '-DSTRIDE_AK=lda', '-DSTRIDE_AM=1', '-DBROADCAST_AK=:,newaxis', '-DBROADCAST_AM=newaxis,:', '-DSHAPE_A=TK,TM', '-DUSE_B=b', '-DSTRIDE_BK=ldb', '-DSTRIDE_BN=1', '-DBROADCAST_BK=:,newaxis', '-DBROADCAST_BN=newaxis,:', '-DSHAPE_B=TK,TN']},
    'f32.TT': {'src': 'examples/triton-c/matmul-fused-trans.tc', 'num_warps': 4,
               'flags': ['-DTYPE=float', '-DTM=64', '-DTN=64', '-DTK=16', '-DUSE_A=^a', '-DSTRIDE_AK=lda', '-DSTRIDE_AM=1', '-DBROADCAST_AK=:,newaxis', '-DBROADCAST_AM=newaxis,:', '-DSHAPE_A=TK,TM', '-DUSE_B=^b', '-DSTRIDE_BK=1', '-DSTRIDE_BN=ldb', '-DBROADCAST_BK=newaxis,:', '-DBROADCAST_BN=:,newaxis', '-DSHAPE_B=TN,TK']},
}


@triton.jit
def tc_matmul(A, B, C, M, N, K, lda, ldb, ldc, TM: tl.constexpr, TN: tl.constexpr, TK: tl.constexpr,
              TRANS_A: tl.constexpr, TRANS_B: tl.constexpr, PRECISION: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * TM + tl.arange(0, TM)
    rn = pn * TN + tl.arange(0, TN)
    rk = tl.arange(0, TK)
    if TRANS_A:
        pa = A + rk[:, None] * lda + rm[None, :]
    else:
        pa = A + rm[:, None] * lda + rk[None, :]
    if TRANS_B:
        pb = B + rn[:, None] * ldb + rk[None, :]
    else:
        pb = B + rk[:, None] * ldb + rn[None, :]
    acc = tl.zeros((TM, TN), dtype=tl.float32)
    for k in range(0, K, TK):
        a = tl.load(pa)
        b = tl.load(pb)
        if TRANS_A:
            a = tl.trans(a)
        if TRANS_B:
            b = tl.trans(b)
        acc = tl.dot(a, b, acc, input_precision=PRECISION)
        if TRANS_A:
            pa += TK * lda
        else:
            pa += TK
        if TRANS_B:
            pb += TK
        else:
            pb += TK * ldb
    pc = C + rm[:, None] * ldc + rn[None, :]
    tl.store(pc, acc.to(C.dtype.element_ty))


class MatmulTC(casekit.Case):
    """C = op(A) @ op(B) from the seeds' Triton-C kernel; size keys M, N, K, variant 'f16.NN' etc."""
    kernel = tc_matmul
    dump_ttir = False
    outputs = ['c']
    variants = list(BUILDS)
    sizes_time = [{'M': 4096, 'N': 4096, 'K': 4096, 'v': v} for v in variants] + \
        [{'M': 8192, 'N': 8192, 'K': 8192, 'v': v} for v in ('tf32.plain', 'tf32.NT')]
    sizes_check = [{'M': 512, 'N': 768, 'K': 320, 'v': v} for v in variants] + sizes_time
    sizes_sanitize = [{'M': 256, 'N': 256, 'K': 64, 'v': v} for v in variants]

    def variant(self, size):
        return size['v']

    def shape(self, size):
        return f"{size['M']}x{size['N']}x{size['K']}"

    def _cfg(self, size):
        f16 = size['v'].startswith('f16')
        tf32 = size['v'].startswith('tf32')
        trans = size['v'].split('.')[1]  # NN, TN, NT, TT, or 'plain' (NN)
        big = f16 or tf32
        return {'dtype': torch.float16 if f16 else torch.float32, 'TM': 128 if big else 64, 'TN': 128 if big else 64,
                'TK': 32 if big else 16, 'ta': trans in ('TN', 'TT'), 'tb': trans in ('NT', 'TT'), 'tf32': tf32}

    def params_for(self, size):
        ty = 'f16' if size['v'].startswith('f16') else 'f32'
        return [('A', 'pointer', ty), ('B', 'pointer', ty), ('C', 'pointer', ty), ('M', 'scalar', 'i32'),
                ('N', 'scalar', 'i32'), ('K', 'scalar', 'i32'), ('lda', 'scalar', 'i32'), ('ldb', 'scalar', 'i32'),
                ('ldc', 'scalar', 'i32')]

    def make(self, size, gen):
        c = self._cfg(size)
        M, N, K, TK, dt = size['M'], size['N'], size['K'], c['TK'], c['dtype']
        a_rows, a_cols = (K, M) if c['ta'] else (M, K)
        b_rows, b_cols = (N, K) if c['tb'] else (K, N)
        a_store = casekit.randn((a_rows + TK, a_cols), dt, gen)
        b_store = casekit.randn((b_rows + TK, b_cols), dt, gen)
        return {'a': a_store[:a_rows], 'b': b_store[:b_rows], 'c': casekit.poisoned((M, N), dt),
                'keep': (a_store, b_store)}

    def args(self, t, size):
        return [t['a'], t['b'], t['c'], size['M'], size['N'], size['K'], t['a'].stride(0), t['b'].stride(0),
                t['c'].stride(0)]

    def constexprs(self, size):
        c = self._cfg(size)
        return {'TM': c['TM'], 'TN': c['TN'], 'TK': c['TK'], 'TRANS_A': c['ta'], 'TRANS_B': c['tb'],
                'PRECISION': 'tf32' if c['tf32'] else 'ieee'}

    def grid(self, size):
        c = self._cfg(size)
        return (size['M'] // c['TM'], size['N'] // c['TN'])

    def reference(self, t, size):
        c = self._cfg(size)
        a = t['a'].double().t() if c['ta'] else t['a'].double()
        b = t['b'].double().t() if c['tb'] else t['b'].double()
        ref = a @ b
        K = size['K']
        if c['dtype'] == torch.float16:
            return {'c': (ref, 2e-3, 1e-2 * (K ** 0.5) / 16)}
        if c['tf32']:
            # tf32 keeps 10 mantissa bits: each product is off by up to ~2^-10 relative, a random walk
            # over K steps of N(0,1) products: std ~ 6e-4 * sqrt(K); the bound is about 6 standard deviations.
            return {'c': (ref, 2e-3, 4e-3 * K ** 0.5)}
        # fp32 sums of K products of N(0,1) values (|c| ~ sqrt(K)): rounding adds up to ~eps*sqrt(K) per
        # step over a K-step random walk; 1e-5*sqrt(K)*4 is about 6 standard deviations at K = 4096.
        return {'c': (ref, 1e-5, 1e-5 * K ** 0.5 * 4)}

    def bytes_moved(self, size):
        e = 2 if size['v'].startswith('f16') else 4
        return e * (size['M'] * size['K'] + size['K'] * size['N'] + size['M'] * size['N'])

    def flops(self, size):
        return 2 * size['M'] * size['N'] * size['K']


CASE = MatmulTC()
