"""Layernorm forward (Triton's tutorial kernel) as written and with cache hints or a peeled first block,
timed interleaved in one process (issue 14: is there a lever Triton does not use?). Run from the
repository root on the GPU machine: python bench/gpu/experiments/layernorm_variants.py
Log of 2026-11-29: bench/gpu/results/2026-11-29/s115-layernorm-triton-variants.txt."""
import sys, torch, triton, triton.language as tl
sys.path.insert(0, 'tools/gpu')
import runner

@triton.jit
def ln(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK: tl.constexpr, EV1: tl.constexpr, EV3: tl.constexpr,
       YCS: tl.constexpr, PEEL: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    _mean = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        a = tl.load(X + cols, mask=cols < N, other=0., eviction_policy=EV1).to(tl.float32)
        _mean += a
    if PEEL:
        cols0 = tl.arange(0, BLOCK)
        x0 = tl.load(X + cols0, mask=cols0 < N, other=0., eviction_policy=EV1).to(tl.float32)
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK], dtype=tl.float32)
    if PEEL:
        x0 = tl.where(cols0 < N, x0 - mean, 0.)
        _var += x0 * x0
        start = BLOCK
    else:
        start = 0
    for off in range(start, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < N, other=0., eviction_policy=EV1).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0., eviction_policy=EV3).to(tl.float32)
        y = (x - mean) * rstd * w + b
        if YCS:
            tl.store(Y + cols, y, mask=mask, cache_modifier='.cs')
        else:
            tl.store(Y + cols, y, mask=mask)

VARIANTS = {
    'base': dict(EV1='', EV3='', YCS=False, PEEL=False),
    'evl1': dict(EV1='evict_last', EV3='', YCS=False, PEEL=False),
    'evl1f3': dict(EV1='evict_last', EV3='evict_first', YCS=False, PEEL=False),
    'f3': dict(EV1='', EV3='evict_first', YCS=False, PEEL=False),
    'ycs': dict(EV1='', EV3='', YCS=True, PEEL=False),
    'peel': dict(EV1='', EV3='', YCS=False, PEEL=True),
    'all': dict(EV1='evict_last', EV3='evict_first', YCS=True, PEEL=False),
}
SIZES = [(4096, 4096, 1024, 8), (16384, 4096, 1024, 8), (4096, 1000, 1024, 8), (4096, 1000, 1024, 4),
         (4096, 4096, 4096, 8), (8192, 8192, 1024, 8), (4096, 2048, 1024, 8)]
g = torch.Generator(device='cuda').manual_seed(7)
for (M, N, BLK, NW) in SIZES:
    x = (torch.randn((M, N), device='cuda', generator=g) * 0.5 - 2.3).half()
    w = torch.rand((N,), device='cuda', generator=g).half(); b = torch.rand((N,), device='cuda', generator=g).half()
    ref = torch.nn.functional.layer_norm(x.double(), (N,), w.double(), b.double(), 1e-5)
    fns, names = [], []
    for name, kw in VARIANTS.items():
        y = torch.empty_like(x); mean = torch.empty(M, device='cuda'); rstd = torch.empty(M, device='cuda')
        f = (lambda y=y, mean=mean, rstd=rstd, kw=kw: ln[(M,)](x, y, w, b, mean, rstd, x.stride(0), N, 1e-5,
                                                              BLOCK=BLK, num_warps=NW, **kw))
        f(); torch.cuda.synchronize()
        err = (y.double() - ref).abs().max().item()
        assert err < 2e-2, (name, err)
        fns.append(f); names.append(name)
    for rep in range(2):
        res = runner.time_interleaved_us(fns, iters=300, warmup=20)
        base = res[0][0]
        print(f'{M}x{N} B{BLK} w{NW} r{rep}: ' + '  '.join(f'{n} {t:.2f} ({base/t:.3f})' for n, (t, _) in zip(names, res)), flush=True)
