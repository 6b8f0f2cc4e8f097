"""fp16/bf16 matmul through TMA tensor descriptors (C = A @ B, fp32 accumulation): the tutorial-03
kernel written with host-side `TensorDescriptor`s (Triton's tutorial-09 form, non-persistent),
BLOCK 128x256x64, GROUP_SIZE_M 8, 8 warps, 3 stages. A is M x K and B is K x N, both row-major (the
same inputs as the `matmul` case), C is M x N.

The descriptors' shapes bound every block: loads past M, N or K read zeros and stores past M or N
write nothing, so one TTIR serves every shape whose row strides are 16-byte aligned (TMA's rule).
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    'f16': {'src': 'bench/gpu/kernels/matmul_tma.f16.ttir', 'num_warps': 8},
    'bf16': {'src': 'bench/gpu/kernels/matmul_tma.bf16.ttir', 'num_warps': 8},
}


@triton.jit
def matmul_tma_kernel(a_desc, b_desc, c_desc, M, N, K,
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
    offs_am = pid_m * BLOCK_SIZE_M
    offs_bn = pid_n * BLOCK_SIZE_N
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        offs_k = k * BLOCK_SIZE_K
        a = a_desc.load([offs_am, offs_k])
        b = b_desc.load([offs_k, offs_bn])
        accumulator = tl.dot(a, b, accumulator)
    c = accumulator.to(c_desc.dtype)
    c_desc.store([offs_am, offs_bn], c)


class MatmulTma(casekit.Case):
    """C[M, N] = A[M, K] @ B[K, N] in fp16/bf16 with fp32 accumulation, loads and stores through TMA."""
    kernel = matmul_tma_kernel
    outputs = ['c']
    # A tensor descriptor parameter, as Triton passes a host-side TensorDescriptor: the 128-byte
    # CUtensorMap (the runner encodes it from the tensor with the box and swizzle of the metadata),
    # then the tensor's shape (i32 each) and strides (i64 each).
    params = [p for d in ('a_desc', 'b_desc', 'c_desc')
              for p in [(d, 'tensordesc', 'f16'), (d, 'scalar', 'i32'), (d, 'scalar', 'i32'), (d, 'scalar', 'i64'), (d, 'scalar', 'i64')]]
    params += [('M', 'scalar', 'i32'), ('N', 'scalar', 'i32'), ('K', 'scalar', 'i32')]
    sizes_time = [{'M': 4096, 'N': 4096, 'K': 4096}, {'M': 8192, 'N': 8192, 'K': 8192},
                  {'M': 1040, 'N': 3008, 'K': 720}]
    sizes_time = sizes_time + [dict(s, dt='bf16') for s in sizes_time]
    # TMA bounds every block by the tensor: 208 x 272 x 80 has partial blocks along M, N and K.
    sizes_check = sizes_time + [{'M': 512, 'N': 768, 'K': 320}, {'M': 208, 'N': 272, 'K': 80, 'dt': 'bf16'}]
    sizes_sanitize = [{'M': 256, 'N': 512, 'K': 192}, {'M': 208, 'N': 272, 'K': 80, 'dt': 'bf16'}]
    bm, bn, bk = 128, 256, 64
    num_stages = 3

    def variant(self, size):
        return 'bf16' if size.get('dt') == 'bf16' else 'f16'

    def dtype(self, size):
        return torch.bfloat16 if size.get('dt') == 'bf16' else torch.float16

    def params_for(self, size):
        t = 'bf16' if size.get('dt') == 'bf16' else 'f16'
        return [(n, k, t if k == 'tensordesc' else ty) for n, k, ty in self.params]

    def shape(self, size):
        return f"{size['M']}x{size['N']}x{size['K']}"

    def constexprs(self, size):
        return {'BLOCK_SIZE_M': self.bm, 'BLOCK_SIZE_N': self.bn, 'BLOCK_SIZE_K': self.bk, 'GROUP_SIZE_M': 8}

    def make(self, size, gen):
        M, N, K = size['M'], size['N'], size['K']
        dt = self.dtype(size)
        return {'a': casekit.randn((M, K), dt, gen), 'b': casekit.randn((K, N), dt, gen),
                'c': casekit.poisoned((M, N), dt)}

    def blocks(self):
        """The block shape of each descriptor parameter, in order."""
        return [[self.bm, self.bk], [self.bk, self.bn], [self.bm, self.bn]]

    def args(self, t, size):
        desc = lambda x: [x, x.shape[0], x.shape[1], x.stride(0), x.stride(1)]  # noqa: E731
        return desc(t['a']) + desc(t['b']) + desc(t['c']) + [size['M'], size['N'], size['K']]

    def triton_args(self, t, size):
        from triton.tools.tensor_descriptor import TensorDescriptor
        a, b, c = t['a'], t['b'], t['c']
        return [TensorDescriptor.from_tensor(a, [self.bm, self.bk]), TensorDescriptor.from_tensor(b, [self.bk, self.bn]),
                TensorDescriptor.from_tensor(c, [self.bm, self.bn]), size['M'], size['N'], size['K']]

    def triton_launch(self, t, size, num_warps=None):
        grid = self.grid(size)
        args = self.triton_args(t, size)
        kw = dict(self.constexprs(size), num_warps=num_warps or self.num_warps(size), num_stages=self.num_stages)
        return lambda: self.kernel[grid](*args, **kw)

    def baselines(self, t, size):
        """cuBLAS on the same inputs (torch.matmul into a preallocated output)."""
        out = torch.empty_like(t['c'])
        a, b = t['a'], t['b']
        return {'cublas': lambda: torch.matmul(a, b, out=out)}

    def grid(self, size):
        return (triton.cdiv(size['M'], self.bm) * triton.cdiv(size['N'], self.bn),)

    def reference(self, t, size):
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


CASE = MatmulTma()
