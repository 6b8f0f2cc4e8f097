"""Our tuning space's vector add with cache hints edited into its PTX, next to Triton's tutorial add
kernel at the same block sizes, timed interleaved in one process (issue 22: can a cache hint put the
tuned kernel ahead of Triton's?). Build the space first (bash bench/gpu/tuning/build.sh, no GPU needed),
carry build/tune, then on the GPU machine, from the repository root:
    python bench/gpu/experiments/vector_add_hints.py
Log of 2026-11-29: bench/gpu/results/2026-11-29/s116-vector-add-cache-hints.txt."""
import json
import os
import sys
import tempfile

import torch

sys.path.insert(0, 'tools/gpu')
sys.path.insert(0, 'bench/gpu')
import runner  # noqa: E402
import vector_add_f32  # noqa: E402  Triton's tutorial add kernel (masked)

SPACE = 'build/tune/vector_add'
# (the space's variant index, SIZE): -DSIZE=[32, 64, 128, 256, 512, 1024]
VARIANTS = {3: 256, 4: 512, 5: 1024}
# hint name -> edit of the PTX text
HINTS = {
    '.base': lambda t: t,
    '.nc': lambda t: t.replace('ld.global.v4', 'ld.global.nc.v4'),
    '.lna': lambda t: t.replace('ld.global.v4', 'ld.global.L1::no_allocate.v4'),
    '.stcs': lambda t: t.replace('st.global.v4', 'st.global.cs.v4'),
    '.cs': lambda t: t.replace('ld.global.v4', 'ld.global.cs.v4').replace('st.global.v4', 'st.global.cs.v4'),
    '.ef': lambda t: t.replace('ld.global.v4', 'ld.global.L1::evict_first.v4'),
}


def hinted_kernels(tmp):
    """Every (variant, hint) as a loaded kernel, by name (S512.nc)."""
    out = {}
    for k, size in VARIANTS.items():
        ptx = open(f'{SPACE}/vector-add-param.{k}.ptx').read()
        meta = json.load(open(f'{SPACE}/vector-add-param.{k}.json'))
        for hint, edit in HINTS.items():
            path = os.path.join(tmp, f'v{k}{hint}')
            open(path + '.ptx', 'w').write(edit(ptx))
            json.dump(meta, open(path + '.json', 'w'))
            out[f'S{size}{hint}'] = (runner.Kernel(path + '.ptx', path + '.json'), size)
    return out


def main():
    g = torch.Generator(device='cuda').manual_seed(11)
    with tempfile.TemporaryDirectory() as tmp:
        kernels = hinted_kernels(tmp)
        for n in [10 ** 4, 10 ** 6, 10 ** 7, 10 ** 8]:
            size = -(-n // 1024) * 1024
            a = torch.randn(size, device='cuda', generator=g)
            b = torch.randn(size, device='cuda', generator=g)
            ref = a[:n] + b[:n]
            fns, names = [], []
            for name, (kern, s) in kernels.items():
                c = torch.full((size,), float('nan'), device='cuda')
                run = kern.bind((-(-n // s),), [n, a, b, c])
                run()
                torch.cuda.synchronize()
                assert torch.equal(c[:n], ref), name
                fns.append(run)
                names.append(name)
            for bs in [256, 512, 1024]:
                c = torch.full((size,), float('nan'), device='cuda')
                f = (lambda c=c, bs=bs: vector_add_f32.add_kernel[(-(-n // bs),)](a, b, c, n, BLOCK_SIZE=bs, num_warps=4))
                f()
                torch.cuda.synchronize()
                assert torch.equal(c[:n], ref)
                fns.append(f)
                names.append(f'tri{bs}')
            for rep in range(2):
                res = runner.time_interleaved_us(fns, iters=400 if n < 10 ** 8 else 100, warmup=10)
                best = min(t for nm, (t, _) in zip(names, res) if nm.startswith('tri'))
                print(f'N={n} r{rep} (Triton best {best:.2f} us; ratio = Triton best / ours)')
                print('   ' + '  '.join(f'{nm} {t:.2f} ({best / t:.3f})' for nm, (t, _) in zip(names, res)), flush=True)


if __name__ == '__main__':
    main()
