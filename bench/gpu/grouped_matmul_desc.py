"""Grouped GEMM through tensor descriptors made in the kernel: Triton's tutorial 08
(`grouped_matmul_tma_kernel`, fp16). A persistent kernel (one program per SM) walks the tiles of a
group of GEMMs of different shapes: for each GEMM it loads the sizes, leading dimensions and the
pointers of A, B and C from device arrays (`tl.load(...).to(tl.pointer_type(...))`), makes three
descriptors from them (written on the device: a pointer loaded from memory is not a kernel
parameter), and computes its tiles in a `while` loop, K by TMA copies, C stored by TMA. B is stored
N x K (`tl.dot(a, b.T)`). BLOCK 128x128x64, 4 warps.
"""
import torch
import triton
import triton.language as tl

import casekit
from matmul_desc import triton_scratch

BUILDS = {
    'f16': {'src': 'bench/gpu/kernels/grouped_matmul_desc.f16.ttir', 'num_warps': 4},
}

BLOCK_M, BLOCK_N, BLOCK_K = 128, 128, 64


@triton.jit
def grouped_matmul_tma_kernel(group_a_ptrs, group_b_ptrs, group_c_ptrs, group_gemm_sizes, g_lds, group_size,
                              NUM_SM: tl.constexpr, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                              BLOCK_SIZE_K: tl.constexpr):
    dtype = tl.float16
    tile_idx = tl.program_id(0)
    last_problem_end = 0
    for g in range(group_size):
        gm = tl.load(group_gemm_sizes + g * 3)
        gn = tl.load(group_gemm_sizes + g * 3 + 1)
        gk = tl.load(group_gemm_sizes + g * 3 + 2)
        num_m_tiles = tl.cdiv(gm, BLOCK_SIZE_M)
        num_n_tiles = tl.cdiv(gn, BLOCK_SIZE_N)
        num_tiles = num_m_tiles * num_n_tiles
        if tile_idx >= last_problem_end and tile_idx < last_problem_end + num_tiles:
            lda = tl.load(g_lds + g * 3)
            ldb = tl.load(g_lds + g * 3 + 1)
            ldc = tl.load(g_lds + g * 3 + 2)
            a_ptr = tl.load(group_a_ptrs + g).to(tl.pointer_type(dtype))
            b_ptr = tl.load(group_b_ptrs + g).to(tl.pointer_type(dtype))
            c_ptr = tl.load(group_c_ptrs + g).to(tl.pointer_type(dtype))
            a_desc = tl.make_tensor_descriptor(a_ptr, shape=[gm, gk], strides=[lda, 1], block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K])
            b_desc = tl.make_tensor_descriptor(b_ptr, shape=[gn, gk], strides=[ldb, 1], block_shape=[BLOCK_SIZE_N, BLOCK_SIZE_K])
            c_desc = tl.make_tensor_descriptor(c_ptr, shape=[gm, gn], strides=[ldc, 1], block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_N])
            while (tile_idx >= last_problem_end and tile_idx < last_problem_end + num_tiles):
                k = gk
                tile_idx_in_gemm = tile_idx - last_problem_end
                tile_m_idx = tile_idx_in_gemm // num_n_tiles
                tile_n_idx = tile_idx_in_gemm % num_n_tiles
                offs_am = tile_m_idx * BLOCK_SIZE_M
                offs_bn = tile_n_idx * BLOCK_SIZE_N
                accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
                for kk in range(0, tl.cdiv(k, BLOCK_SIZE_K)):
                    a = a_desc.load([offs_am, kk * BLOCK_SIZE_K])
                    b = b_desc.load([offs_bn, kk * BLOCK_SIZE_K])
                    accumulator += tl.dot(a, b.T)
                offs_cm = tile_m_idx * BLOCK_SIZE_M
                offs_cn = tile_n_idx * BLOCK_SIZE_N
                c = accumulator.to(dtype)
                c_desc.store([offs_cm, offs_cn], c)
                tile_idx += NUM_SM
        last_problem_end = last_problem_end + num_tiles


def num_sms():
    """The GPU's SM count (the persistent grid); 132 for the offline dump."""
    return torch.cuda.get_device_properties(0).multi_processor_count if casekit.DEVICE == 'cuda' else 132


class GroupedMatmulDesc(casekit.Case):
    """C_g = A_g @ B_g^T for a group of GEMMs of different shapes (B_g stored N x K), fp16, fp32 accumulation."""
    kernel = grouped_matmul_tma_kernel
    outputs = ['c0', 'c1', 'c2', 'c3']
    params = [('group_a_ptrs', 'pointer', 'i64'), ('group_b_ptrs', 'pointer', 'i64'), ('group_c_ptrs', 'pointer', 'i64'),
              ('group_gemm_sizes', 'pointer', 'i32'), ('g_lds', 'pointer', 'i32'), ('group_size', 'scalar', 'i32')]
    # four GEMMs of each size: (M, N, K), (M/2, 2N, K), (M + 128, N - 128, K/2 + 64), (M/4, N/4, 2K)
    sizes_time = [{'M': 1024, 'N': 1024, 'K': 1024}, {'M': 4096, 'N': 4096, 'K': 4096}, {'M': 2048, 'N': 1024, 'K': 8192}]
    # every row stride a multiple of 8 elements (TMA's 16 bytes); odd M
    sizes_check = [{'M': 512, 'N': 384, 'K': 320}, {'M': 1000, 'N': 800, 'K': 272}] + sizes_time
    sizes_sanitize = [{'M': 256, 'N': 256, 'K': 128}]
    num_stages = 3

    @staticmethod
    def shapes(size):
        M, N, K = size['M'], size['N'], size['K']
        return [(M, N, K), (M // 2, 2 * N, K), (M + 128, N - 128, K // 2 + 64), (M // 4, N // 4, 2 * K)]

    def variant(self, size):
        return 'f16'

    def shape(self, size):
        return 'group ' + ' '.join(f'{m}x{n}x{k}' for m, n, k in self.shapes(size))

    def constexprs(self, size):
        return {'NUM_SM': num_sms(), 'BLOCK_SIZE_M': BLOCK_M, 'BLOCK_SIZE_N': BLOCK_N, 'BLOCK_SIZE_K': BLOCK_K}

    def make(self, size, gen):
        f16 = torch.float16
        t = {}
        for g, (m, n, k) in enumerate(self.shapes(size)):
            t[f'a{g}'] = casekit.randn((m, k), f16, gen)
            t[f'b{g}'] = casekit.randn((n, k), f16, gen)
            t[f'c{g}'] = casekit.poisoned((m, n), f16)
        groups = range(len(self.shapes(size)))
        ptrs = lambda x: torch.tensor([t[f'{x}{g}'].data_ptr() for g in groups], dtype=torch.int64, device=casekit.DEVICE)  # noqa: E731
        if casekit.DEVICE == 'meta':
            ptrs = lambda x: torch.empty(len(groups), dtype=torch.int64, device='meta')  # noqa: E731
        t['a_ptrs'], t['b_ptrs'], t['c_ptrs'] = ptrs('a'), ptrs('b'), ptrs('c')
        sizes = [v for shape in self.shapes(size) for v in shape]
        lds = [v for m, n, k in self.shapes(size) for v in (k, k, n)]
        t['sizes'] = torch.tensor(sizes, dtype=torch.int32, device=casekit.DEVICE)
        t['lds'] = torch.tensor(lds, dtype=torch.int32, device=casekit.DEVICE)
        return t

    def args(self, t, size):
        return [t['a_ptrs'], t['b_ptrs'], t['c_ptrs'], t['sizes'], t['lds'], len(self.shapes(size))]

    def grid(self, size):
        return (num_sms(),)

    def triton_launch(self, t, size, num_warps=None):
        triton.set_allocator(triton_scratch)
        grid = self.grid(size)
        args = self.args(t, size)
        kw = dict(self.constexprs(size), num_warps=num_warps or self.num_warps(size), num_stages=self.num_stages)
        return lambda: self.kernel[grid](*args, **kw)

    def reference(self, t, size):
        out = {}
        for g, (m, n, k) in enumerate(self.shapes(size)):
            out[f'c{g}'] = (t[f'a{g}'].double() @ t[f'b{g}'].double().T, 2e-3, 1e-2 * (k ** 0.5) / 16)
        return out

    def bytes_moved(self, size):
        return sum(2 * (m * k + n * k + m * n) for m, n, k in self.shapes(size))

    def flops(self, size):
        return sum(2 * m * n * k for m, n, k in self.shapes(size))


CASE = GroupedMatmulDesc()
