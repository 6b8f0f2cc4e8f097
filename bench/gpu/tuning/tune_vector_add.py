#!/usr/bin/env python3
"""Tuning run (a): the seeds' vector add (examples/triton-c/vector-add-param.tc) compiled with
-DSIZE=[32, 64, 128, 256, 512, 1024] -DTYPE=float (bench/gpu/tuning/build.sh), tuned at N = 10^4, 10^6
and 10^8 (the key is N): the pick per N, every variant's time, the tuned launch (through the tuner)
next to the best variant launched directly and next to Triton's tutorial add kernel autotuned with
`triton.autotune` over the same BLOCK sizes (and warps) in this process. Then the same keys again
with a new tuner: no benchmarking, the cache's picks. With --expect-cached (a second process) only
that second pass runs, and its picks must be those the first process saved.

The seeds' kernel has no bounds check (a grid of N / SIZE programs), so N that is not a multiple of
SIZE is launched on cdiv(N, SIZE) programs over buffers padded to a multiple of 1024 (inputs random
in the padding too); only the first N outputs are checked (exactly: fp32 adds) and compared
between variants. Fresh random inputs each launch (seed printed; --seed repeats it).
"""
import sys

import common
import torch
import triton

import tune
import vector_add_f32  # bench/gpu: Triton's tutorial add kernel (masked)

SIZES = [10 ** 4, 10 ** 6, 10 ** 8]
PAD = 1024


def grid(D, A):
    """The seeds' grid: one program per SIZE elements."""
    return (tune.cdiv(A['N'], D['SIZE']),)


def triton_autotuned(space):
    """Triton's add kernel under triton.autotune over the space's SIZE values, each with our variant's warps."""
    configs = [triton.Config({'BLOCK_SIZE': v.D['SIZE']}, num_warps=v.num_warps) for v in space.compiled()]
    return triton.autotune(configs=configs, key=['n_elements'])(vector_add_f32.add_kernel)


def inputs(n, seed):
    """a, b (random, padded to a multiple of PAD) and c (NaN)."""
    g = common.generator(seed)
    size = tune.cdiv(n, PAD) * PAD
    a = torch.randn(size, device='cuda', generator=g)
    b = torch.randn(size, device='cuda', generator=g)
    return a, b, torch.full((size,), float('nan'), device='cuda')


def make_tuner(space, a, log, retune=False):
    """The tuner of this run: outputs c, compared on its first N elements against torch's a + b."""
    return tune.Tuner(space, grid, cache=tune.Cache(a.cache), outputs=['c'], iters=a.iters, log=log, retune=retune,
                      compare=lambda A: [A['c'][:A['N']]],
                      reference=lambda A: [A['a'][:A['N']] + A['b'][:A['N']]], rtol=0, atol=0)


def first_pass(rep, space, a):
    """Tunes each N, checks, and compares the tuned launch with the best variant and Triton's autotune."""
    rep.say('-- pass 1: tune each key (--retune: whatever the cache holds)')
    tuner = make_tuner(space, a, rep.say, retune=True)
    tri = triton_autotuned(space)
    picks, rows = {}, []
    for k, n in enumerate(SIZES):
        x, y, c = inputs(n, a.seed + k)
        choice, secs = common.call_timed(lambda: tuner(n, x, y, c))
        rep.say(f'N={n}: {"cache hit" if choice.cached else "tuned"} in {secs:.2f} s -> {choice.variant.description}')
        rep.check(not choice.cached and tuner.benchmarks == k + 1, f'N={n}: benchmarked')
        rep.check(torch.equal(c[:n], x[:n] + y[:n]), f'N={n}: tuned output == torch a + b')
        picks[str(n)] = choice.variant.description
        out = torch.full((n,), float('nan'), device='cuda')
        launch_tri = lambda: tri[lambda META: (triton.cdiv(n, META['BLOCK_SIZE']),)](x, y, out, n)  # noqa: E731
        _, tri_secs = common.call_timed(launch_tri)
        rep.say(f'  Triton autotune: {tri_secs:.2f} s (compiles + benchmarks), best config {common.config_text(tri.best_config)}')
        rep.check(torch.equal(out, x[:n] + y[:n]), f'N={n}: Triton output == torch a + b')
        best = tuner.backend.bind(tuner.kernel(choice.variant), grid(choice.variant.D, {'N': n}), [n, x, y, c])
        gbs = lambda us: f'{3 * 4 * n / us / 1e3:8.1f} GB/s'  # noqa: E731
        t = common.compare_times(rep, [('tuned (tuner dispatch)', lambda: tuner(n, x, y, c)),
                                       (f'best variant {choice.variant.description} (direct)', best),
                                       (f'Triton autotuned {common.config_text(tri.best_config)}', launch_tri)], a.iters, gbs)
        vals = list(t.values())
        rep.say(f'  N={n}: tuned vs best variant {vals[1] / vals[0]:.3f}x (>= 0.98 wanted), '
                f'vs Triton autotuned {vals[2] / vals[0]:.3f}x (>= 1.0 wanted; > 1: ours faster)')
        rep.check(torch.equal(c[:n], x[:n] + y[:n]), f'N={n}: tuned output still == torch a + b after timing')
        rows.append([n, choice.variant.description, f'{secs:.2f} s', vals[0], vals[1], vals[2],
                     common.config_text(tri.best_config), f'{tri_secs:.2f} s', f'{vals[1] / vals[0]:.3f}', f'{vals[2] / vals[0]:.3f}'])
        del x, y, c, out
    common.summary_table(rep, ['N', 'pick', 'tuning', 'tuned us', 'best variant us', 'Triton us', 'Triton pick',
                               'Triton tuning', 'best / tuned', 'Triton / tuned'], rows)
    return picks


def cached_pass(rep, space, a, picks_before):
    """The same keys with a new tuner: every one a cache hit, same picks, outputs checked."""
    rep.say('-- pass 2: the same keys with a new tuner (the cache must answer)')
    lines = []
    tuner = make_tuner(space, a, lambda s: (lines.append(s), rep.say(s)))
    picks = {}
    for k, n in enumerate(SIZES):
        x, y, c = inputs(n, a.seed + 100 + k)
        choice, secs = common.call_timed(lambda: tuner(n, x, y, c))
        rep.say(f'N={n}: {"cache hit" if choice.cached else "TUNED"} in {secs * 1e3:.1f} ms -> {choice.variant.description}')
        rep.check(torch.equal(c[:n], x[:n] + y[:n]), f'N={n}: output == torch a + b')
        picks[str(n)] = choice.variant.description
        del x, y, c
    rep.check(tuner.benchmarks == 0 and tuner.cache_hits == len(SIZES),
              f'no benchmarking: {tuner.benchmarks} tunings, {tuner.cache_hits} cache hits of {len(SIZES)} keys')
    rep.check(sum(s.startswith('cache hit:') for s in lines) == len(SIZES), 'the tuner printed "cache hit" for each key')
    if picks_before is not None:
        rep.check(picks == picks_before, f'same picks as pass 1 ({picks})')
    return picks


def triton_again(rep, space):
    """In a new process Triton's autotune benchmarks again (it keeps no tuning cache by default)."""
    tri = triton_autotuned(space)
    n = SIZES[1]
    x, y, _ = inputs(n, 7)
    out = torch.empty(n, device='cuda')
    _, secs = common.call_timed(lambda: tri[lambda META: (triton.cdiv(n, META['BLOCK_SIZE']),)](x, y, out, n))
    rep.say(f'  for comparison: Triton autotune of N={n} in this new process took {secs:.2f} s (benchmarks again)')


def main():
    a = common.options(__doc__, 'vector_add')
    rep = common.Report('tuning run (a): vector-add-param.tc, SIZE in [32..1024], N = 10^4, 10^6, 10^8')
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
