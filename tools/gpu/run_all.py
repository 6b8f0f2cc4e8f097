#!/usr/bin/env python3
"""Checks, times and sanitizes our compiled kernels (build/gpu/*.ptx + .json from tools/gpu/build.sh)
against float64 references and against the same kernels in Triton, for every case of bench/gpu.

  python3 tools/gpu/run_all.py --check --time --sanitize [--isolate] [--case softmax,row_sum] [--json FILE]

--check   each case's check sizes: our output (poisoned first, with guard zones) vs the reference,
          and Triton's output too; PASS/FAIL with the max error.
--time    each case's time sizes: median of --iters runs (CUDA events, cold L2) of ours and Triton's.
--sanitize  each case's small sizes under compute-sanitizer memcheck, racecheck and synccheck.
--isolate   each case in its own process: a crash or hang (--case-timeout) costs only that case.
A case with `race_suffix` also has variants built without insert-barriers (<variant><suffix>):
--sanitize runs racecheck on them too and expects it to report hazards (clean there is a failure).
Exit status 1 if any check fails, a kernel is missing, or a sanitizer reports errors.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases as case_registry  # noqa: E402
import runner  # noqa: E402

casekit = None  # bench/gpu/casekit.py, imported with the cases

SANITIZER_TOOLS = ['memcheck', 'racecheck', 'synccheck']
SANITIZER_ERRORS = 99


def log(*a):
    """print, flushed."""
    print(*a, flush=True)


def kernel_for(case, size, build, cache, suffix=''):
    """Our loaded kernel for the variant that handles `size`; raises if missing or inconsistent."""
    stem = case_registry.artifact(case.name, case.variant(size) + suffix)
    if stem not in cache:
        ptx = os.path.join(build, stem + '.ptx')
        if not os.path.exists(ptx):
            raise FileNotFoundError(f'{ptx} not built')
        k = runner.Kernel(ptx)
        mine = [(p['kind'], p['type']) for p in k.params if not p['name'].startswith('__')]
        want = [(kind, ty) for _, kind, ty in case.params_for(size)]
        if mine != want:
            raise ValueError(f'{stem}: metadata params {mine} but the case passes {want}')
        cache[stem] = k
    return cache[stem]


def verify(case, t, ref):
    """Compares every output with its reference and checks its guard zones: (ok, text)."""
    ok, parts = True, []
    for name, (expected, rtol, atol) in ref.items():
        good, max_abs, worst = casekit.compare(t[name], expected, rtol, atol)
        guard = casekit.guard_ok(t[name])
        ok = ok and good and guard
        parts.append(f'{name}: max_abs={max_abs:.3g} err/tol={worst:.3g}' + ('' if guard else ' GUARD ZONE WRITTEN'))
    return ok, ', '.join(parts)


def gbps(nbytes, us):
    """GB/s for nbytes moved in us microseconds."""
    return nbytes / (us * 1e-6) / 1e9 if us else 0.0


def run_size(case, size, k, seed, opts, report):
    """Check (and time) one size of one case, appending to report['checks'] / report['timings']."""
    label = f'{case.name:15} {case.variant(size) or "-":6} {case.shape(size):12}'
    t = case.make(size, casekit.generator(seed))
    ref = case.reference(t, size)
    ours = k.bind(case.grid(size), case.args(t, size))
    ours()
    torch.cuda.synchronize()
    ok, text = verify(case, t, ref)
    log(f'{"PASS" if ok else "FAIL"}  {label} ours    {text}')
    report['checks'].append({'case': case.name, 'variant': case.variant(size), 'shape': case.shape(size),
                             'who': 'ours', 'ok': ok, 'detail': text, 'seed': seed})
    triton_fn = None
    if not opts.check_only and not opts.no_triton:
        for name in case.outputs:
            casekit.repoison(t[name])
        triton_fn = case.triton_launch(t, size)
        triton_fn()
        torch.cuda.synchronize()
        tok, ttext = verify(case, t, ref)
        log(f'{"PASS" if tok else "FAIL"}  {label} triton  {ttext}')
        report['checks'].append({'case': case.name, 'variant': case.variant(size), 'shape': case.shape(size),
                                 'who': 'triton', 'ok': tok, 'detail': ttext, 'seed': seed})
    if opts.time and size in case.sizes_time:
        nbytes = case.bytes_moved(size)
        # Ours, Triton's and the baselines' launches alternate (runner.time_interleaved_us).
        others = case.baselines(t, size) if hasattr(case, 'baselines') and triton_fn is not None else {}
        fns = [ours] + ([triton_fn] if triton_fn is not None else []) + list(others.values())
        timed = runner.time_interleaved_us(fns, opts.iters, opts.warmup, not opts.no_flush)
        ours_us, ours_min = timed[0]
        tri_us = tri_min = None
        if triton_fn is not None:
            tri_us, tri_min = timed[1]
        row = {'case': case.name, 'variant': case.variant(size), 'shape': case.shape(size), 'ours_us': ours_us,
               'triton_us': tri_us, 'ours_gbps': gbps(nbytes, ours_us), 'triton_gbps': gbps(nbytes, tri_us),
               'ratio': (tri_us / ours_us) if tri_us else None, 'ours_min_us': ours_min, 'triton_min_us': tri_min,
               'bytes': nbytes, 'regs': k.regs, 'local_bytes': k.local_bytes, 'threads': k.threads,
               'shared_bytes': k.shared, 'resident_ctas': k.resident_ctas, 'ctas_per_sm_hint': k.ctas_per_sm,
               'carveout_percent': k.carveout, 'correct': ok}
        flops = case.flops(size) if hasattr(case, 'flops') else None
        if flops:
            row['ours_tflops'] = flops / ours_us / 1e6
            row['triton_tflops'] = flops / tri_us / 1e6 if tri_us else None
        # Other libraries on the same inputs (a case's `baselines`, e.g. cuBLAS through torch.matmul).
        extra = ''
        for name, (us, _) in zip(others, timed[2:]):
            row[f'{name}_us'] = us
            row[f'{name}_ratio'] = us / ours_us
            extra += f' | {name} {us:9.2f} us ratio {us / ours_us:.3f}'
        report['timings'].append(row)
        rate = (lambda us: f'{flops / us / 1e6:7.1f} TFLOP/s') if flops else (lambda us: f'{gbps(nbytes, us):7.1f} GB/s')
        log(f'TIME  {label} ours {ours_us:9.2f} us {rate(ours_us)} regs {k.regs} local {k.local_bytes} ctas/SM {k.resident_ctas}'
            + (f' | triton {tri_us:9.2f} us {rate(tri_us)} | ratio {row["ratio"]:.3f}' if tri_us else '') + extra)
    return ok


def context_alive():
    """Whether the CUDA context still works (an illegal address poisons it for the process)."""
    try:
        torch.cuda.synchronize()
        return True
    except RuntimeError:
        return False


def run_cases(selected, opts, report):
    """--check / --time / --check-only over the selected cases. Returns the number of failures."""
    failures, cache = 0, {}
    for ci, case in enumerate(selected):
        sizes = case.sizes_sanitize if opts.check_only else case.sizes_check
        for si, size in enumerate(sizes):
            seed = opts.seed * 1000 + ci * 100 + si
            try:
                k = kernel_for(case, size, opts.build, cache, opts.variant_suffix)
            except Exception as e:  # missing or unloadable PTX: report and go on
                failures += 1
                log(f'MISSING {case.name} {case.variant(size)}: {e}')
                report['checks'].append({'case': case.name, 'variant': case.variant(size), 'shape': case.shape(size),
                                         'who': 'ours', 'ok': False, 'detail': f'not loaded: {e}'})
                continue
            try:
                if not run_size(case, size, k, seed, opts, report):
                    failures += 1
            except Exception as e:
                failures += 1
                log(f'ERROR {case.name} {case.variant(size)} {case.shape(size)}: {type(e).__name__}: {e}')
                report['checks'].append({'case': case.name, 'variant': case.variant(size), 'shape': case.shape(size),
                                         'who': 'ours', 'ok': False, 'detail': f'{type(e).__name__}: {e}'})
                if not context_alive():
                    log('the CUDA context is broken (illegal access?): stopping; try --sanitize --case ' + case.name)
                    return failures + 1
            torch.cuda.empty_cache()
    return failures


def run_isolated(selected, opts, report):
    """--isolate: each case in its own process (same options), so that a crash or a hang (killed after
    --case-timeout seconds) in one case leaves the others measured. Returns the number of failures."""
    failures = 0
    flags = [f for f, on in (('--check', opts.check), ('--time', opts.time), ('--no-triton', opts.no_triton),
                             ('--no-flush', opts.no_flush)) if on]
    for case in selected:
        with tempfile.TemporaryDirectory() as tmp:
            sub_json = os.path.join(tmp, 'report.json')
            cmd = [sys.executable, '-u', os.path.abspath(__file__), '--child', '--case', case.name, '--build', opts.build,
                   '--seed', str(opts.seed), '--iters', str(opts.iters), '--warmup', str(opts.warmup),
                   '--json', sub_json] + flags
            try:
                rc = subprocess.run(cmd, timeout=opts.case_timeout).returncode
            except subprocess.TimeoutExpired:
                rc = 'timeout'
            sub = None
            if os.path.exists(sub_json):
                with open(sub_json) as f:
                    sub = json.load(f)
        if sub is None:
            detail = f'timed out after {opts.case_timeout} s' if rc == 'timeout' else f'process died (rc={rc})'
            log(f'ERROR {case.name}: {detail}')
            report['checks'].append({'case': case.name, 'variant': '', 'shape': '', 'who': 'ours', 'ok': False,
                                     'detail': detail})
            failures += 1
            continue
        report['checks'] += sub['checks']
        report['timings'] += sub['timings']
        failures += rc != 0
    return failures


def print_table(rows):
    """The timing table: case, shape, ours/Triton µs and GB/s, ratio (Triton time / ours: >1 = ours faster)."""
    head = f'{"case":15} {"variant":7} {"shape":12} {"ours us":>10} {"triton us":>10} {"ours GB/s":>10} ' \
           f'{"triton GB/s":>11} {"ratio":>7} {"regs":>5}'
    log('\n' + head + '\n' + '-' * len(head))
    for r in rows:
        tri = f'{r["triton_us"]:10.2f}' if r['triton_us'] else f'{"-":>10}'
        tgb = f'{r["triton_gbps"]:11.1f}' if r['triton_us'] else f'{"-":>11}'
        ratio = f'{r["ratio"]:7.3f}' if r['ratio'] else f'{"-":>7}'
        flag = '' if r['correct'] else '  (WRONG RESULT)'
        log(f'{r["case"]:15} {r["variant"] or "-":7} {r["shape"]:12} {r["ours_us"]:10.2f} {tri} '
            f'{r["ours_gbps"]:10.1f} {tgb} {ratio} {r["regs"]:5}{flag}')


def sanitize(selected, opts, report):
    """Re-runs this script in --check-only mode under compute-sanitizer for each case and tool; then
    racecheck on the variants built without insert-barriers, where hazards are expected."""
    failures = 0
    runs = [(case, tool, '') for case in selected for tool in opts.tools.split(',')]
    runs += [(case, 'racecheck', case.race_suffix) for case in selected if getattr(case, 'race_suffix', '')]
    for case, tool, suffix in runs:
        names = set()
        for size in case.sizes_sanitize:
            meta = os.path.join(opts.build, case_registry.artifact(case.name, case.variant(size) + suffix) + '.json')
            if os.path.exists(meta):
                with open(meta) as f:
                    names.add(json.load(f)['name'])
        kname = next(iter(names)) if len(names) == 1 else None
        child = [sys.executable, '-u', os.path.abspath(__file__), '--check-only', '--case', case.name,
                 '--build', opts.build, '--seed', str(opts.seed)] + (['--variant-suffix', suffix] if suffix else [])
        base = ['compute-sanitizer', '--tool', tool, '--error-exitcode', str(SANITIZER_ERRORS)]
        filt = ['--kernel-name', f'kns={kname}'] if kname else []
        start = time.time()
        try:
            p = subprocess.run(base + filt + child, capture_output=True, text=True, timeout=opts.sanitize_timeout)
            if filt and p.returncode not in (0, 1, SANITIZER_ERRORS) and 'kernel-name' in p.stdout + p.stderr:
                p = subprocess.run(base + child, capture_output=True, text=True, timeout=opts.sanitize_timeout)
            out, rc = p.stdout + p.stderr, p.returncode
        except subprocess.TimeoutExpired as e:
            text = [x.decode(errors='replace') if isinstance(x, bytes) else (x or '') for x in (e.stdout, e.stderr)]
            out, rc = ''.join(text) + f'\ntimed out after {opts.sanitize_timeout} s', None
        except FileNotFoundError:
            out, rc = 'compute-sanitizer not found', None
        summary = '; '.join(re.findall(r'(?:ERROR|RACECHECK|SYNCCHECK|MEMCHECK) SUMMARY: [^\n]*', out)) or '-'
        status = {0: 'clean', SANITIZER_ERRORS: 'ERRORS', 1: 'CHECK FAILED'}.get(rc, f'FAILED (rc={rc})')
        if rc == 0 and re.search(r'SUMMARY: [1-9]', out):
            status = 'ERRORS'
        if suffix:
            # built without insert-barriers: hazards are what should be found
            status = {'ERRORS': 'hazards (expected)', 'clean': 'NO HAZARDS'}.get(status, status)
            failures += status != 'hazards (expected)'
        else:
            failures += status != 'clean'
        label = case.name + suffix
        log(f'SANITIZE {tool:9} {label:15} {status:13} {summary} ({time.time() - start:.0f} s)')
        if status != 'clean':
            log('\n'.join('    ' + line for line in out.strip().splitlines()[-40:]))
        report['sanitize'].append({'case': label, 'tool': tool, 'status': status, 'summary': summary,
                                   'seconds': round(time.time() - start, 1)})
    return failures


def parse_args(argv):
    """Command-line options."""
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--build', default='build/gpu', help='folder of <case>[.<variant>].ptx/.json (default build/gpu)')
    ap.add_argument('--case', help='comma-separated case names (default: all); see bench/gpu/')
    ap.add_argument('--check', action='store_true', help='correctness at the check sizes')
    ap.add_argument('--time', action='store_true', help='timings at the time sizes (checked first)')
    ap.add_argument('--sanitize', action='store_true', help='compute-sanitizer on the small sizes')
    ap.add_argument('--tools', default=','.join(SANITIZER_TOOLS), help='sanitizer tools (default: %(default)s)')
    ap.add_argument('--sanitize-timeout', type=int, default=300, help='seconds per sanitizer run')
    ap.add_argument('--check-only', action='store_true', help='our kernel only, small sizes (used under the sanitizer)')
    ap.add_argument('--isolate', action='store_true', help='each case in its own process (crash/hang proof)')
    ap.add_argument('--case-timeout', type=int, default=120, help='seconds per case with --isolate')
    ap.add_argument('--child', action='store_true', help=argparse.SUPPRESS)
    ap.add_argument('--no-triton', action='store_true', help='do not run the Triton kernels')
    ap.add_argument('--variant-suffix', default='', help='load <variant><suffix> builds (e.g. _nobar: without insert-barriers)')
    ap.add_argument('--iters', type=int, default=100)
    ap.add_argument('--warmup', type=int, default=10)
    ap.add_argument('--no-flush', action='store_true', help='do not flush L2 between timed runs')
    ap.add_argument('--seed', type=int, default=None, help='random seed (default: new each run, printed)')
    ap.add_argument('--json', help='write checks, timings and sanitizer results to this JSON file')
    opts = ap.parse_args(argv)
    if not (opts.check or opts.time or opts.sanitize or opts.check_only):
        opts.check = True
    opts.build = os.path.abspath(opts.build)
    if opts.seed is None:
        opts.seed = int.from_bytes(os.urandom(3), 'little')
    return opts


def main(argv=None):
    """Runs the selected modes; returns the exit status."""
    global casekit
    opts = parse_args(argv)
    os.chdir(case_registry.REPO)
    selected = case_registry.load(opts.case.split(',') if opts.case else None)
    import casekit as ck
    casekit = ck
    report = {'device': torch.cuda.get_device_name(), 'torch': torch.__version__, 'seed': opts.seed,
              'build': opts.build, 'checks': [], 'timings': [], 'sanitize': []}
    try:
        import triton
        report['triton'] = triton.__version__
    except ImportError:
        pass
    if not (opts.check_only or opts.child):
        log(f'device {report["device"]}, torch {report["torch"]}, triton {report.get("triton")}, seed {opts.seed}, '
            f'build {opts.build}')
    failures = 0
    if opts.isolate and (opts.check or opts.time):
        failures += run_isolated(selected, opts, report)
    elif opts.check or opts.time or opts.check_only:
        failures += run_cases(selected, opts, report)
    if report['timings'] and not opts.child:
        print_table(report['timings'])
    if opts.sanitize:
        failures += sanitize(selected, opts, report)
    if opts.json:
        with open(opts.json, 'w') as f:
            json.dump(report, f, indent=1)
    if not (opts.check_only or opts.child):
        n_ok = sum(c['ok'] for c in report['checks'])
        log(f'\n{n_ok}/{len(report["checks"])} checks passed, {len(report["timings"])} timed, '
            f'{sum(s["status"] == "clean" for s in report["sanitize"])}/{len(report["sanitize"])} sanitizer runs clean')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
