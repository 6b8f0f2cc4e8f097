#!/usr/bin/env python3
"""Times the two forms of the fp16/bf16 matmul side by side on the same inputs, all launches
interleaved (runner.time_interleaved_us): our TMA build (`matmul_tma` case, tensor descriptors), our
pointer build (`matmul` case, the tutorial's tl.load form), Triton JIT of each form, and cuBLAS.
Ratios are other / ours-TMA (above 1: ours is faster).

usage: python3 tools/gpu/matmul_forms.py BUILD [--iters N]
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases as case_registry  # noqa: E402
import runner  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('build')
    ap.add_argument('--iters', type=int, default=60)
    opts = ap.parse_args(argv)
    tma_case, ptr_case = case_registry.load(['matmul_tma', 'matmul'])
    import casekit  # bench/gpu: on the path once the cases are loaded
    for size in tma_case.sizes_time:
        t = tma_case.make(size, casekit.generator(7))
        # the pointer kernel on the same A and B, with an output of its own
        p = {'a': t['a'], 'b': t['b'], 'c': casekit.poisoned(tuple(t['c'].shape), ptr_case.out_dtype(size))}
        ptr_size = {k: v for k, v in size.items()}
        kernels = {
            'ours TMA': runner.Kernel(os.path.join(opts.build, case_registry.artifact('matmul_tma', tma_case.variant(size)) + '.ptx'))
            .bind(tma_case.grid(size), tma_case.args(t, size)),
            'ours ptr': runner.Kernel(os.path.join(opts.build, case_registry.artifact('matmul', ptr_case.variant(ptr_size)) + '.ptx'))
            .bind(ptr_case.grid(ptr_size), ptr_case.args(p, ptr_size)),
            'Triton TMA': tma_case.triton_launch(t, size),
            'Triton ptr': ptr_case.triton_launch(p, ptr_size),
            'cuBLAS': tma_case.baselines(t, size)['cublas'],
        }
        for fn in kernels.values():
            fn()
        torch.cuda.synchronize()
        ref = t['a'].float() @ t['b'].float()
        err = max((t['c'].float() - ref).abs().max().item(), (p['c'].float() - ref).abs().max().item())
        times = dict(zip(kernels, (m for m, _ in runner.time_interleaved_us(list(kernels.values()), opts.iters, 5, True))))
        ours = times['ours TMA']
        tf = tma_case.flops(size) / (ours * 1e-6) / 1e12
        cols = '  '.join(f'{k} {v:8.2f} us ({v / ours:.3f})' for k, v in times.items())
        print(f'{tma_case.shape(size):16} {size.get("dt", "f16"):4} {tf:5.0f} TFLOP/s  {cols}  max|err| {err:.3g}', flush=True)
        del t, p
        torch.cuda.empty_cache()


if __name__ == '__main__':
    main()
