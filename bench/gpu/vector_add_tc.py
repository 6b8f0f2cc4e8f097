"""The Triton-C example examples/triton-c/vector-add.tc: add(int N, float* a, float* b, float* c),
c = a + b, 32 elements per program and no bounds check, so N must be a multiple of 32 and the grid
is N / 32. Compiled with one warp and compared with the same kernel written in Triton (32
elements per program, one warp): the kernel's own launch shape, not the tutorial's, bounds its speed.
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    '': {'src': 'examples/triton-c/vector-add.tc', 'num_warps': 1},
}


@triton.jit
def vector_add_tc_standin(N, a, b, c, SIZE: tl.constexpr):
    """vector-add.tc written in Triton: the speed reference (and the runner check with Triton's own PTX)."""
    off = tl.program_id(0) * SIZE + tl.arange(0, SIZE)
    tl.store(c + off, tl.load(a + off) + tl.load(b + off))


class VectorAddTC(casekit.Case):
    """c = a + b over N fp32 elements, N a multiple of 32."""
    kernel = vector_add_tc_standin
    dump_ttir = False
    default_warps = 1
    params = [('N', 'scalar', 'i32'), ('a', 'pointer', 'f32'), ('b', 'pointer', 'f32'), ('c', 'pointer', 'f32')]
    outputs = ['c']
    sizes_time = [{'n': 1 << 28}]
    sizes_check = sizes_time + [{'n': 32 * 100_003}]
    sizes_sanitize = [{'n': 32 * 313}]
    per_program = 32

    def constexprs(self, size):
        return {'SIZE': self.per_program}

    def make(self, size, gen):
        n = size['n']
        assert n % self.per_program == 0, 'vector-add.tc has no bounds check: N must be a multiple of 32'
        f32 = torch.float32
        return {'a': casekit.randn(n, f32, gen), 'b': casekit.randn(n, f32, gen), 'c': casekit.poisoned((n,), f32)}

    def args(self, t, size):
        return [size['n'], t['a'], t['b'], t['c']]

    def grid(self, size):
        return (size['n'] // self.per_program,)

    def reference(self, t, size):
        return {'c': (t['a'].double() + t['b'].double(), 2e-7, 1e-30)}

    def bytes_moved(self, size):
        return 3 * size['n'] * 4

    def triton_launch(self, t, size, num_warps=None):
        n = size['n']
        args = [n, t['a'], t['b'], t['c']]
        return lambda: vector_add_tc_standin[(n // self.per_program,)](*args, SIZE=self.per_program, num_warps=num_warps or 1)


CASE = VectorAddTC()
