#!/usr/bin/env python3
"""Tuning run (b): the seeds' matmul (examples/triton-c/matmul.tc) in half precision compiled with
-DTM=[64, 128] -DTN=[64, 128] -DTK=[32, 64] (8 variants, 4 warps; bench/gpu/tuning/build.sh), tuned
at a square 4096^3, a tall 8192x1024 (K 4096) and an odd 3984x3024 (K 2000: multiples of 16, not of
any tile): the pick per shape, every variant's time, and the tuned launch next to the best variant
launched directly, Triton's tutorial matmul autotuned with `triton.autotune` over the same tiles
(BLOCK_SIZE_M/N/K, GROUP_SIZE_M 8, 4 warps, 3 stages) in this process, and cuBLAS (torch.mm). Then
the same keys with a new tuner: no benchmarking, the cache's picks. With --expect-cached (a second
process) only that second pass runs, and its picks must be those the first process saved.

The seeds' kernel has no bounds checks, so A, B and C live in storage padded with zeros to
multiples of 128 (M, N) and 64 (K), with 64 spare rows (our pipelining may prefetch one K tile past
the end); the kernel gets the real M, N, K and the padded row strides. Only C[:M, :N] is checked
(against torch's fp32 product of the same fp16 inputs) and compared between variants. Triton and
cuBLAS read the same (strided) inputs. Fresh random inputs each launch (seed printed).
"""
import sys

import common
import torch
import triton

import matmul as tutorial  # bench/gpu/matmul.py: Triton's tutorial 03 matmul kernel
import tune

SHAPES = [('square', 4096, 4096, 4096), ('tall', 8192, 1024, 4096), ('odd', 3984, 3024, 2000)]
PAD_MN, PAD_K, SPARE = 128, 64, 64
RTOL, ATOL = 1e-2, 5e-2


def grid(D, A):
    """The seeds' grid: one program per TM x TN tile of C."""
    return (tune.cdiv(A['M'], D['TM']), tune.cdiv(A['N'], D['TN']))


def triton_autotuned(space):
    """The tutorial kernel under triton.autotune over the space's tiles, with our variants' warps."""
    configs = [triton.Config({'BLOCK_SIZE_M': v.D['TM'], 'BLOCK_SIZE_N': v.D['TN'], 'BLOCK_SIZE_K': v.D['TK'],
                              'GROUP_SIZE_M': 8}, num_warps=v.num_warps, num_stages=3) for v in space.compiled()]
    return triton.autotune(configs=configs, key=['M', 'N', 'K'])(tutorial.matmul_kernel)


def inputs(M, N, K, seed):
    """Padded storages (A, B zero outside [:M, :K] / [:K, :N]; C NaN) and the fp32 reference."""
    g = common.generator(seed)
    Mp, Np, Kp = (tune.cdiv(M, PAD_MN) * PAD_MN, tune.cdiv(N, PAD_MN) * PAD_MN, tune.cdiv(K, PAD_K) * PAD_K)
    A = torch.zeros((Mp + SPARE, Kp), dtype=torch.float16, device='cuda')
    B = torch.zeros((Kp + SPARE, Np), dtype=torch.float16, device='cuda')
    A[:M, :K] = torch.randn((M, K), device='cuda', generator=g).half()
    B[:K, :N] = torch.randn((K, N), device='cuda', generator=g).half()
    C = torch.full((Mp, Np), float('nan'), dtype=torch.float16, device='cuda')
    ref = A[:M, :K].float() @ B[:K, :N].float()
    return A, B, C, ref


def make_tuner(space, a, log, retune=False):
    """The tuner of this run: output C, its [:M, :N] compared with torch's fp32 product."""
    return tune.Tuner(space, grid, cache=tune.Cache(a.cache), outputs=['C'], iters=a.iters, log=log, retune=retune,
                      compare=lambda A: [A['C'][:A['M'], :A['N']]],
                      reference=lambda A: [A['A'][:A['M'], :A['K']].float() @ A['B'][:A['K'], :A['N']].float()],
                      rtol=RTOL, atol=ATOL)


def check(rep, what, got, ref):
    ok, err = common.close(got, ref, RTOL, ATOL)
    rep.check(ok, f'{what} (max abs error {err:.3g}, |ref| max {float(ref.abs().max()):.1f})')


def first_pass(rep, space, a):
    """Tunes each shape, checks, and compares with the best variant, Triton's autotune and cuBLAS."""
    rep.say('-- pass 1: tune each key (--retune: whatever the cache holds)')
    torch.backends.cuda.matmul.allow_tf32 = False
    tuner = make_tuner(space, a, rep.say, retune=True)
    tri = triton_autotuned(space)
    picks, rows = {}, []
    for k, (name, M, N, K) in enumerate(SHAPES):
        A, B, C, ref = inputs(M, N, K, a.seed + k)
        args = [A, B, C, M, N, K, A.stride(0), B.stride(0), C.stride(0)]
        choice, secs = common.call_timed(lambda: tuner(*args))
        rep.say(f'{name} {M}x{N}x{K}: {"cache hit" if choice.cached else "tuned"} in {secs:.2f} s -> {choice.variant.description}')
        rep.check(not choice.cached and tuner.benchmarks == k + 1, f'{name}: benchmarked')
        check(rep, f'{name}: tuned output vs torch', C[:M, :N], ref)
        picks[name] = choice.variant.description
        Av, Bv = A[:M, :K], B[:K, :N]
        Ct = torch.full((M, N), float('nan'), dtype=torch.float16, device='cuda')
        Cb = torch.empty((M, N), dtype=torch.float16, device='cuda')
        launch_tri = lambda: tri[lambda META: (triton.cdiv(M, META['BLOCK_SIZE_M']) * triton.cdiv(N, META['BLOCK_SIZE_N']),)](  # noqa: E731
            Av, Bv, Ct, M, N, K, Av.stride(0), Av.stride(1), Bv.stride(0), Bv.stride(1), Ct.stride(0), Ct.stride(1))
        _, tri_secs = common.call_timed(launch_tri)
        rep.say(f'  Triton autotune: {tri_secs:.2f} s (compiles + benchmarks), best config {common.config_text(tri.best_config)}')
        check(rep, f'{name}: Triton output vs torch', Ct, ref)
        best = tuner.backend.bind(tuner.kernel(choice.variant), grid(choice.variant.D, {'M': M, 'N': N}), args)
        tflops = lambda us: f'{2 * M * N * K / us / 1e6:7.1f} TFLOP/s'  # noqa: E731
        t = common.compare_times(rep, [('tuned (tuner dispatch)', lambda: tuner(*args)),
                                       (f'best variant {choice.variant.description} (direct)', best),
                                       (f'Triton autotuned {common.config_text(tri.best_config)}', launch_tri),
                                       ('cuBLAS (torch.mm)', lambda: torch.mm(Av, Bv, out=Cb))], a.iters, tflops)
        vals = list(t.values())
        rep.say(f'  {name}: tuned vs best variant {vals[1] / vals[0]:.3f}x, vs Triton autotuned {vals[2] / vals[0]:.3f}x, '
                f'vs cuBLAS {vals[3] / vals[0]:.3f}x (> 1: ours faster)')
        check(rep, f'{name}: tuned output vs torch after timing', C[:M, :N], ref)
        rows.append([f'{M}x{N}x{K}', choice.variant.description, f'{secs:.2f} s', vals[0], vals[1], vals[2], vals[3],
                     common.config_text(tri.best_config), f'{tri_secs:.2f} s', f'{vals[1] / vals[0]:.3f}',
                     f'{vals[2] / vals[0]:.3f}', f'{vals[3] / vals[0]:.3f}'])
        del A, B, C, ref, Ct, Cb
    common.summary_table(rep, ['MxNxK', 'pick', 'tuning', 'tuned us', 'best variant us', 'Triton us', 'cuBLAS us',
                               'Triton pick', 'Triton tuning', 'best / tuned', 'Triton / tuned', 'cuBLAS / tuned'], rows)
    return picks


def cached_pass(rep, space, a, picks_before):
    """The same keys with a new tuner: every one a cache hit, same picks, outputs checked."""
    rep.say('-- pass 2: the same keys with a new tuner (the cache must answer)')
    lines = []
    tuner = make_tuner(space, a, lambda s: (lines.append(s), rep.say(s)))
    picks = {}
    for k, (name, M, N, K) in enumerate(SHAPES):
        A, B, C, ref = inputs(M, N, K, a.seed + 100 + k)
        choice, secs = common.call_timed(lambda: tuner(A, B, C, M, N, K, A.stride(0), B.stride(0), C.stride(0)))
        rep.say(f'{name}: {"cache hit" if choice.cached else "TUNED"} in {secs * 1e3:.1f} ms -> {choice.variant.description}')
        check(rep, f'{name}: output vs torch', C[:M, :N], ref)
        picks[name] = choice.variant.description
        del A, B, C, ref
    rep.check(tuner.benchmarks == 0 and tuner.cache_hits == len(SHAPES),
              f'no benchmarking: {tuner.benchmarks} tunings, {tuner.cache_hits} cache hits of {len(SHAPES)} keys')
    rep.check(sum(s.startswith('cache hit:') for s in lines) == len(SHAPES), 'the tuner printed "cache hit" for each key')
    if picks_before is not None:
        rep.check(picks == picks_before, f'same picks as pass 1 ({picks})')
    return picks


def triton_again(rep, space):
    """In a new process Triton's autotune benchmarks again (it keeps no tuning cache by default)."""
    tri = triton_autotuned(space)
    _, M, N, K = SHAPES[0]
    A, B, _, _ = inputs(M, N, K, 7)
    Av, Bv = A[:M, :K], B[:K, :N]
    Ct = torch.empty((M, N), dtype=torch.float16, device='cuda')
    _, secs = common.call_timed(lambda: tri[lambda META: (triton.cdiv(M, META['BLOCK_SIZE_M']) * triton.cdiv(N, META['BLOCK_SIZE_N']),)](
        Av, Bv, Ct, M, N, K, Av.stride(0), Av.stride(1), Bv.stride(0), Bv.stride(1), Ct.stride(0), Ct.stride(1)))
    rep.say(f'  for comparison: Triton autotune of {M}x{N}x{K} in this new process took {secs:.2f} s (benchmarks again)')


def main():
    a = common.options(__doc__, 'matmul')
    rep = common.Report('tuning run (b): matmul.tc fp16, TM, TN in [64, 128], TK in [32, 64]')
    space = tune.Space.load(a.space)
    rep.say(f'space {a.space}: {len(space.compiled())} of {len(space.variants)} variants compiled, key {space.key}, '
            f'hash {space.hash[:12]}; cache {a.cache}; seed {a.seed}')
    if a.expect_cached:
        picks = cached_pass(rep, space, a, None)
        triton_again(rep, space)
    else:
        first = first_pass(rep, space, a)
        picks = cached_pass(rep, space, a, first)
    common.save_or_compare_picks(rep, a, picks)
    return rep.finish()


if __name__ == '__main__':
    sys.exit(main())
