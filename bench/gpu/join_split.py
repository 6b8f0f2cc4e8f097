"""Interleave and de-interleave with `tl.join` and `tl.split` (fp32, BLOCK 1024, 4 warps).

out[i] = (x[i], y[i]) interleaved as an n x 2 array (join), diff = x - y taken back out of the joined
pairs (split of a join), prod[i] = pairs[i, 0] * pairs[i, 1] (split of a loaded n x 2 array). Triton
specializes n on divisibility by 16: d16 and odd sizes have different TTIR.
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    'd16': {'src': 'bench/gpu/kernels/join_split.d16.ttir'},
    'odd': {'src': 'bench/gpu/kernels/join_split.odd.ttir'},
}


@triton.jit
def join_split_kernel(x_ptr, y_ptr, pairs_ptr, out_ptr, diff_ptr, prod_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    z = tl.join(x, y)
    pair_offs = 2 * offs[:, None] + tl.arange(0, 2)[None, :]
    pair_mask = pair_offs < 2 * n
    tl.store(out_ptr + pair_offs, z, mask=pair_mask)
    a, b = tl.split(z)
    tl.store(diff_ptr + offs, a - b, mask=mask)
    p = tl.load(pairs_ptr + pair_offs, mask=pair_mask)
    u, v = tl.split(p)
    tl.store(prod_ptr + offs, u * v, mask=mask)


class JoinSplit(casekit.BlockCase):
    """Interleave two vectors, subtract them back out, multiply loaded pairs; one program per 1024 elements."""
    kernel = join_split_kernel
    outputs = ['out', 'diff', 'prod']
    sizes_time = [{'n': 1 << 26}, {'n': 50_000_017}]
    sizes_check = sizes_time + [{'n': 1_000_003}]
    sizes_sanitize = [{'n': 10_007}, {'n': 16_384}]
    params = [('x_ptr', 'pointer', 'f32'), ('y_ptr', 'pointer', 'f32'), ('pairs_ptr', 'pointer', 'f32'),
              ('out_ptr', 'pointer', 'f32'), ('diff_ptr', 'pointer', 'f32'), ('prod_ptr', 'pointer', 'f32'),
              ('n', 'scalar', 'i32')]

    def make(self, size, gen):
        n = size['n']
        return {'x': casekit.randn(n, torch.float32, gen), 'y': casekit.randn(n, torch.float32, gen),
                'pairs': casekit.randn((n, 2), torch.float32, gen),
                'out': casekit.poisoned((n, 2), torch.float32), 'diff': casekit.poisoned((n,), torch.float32),
                'prod': casekit.poisoned((n,), torch.float32)}

    def args(self, t, size):
        return [t['x'], t['y'], t['pairs'], t['out'], t['diff'], t['prod'], size['n']]

    def reference(self, t, size):
        x, y, pairs = t['x'].double(), t['y'].double(), t['pairs'].double()
        # the interleave is a copy (exact); a difference and a product are correctly rounded in fp32
        return {'out': (torch.stack([x, y], dim=-1), 0.0, 1e-30),
                'diff': (x - y, 2e-7, 1e-30),
                'prod': (pairs[:, 0] * pairs[:, 1], 2e-7, 1e-30)}

    def bytes_moved(self, size):
        return 8 * 4 * size['n']  # x, y, two pair words in; two out words, diff, prod out


CASE = JoinSplit()
