"""`break`, `continue` and an early `return` on the GPU: examples/triton-c/matmul-early-exit.tc.
Program (pm, pn) reads one flag per K tile, F[(pm * (N / TN) + pn) * (K / TK) + kt]: 1 stops its K
loop (`break`), 2 skips the tile (`continue`), 0 accumulates it; then it stores its TM x TN tile of
C. The grid has one extra row of programs, which must `return` at once: a store of theirs would
land in C's poisoned guard zone (checked). The flags come from memory, drawn afresh each run so that
some programs stop early (at a random tile, the first included) and some never do, and a quarter of
the tiles before a stop are skipped. fp16 (tensor cores, TM=TN=128, TK=32, 8 warps) and fp32 (FMA,
ieee, TM=TN=64, TK=16, 4 warps). The float64 reference sums each program's accumulated tiles.

The Triton kernel beside it is the same loop written as a `while` on the flag (Triton has no
`break` or `continue`), its body under `if pm * TM < M`; F gets one spare element after it because
that loop reads the flag after the last tile.
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    'f16': {'src': 'examples/triton-c/matmul-early-exit.tc', 'num_warps': 8, 'flags': ['-DTYPE=half', '-DTM=128', '-DTN=128', '-DTK=32']},
    'f32': {'src': 'examples/triton-c/matmul-early-exit.tc', 'num_warps': 4, 'flags': ['-DTYPE=float', '-DTM=64', '-DTN=64', '-DTK=16']},
}


@triton.jit
def early_exit_matmul(A, B, C, F, M, N, K, lda, ldb, ldc, TM: tl.constexpr, TN: tl.constexpr, TK: tl.constexpr):
    """matmul-early-exit.tc in Triton: the K loop runs while the current tile's flag is not 1."""
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    if pm * TM < M:
        rm = pm * TM + tl.arange(0, TM)
        rn = pn * TN + tl.arange(0, TN)
        rk = tl.arange(0, TK)
        pa = A + rm[:, None] * lda + rk[None, :]
        pb = B + rk[:, None] * ldb + rn[None, :]
        pf = F + (pm * tl.num_programs(1) + pn) * (K // TK)
        acc = tl.zeros((TM, TN), dtype=tl.float32)
        k = 0
        while (k < K) & (tl.load(pf) != 1):
            a = tl.load(pa)
            b = tl.load(pb)
            if tl.load(pf) != 2:
                acc = tl.dot(a, b, acc, input_precision='ieee')
            pa += TK
            pb += TK * ldb
            pf += 1
            k += TK
        tl.store(C + rm[:, None] * ldc + rn[None, :], acc.to(C.dtype.element_ty))


class MatmulBreakTC(casekit.Case):
    """C = A @ B over the K tiles each program accumulates (see above); size keys M, N, K, variant v."""
    kernel = early_exit_matmul
    dump_ttir = False
    outputs = ['c']
    variants = list(BUILDS)
    sizes_time = [{'M': 4096, 'N': 4096, 'K': 4096, 'v': v} for v in variants]
    sizes_check = [{'M': 512, 'N': 384, 'K': 320, 'v': v} for v in variants] + sizes_time
    sizes_sanitize = [{'M': 256, 'N': 256, 'K': 128, 'v': v} for v in variants]

    def variant(self, size):
        return size['v']

    def shape(self, size):
        return f"{size['M']}x{size['N']}x{size['K']}"

    def _tiles(self, size):
        return (128, 128, 32) if size['v'] == 'f16' else (64, 64, 16)

    def params_for(self, size):
        ty = size['v']
        return [('A', 'pointer', ty), ('B', 'pointer', ty), ('C', 'pointer', ty), ('F', 'pointer', 'i32'),
                ('M', 'scalar', 'i32'), ('N', 'scalar', 'i32'), ('K', 'scalar', 'i32'), ('lda', 'scalar', 'i32'),
                ('ldb', 'scalar', 'i32'), ('ldc', 'scalar', 'i32')]

    def make(self, size, gen):
        TM, TN, TK = self._tiles(size)
        M, N, K = size['M'], size['N'], size['K']
        dt = torch.float16 if size['v'] == 'f16' else torch.float32
        programs, nk = (M // TM) * (N // TN), K // TK
        flags = torch.zeros(programs * nk + 1, dtype=torch.int32, device=casekit.DEVICE)
        stops = torch.full((programs,), nk, dtype=torch.int64)
        if casekit.DEVICE != 'meta':
            # About a third of the programs never stop; the others stop at a uniform tile in [0, nk).
            u = casekit.rand((programs,), torch.float32, gen).cpu()
            at = (casekit.rand((programs,), torch.float32, gen).cpu() * nk).long().clamp(max=nk - 1)
            stops = torch.where(u < 0.35, torch.full_like(at, nk), at)
            stops[0], stops[-1] = nk, 0  # at least one of each
            kt = torch.arange(nk)[None, :]
            # Before the stop: 2 (skip) with probability 1/4, else 0; at it: 1; after it: anything.
            skip = (casekit.rand((programs, nk), torch.float32, gen).cpu() < 0.25).int() * 2
            after = (casekit.rand((programs, nk), torch.float32, gen).cpu() * 3).int().clamp(max=2)
            f = torch.where(kt < stops[:, None], skip, torch.where(kt == stops[:, None], torch.ones_like(skip), after))
            flags[:-1] = f.reshape(-1).to(torch.int32).to(casekit.DEVICE)
        return {'a': casekit.randn((M, K), dt, gen), 'b': casekit.randn((K, N), dt, gen), 'f': flags, 'stops': stops,
                'c': casekit.poisoned((M, N), dt)}

    def args(self, t, size):
        return [t['a'], t['b'], t['c'], t['f'], size['M'], size['N'], size['K'], t['a'].stride(0), t['b'].stride(0),
                t['c'].stride(0)]

    def constexprs(self, size):
        TM, TN, TK = self._tiles(size)
        return {'TM': TM, 'TN': TN, 'TK': TK}

    def grid(self, size):
        TM, TN, _ = self._tiles(size)
        return (size['M'] // TM + 1, size['N'] // TN)  # one extra row of programs, which return at once

    def reference(self, t, size):
        TM, TN, TK = self._tiles(size)
        M, N, K = size['M'], size['N'], size['K']
        gm, gn, nk = M // TM, N // TN, K // TK
        a, b = t['a'].double(), t['b'].double()
        # Which K tiles each program accumulates: before its stop and not flagged 2; per k as 0/1.
        flags = t['f'][:-1].reshape(gm * gn, nk)
        stops = t['stops'].to(flags.device)
        used = (torch.arange(nk, device=flags.device)[None, :] < stops[:, None]) & (flags != 2)
        keep = used.double().repeat_interleave(TK, dim=1).reshape(gm, gn, K)
        bt = b.reshape(K, gn, TN).permute(1, 0, 2)  # [gn, K, TN]: B's column tiles
        ref = torch.empty((M, N), dtype=torch.float64, device=a.device)
        for pm in range(gm):
            # [gn, TM, TN]: A's row tile times each column tile of B with its program's K tiles only.
            tiles = a[pm * TM:(pm + 1) * TM] @ (keep[pm][:, :, None] * bt)
            ref[pm * TM:(pm + 1) * TM] = tiles.permute(1, 0, 2).reshape(TM, N)
        K = size['K']
        if size['v'] == 'f16':
            return {'c': (ref, 2e-3, 1e-2 * (K ** 0.5) / 16)}
        return {'c': (ref, 1e-5, 1e-5 * K ** 0.5 * 4)}

    def bytes_moved(self, size):
        # Nominal: as if no program stopped early.
        e = 2 if size['v'] == 'f16' else 4
        return e * (size['M'] * size['K'] + size['K'] * size['N'] + size['M'] * size['N'])


CASE = MatmulBreakTC()
