"""Reductions into a tensor through TMA descriptors (`desc.atomic_add`, `desc.atomic_max`): each
program loads its BM x BN block of X and reduces it into the same block of Y, and REPEATS programs
do so for every block (a third grid axis), so Y = Y0 + REPEATS * X (f32 add) or max(Y0, X) (i32 max)
only if every reduction lands. Host-side `TensorDescriptor`s, 4 warps, 64 x 64 blocks; shapes with
partial blocks at the edges (the reductions past the tensor write nothing). Y starts from Y0 before
each check (ours and Triton's).
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    'add_f32': {'src': 'bench/gpu/kernels/tma_reduce.add_f32.ttir', 'num_warps': 4},
    'max_i32': {'src': 'bench/gpu/kernels/tma_reduce.max_i32.ttir', 'num_warps': 4},
}

BM, BN, REPEATS = 64, 64, 4


@triton.jit
def tma_reduce_kernel(x_desc, y_desc, BM: tl.constexpr, BN: tl.constexpr, ADD: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    x = x_desc.load([pid_m * BM, pid_n * BN])
    if ADD:
        y_desc.atomic_add([pid_m * BM, pid_n * BN], x)
    else:
        y_desc.atomic_max([pid_m * BM, pid_n * BN], x)


class TmaReduce(casekit.Case):
    """Y op= X block by block through TMA reductions, REPEATS times per block; size keys M, N, op."""
    kernel = tma_reduce_kernel
    outputs = ['y']
    params = [p for d in ('x_desc', 'y_desc')
              for p in [(d, 'tensordesc', 'f32'), (d, 'scalar', 'i32'), (d, 'scalar', 'i32'), (d, 'scalar', 'i64'), (d, 'scalar', 'i64')]]
    sizes_time = [{'M': 8192, 'N': 8192, 'op': op} for op in ('add_f32', 'max_i32')]
    sizes_check = [{'M': m, 'N': n, 'op': op} for op in ('add_f32', 'max_i32') for m, n in ((1000, 520), (512, 512))] + sizes_time
    sizes_sanitize = [{'M': 200, 'N': 136, 'op': op} for op in ('add_f32', 'max_i32')]

    def variant(self, size):
        return size['op']

    def shape(self, size):
        return f"{size['M']}x{size['N']}"

    def dtype(self, size):
        return torch.float32 if size['op'] == 'add_f32' else torch.int32

    def params_for(self, size):
        t = 'f32' if size['op'] == 'add_f32' else 'i32'
        return [(n, k, t if k == 'tensordesc' else ty) for n, k, ty in self.params]

    def constexprs(self, size):
        return {'BM': BM, 'BN': BN, 'ADD': size['op'] == 'add_f32'}

    def make(self, size, gen):
        shape = (size['M'], size['N'])
        if size['op'] == 'add_f32':
            x, y0 = casekit.randn(shape, torch.float32, gen), casekit.randn(shape, torch.float32, gen)
        else:
            x, y0 = (casekit.randint(shape, -1000, 1000, torch.int32, gen) for _ in range(2))
        y = casekit.poisoned(shape, self.dtype(size))
        if casekit.DEVICE != 'meta':
            y.copy_(y0)
        return {'x': x, 'y0': y0, 'y': y}

    def args(self, t, size):
        desc = lambda v: [v, v.shape[0], v.shape[1], v.stride(0), v.stride(1)]  # noqa: E731
        return desc(t['x']) + desc(t['y'])

    def triton_args(self, t, size):
        from triton.tools.tensor_descriptor import TensorDescriptor
        return [TensorDescriptor.from_tensor(t['x'], [BM, BN]), TensorDescriptor.from_tensor(t['y'], [BM, BN])]

    def triton_launch(self, t, size, num_warps=None):
        # the check's launch starts from Y0 again (run_all poisons the outputs before it)
        t['y'].copy_(t['y0'])
        return super().triton_launch(t, size, num_warps)

    def grid(self, size):
        return (triton.cdiv(size['M'], BM), triton.cdiv(size['N'], BN), REPEATS)

    def reference(self, t, size):
        x, y0 = t['x'].double(), t['y0'].double()
        if size['op'] == 'add_f32':
            # REPEATS f32 additions in any order: within a few roundings of the exact sum
            return {'y': (y0 + REPEATS * x, 1e-6, 1e-5)}
        return {'y': (torch.maximum(y0, x), 0.0, 1e-9)}

    def bytes_moved(self, size):
        # each program reads X's block and reads and writes Y's
        return 3 * REPEATS * size['M'] * size['N'] * 4


CASE = TmaReduce()
