"""int8 matmul (C = A @ B, int32 accumulation and output): Triton's tutorial 03 kernel on int8 inputs,
BLOCK 128x256x128, GROUP_SIZE_M 8, 8 warps, 3 stages. In `d16` B is stored N x K (K contiguous) and
passed as its transpose, as the tutorial passes fp8's B: Hopper's 8-bit wgmma (`.s32.s8.s8`) reads
only K-major tiles. In `kn.d16` (size key `b` = 'kn') B is stored K x N, rows contiguous, as one
writes a matmul: its tiles must be turned around (K-major) before the tensor cores read them.
The products are exact in int32 (|C| <= K * 128^2 < 2^31 for K <= 131072), so the check is exact.
"""
import triton
import triton.language as tl
import torch

import casekit
from matmul import Matmul

BUILDS = {
    'd16': {'src': 'bench/gpu/kernels/matmul_i8.d16.ttir', 'num_warps': 8},
    'kn.d16': {'src': 'bench/gpu/kernels/matmul_i8.kn.d16.ttir', 'num_warps': 8},
}


@triton.jit
def matmul_i8_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                     BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                     GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.int32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0)
        accumulator = tl.dot(a, b, accumulator, out_dtype=tl.int32)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, accumulator, mask=c_mask)


class MatmulI8(Matmul):
    """C[M, N] = A[M, K] @ B[K, N] in int8 with int32 accumulation; one program per 128x256 tile of C
    (the fp16 case's launch, grid and shapes; its own kernel, inputs and check)."""
    kernel = matmul_i8_kernel
    outputs = ['c']
    # B is passed K-contiguous: the kernel takes its N stride (its K stride, 1, is specialized away).
    params = [('a_ptr', 'pointer', 'i8'), ('b_ptr', 'pointer', 'i8'), ('c_ptr', 'pointer', 'i32'),
              ('M', 'scalar', 'i32'), ('N', 'scalar', 'i32'), ('K', 'scalar', 'i32'),
              ('stride_am', 'scalar', 'i32'), ('stride_bn', 'scalar', 'i32'), ('stride_cm', 'scalar', 'i32')]
    sizes_time = [{'M': 4096, 'N': 4096, 'K': 4096}, {'M': 8192, 'N': 8192, 'K': 8192}]
    sizes_time = sizes_time + [dict(s, b='kn') for s in sizes_time]
    sizes_check = sizes_time + [{'M': 512, 'N': 768, 'K': 384}, {'M': 1040, 'N': 3008, 'K': 720},
                                {'M': 512, 'N': 768, 'K': 384, 'b': 'kn'}, {'M': 1040, 'N': 3008, 'K': 720, 'b': 'kn'}]
    sizes_sanitize = [{'M': 256, 'N': 512, 'K': 256}, {'M': 256, 'N': 512, 'K': 256, 'b': 'kn'}]
    bk = 128
    race_suffix = ''

    def variant(self, size):
        return 'kn.d16' if size.get('b') == 'kn' else 'd16'

    def k_major_b(self, size):
        return size.get('b') != 'kn'

    def params_for(self, size):
        if self.k_major_b(size):
            return self.params
        # B stored K x N: the kernel takes its K stride (its N stride, 1, is specialized away)
        return [p if p[0] != 'stride_bn' else ('stride_bk', 'scalar', 'i32') for p in self.params]

    def shape(self, size):
        return super().shape(size) + (' kn' if size.get('b') == 'kn' else '')

    def make(self, size, gen):
        M, N, K = size['M'], size['N'], size['K']
        b = casekit.randint((N, K), -128, 128, torch.int8, gen).t() if self.k_major_b(size) else casekit.randint((K, N), -128, 128, torch.int8, gen)
        return {'a': casekit.randint((M, K), -128, 128, torch.int8, gen), 'b': b, 'c': casekit.poisoned((M, N), torch.int32)}

    def args(self, t, size):
        b_stride = t['b'].stride(1) if self.k_major_b(size) else t['b'].stride(0)
        return [t['a'], t['b'], t['c'], size['M'], size['N'], size['K'], t['a'].stride(0), b_stride, t['c'].stride(0)]

    def baselines(self, t, size):
        """cuBLAS's int8 product (torch._int_mm, int32 out) on the same inputs, where torch takes them."""
        try:
            torch._int_mm(t['a'], t['b'])
        except RuntimeError:
            return {}
        return {'cublas': lambda: torch._int_mm(t['a'], t['b'])}

    def reference(self, t, size):
        # int8 products and their sums are exact in float64 (|C| < 2^31 here)
        return {'c': (t['a'].double() @ t['b'].double(), 0.0, 0.5)}

    def bytes_moved(self, size):
        M, N, K = size['M'], size['N'], size['K']
        return M * K + K * N + 4 * M * N


CASE = MatmulI8()
