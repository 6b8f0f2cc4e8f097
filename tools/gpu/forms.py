#!/usr/bin/env python3
"""Times two forms of one kernel side by side: case A (e.g. `matmul_tma`, through tensor
descriptors) and case B (e.g. `matmul`, through pointers), ours (from BUILD) and Triton JIT of each,
plus case A's baselines (cuBLAS), every launch interleaved (runner.time_interleaved_us). Each case
makes its own inputs from the same seed. Ratios are other / ours-A (above 1: ours-A is faster).

usage: python3 tools/gpu/forms.py BUILD CASE_A CASE_B [--iters N]
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases as case_registry  # noqa: E402
import runner  # noqa: E402


def ours(case, build, t, size):
    """Our built kernel of `case` for `size`, bound to the inputs `t`."""
    ptx = os.path.join(build, case_registry.artifact(case.name, case.variant(size)) + '.ptx')
    return runner.Kernel(ptx).bind(case.grid(size), case.args(t, size))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('build')
    ap.add_argument('case_a')
    ap.add_argument('case_b')
    ap.add_argument('--iters', type=int, default=60)
    opts = ap.parse_args(argv)
    a, b = case_registry.load([opts.case_a, opts.case_b])
    import casekit  # bench/gpu: on the path once the cases are loaded
    for size in a.sizes_time:
        ta, tb = a.make(size, casekit.generator(7)), b.make(size, casekit.generator(7))
        kernels = {f'ours {a.name}': ours(a, opts.build, ta, size), f'ours {b.name}': ours(b, opts.build, tb, size),
                   f'Triton {a.name}': a.triton_launch(ta, size), f'Triton {b.name}': b.triton_launch(tb, size)}
        if hasattr(a, 'baselines'):
            kernels.update(a.baselines(ta, size))
        for fn in kernels.values():
            fn()
        torch.cuda.synchronize()
        times = dict(zip(kernels, (m for m, _ in runner.time_interleaved_us(list(kernels.values()), opts.iters, 5, True))))
        first = times[f'ours {a.name}']
        tf = f'{a.flops(size) / (first * 1e-6) / 1e12:5.0f} TFLOP/s  ' if hasattr(a, 'flops') else ''
        print(f'{a.shape(size):20} {size.get("dt", "")}  {tf}' + '  '.join(f'{k} {v:8.2f} us ({v / first:.3f})' for k, v in times.items()), flush=True)
        del ta, tb, kernels
        torch.cuda.empty_cache()


if __name__ == '__main__':
    main()
