"""`continue` on the GPU: examples/triton-c/row-sums-continue.tc. Program p adds up rows p*ROWS ...
p*ROWS + ROWS - 1 of an M x N fp32 matrix X into T[p], skipping (`continue`) the rows past the end
(M is not a multiple of ROWS) and the rows whose flag F[row] is 0. The flags are drawn afresh each
run (about a third of the rows skipped; the first row kept and the last one skipped); the rows are
longer than BLOCK, so each kept row loops over its column blocks. The float64 reference sums the
kept rows of each program.

The Triton kernel beside it is the same loop with the row's work under an `if` (Triton has no
`continue`).
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    '': {'src': 'examples/triton-c/row-sums-continue.tc', 'num_warps': 4, 'flags': ['-DBLOCK=256', '-DROWS=8']},
}


@triton.jit
def flagged_row_sums(X, F, T, M, N, ldx, BLOCK: tl.constexpr, ROWS: tl.constexpr):
    """row-sums-continue.tc in Triton: the kept rows' work under an `if`."""
    pid = tl.program_id(0)
    rn = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for r in range(0, ROWS):
        row = pid * ROWS + r
        if row < M:
            if tl.load(F + row) != 0:
                for n in range(0, N, BLOCK):
                    acc += tl.load(X + row * ldx + n + rn, mask=n + rn < N, other=0.0)
    tl.store(T + pid, tl.sum(acc, axis=0))


class ContinueTC(casekit.Case):
    """T[p] = sum of the flagged rows among rows p*8 ... p*8+7 of X; size keys M, N."""
    kernel = flagged_row_sums
    dump_ttir = False
    outputs = ['t']
    params = [('X', 'pointer', 'f32'), ('F', 'pointer', 'i32'), ('T', 'pointer', 'f32'), ('M', 'scalar', 'i32'),
              ('N', 'scalar', 'i32'), ('ldx', 'scalar', 'i32')]
    ROWS = 8
    sizes_time = [{'M': 8190, 'N': 4093}]
    sizes_check = [{'M': 1001, 'N': 700}, {'M': 37, 'N': 3000}] + sizes_time
    sizes_sanitize = [{'M': 101, 'N': 300}]

    def shape(self, size):
        return f"{size['M']}x{size['N']}"

    def constexprs(self, size):
        return {'BLOCK': 256, 'ROWS': self.ROWS}

    def make(self, size, gen):
        M, N = size['M'], size['N']
        flags = torch.ones(M, dtype=torch.int32, device=casekit.DEVICE)
        if casekit.DEVICE != 'meta':
            keep = casekit.rand((M,), torch.float32, gen) >= 1 / 3
            keep[0], keep[-1] = True, False  # at least one of each
            flags = keep.to(torch.int32)
        programs = triton.cdiv(M, self.ROWS)
        return {'x': casekit.randn((M, N), torch.float32, gen), 'f': flags, 't': casekit.poisoned((programs,), torch.float32)}

    def args(self, t, size):
        return [t['x'], t['f'], t['t'], size['M'], size['N'], t['x'].stride(0)]

    def grid(self, size):
        return (triton.cdiv(size['M'], self.ROWS),)

    def reference(self, t, size):
        M, N = size['M'], size['N']
        programs = triton.cdiv(M, self.ROWS)
        rows = t['x'].double().sum(dim=1) * (t['f'] != 0).double()
        padded = torch.zeros(programs * self.ROWS, dtype=torch.float64, device=rows.device)
        padded[:M] = rows
        ref = padded.reshape(programs, self.ROWS).sum(dim=1)
        # Sums of up to ROWS * N products of N(0,1) values in fp32, in a different order than the reference.
        return {'t': (ref, 1e-5, 1e-6 * (self.ROWS * N) ** 0.5 * 8)}

    def bytes_moved(self, size):
        return 4 * size['M'] * size['N']


CASE = ContinueTC()
