"""A tile-by-tile elementwise kernel through TMA tensor descriptors: Y = 2 X + 1 for X of shape M x N,
read and written in BM x BN blocks through host-side `TensorDescriptor`s. It checks the target's box
geometry on every shape of block: one box (f32 32x32: rows of 128 bytes), several boxes across a
row (f16 64x128: two 64-column boxes of 128 bytes) and several down the block (bf16 512x64: two
256-row boxes), on shapes with partial blocks at the right and bottom edges (the copies read zeros
and write nothing past the tensor). Variants are named by dtype. (8-bit blocks would need 8-bit
arithmetic in registers, which the nvptx target does not have.)
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    'f32': {'src': 'bench/gpu/kernels/tma_copy.f32.ttir', 'num_warps': 4},
    'f16': {'src': 'bench/gpu/kernels/tma_copy.f16.ttir', 'num_warps': 4},
    'bf16': {'src': 'bench/gpu/kernels/tma_copy.bf16.ttir', 'num_warps': 4},
}

# dtype name: (torch dtype, block)
CONFIGS = {'f32': (torch.float32, (32, 32)), 'f16': (torch.float16, (64, 128)), 'bf16': (torch.bfloat16, (512, 64))}


@triton.jit
def tma_copy_kernel(x_desc, y_desc, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    x = x_desc.load([pid_m * BM, pid_n * BN])
    y_desc.store([pid_m * BM, pid_n * BN], x * 2 + 1)


class TmaCopy(casekit.Case):
    """Y = 2 X + 1 through TMA, one BM x BN block per program; size keys M, N, dt."""
    kernel = tma_copy_kernel
    outputs = ['y']
    params = [p for d in ('x_desc', 'y_desc')
              for p in [(d, 'tensordesc', 'f32'), (d, 'scalar', 'i32'), (d, 'scalar', 'i32'), (d, 'scalar', 'i64'), (d, 'scalar', 'i64')]]
    sizes_time = [{'M': 8192, 'N': 8192, 'dt': dt} for dt in CONFIGS]
    sizes_check = [{'M': m, 'N': n, 'dt': dt} for dt in CONFIGS for m, n in ((1000, 528), (512, 512), (1536, 272))] + sizes_time
    sizes_sanitize = [{'M': 1000, 'N': 528, 'dt': dt} for dt in CONFIGS]

    def variant(self, size):
        return size['dt']

    def shape(self, size):
        return f"{size['M']}x{size['N']}"

    def params_for(self, size):
        t = casekit.type_name(CONFIGS[size['dt']][0])
        return [(n, k, t if k == 'tensordesc' else ty) for n, k, ty in self.params]

    def constexprs(self, size):
        bm, bn = CONFIGS[size['dt']][1]
        return {'BM': bm, 'BN': bn}

    def make(self, size, gen):
        dt = CONFIGS[size['dt']][0]
        shape = (size['M'], size['N'])
        return {'x': casekit.randn(shape, dt, gen), 'y': casekit.poisoned(shape, dt)}

    def args(self, t, size):
        desc = lambda v: [v, v.shape[0], v.shape[1], v.stride(0), v.stride(1)]  # noqa: E731
        return desc(t['x']) + desc(t['y'])

    def triton_args(self, t, size):
        from triton.tools.tensor_descriptor import TensorDescriptor
        block = list(CONFIGS[size['dt']][1])
        return [TensorDescriptor.from_tensor(t['x'], block), TensorDescriptor.from_tensor(t['y'], block)]

    def grid(self, size):
        bm, bn = CONFIGS[size['dt']][1]
        return (triton.cdiv(size['M'], bm), triton.cdiv(size['N'], bn))

    def reference(self, t, size):
        x = t['x'].double()
        # 2 x is exact: one rounding of 2 x + 1 to the element type, which the kernel must match
        # exactly (the bound is 1e-12 rather than 0, which the comparison would divide by)
        return {'y': ((x * 2 + 1).to(t['x'].dtype).double(), 0.0, 1e-12)}

    def bytes_moved(self, size):
        return 2 * size['M'] * size['N'] * CONFIGS[size['dt']][0].itemsize


CASE = TmaCopy()
