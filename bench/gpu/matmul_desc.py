"""fp16/bf16 matmul through tensor descriptors made on the device (C = A @ B, fp32 accumulation): the
`matmul_tma` kernel with `tl.make_tensor_descriptor` in the kernel instead of host-side
`TensorDescriptor`s (Triton's tutorial-09 descriptor form, non-persistent). BLOCK 128x256x64,
GROUP_SIZE_M 8, 8 warps, 3 stages; the same inputs, sizes and references as `matmul_tma`.

Each program writes its three tensor maps into its global scratch (Triton's allocator there, the
runner's for ours) before the loop; the copies then read them as they read host-side ones.
"""
import triton
import triton.language as tl
import torch

import casekit
from matmul_tma import MatmulTma

BUILDS = {
    'f16': {'src': 'bench/gpu/kernels/matmul_desc.f16.ttir', 'num_warps': 8},
    'bf16': {'src': 'bench/gpu/kernels/matmul_desc.bf16.ttir', 'num_warps': 8},
}


@triton.jit
def matmul_desc_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                       BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                       GROUP_SIZE_M: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BLOCK_SIZE_K, BLOCK_SIZE_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_N])
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


def triton_scratch(size, alignment, stream):
    """Triton's global scratch for kernels that make descriptors (`triton.set_allocator`)."""
    return torch.empty(size, dtype=torch.int8, device='cuda')


class MatmulDesc(MatmulTma):
    """C[M, N] = A[M, K] @ B[K, N] in fp16/bf16, through descriptors the kernel makes from pointers."""
    kernel = matmul_desc_kernel
    # the hidden global scratch (the runner allocates it per launch) follows the six parameters
    params = [('a_ptr', 'pointer', 'f16'), ('b_ptr', 'pointer', 'f16'), ('c_ptr', 'pointer', 'f16'),
              ('M', 'scalar', 'i32'), ('N', 'scalar', 'i32'), ('K', 'scalar', 'i32')]

    def params_for(self, size):
        t = 'bf16' if size.get('dt') == 'bf16' else 'f16'
        return [(n, k, t if k == 'pointer' else ty) for n, k, ty in self.params]

    def blocks(self):
        """No descriptor parameters: the kernel makes its descriptors."""
        return []

    def args(self, t, size):
        return [t['a'], t['b'], t['c'], size['M'], size['N'], size['K']]

    def triton_args(self, t, size):
        return self.args(t, size)

    def triton_launch(self, t, size, num_warps=None):
        triton.set_allocator(triton_scratch)
        return super().triton_launch(t, size, num_warps)


CASE = MatmulDesc()
