"""fp16 matmul (C = A @ B, fp32 accumulation, fp16 out): Triton's tutorial 03 kernel with
BLOCK 128x256x64, GROUP_SIZE_M 8, 8 warps, 3 stages (the config of examples/ttir/matmul_kernel.*).

Triton specializes M, N, K and the row strides on divisibility by 16: 4096^3 and 8192^3 share the
`d16` TTIR, 1000x3000x700 (and the small sanitizer shape) the `odd` one. The `bf16.*` variants are
the same kernel on bf16 inputs (its output is rounded to fp16 and stored to a bf16 tensor, as the
tutorial kernel does). `fp8.d16` is the tutorial's fp8 configuration: e4m3 inputs with B stored
transposed (K contiguous, as the tutorial passes it: Hopper's fp8 wgmma reads only K-major tiles),
BLOCK_K 128, fp16 output. `tf32.d16` is the same kernel on fp32 inputs, whose `tl.dot` Triton runs as
tf32 by default, with B stored transposed as for fp8 (Hopper's tf32 wgmma also reads only K-major
tiles) and BLOCK_K 32 (three 48 KB stages fit in shared memory), fp16 output. The `ttgir80` variant is
Triton's own sm_80 TTGIR (its layouts, shared buffers and pipelining) through our NVPTX target only.
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    'd16': {'src': 'bench/gpu/kernels/matmul.d16.ttir', 'num_warps': 8},
    'odd': {'src': 'bench/gpu/kernels/matmul.odd.ttir', 'num_warps': 8},
    'd16_nobar': {'src': 'bench/gpu/kernels/matmul.d16.ttir', 'flags': ['--without-pass=insert-barriers'], 'num_warps': 8},
    'odd_nobar': {'src': 'bench/gpu/kernels/matmul.odd.ttir', 'flags': ['--without-pass=insert-barriers'], 'num_warps': 8},
    'bf16.d16': {'src': 'bench/gpu/kernels/matmul.bf16.d16.ttir', 'num_warps': 8},
    'bf16.odd': {'src': 'bench/gpu/kernels/matmul.bf16.odd.ttir', 'num_warps': 8},
    'bf16.d16_nobar': {'src': 'bench/gpu/kernels/matmul.bf16.d16.ttir', 'flags': ['--without-pass=insert-barriers'], 'num_warps': 8},
    'fp8.d16': {'src': 'bench/gpu/kernels/matmul.fp8.ttir', 'num_warps': 8},
    'fp8.d16_nobar': {'src': 'bench/gpu/kernels/matmul.fp8.ttir', 'flags': ['--without-pass=insert-barriers'], 'num_warps': 8},
    'tf32.d16': {'src': 'bench/gpu/kernels/matmul.tf32.d16.ttir', 'num_warps': 8},
    'tf32.d16_nobar': {'src': 'bench/gpu/kernels/matmul.tf32.d16.ttir', 'flags': ['--without-pass=insert-barriers'], 'num_warps': 8},
}


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                  GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    c = accumulator.to(tl.float16)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


class Matmul(casekit.Case):
    """C[M, N] = A[M, K] @ B[K, N] in fp16 with fp32 accumulation; one program per 128x256 tile of C."""
    kernel = matmul_kernel
    outputs = ['c']
    params = [('a_ptr', 'pointer', 'f16'), ('b_ptr', 'pointer', 'f16'), ('c_ptr', 'pointer', 'f16'),
              ('M', 'scalar', 'i32'), ('N', 'scalar', 'i32'), ('K', 'scalar', 'i32'),
              ('stride_am', 'scalar', 'i32'), ('stride_bk', 'scalar', 'i32'), ('stride_cm', 'scalar', 'i32')]
    sizes_time = [{'M': 4096, 'N': 4096, 'K': 4096}, {'M': 8192, 'N': 8192, 'K': 8192},
                  {'M': 1000, 'N': 3000, 'K': 700}]
    # Multiples of 16 that are not multiples of the tile: the edge tiles take pointer-to-tma's pointer copy.
    sizes_edge = [{'M': 1040, 'N': 3008, 'K': 720}, {'M': 1040, 'N': 3008, 'K': 720, 'dt': 'bf16'}]
    # More odd shapes: multiples of 4 (version-alignment's specialized copy) and not (the original copy).
    sizes_odd = [{'M': 4100, 'N': 4100, 'K': 4100}, {'M': 999, 'N': 3001, 'K': 701}]
    sizes_time = sizes_time + [dict(s, dt='bf16') for s in sizes_time] + [dict(s, dt='fp8') for s in sizes_time[:2]] + \
        [dict(s, dt='tf32') for s in sizes_time[:2]] + sizes_odd + [dict(s, dt='bf16') for s in sizes_odd] + sizes_edge
    sizes_check = sizes_time + [{'M': 512, 'N': 768, 'K': 320}, {'M': 512, 'N': 768, 'K': 320, 'dt': 'bf16'},
                                {'M': 512, 'N': 768, 'K': 384, 'dt': 'fp8'}, {'M': 512, 'N': 768, 'K': 320, 'dt': 'tf32'},
                                # version-alignment's element-wise copy (K and N odd: the odd shapes above take the fast one)
                                {'M': 999, 'N': 3001, 'K': 701}, {'M': 999, 'N': 3001, 'K': 701, 'dt': 'bf16'}]
    sizes_sanitize = [{'M': 256, 'N': 512, 'K': 192}, {'M': 144, 'N': 272, 'K': 80}, {'M': 100, 'N': 300, 'K': 70}, {'M': 100, 'N': 300, 'K': 72}, {'M': 256, 'N': 512, 'K': 192, 'dt': 'bf16'},
                      {'M': 256, 'N': 512, 'K': 256, 'dt': 'fp8'}, {'M': 256, 'N': 512, 'K': 192, 'dt': 'tf32'}]
    bm, bn, bk = 128, 256, 64
    num_stages = 3
    # Variants built without insert-barriers: racecheck must report hazards on them.
    race_suffix = '_nobar'

    def variant(self, size):
        v = 'd16' if all(size[k] % 16 == 0 for k in 'MNK') else 'odd'
        return f"{size['dt']}.{v}" if size.get('dt') in ('bf16', 'fp8', 'tf32') else v

    def dtype(self, size):
        """The inputs' dtype (the output's is bf16 for bf16, else fp16)."""
        return {'bf16': torch.bfloat16, 'fp8': torch.float8_e4m3fn, 'tf32': torch.float32}.get(size.get('dt'), torch.float16)

    def out_dtype(self, size):
        return torch.bfloat16 if size.get('dt') == 'bf16' else torch.float16

    def k_major_b(self, size):
        """Whether B is stored N x K (K contiguous) and passed as its transpose (fp8, tf32)."""
        return size.get('dt') in ('fp8', 'tf32')

    def params_for(self, size):
        if self.k_major_b(size):
            # B is passed K-contiguous: the kernel takes its N stride instead of its K stride.
            elt = 'f8E4M3FN' if size.get('dt') == 'fp8' else 'f32'
            p = [(n, k, elt if k == 'pointer' else ty) for n, k, ty in self.params]
            p[2] = ('c_ptr', 'pointer', 'f16')
            p[7] = ('stride_bn', 'scalar', 'i32')
            return p
        t = 'bf16' if size.get('dt') == 'bf16' else 'f16'
        return [(n, k, t if k == 'pointer' else ty) for n, k, ty in self.params]

    def shape(self, size):
        return f"{size['M']}x{size['N']}x{size['K']}"

    def constexprs(self, size):
        bk = {'fp8': 128, 'tf32': 32}.get(size.get('dt'), self.bk)
        return {'BLOCK_SIZE_M': self.bm, 'BLOCK_SIZE_N': self.bn, 'BLOCK_SIZE_K': bk, 'GROUP_SIZE_M': 8}

    def make(self, size, gen):
        M, N, K = size['M'], size['N'], size['K']
        dt = self.dtype(size)
        # fp8, tf32: B is stored N x K (K contiguous) and used as its transpose, as Triton's tutorial does for fp8.
        b = casekit.randn((N, K), dt, gen).t() if self.k_major_b(size) else casekit.randn((K, N), dt, gen)
        return {'a': casekit.randn((M, K), dt, gen), 'b': b, 'c': casekit.poisoned((M, N), self.out_dtype(size))}

    def args(self, t, size):
        b_stride = t['b'].stride(1) if self.k_major_b(size) else t['b'].stride(0)
        return [t['a'], t['b'], t['c'], size['M'], size['N'], size['K'],
                t['a'].stride(0), b_stride, t['c'].stride(0)]

    def triton_args(self, t, size):
        a, b, c = t['a'], t['b'], t['c']
        return [a, b, c, size['M'], size['N'], size['K'], a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                c.stride(0), c.stride(1)]

    def triton_launch(self, t, size, num_warps=None):
        grid = self.grid(size)
        args = self.triton_args(t, size)
        kw = dict(self.constexprs(size), num_warps=num_warps or self.num_warps(size), num_stages=self.num_stages)
        return lambda: self.kernel[grid](*args, **kw)

    def baselines(self, t, size):
        """cuBLAS on the same inputs (torch.matmul into a preallocated output of the same dtype; fp8:
        torch._scaled_mm with unit scales, fp16 out; tf32: torch.matmul with tf32 allowed, fp32 out)."""
        out = torch.empty_like(t['c'])
        a, b = t['a'], t['b']
        if size.get('dt') == 'tf32':
            # cuBLAS on tf32 tensor cores (fp32 out: cuBLAS has no fp32-in, fp16-out product).
            out32 = torch.empty(t['c'].shape, dtype=torch.float32, device=a.device)

            def tf32_matmul():
                before = torch.backends.cuda.matmul.allow_tf32
                torch.backends.cuda.matmul.allow_tf32 = True
                torch.matmul(a, b, out=out32)
                torch.backends.cuda.matmul.allow_tf32 = before
            return {'cublas': tf32_matmul}
        if size.get('dt') == 'fp8':
            one = torch.ones((), dtype=torch.float32, device=a.device)
            return {'cublas': lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.float16)}
        return {'cublas': lambda: torch.matmul(a, b, out=out)}

    def grid(self, size):
        return (triton.cdiv(size['M'], self.bm) * triton.cdiv(size['N'], self.bn),)

    def reference(self, t, size):
        # fp16/bf16 inputs are exact in fp64; the kernel sums in fp32 and rounds once to fp16 (then,
        # for bf16 outputs, to bf16: 8 mantissa bits, a relative error up to 2^-8).
        ref = t['a'].double() @ t['b'].double()
        K = size['K']
        if size.get('dt') == 'fp8':
            # e4m3 products are exact, but Hopper's fp8 wgmma keeps only about 14 bits when it
            # accumulates, so the error grows with K: measured on an H100, Triton's kernel and ours
            # both reach max |err| 1.86 at K = 4096 and 3.53 at 8192 (|C| up to ~300). The bound,
            # 1e-3 * K, is 2-2.3x those maxima; a wrong tile is off by |C| itself (~sqrt(K)).
            return {'c': (ref, 2e-3, 1e-3 * K)}
        if size.get('dt') == 'bf16':
            return {'c': (ref, 8e-3, 1e-2 * (K ** 0.5) / 16)}
        if size.get('dt') == 'tf32':
            # tf32 keeps 10 mantissa bits of each operand: a random walk of K products off by ~2^-10
            # relative (std ~6e-4 sqrt(K)), then one fp16 rounding; as matmul_tc's tf32 bound.
            return {'c': (ref, 2e-3, 4e-3 * K ** 0.5)}
        return {'c': (ref, 2e-3, 1e-2 * (K ** 0.5) / 16)}

    def bytes_moved(self, size):
        M, N, K = size['M'], size['N'], size['K']
        e = {'fp8': 1, 'tf32': 4}.get(size.get('dt'), 2)
        return e * (M * K + K * N) + 2 * M * N

    def flops(self, size):
        return 2 * size['M'] * size['N'] * size['K']


CASE = Matmul()
