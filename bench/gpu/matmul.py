"""fp16 matmul (C = A @ B, fp32 accumulation, fp16 out): Triton's tutorial 03 kernel with
BLOCK 128x256x64, GROUP_SIZE_M 8, 8 warps, 3 stages (the config of examples/ttir/matmul_kernel.*).

Triton specializes M, N, K and the row strides on divisibility by 16: 4096^3 and 8192^3 share the
`d16` TTIR, 1000x3000x700 (and the small sanitizer shape) the `odd` one. The `bf16.*` variants are
the same kernel on bf16 inputs (its output is rounded to fp16 and stored to a bf16 tensor, as the
tutorial kernel does). The `ttgir80` variant is
Triton's own sm_80 TTGIR (its layouts, shared buffers and pipelining) through our NVPTX target only.
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    'd16': {'src': 'bench/gpu/kernels/matmul.d16.ttir', 'num_warps': 8},
    'odd': {'src': 'bench/gpu/kernels/matmul.odd.ttir', 'num_warps': 8},
    'd16_nobar': {'src': 'bench/gpu/kernels/matmul.d16.ttir', 'flags': ['--without-pass=insert-barriers'], 'num_warps': 8},
    'odd_nobar': {'src': 'bench/gpu/kernels/matmul.odd.ttir', 'flags': ['--without-pass=insert-barriers'], 'num_warps': 8},
    'bf16.d16': {'src': 'bench/gpu/kernels/matmul.bf16.d16.ttir', 'num_warps': 8},
    'bf16.odd': {'src': 'bench/gpu/kernels/matmul.bf16.odd.ttir', 'num_warps': 8},
    'bf16.d16_nobar': {'src': 'bench/gpu/kernels/matmul.bf16.d16.ttir', 'flags': ['--without-pass=insert-barriers'], 'num_warps': 8},
}


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
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
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    c = accumulator.to(tl.float16)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


class Matmul(casekit.Case):
    """C[M, N] = A[M, K] @ B[K, N] in fp16 with fp32 accumulation; one program per 128x256 tile of C."""
    kernel = matmul_kernel
    outputs = ['c']
    params = [('a_ptr', 'pointer', 'f16'), ('b_ptr', 'pointer', 'f16'), ('c_ptr', 'pointer', 'f16'),
              ('M', 'scalar', 'i32'), ('N', 'scalar', 'i32'), ('K', 'scalar', 'i32'),
              ('stride_am', 'scalar', 'i32'), ('stride_bk', 'scalar', 'i32'), ('stride_cm', 'scalar', 'i32')]
    sizes_time = [{'M': 4096, 'N': 4096, 'K': 4096}, {'M': 8192, 'N': 8192, 'K': 8192},
                  {'M': 1000, 'N': 3000, 'K': 700}]
    sizes_time = sizes_time + [dict(s, dt='bf16') for s in sizes_time]
    sizes_check = sizes_time + [{'M': 512, 'N': 768, 'K': 320}, {'M': 512, 'N': 768, 'K': 320, 'dt': 'bf16'}]
    sizes_sanitize = [{'M': 256, 'N': 512, 'K': 192}, {'M': 100, 'N': 300, 'K': 70}, {'M': 256, 'N': 512, 'K': 192, 'dt': 'bf16'}]
    bm, bn, bk = 128, 256, 64
    num_stages = 3
    # Variants built without insert-barriers: racecheck must report hazards on them.
    race_suffix = '_nobar'

    def variant(self, size):
        v = 'd16' if all(size[k] % 16 == 0 for k in 'MNK') else 'odd'
        return f'bf16.{v}' if size.get('dt') == 'bf16' else v

    def dtype(self, size):
        return torch.bfloat16 if size.get('dt') == 'bf16' else torch.float16

    def params_for(self, size):
        t = 'bf16' if size.get('dt') == 'bf16' else 'f16'
        return [(n, k, t if k == 'pointer' else ty) for n, k, ty in self.params]

    def shape(self, size):
        return f"{size['M']}x{size['N']}x{size['K']}"

    def constexprs(self, size):
        return {'BLOCK_SIZE_M': self.bm, 'BLOCK_SIZE_N': self.bn, 'BLOCK_SIZE_K': self.bk, 'GROUP_SIZE_M': 8}

    def make(self, size, gen):
        M, N, K = size['M'], size['N'], size['K']
        dt = self.dtype(size)
        return {'a': casekit.randn((M, K), dt, gen), 'b': casekit.randn((K, N), dt, gen),
                'c': casekit.poisoned((M, N), dt)}

    def args(self, t, size):
        return [t['a'], t['b'], t['c'], size['M'], size['N'], size['K'],
                t['a'].stride(0), t['b'].stride(0), t['c'].stride(0)]

    def triton_args(self, t, size):
        a, b, c = t['a'], t['b'], t['c']
        return [a, b, c, size['M'], size['N'], size['K'], a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                c.stride(0), c.stride(1)]

    def triton_launch(self, t, size, num_warps=None):
        grid = self.grid(size)
        args = self.triton_args(t, size)
        kw = dict(self.constexprs(size), num_warps=num_warps or self.num_warps(size), num_stages=self.num_stages)
        return lambda: self.kernel[grid](*args, **kw)

    def baselines(self, t, size):
        """cuBLAS on the same inputs (torch.matmul into a preallocated output of the same dtype)."""
        out = torch.empty_like(t['c'])
        a, b = t['a'], t['b']
        return {'cublas': lambda: torch.matmul(a, b, out=out)}

    def grid(self, size):
        return (triton.cdiv(size['M'], self.bm) * triton.cdiv(size['N'], self.bn),)

    def reference(self, t, size):
        # fp16/bf16 inputs are exact in fp64; the kernel sums in fp32 and rounds once to fp16 (then,
        # for bf16 outputs, to bf16: 8 mantissa bits, a relative error up to 2^-8).
        ref = t['a'].double() @ t['b'].double()
        K = size['K']
        if size.get('dt') == 'bf16':
            return {'c': (ref, 8e-3, 1e-2 * (K ** 0.5) / 16)}
        return {'c': (ref, 2e-3, 1e-2 * (K ** 0.5) / 16)}

    def bytes_moved(self, size):
        M, N, K = size['M'], size['N'], size['K']
        return 2 * (M * K + K * N + M * N)

    def flops(self, size):
        return 2 * size['M'] * size['N'] * size['K']


CASE = Matmul()
