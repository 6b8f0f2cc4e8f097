"""Weight-only fp8 matmul (W8A16): C = (A @ B.to(f16)) * scale[None, :], A fp16 [M, K], B e4m3 [K, N]
(N contiguous), one f32 scale per column, fp16 out, fp32 accumulation; Triton's tutorial matmul
with the fp8 tile widened in registers after its load, as fp8 weight-quantized inference runs it.
BLOCK 128 x 128 x 64, 8 warps, 3 stages. Triton specializes on divisibility by 16: d16 and odd
sizes have different TTIR.
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    'd16': {'src': 'bench/gpu/kernels/matmul_w8.d16.ttir', 'num_warps': 8},
    'odd': {'src': 'bench/gpu/kernels/matmul_w8.odd.ttir', 'num_warps': 8},
}


@triton.jit
def matmul_w8_kernel(a_ptr, b_ptr, s_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b.to(tl.float16), acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    scale = tl.load(s_ptr + offs_cn, mask=offs_cn < N, other=0.0)
    c = (acc * scale[None, :]).to(tl.float16)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + offs_cn[None, :]
    tl.store(c_ptrs, c, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


class MatmulW8(casekit.Case):
    """C[M, N] = (A[M, K] @ B[K, N]) * scale[N], B in e4m3; one program per 128x128 tile of C."""
    kernel = matmul_w8_kernel
    outputs = ['c']
    params = [('a_ptr', 'pointer', 'f16'), ('b_ptr', 'pointer', 'f8E4M3FN'), ('s_ptr', 'pointer', 'f32'),
              ('c_ptr', 'pointer', 'f16'), ('M', 'scalar', 'i32'), ('N', 'scalar', 'i32'), ('K', 'scalar', 'i32'),
              ('stride_am', 'scalar', 'i32'), ('stride_bk', 'scalar', 'i32'), ('stride_cm', 'scalar', 'i32')]
    sizes_time = [{'M': 4096, 'N': 4096, 'K': 4096}, {'M': 16, 'N': 8192, 'K': 8192}, {'M': 1000, 'N': 3000, 'K': 700}]
    sizes_check = sizes_time + [{'M': 999, 'N': 3001, 'K': 701}]
    sizes_sanitize = [{'M': 256, 'N': 384, 'K': 192}, {'M': 200, 'N': 136, 'K': 100}]
    bm, bn, bk = 128, 128, 64
    num_stages = 3
    default_warps = 8

    def variant(self, size):
        return 'd16' if all(size[k] % 16 == 0 for k in 'MNK') else 'odd'

    def shape(self, size):
        return f"{size['M']}x{size['N']}x{size['K']}"

    def constexprs(self, size):
        return {'BLOCK_M': self.bm, 'BLOCK_N': self.bn, 'BLOCK_K': self.bk, 'GROUP_M': 8}

    def make(self, size, gen):
        M, N, K = size['M'], size['N'], size['K']
        b = casekit.randn((K, N), torch.float32, gen, scale=2.0).to(torch.float8_e4m3fn) if casekit.DEVICE != 'meta' \
            else torch.empty((K, N), dtype=torch.float8_e4m3fn, device='meta')
        return {'a': casekit.randn((M, K), torch.float16, gen), 'b': b,
                's': casekit.rand((N,), torch.float32, gen) + 0.5 if casekit.DEVICE != 'meta' else casekit.rand((N,), torch.float32, gen),
                'c': casekit.poisoned((M, N), torch.float16)}

    def args(self, t, size):
        return [t['a'], t['b'], t['s'], t['c'], size['M'], size['N'], size['K'],
                t['a'].stride(0), t['b'].stride(0), t['c'].stride(0)]

    def triton_launch(self, t, size, num_warps=None):
        grid = self.grid(size)
        args = self.args(t, size)
        kw = dict(self.constexprs(size), num_warps=num_warps or self.num_warps(size), num_stages=self.num_stages)
        return lambda: self.kernel[grid](*args, **kw)

    def grid(self, size):
        return (triton.cdiv(size['M'], self.bm) * triton.cdiv(size['N'], self.bn),)

    def reference(self, t, size):
        # e4m3 widens exactly to fp16; the kernel sums in fp32, scales, and rounds once to fp16
        ref = (t['a'].double() @ t['b'].double()) * t['s'].double()[None, :]
        K = size['K']
        return {'c': (ref, 2e-3, 2e-2 * (K ** 0.5) / 16)}

    def bytes_moved(self, size):
        M, N, K = size['M'], size['N'], size['K']
        return 2 * M * K + K * N + 4 * N + 2 * M * N

    def flops(self, size):
        return 2 * size['M'] * size['N'] * size['K']


CASE = MatmulW8()
