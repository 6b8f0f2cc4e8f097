"""fp8 matmul with B stored K x N (rows contiguous), as one writes a matmul: the `matmul` case's
tutorial 03 kernel and fp8 configuration (e4m3 inputs, fp32 accumulation, fp16 out, BLOCK
128x256x128, 8 warps, 3 stages), but B not passed transposed. Hopper's 8-bit wgmma reads K-major
tiles only, so B's tiles must be turned around before the tensor cores read them (Triton does it in
registers; so do we since 2026-11-29).
"""
import torch

import casekit
from matmul import Matmul, matmul_kernel

BUILDS = {
    'd16': {'src': 'bench/gpu/kernels/matmul_fp8kn.d16.ttir', 'num_warps': 8},
}


class MatmulFp8Kn(Matmul):
    """C[M, N] = A[M, K] @ B[K, N] on e4m3 inputs, B row-major; fp32 accumulation, fp16 out."""
    kernel = matmul_kernel
    sizes_time = [{'M': 4096, 'N': 4096, 'K': 4096}, {'M': 8192, 'N': 8192, 'K': 8192}]
    sizes_check = sizes_time + [{'M': 512, 'N': 768, 'K': 384}]
    sizes_sanitize = [{'M': 256, 'N': 512, 'K': 256}]
    race_suffix = ''

    def variant(self, size):
        return 'd16'

    def dtype(self, size):
        return torch.float8_e4m3fn

    def out_dtype(self, size):
        return torch.float16

    def k_major_b(self, size):
        return False

    def params_for(self, size):
        p = [(n, k, 'f8E4M3FN' if k == 'pointer' else ty) for n, k, ty in self.params]
        p[2] = ('c_ptr', 'pointer', 'f16')
        return p

    def constexprs(self, size):
        return dict(super().constexprs(size), BLOCK_SIZE_K=128)

    def baselines(self, t, size):
        # torch._scaled_mm takes a column-major B only
        return {}

    def reference(self, t, size):
        return super().reference(t, dict(size, dt='fp8'))

    def bytes_moved(self, size):
        M, N, K = size['M'], size['N'], size['K']
        return M * K + K * N + 2 * M * N


CASE = MatmulFp8Kn()
