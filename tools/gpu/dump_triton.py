#!/usr/bin/env python3
"""Compiles every case's Triton kernel with Triton itself, for every size the case launches, and writes

  OUT/kernels/<case>[.<variant>].ttir   Triton's TTIR (the compiler input; file paths in locations made
                                         relative to the repository), for the cases whose input is TTIR
  OUT/ptx/<case>[.<variant>].ptx/.json  Triton's PTX with a metadata JSON in our compiler's format, so that
                                         `run_all.py --build OUT/ptx` runs Triton's PTX through our runner
  OUT/dump.json                          the specialization and Triton metadata of each
  TTGIR_OUT/<case>[.<variant>].ttgir     with --ttgir-out TTGIR_OUT: Triton's TTGIR without locations (as in
                                         bench/gpu/triton_ttgir; `.sm<arch>` before `.ttgir` unless arch 90)

Each size is compiled with the arguments it is launched with, so the TTIR carries Triton's
specialization (tt.divisibility = 16 on integers divisible by 16 and aligned pointers); sizes that map to
the same variant must give the same TTIR, which is checked. On the GPU machine it uses kernel.warmup(...);
--offline compiles for sm_90 without a GPU (Triton's own specialization code, meta tensors).

  python3 tools/gpu/dump_triton.py --out build/triton [--offline] [--compare bench/gpu/kernels] [--tune]
                                   [--ttgir-out bench/gpu/triton_ttgir]
"""
import argparse
import json
import os
import re
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases as case_registry  # noqa: E402


def strip_locations(ir):
    """TTIR without location info (#loc lines and loc(...) suffixes), for comparing texts."""
    lines = [line for line in ir.splitlines() if not line.startswith('#loc')]
    text = '\n'.join(lines)
    previous = None
    while previous != text:
        previous = text
        text = re.sub(r'\s*loc\((?:[^()]|\([^()]*\))*\)', '', text)
    return text.strip() + '\n'


def compile_offline(fn, args, kw, arch=90):
    """Compiles a @triton.jit kernel for cuda:<arch> without a GPU, specializing like a launch would."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource, make_backend
    from triton.runtime.jit import create_function_from_signature, find_paths_if, get_iterable_path
    target = GPUTarget('cuda', arch, 32)
    backend = make_backend(target)
    binder = create_function_from_signature(fn.signature, fn.params, backend)
    kw = dict(kw, debug=False)
    bound, spec, _ = binder(*args, **kw)
    sigvals = [s[0] for s in spec]
    signature = {p.name: v for p, v in zip(fn.params, sigvals)}
    constexprs = {p: get_iterable_path(list(bound.values()), p)
                  for p in find_paths_if(sigvals, lambda _, v: v == 'constexpr')}
    attrvals = [s[1] for s in spec]
    attrs = {k: backend.parse_attr(get_iterable_path(attrvals, k))
             for k in find_paths_if(attrvals, lambda _, x: isinstance(x, str))}
    options = backend.parse_options(kw)
    return triton.compile(ASTSource(fn, signature, constexprs, attrs), target=target, options=options.__dict__)


def write_stripped_ttgir(compiled, stem, folder):
    """Writes Triton's TTGIR of `compiled` without locations to folder/<stem>[.sm<arch>].ttgir (no suffix
    for arch 90), as committed in bench/gpu/triton_ttgir."""
    arch = getattr(compiled.metadata.target, 'arch', 90)
    name = stem + ('' if arch == 90 else f'.sm{arch}') + '.ttgir'
    with open(os.path.join(folder, name), 'w') as f:
        f.write(strip_locations(compiled.asm['ttgir'].replace(case_registry.REPO + '/', '')))


def metadata_for(case, size, compiled, ptx):
    """Our compiler's metadata JSON for Triton's PTX: the case's parameters for `size` plus Triton's
    extra scratch pointers (named '__...' so that the runner passes null for them)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import runner
    name, ptx_params = runner.ptx_entry_params(ptx)
    ours = case.params_for(size)
    params = [{'name': n, 'kind': kind, 'type': ty} for n, kind, ty in ours]
    md = compiled.metadata
    scratch = getattr(md, 'global_scratch_size', 0)
    for i in range(len(params), len(ptx_params)):
        if i == len(ours) and scratch:
            # Triton's global scratch (tensor maps it writes on the device): the runner allocates it
            params.append({'name': '__triton_global_scratch', 'kind': 'global_scratch', 'type': 'i8', 'bytes_per_program': scratch})
            continue
        params.append({'name': f'__triton_extra_{i - len(ours)}', 'kind': 'pointer', 'type': 'i8'})
    return {'name': name, 'arch': 'sm_90a', 'num_warps': md.num_warps, 'threads_per_block': 32 * md.num_warps,
            'shared_bytes': md.shared, 'params': params}


def dump_case(case, opts, summary):
    """Compiles every size of one case and writes its files. Returns the number of problems."""
    import casekit
    problems, seen = 0, {}
    sizes = []
    for s in case.sizes_check + case.sizes_time + case.sizes_sanitize:
        if s not in sizes:
            sizes.append(s)
    for size in sizes:
        stem = case_registry.artifact(case.name, case.variant(size))
        t = case.make(size, casekit.generator(1))
        args = case.triton_args(t, size)
        kw = dict(case.constexprs(size), num_warps=case.num_warps(size))
        if getattr(case, 'num_stages', None):
            kw['num_stages'] = case.num_stages
        if opts.offline:
            compiled = compile_offline(case.kernel, args, kw, opts.arch)
        else:
            compiled = case.kernel.warmup(*args, grid=case.grid(size), **kw)
        ttir = compiled.asm['ttir'].replace(case_registry.REPO + '/', '')
        del t
        if stem in seen:
            if strip_locations(seen[stem]) != strip_locations(ttir):
                problems += 1
                print(f'ERROR {stem}: size {size} gives another TTIR than an earlier size of the same variant')
            continue
        seen[stem] = ttir
        ptx = compiled.asm['ptx']
        md = compiled.metadata
        extra = {k: getattr(md, k, 0) for k in ('global_scratch_size', 'profile_scratch_size')}
        if extra['profile_scratch_size']:
            problems += 1
            print(f'ERROR {stem}: Triton needs profile scratch memory {extra}; the runner passes a null pointer')
        if case.dump_ttir:
            with open(os.path.join(opts.out, 'kernels', stem + '.ttir'), 'w') as f:
                f.write(ttir)
        with open(os.path.join(opts.out, 'ptx', stem + '.ptx'), 'w') as f:
            f.write(ptx)
        if 'ttgir' in compiled.asm:
            with open(os.path.join(opts.out, 'ptx', stem + '.ttgir'), 'w') as f:
                f.write(compiled.asm['ttgir'].replace(case_registry.REPO + '/', ''))
            if opts.ttgir_out:
                write_stripped_ttgir(compiled, stem, opts.ttgir_out)
        with open(os.path.join(opts.out, 'ptx', stem + '.json'), 'w') as f:
            json.dump(metadata_for(case, size, compiled, ptx), f, indent=1)
        spec = re.search(r'tt\.func public @\w+\((.*?)\) attributes', strip_locations(ttir))
        summary[stem] = {'size': size, 'num_warps': md.num_warps, 'shared': md.shared, 'name': md.name,
                         'ttir_signature': spec.group(1) if spec else None, 'ptx_bytes': len(ptx), **extra}
        same = ''
        if opts.compare and case.dump_ttir:
            committed = os.path.join(opts.compare, stem + '.ttir')
            if not os.path.exists(committed):
                same = ' (no committed TTIR to compare)'
            elif strip_locations(open(committed).read()) == strip_locations(ttir):
                same = ' (same as committed)'
            else:
                problems += 1
                same = ' (DIFFERENT from committed)'
            summary[stem]['committed'] = same.strip(' ()')
        print(f'{stem:22} warps={md.num_warps} shared={md.shared} ptx={len(ptx)} B{same}')
    return problems


def tune(case, opts):
    """Times the Triton kernel of `case` for each of case.tune_warps at its time sizes (GPU only)."""
    import casekit
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import runner
    for size in case.sizes_time:
        t = case.make(size, casekit.generator(2))
        times = {}
        for w in case.tune_warps:
            times[w] = runner.time_us(case.triton_launch(t, size, num_warps=w), opts.iters)[0]
        best = min(times, key=times.get)
        print(f'tune {case.name:12} {case.shape(size):12} ' + '  '.join(f'{w} warps {us:8.2f} us' for w, us in times.items())
              + f'  -> best {best}, chosen {case.num_warps(size)}')
        del t
        torch.cuda.empty_cache()


def cupy_smoke(opts):
    """Loads Triton's vector add PTX with cupy.RawModule and checks one launch (GPU only)."""
    import cupy
    import numpy as np
    stem = os.path.join(opts.out, 'ptx', 'vector_add_f32.odd')
    meta = json.load(open(stem + '.json'))
    fn = cupy.RawModule(path=stem + '.ptx').get_function(meta['name'])
    n = 1_000_003
    x, y = torch.randn(n, device='cuda'), torch.randn(n, device='cuda')
    out = torch.full((n,), float('nan'), device='cuda')
    extra = [np.uint64(0)] * (len(meta['params']) - 4)
    torch.cuda.synchronize()
    fn(((n + 1023) // 1024,), (meta['threads_per_block'],),
       (np.uint64(x.data_ptr()), np.uint64(y.data_ptr()), np.uint64(out.data_ptr()), np.int32(n), *extra),
       shared_mem=meta['shared_bytes'])
    cupy.cuda.runtime.deviceSynchronize()
    err = (out - (x + y)).abs().max().item()
    print(f'cupy.RawModule smoke test: {"PASS" if err == 0 else "FAIL"} (max error {err})')


def main(argv=None):
    """CLI."""
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--out', default='build/triton')
    ap.add_argument('--case', help='comma-separated case names (default: all)')
    ap.add_argument('--offline', action='store_true', help='no GPU: compile for cuda:<arch> with meta tensors')
    ap.add_argument('--arch', type=int, default=90, help='compute capability for --offline (80: the sm_80 mma.sync path)')
    ap.add_argument('--compare', help='folder of committed TTIR to compare with (e.g. bench/gpu/kernels)')
    ap.add_argument('--tune', action='store_true', help='time Triton with each case.tune_warps (GPU only)')
    ap.add_argument('--ttgir-out', help="also write Triton's TTGIR without locations into this folder")
    ap.add_argument('--iters', type=int, default=100)
    ap.add_argument('--cupy-smoke', action='store_true', help='also launch one PTX through cupy.RawModule')
    opts = ap.parse_args(argv)
    opts.out = os.path.abspath(opts.out)
    opts.compare = opts.compare and os.path.abspath(opts.compare)
    opts.ttgir_out = opts.ttgir_out and os.path.abspath(opts.ttgir_out)
    if opts.ttgir_out:
        os.makedirs(opts.ttgir_out, exist_ok=True)
    os.chdir(case_registry.REPO)
    selected = case_registry.load(opts.case.split(',') if opts.case else None)
    import casekit
    if opts.offline:
        casekit.DEVICE = 'meta'
    for sub in ('kernels', 'ptx'):
        os.makedirs(os.path.join(opts.out, sub), exist_ok=True)
    summary, problems = {}, 0
    for case in selected:
        problems += dump_case(case, opts, summary)
    with open(os.path.join(opts.out, 'dump.json'), 'w') as f:
        json.dump(summary, f, indent=1)
    if opts.cupy_smoke:
        cupy_smoke(opts)
    if opts.tune:
        for case in selected:
            if case.tune_warps:
                tune(case, opts)
    print(f'{len(summary)} variants dumped to {opts.out}, {problems} problem(s)')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
