"""The Triton-C example examples/triton-c/softmax.tc: softmax(Y, X, stride_ym, stride_xm, M, N), one
program per row (grid = M), BLOCK = next power of two >= N given with -DBLOCK. Compared with the
Triton softmax of bench/gpu/softmax.py (same rows, same warps).
"""
import triton
import triton.language as tl
import torch

import casekit
from softmax import Softmax, softmax_kernel

BUILDS = {
    'b1024': {'src': 'examples/triton-c/softmax.tc', 'flags': ['-DBLOCK=1024']},
    'b4096': {'src': 'examples/triton-c/softmax.tc', 'flags': ['-DBLOCK=4096'], 'num_warps': 8},
}


@triton.jit(do_not_specialize=['M'])  # M is unused: one stand-in PTX serves every M
def softmax_tc_standin(Y, X, stride_ym, stride_xm, M, N, BLOCK: tl.constexpr):
    """softmax.tc written in Triton: only used to check the runner with Triton's own PTX."""
    m = tl.program_id(0)
    n = tl.arange(0, BLOCK)
    check = n < N
    x = tl.load(X + m * stride_xm + n, mask=check, other=-float('inf'))
    z = x - tl.max(x, axis=0)
    num = tl.exp(z)
    y = num / tl.sum(num, axis=0)
    tl.store(Y + m * stride_ym + n, y, mask=check)


class SoftmaxTC(Softmax):
    """Rows of an M x N fp32 matrix, through the Triton-C frontend."""
    kernel = softmax_tc_standin
    dump_ttir = False
    params = [('Y', 'pointer', 'f32'), ('X', 'pointer', 'f32'), ('stride_ym', 'scalar', 'i32'),
              ('stride_xm', 'scalar', 'i32'), ('M', 'scalar', 'i32'), ('N', 'scalar', 'i32')]
    tune_warps = []

    def constexprs(self, size):
        return {'BLOCK': casekit.next_pow2(size['cols'])}

    def args(self, t, size):
        return [t['y'], t['x'], t['y'].stride(0), t['x'].stride(0), size['rows'], size['cols']]

    def triton_launch(self, t, size, num_warps=None):
        args = [t['y'], t['x'], t['x'].stride(0), t['y'].stride(0), size['cols']]
        kw = {'BLOCK_SIZE': casekit.next_pow2(size['cols']), 'num_warps': num_warps or self.num_warps(size)}
        return lambda: softmax_kernel[(size['rows'],)](*args, **kw)


CASE = SoftmaxTC()
