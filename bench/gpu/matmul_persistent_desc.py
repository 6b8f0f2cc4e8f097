"""Persistent fp16/bf16 matmul through tensor descriptors made in the kernel: Triton's tutorial 09
`matmul_kernel_descriptor_persistent` (without loop flattening, warp specialization or epilogue
subtiling): one program per SM walks the output tiles (`tl.range(start_pid, num_tiles, NUM_SMS)`),
each tile's K loop loads A and B by TMA, C is stored by TMA. B is stored N x K (`tl.dot(a, b.T)`).
BLOCK 128x256x64, GROUP_SIZE_M 8, 8 warps, 3 stages.
"""
import torch
import triton
import triton.language as tl

import casekit
from matmul_desc import triton_scratch
from grouped_matmul_desc import num_sms

BUILDS = {
    'f16': {'src': 'bench/gpu/kernels/matmul_persistent_desc.f16.ttir', 'num_warps': 8},
    'bf16': {'src': 'bench/gpu/kernels/matmul_persistent_desc.bf16.ttir', 'num_warps': 8},
}


@triton.jit
def _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M: tl.constexpr):
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + (tile_id % group_size_m)
    pid_n = (tile_id % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def matmul_kernel_descriptor_persistent(a_ptr, b_ptr, c_ptr, M, N, K,
                                        BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                                        BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
                                        NUM_SMS: tl.constexpr):
    dtype = c_ptr.dtype.element_ty
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    num_tiles = num_pid_m * num_pid_n
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BLOCK_SIZE_N, BLOCK_SIZE_K])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_N])
    tile_id_c = start_pid - NUM_SMS
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS):
        pid_m, pid_n = _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M)
        offs_am = pid_m * BLOCK_SIZE_M
        offs_bn = pid_n * BLOCK_SIZE_N
        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for ki in range(k_tiles):
            offs_k = ki * BLOCK_SIZE_K
            a = a_desc.load([offs_am, offs_k])
            b = b_desc.load([offs_bn, offs_k])
            accumulator = tl.dot(a, b.T, accumulator)
        tile_id_c += NUM_SMS
        pid_m, pid_n = _compute_pid(tile_id_c, num_pid_in_group, num_pid_m, GROUP_SIZE_M)
        offs_cm = pid_m * BLOCK_SIZE_M
        offs_cn = pid_n * BLOCK_SIZE_N
        c = accumulator.to(dtype)
        c_desc.store([offs_cm, offs_cn], c)


class MatmulPersistentDesc(casekit.Case):
    """C[M, N] = A[M, K] @ B[N, K]^T in fp16/bf16, fp32 accumulation, a persistent grid of one program per SM."""
    kernel = matmul_kernel_descriptor_persistent
    outputs = ['c']
    params = [('a_ptr', 'pointer', 'f16'), ('b_ptr', 'pointer', 'f16'), ('c_ptr', 'pointer', 'f16'),
              ('M', 'scalar', 'i32'), ('N', 'scalar', 'i32'), ('K', 'scalar', 'i32')]
    sizes_time = [{'M': 4096, 'N': 4096, 'K': 4096}, {'M': 8192, 'N': 8192, 'K': 8192}, {'M': 1040, 'N': 3008, 'K': 720}]
    sizes_time = sizes_time + [dict(s, dt='bf16') for s in sizes_time]
    sizes_check = sizes_time + [{'M': 512, 'N': 768, 'K': 320}, {'M': 208, 'N': 272, 'K': 80, 'dt': 'bf16'}]
    sizes_sanitize = [{'M': 256, 'N': 512, 'K': 192}]
    bm, bn, bk = 128, 256, 64
    num_stages = 3

    def variant(self, size):
        return 'bf16' if size.get('dt') == 'bf16' else 'f16'

    def dtype(self, size):
        return torch.bfloat16 if size.get('dt') == 'bf16' else torch.float16

    def params_for(self, size):
        t = self.variant(size)
        return [(n, k, t if k == 'pointer' else ty) for n, k, ty in self.params]

    def shape(self, size):
        return f"{size['M']}x{size['N']}x{size['K']}"

    def constexprs(self, size):
        return {'BLOCK_SIZE_M': self.bm, 'BLOCK_SIZE_N': self.bn, 'BLOCK_SIZE_K': self.bk, 'GROUP_SIZE_M': 8, 'NUM_SMS': num_sms()}

    def make(self, size, gen):
        M, N, K = size['M'], size['N'], size['K']
        dt = self.dtype(size)
        return {'a': casekit.randn((M, K), dt, gen), 'b': casekit.randn((N, K), dt, gen), 'c': casekit.poisoned((M, N), dt)}

    def args(self, t, size):
        return [t['a'], t['b'], t['c'], size['M'], size['N'], size['K']]

    def grid(self, size):
        tiles = triton.cdiv(size['M'], self.bm) * triton.cdiv(size['N'], self.bn)
        return (min(num_sms(), tiles),)

    def triton_launch(self, t, size, num_warps=None):
        triton.set_allocator(triton_scratch)
        grid = self.grid(size)
        args = self.args(t, size)
        kw = dict(self.constexprs(size), num_warps=num_warps or self.num_warps(size), num_stages=self.num_stages)
        return lambda: self.kernel[grid](*args, **kw)

    def baselines(self, t, size):
        """cuBLAS on the same inputs (torch.matmul into a preallocated output)."""
        out = torch.empty_like(t['c'])
        a, bt = t['a'], t['b'].T
        return {'cublas': lambda: torch.matmul(a, bt, out=out)}

    def reference(self, t, size):
        ref = t['a'].double() @ t['b'].double().T
        tol = 8e-3 if size.get('dt') == 'bf16' else 2e-3
        return {'c': (ref, tol, 1e-2 * (size['K'] ** 0.5) / 16)}

    def bytes_moved(self, size):
        M, N, K = size['M'], size['N'], size['K']
        return 2 * (M * K + K * N + M * N)

    def flops(self, size):
        return 2 * size['M'] * size['N'] * size['K']


CASE = MatmulPersistentDesc()
