"""LayerNorm forward, the Triton tutorial 05 kernel (_layer_norm_fwd_fused): one program per row of an
fp16 M x N matrix, statistics in fp32, writes Y (fp16), Mean and Rstd (fp32).

As in the tutorial: BLOCK_SIZE = min(65536 // 2, next_power_of_2(N)) and
num_warps = min(max(BLOCK_SIZE // 256, 1), 8), i.e. 4 warps for N=1000 and 8 for N=4096 (variants
b1024, b4096). The b1024w8 variants keep BLOCK_SIZE 1024 with 8 warps: `.odd` at 1000 columns (stride
and N not multiples of 16), `.d16` at 4096 columns (each loop runs 4 times per row); a size selects
them with the keys 'block' (1024) and 'warps' (8).
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    'b1024': {'src': 'bench/gpu/kernels/layernorm.b1024.ttir'},
    'b4096': {'src': 'bench/gpu/kernels/layernorm.b4096.ttir', 'num_warps': 8},
    'b1024w8.odd': {'src': 'bench/gpu/kernels/layernorm.b1024w8.odd.ttir', 'num_warps': 8},
    'b1024w8.d16': {'src': 'bench/gpu/kernels/layernorm.b1024w8.d16.ttir', 'num_warps': 8},
}

EPS = 1e-5


@triton.jit
def _layer_norm_fwd_fused(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    mean = 0
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


class LayerNorm(casekit.RowCase):
    """y = (x - mean) * rstd * w + b per row, x/w/b/y fp16, mean/rstd fp32."""
    kernel = _layer_norm_fwd_fused
    params = [('X', 'pointer', 'f16'), ('Y', 'pointer', 'f16'), ('W', 'pointer', 'f16'), ('B', 'pointer', 'f16'),
              ('Mean', 'pointer', 'f32'), ('Rstd', 'pointer', 'f32'), ('stride', 'scalar', 'i32'),
              ('N', 'scalar', 'i32'), ('eps', 'scalar', 'f32')]
    outputs = ['y', 'mean', 'rstd']
    # Optional size keys 'block' (BLOCK_SIZE) and 'warps' pick a variant other than the tutorial's;
    # only block 1024 with 8 warps (b1024w8.*) is built.
    sizes_time = [{'rows': 4096, 'cols': 1000}, {'rows': 4096, 'cols': 4096},
                  {'rows': 4096, 'cols': 1000, 'block': 1024, 'warps': 8},
                  {'rows': 4096, 'cols': 4096, 'block': 1024, 'warps': 8}]
    sizes_check = sizes_time + [{'rows': 611, 'cols': 1000}, {'rows': 611, 'cols': 1000, 'block': 1024, 'warps': 8},
                                {'rows': 333, 'cols': 4096, 'block': 1024, 'warps': 8}]
    sizes_sanitize = [{'rows': 37, 'cols': 1000}, {'rows': 21, 'cols': 4096},
                      {'rows': 37, 'cols': 1000, 'block': 1024, 'warps': 8},
                      {'rows': 21, 'cols': 4096, 'block': 1024, 'warps': 8}]

    @staticmethod
    def tutorial_block(cols):
        """The tutorial's BLOCK_SIZE for `cols` columns."""
        return min(65536 // 2, casekit.next_pow2(cols))

    def variant(self, size):
        block = size.get('block', self.tutorial_block(size['cols']))
        warps = size.get('warps', min(max(block // 256, 1), 8))
        if block == 1024 and warps == 8:
            # Stride and N equal cols: divisible by 16 (4096) or not (1000).
            return 'b1024w8.d16' if size['cols'] % 16 == 0 else 'b1024w8.odd'
        v = super().variant(size)
        built = (int(v[1:]), self.builds[v].get('num_warps', self.default_warps))
        if (block, warps) != built:
            raise ValueError(f'layernorm: no variant built for {size} (block {block}, {warps} warps)')
        return v

    def shape(self, size):
        text = f"{size['rows']}x{size['cols']}"
        if 'block' in size or 'warps' in size:
            text += f" B{self.constexprs(size)['BLOCK_SIZE']} w{self.num_warps(size)}"
        return text

    def constexprs(self, size):
        return {'BLOCK_SIZE': size.get('block', self.tutorial_block(size['cols']))}

    def make(self, size, gen):
        m, n = size['rows'], size['cols']
        f16 = torch.float16
        return {'x': casekit.randn((m, n), f16, gen, scale=0.5, shift=-2.3), 'w': casekit.rand((n,), f16, gen),
                'b': casekit.rand((n,), f16, gen), 'y': casekit.poisoned((m, n), f16),
                'mean': casekit.poisoned((m,), torch.float32), 'rstd': casekit.poisoned((m,), torch.float32)}

    def args(self, t, size):
        return [t['x'], t['y'], t['w'], t['b'], t['mean'], t['rstd'], t['x'].stride(0), size['cols'], EPS]

    def reference(self, t, size):
        x = t['x'].double()
        mean = x.mean(dim=1)
        var = ((x - mean[:, None]) ** 2).mean(dim=1)
        rstd = 1.0 / torch.sqrt(var + EPS)
        y = (x - mean[:, None]) * rstd[:, None] * t['w'].double() + t['b'].double()
        # y is rounded to fp16 once (4.9e-4 relative); mean/rstd are fp32 sums of N terms.
        return {'y': (y, 1e-3, 1e-4), 'mean': (mean, 1e-5, 1e-5), 'rstd': (rstd, 5e-5, 0.0)}

    def bytes_moved(self, size):
        m, n = size['rows'], size['cols']
        return 2 * m * n * 2 + 2 * n * 2 + 2 * m * 4


CASE = LayerNorm()
