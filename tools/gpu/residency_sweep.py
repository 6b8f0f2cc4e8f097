"""Times a build's kernels under several residency settings, next to Triton, to test the compiler's
residency rule (targets/nvptx/residency.ts) against every config it applies to: for each time size
of each case, one kernel per setting (the same PTX, its own module), launches interleaved on the
same inputs (runner.time_interleaved_us).

A setting is `meta` (the metadata's own `ctas_per_sm`, if any), `none` (the driver's default
carveout), `N` (the carveout that holds N CTAs per SM, as the launcher realizes the hint) or
`cP` (a carveout of P percent). Each row: the time per setting, the carveout percentage
asked for (the driver picks a shared memory size from it: runner.carveout_percent), and Triton's
time ÷ each. (The occupancy API does not see the driver's choice: use ncu's
launch__shared_mem_config_size for the size a launch ran with.)

usage: python3 tools/gpu/residency_sweep.py BUILD CASE[,CASE...] [--settings meta,none,2,3,...] [--iters N]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases as case_registry  # noqa: E402
import runner  # noqa: E402

CU_SHAREDMEM_CARVEOUT_DEFAULT = -1


def kernel_with(ptx, setting):
    """A fresh runner.Kernel of `ptx` with `setting` applied (see the module doc) to each of its
    kernels (a versioned build's `otherwise` kernel too: the launch may take either)."""
    k = runner.Kernel(ptx)
    if setting == 'meta':
        return k
    for each in (k, k.otherwise):
        if each is not None:
            apply_setting(each, setting)
    return k


def apply_setting(k, setting):
    """Applies a `none`, `N` or `cP` setting to the loaded kernel `k`."""
    if setting == 'none' or setting.startswith('c'):
        k.carveout = CU_SHAREDMEM_CARVEOUT_DEFAULT if setting == 'none' else int(setting[1:])
        k.set_carveout(k.carveout)
    else:
        k.ctas_per_sm = int(setting)
        k.carveout = k._apply_residency_hint(runner.driver())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('build')
    ap.add_argument('cases', help='comma-separated case names (bench/gpu)')
    ap.add_argument('--settings', default='meta,none,2,3,4,6,8,12,16')
    ap.add_argument('--iters', type=int, default=60)
    opts = ap.parse_args(argv)
    settings = opts.settings.split(',')
    selected = case_registry.load(opts.cases.split(','))
    import casekit as ck  # bench/gpu: on the path once the cases are loaded
    for case in selected:
        for size in case.sizes_time:
            stem = case_registry.artifact(case.name, case.variant(size))
            ptx = os.path.join(opts.build, stem + '.ptx')
            if not os.path.exists(ptx):
                print(f'{stem:28} {case.shape(size):14} (not built)')
                continue
            t = case.make(size, ck.generator(1))
            kernels = [(s, kernel_with(ptx, s)) for s in settings]
            fns = [k.bind(case.grid(size), case.args(t, size)) for _, k in kernels]
            tri = case.triton_launch(t, size)
            tri()
            times = runner.time_interleaved_us(fns + [tri], opts.iters, 5, True)
            tri_us = times[-1][0]
            meta = kernels[0][1].ctas_per_sm if settings[0] == 'meta' else None
            cells = '  '.join(f'{s}:{us:8.2f}us/{k.carveout}%/{tri_us / us:.3f}'
                              for (s, k), (us, _) in zip(kernels, times))
            print(f'{stem:28} {case.shape(size):14} hint {meta}  triton {tri_us:8.2f}us  {cells}', flush=True)


if __name__ == '__main__':
    main()
