"""The fp16 matmul of bench/gpu/matmul.py from Triton's own sm_80 TTGIR (its layouts, swizzled shared
buffers and cp.async pipelining, examples/ttir/matmul_kernel.sm80.ttgir) through our NVPTX target
only: separates the target's quality from our passes'. Divisible shapes only (the TTGIR's specialization).
The `sm90` variant is Triton's sm_90 TTGIR of the same kernel (examples/ttir/matmul_kernel.sm90.ttgir:
warp-group dots on nvmma_shared tiles, cp.async pipelining with one wgmma group in flight).
"""
from matmul import Matmul

BUILDS = {
    'sm80': {'src': 'examples/ttir/matmul_kernel.sm80.ttgir', 'num_warps': 8},
    'sm90': {'src': 'examples/ttir/matmul_kernel.sm90.ttgir', 'num_warps': 8},
}


class MatmulTtgir(Matmul):
    """Matmul from Triton's TTGIR."""
    dump_ttir = False
    race_suffix = ''  # no build without insert-barriers: the TTGIR is lowered as it is
    sizes_time = [{'M': 4096, 'N': 4096, 'K': 4096}, {'M': 4096, 'N': 4096, 'K': 4096, 'v': 'sm90'},
                  {'M': 8192, 'N': 8192, 'K': 8192, 'v': 'sm90'}]
    sizes_check = sizes_time + [{'M': 512, 'N': 768, 'K': 320}, {'M': 512, 'N': 768, 'K': 320, 'v': 'sm90'}]
    sizes_sanitize = [{'M': 256, 'N': 512, 'K': 192}, {'M': 256, 'N': 512, 'K': 192, 'v': 'sm90'}]

    def variant(self, size):
        return size.get('v', 'sm80')


CASE = MatmulTtgir()
