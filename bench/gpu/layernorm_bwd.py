"""LayerNorm backward, the Triton tutorial 05 kernel `_layer_norm_bwd_dx_fused`: one program per row of
an fp16 M x N matrix computes DX and adds the row's contributions to DW and DB into one of GROUP_SIZE_M
partial rows, taking that group's spin lock (`tl.atomic_cas` in a `while` loop, `tl.atomic_xchg` to
release, a count word to know whether the partial row is empty, `tl.debug_barrier` before the release).

As in the tutorial: BLOCK_SIZE_N = next_power_of_2(N), num_warps = min(max(BLOCK_SIZE_N // 256, 1), 8),
and GROUP_SIZE_M = 256 for N <= 1024, 128 for N <= 4096 (variants b1024: 4 warps at 1000 columns, N and
the stride not multiples of 16; b4096: 8 warps at 4096 columns).

The check: DX against a float64 reference; every used partial row of DW and DB against the float64 sum of
its rows' fp16 terms (the order of the fp16 additions is the lock's, so within a few roundings; a lost
update is off by a whole term); the locks released and the used groups' counts set, the unused groups'
partial rows never written (their poison is the guard zone of the view compared). Locks and counts start
at zero before each checked launch (ours and Triton's); timed launches run with the counts set, so every
launch of either kernel adds into the partial rows.
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    'b1024': {'src': 'bench/gpu/kernels/layernorm_bwd.b1024.ttir'},
    'b4096': {'src': 'bench/gpu/kernels/layernorm_bwd.b4096.ttir', 'num_warps': 8},
}

# GROUP_SIZE_M by variant, as the tutorial picks it from N.
GROUPS = {'b1024': 256, 'b4096': 128}


@triton.jit
def _layer_norm_bwd_dx_fused(DX, DY, DW, DB, X, W, Mean, Rstd, Lock, stride, N,
                             GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    lock_id = row % GROUP_SIZE_M
    Lock += lock_id
    Count = Lock + GROUP_SIZE_M
    DW = DW + lock_id * N + cols
    DB = DB + lock_id * N + cols
    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = (x - mean) * rstd
    wdy = w * dy
    xhat = tl.where(mask, xhat, 0.)
    wdy = tl.where(mask, wdy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx, mask=mask)
    partial_dw = (dy * xhat).to(w.dtype)
    partial_db = (dy).to(w.dtype)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:
        tl.atomic_xchg(Count, 1)
    else:
        partial_dw += tl.load(DW, mask=mask)
        partial_db += tl.load(DB, mask=mask)
    tl.store(DW, partial_dw, mask=mask)
    tl.store(DB, partial_db, mask=mask)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


class LayerNormBwd(casekit.RowCase):
    """dx, and dw / db summed into GROUP_SIZE_M partial rows under spin locks; x/dy/w/dx fp16, mean/rstd fp32."""
    kernel = _layer_norm_bwd_dx_fused
    params = [('DX', 'pointer', 'f16'), ('DY', 'pointer', 'f16'), ('DW', 'pointer', 'f16'), ('DB', 'pointer', 'f16'),
              ('X', 'pointer', 'f16'), ('W', 'pointer', 'f16'), ('Mean', 'pointer', 'f32'), ('Rstd', 'pointer', 'f32'),
              ('Lock', 'pointer', 'i32'), ('stride', 'scalar', 'i32'), ('N', 'scalar', 'i32')]
    outputs = ['dx', 'dw', 'db']
    sizes_time = [{'rows': 4096, 'cols': 1000}, {'rows': 4096, 'cols': 4096}]
    sizes_check = sizes_time + [{'rows': 611, 'cols': 1000}, {'rows': 333, 'cols': 4096}, {'rows': 100, 'cols': 1000}]
    sizes_sanitize = [{'rows': 300, 'cols': 1000}, {'rows': 37, 'cols': 4096}]

    def group(self, size):
        return GROUPS[self.variant(size)]

    def constexprs(self, size):
        return {'GROUP_SIZE_M': self.group(size), 'BLOCK_SIZE_N': casekit.next_pow2(size['cols'])}

    def make(self, size, gen):
        m, n, g = size['rows'], size['cols'], self.group(size)
        f16 = torch.float16
        x = casekit.randn((m, n), f16, gen, scale=0.5, shift=-2.3)
        t = {'x': x, 'dy': casekit.randn((m, n), f16, gen), 'w': casekit.rand((n,), f16, gen),
             'dx': casekit.poisoned((m, n), f16), 'dw': casekit.poisoned((g, n), f16), 'db': casekit.poisoned((g, n), f16),
             'lock': casekit.poisoned((2 * g,), torch.int32)}
        if casekit.DEVICE != 'meta':
            t['w'] += 0.5
            xd = x.double()
            mean = xd.mean(dim=1)
            t['mean'] = mean.float()
            t['rstd'] = (1.0 / torch.sqrt(((xd - mean[:, None]) ** 2).mean(dim=1) + 1e-5)).float()
            t['lock'].zero_()
        else:
            t['mean'] = torch.empty((m,), dtype=torch.float32, device='meta')
            t['rstd'] = torch.empty((m,), dtype=torch.float32, device='meta')
        # the partial rows that get rows (all of them when rows >= GROUP_SIZE_M)
        used = min(m, g)
        t['dw_used'], t['db_used'] = t['dw'][:used], t['db'][:used]
        return t

    def args(self, t, size):
        return [t['dx'], t['dy'], t['dw'], t['db'], t['x'], t['w'], t['mean'], t['rstd'], t['lock'],
                t['x'].stride(0), size['cols']]

    def triton_launch(self, t, size, num_warps=None):
        launch = super().triton_launch(t, size, num_warps)
        # the checked launch starts with every lock and count at zero again, as ours did
        t['lock'].zero_()
        return launch

    def reference(self, t, size):
        m, g = size['rows'], self.group(size)
        x, dy, w = t['x'].double(), t['dy'].double(), t['w'].double()
        mean, rstd = t['mean'].double(), t['rstd'].double()
        xhat = (x - mean[:, None]) * rstd[:, None]
        wdy = w * dy
        c1 = (xhat * wdy).mean(dim=1)
        c2 = wdy.mean(dim=1)
        dx = (wdy - (xhat * c1[:, None] + c2[:, None])) * rstd[:, None]
        used = min(m, g)
        # each row's terms rounded to fp16 as the kernel rounds them, summed per group
        dw_terms = (dy * xhat).float().half().double()
        db_terms = dy
        group = torch.arange(m, device=x.device) % g
        dw = torch.zeros((g, x.shape[1]), dtype=torch.float64, device=x.device).index_add_(0, group, dw_terms)[:used]
        db = torch.zeros((g, x.shape[1]), dtype=torch.float64, device=x.device).index_add_(0, group, db_terms)[:used]
        lock = torch.zeros(2 * g, dtype=torch.float64, device=x.device)
        lock[g:g + used] = 1
        # dx is rounded to fp16 once; the partial rows add up to ceil(rows / GROUP_SIZE_M) fp16 terms,
        # rounding after each addition (terms of magnitude ~1, sums ~5: fp16 steps of 2^-8)
        per_group = -(-m // g)
        atol = 2e-3 * per_group
        return {'dx': (dx, 2e-3, 2e-3), 'dw_used': (dw, 1e-2, atol), 'db_used': (db, 1e-2, atol),
                'lock': (lock, 0.0, 1e-9)}

    def bytes_moved(self, size):
        m, n = size['rows'], size['cols']
        # x, dy, dx per row; each row reads and writes its partial dw and db rows
        return m * n * 2 * 3 + m * n * 2 * 4 + n * 2 + 2 * m * 4


CASE = LayerNormBwd()
