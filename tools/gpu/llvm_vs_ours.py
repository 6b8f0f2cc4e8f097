#!/usr/bin/env python3
"""Differential test and timing of our PTX against LLVM's PTX of the same kernels (docs/llvm.md).

`bash tools/gpu/build.sh --via-llvm` writes our sm_80 PTX into OUT/<stem>.ptx and LLVM's (our LLVM IR
through llc-14) into OUT/llvm/<stem>.ptx. For every check size of every case, both kernels run on
the same fresh random inputs; each output is checked against the case's float64 reference (as
run_all.py --check does), and the two outputs are compared with each other: BITWISE when every
byte is the same, else the largest absolute difference and how many elements differ. Then, for
every time size, both are timed with their launches interleaved (runner.time_interleaved_us).

  python3 tools/gpu/llvm_vs_ours.py [--build build/gpu] [--case softmax,row_sum] [--iters 100] [--json FILE]

Exit status 1 if either kernel fails a reference check, or a kernel is missing.
"""
import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases as case_registry  # noqa: E402
import runner  # noqa: E402


def log(*a):
    """print, flushed."""
    print(*a, flush=True)


def reference_check(casekit, t, ref):
    """Every output against its reference and its guard zones: (ok, text), as run_all.py's verify."""
    ok, parts = True, []
    for name, (expected, rtol, atol) in ref.items():
        good, max_abs, worst = casekit.compare(t[name], expected, rtol, atol)
        guard = casekit.guard_ok(t[name])
        ok = ok and good and guard
        parts.append(f'{name}: err/tol={worst:.3g}' + ('' if guard else ' GUARD ZONE WRITTEN'))
    return ok, ', '.join(parts)


def agreement(ours, theirs):
    """How two runs' outputs agree: 'BITWISE', or the largest absolute difference and the count that differ."""
    parts = []
    for name in ours:
        a, b = ours[name], theirs[name]
        if torch.equal(a.view(torch.uint8), b.view(torch.uint8)):
            parts.append(f'{name}: BITWISE')
            continue
        diff = (a.double() - b.double()).abs().nan_to_num(nan=float('inf'))
        differ = int((a.view(torch.uint8).reshape(a.numel(), -1) != b.view(torch.uint8).reshape(b.numel(), -1)).any(dim=1).sum())
        parts.append(f'{name}: max |ours - llvm| {float(diff.max()):.3g} ({differ} of {a.numel()} elements differ)')
    return ', '.join(parts)


def run_case(case, size, kernels, seed, opts, casekit, report):
    """Checks (and times) one size: both kernels on the same inputs. Returns the number of failures."""
    label = f'{case.name:15} {case.variant(size) or "-":6} {case.shape(size):12}'
    t = case.make(size, casekit.generator(seed))
    ref = case.reference(t, size)
    fns, outputs, failures = [], [], 0
    for who, k in zip(('ours', 'llvm'), kernels):
        for name in case.outputs:
            casekit.repoison(t[name])
        fn = k.bind(case.grid(size), case.args(t, size))
        fn()
        torch.cuda.synchronize()
        ok, text = reference_check(casekit, t, ref)
        failures += 0 if ok else 1
        log(f'{"PASS" if ok else "FAIL"}  {label} {who:5} {text}')
        report['checks'].append({'case': case.name, 'variant': case.variant(size), 'shape': case.shape(size),
                                 'who': who, 'ok': ok, 'detail': text, 'seed': seed})
        outputs.append({name: t[name].clone() for name in case.outputs})
        fns.append(fn)
    same = agreement(*outputs)
    log(f'SAME  {label} {same}')
    report['agreement'].append({'case': case.name, 'variant': case.variant(size), 'shape': case.shape(size), 'detail': same})
    if opts.time and size in case.sizes_time:
        (ours_us, _), (llvm_us, _) = runner.time_interleaved_us(fns, opts.iters, 10, True)
        regs = [k.regs for k in kernels]
        log(f'TIME  {label} ours {ours_us:9.2f} us regs {regs[0]:3} | llvm {llvm_us:9.2f} us regs {regs[1]:3} | llvm/ours {llvm_us / ours_us:.3f}')
        report['timings'].append({'case': case.name, 'variant': case.variant(size), 'shape': case.shape(size),
                                  'ours_us': ours_us, 'llvm_us': llvm_us, 'ratio_llvm_over_ours': llvm_us / ours_us,
                                  'ours_regs': regs[0], 'llvm_regs': regs[1]})
    return failures


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--build', default='build/gpu', help='the build with llvm/ beside it (build.sh --via-llvm)')
    ap.add_argument('--case', help='comma-separated case names (bench/gpu); default all')
    ap.add_argument('--iters', type=int, default=100)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--no-time', dest='time', action='store_false', help='check only')
    ap.add_argument('--json', help='write checks, agreement and timings to this file')
    opts = ap.parse_args(argv)
    selected = case_registry.load(opts.case.split(',') if opts.case else None)
    import casekit  # bench/gpu: on the path once the cases are loaded
    report = {'checks': [], 'agreement': [], 'timings': [], 'missing': []}
    failures, loaded = 0, {}
    for ci, case in enumerate(selected):
        sizes = case.sizes_check + ([s for s in case.sizes_time if s not in case.sizes_check] if opts.time else [])
        for si, size in enumerate(sizes):
            stem = case_registry.artifact(case.name, case.variant(size))
            paths = [os.path.join(opts.build, stem + '.ptx'), os.path.join(opts.build, 'llvm', stem + '.ptx')]
            try:
                kernels = [loaded.get(p) or loaded.setdefault(p, runner.Kernel(p)) for p in paths]
            except Exception as e:  # missing or unloadable PTX: report and go on
                failures += 1
                report['missing'].append(stem)
                log(f'MISSING {stem}: {e}')
                continue
            try:
                failures += run_case(case, size, kernels, opts.seed * 1000 + ci * 100 + si, opts, casekit, report)
            except Exception as e:  # a launch error: report it; stop if the CUDA context is gone
                failures += 1
                log(f'ERROR {stem} {case.shape(size)}: {type(e).__name__}: {e}')
                try:
                    torch.cuda.synchronize()
                except RuntimeError:
                    log('the CUDA context is broken (illegal access?): stopping')
                    break
            torch.cuda.empty_cache()
    if opts.json:
        with open(opts.json, 'w') as f:
            json.dump(report, f, indent=1)
    log(f'{len(report["checks"])} checks, {failures} failures or missing kernels')
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
