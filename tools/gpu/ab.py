"""A/B timing of two builds of the same cases: for each time size of each case, both builds' kernels
run on the same inputs, their launches interleaved (runner.time_interleaved_us), and the ratio A/B
is printed (above 1: B is faster). For regression checks between commits, where the variation of
back-to-back timings (up to 8% on an H100) would hide a few percent.

usage: python3 tools/gpu/ab.py BUILD_A BUILD_B CASE[,CASE...] [--iters N]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases as case_registry  # noqa: E402
import runner  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('build_a')
    ap.add_argument('build_b')
    ap.add_argument('cases', help='comma-separated case names (bench/gpu)')
    ap.add_argument('--iters', type=int, default=50)
    opts = ap.parse_args(argv)
    selected = case_registry.load(opts.cases.split(','))
    import casekit  # bench/gpu: on the path once the cases are loaded
    for case in selected:
        for size in case.sizes_time:
            stem = case_registry.artifact(case.name, case.variant(size))
            pa, pb = (os.path.join(d, stem + '.ptx') for d in (opts.build_a, opts.build_b))
            if not (os.path.exists(pa) and os.path.exists(pb)):
                print(f'{stem:28} {case.shape(size):24} (not in both builds)')
                continue
            t = case.make(size, casekit.generator(1))
            fa, fb = (runner.Kernel(p).bind(case.grid(size), case.args(t, size)) for p in (pa, pb))
            (a, _), (b, _) = runner.time_interleaved_us([fa, fb], opts.iters, 5, True)
            print(f'{stem:28} {case.shape(size):24} A {a:9.2f} us  B {b:9.2f} us  A/B {a / b:.3f}', flush=True)


if __name__ == '__main__':
    main()
