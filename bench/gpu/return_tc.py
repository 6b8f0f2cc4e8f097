"""An early `return` on the GPU: examples/triton-c/scale-rows-return.tc. One program per row of an
M x N fp32 matrix X: Y[row, :] = X[row, :] * S[row]. The grid has one extra program, which must
`return` at once: if it went on, it would read S past its end (compute-sanitizer's memcheck) and
store a row of Y into Y's poisoned guard zone (checked).

The Triton kernel beside it is the same body under `if row < M`.
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    '': {'src': 'examples/triton-c/scale-rows-return.tc', 'num_warps': 4, 'flags': ['-DBLOCK=1024']},
}


@triton.jit
def scale_rows(X, S, Y, M, N, ldx, ldy, BLOCK: tl.constexpr):
    """scale-rows-return.tc in Triton: the body under `if row < M`."""
    row = tl.program_id(0)
    if row < M:
        s = tl.load(S + row)
        rn = tl.arange(0, BLOCK)
        x = tl.load(X + row * ldx + rn, mask=rn < N, other=0.0)
        tl.store(Y + row * ldy + rn, x * s, mask=rn < N)


class ReturnTC(casekit.Case):
    """Y = diag(S) X with one extra program that returns; size keys M, N (N <= 1024, the guard zone)."""
    kernel = scale_rows
    dump_ttir = False
    outputs = ['y']
    params = [('X', 'pointer', 'f32'), ('S', 'pointer', 'f32'), ('Y', 'pointer', 'f32'), ('M', 'scalar', 'i32'),
              ('N', 'scalar', 'i32'), ('ldx', 'scalar', 'i32'), ('ldy', 'scalar', 'i32')]
    sizes_time = [{'M': 65521, 'N': 1000}]
    sizes_check = [{'M': 1001, 'N': 700}, {'M': 3, 'N': 1024}] + sizes_time
    sizes_sanitize = [{'M': 101, 'N': 1000}]

    def shape(self, size):
        return f"{size['M']}x{size['N']}"

    def constexprs(self, size):
        return {'BLOCK': 1024}

    def make(self, size, gen):
        M, N = size['M'], size['N']
        return {'x': casekit.randn((M, N), torch.float32, gen), 's': casekit.randn((M,), torch.float32, gen),
                'y': casekit.poisoned((M, N), torch.float32)}

    def args(self, t, size):
        return [t['x'], t['s'], t['y'], size['M'], size['N'], t['x'].stride(0), t['y'].stride(0)]

    def grid(self, size):
        return (size['M'] + 1,)  # one extra program, which returns at once

    def reference(self, t, size):
        # One fp32 product per element: exact up to the final rounding.
        return {'y': (t['x'].double() * t['s'].double()[:, None], 1e-6, 1e-30)}

    def bytes_moved(self, size):
        return 4 * (2 * size['M'] * size['N'] + size['M'])


CASE = ReturnTC()
