"""Flash-attention forward, written like Triton's fused-attention tutorial (06): one program per
BLOCK_M rows of one (batch, head), online softmax in base 2 over BLOCK_N-column tiles of K and V,
fp16 Q/K/V/Out of shape (Z, H, N_CTX, HEAD_DIM), contiguous, fp32 M (the row log-sum-exp, base 2).

As in the tutorial, the causal kernel (STAGE 3) runs the blocks left of the diagonal without a mask
(stage 1) and the diagonal block with one (stage 2); the non-causal kernel (STAGE 1) runs every
block without a mask. Pointers instead of the tutorial's block pointers (the same loads: K is read
transposed, HEAD_DIM x BLOCK_N, contiguous along HEAD_DIM). N_CTX is a multiple of BLOCK_M.

Configs: head dim 64: BLOCK_M 128, BLOCK_N 64, 4 warps (the tutorial's shape); head dim 128:
BLOCK_M 128, BLOCK_N 64, 8 warps. Variants `d<HEAD_DIM>.<causal|full>`.
"""
import triton
import triton.language as tl
import torch

import casekit

BUILDS = {
    'd64.full': {'src': 'bench/gpu/kernels/attention.d64.full.ttir', 'num_warps': 4},
    'd64.causal': {'src': 'bench/gpu/kernels/attention.d64.causal.ttir', 'num_warps': 4},
    'd128.full': {'src': 'bench/gpu/kernels/attention.d128.full.ttir', 'num_warps': 8},
    'd128.causal': {'src': 'bench/gpu/kernels/attention.d128.causal.ttir', 'num_warps': 8},
}

BLOCK_M = 128
BLOCK_N = 64


@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q, K_ptrs, V_ptrs, stride_kn, stride_vn, start_m, qk_scale,
                    BLOCK_M: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr, STAGE: tl.constexpr,
                    offs_m, offs_n, N_CTX):
    if STAGE == 1:
        lo, hi = 0, start_m * BLOCK_M
    elif STAGE == 2:
        lo, hi = start_m * BLOCK_M, (start_m + 1) * BLOCK_M
        lo = tl.multiple_of(lo, BLOCK_M)
    else:
        lo, hi = 0, N_CTX
    K_ptrs += lo * stride_kn
    V_ptrs += lo * stride_vn
    for start_n in range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        k = tl.load(K_ptrs)
        qk = tl.dot(q, k)
        if STAGE == 2:
            mask = offs_m[:, None] >= (start_n + offs_n[None, :])
            qk = qk * qk_scale + tl.where(mask, 0, -1.0e6)
            m_ij = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_ij[:, None]
        else:
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v = tl.load(V_ptrs)
        p = p.to(tl.float16)
        acc = tl.dot(p, v, acc)
        m_i = m_ij
        K_ptrs += BLOCK_N * stride_kn
        V_ptrs += BLOCK_N * stride_vn
    return acc, l_i, m_i


@triton.jit
def attn_fwd(Q, K, V, sm_scale, M, Out, stride_z, stride_h, stride_n, H, N_CTX,
             HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, STAGE: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    qvk_offset = off_z.to(tl.int64) * stride_z + off_h.to(tl.int64) * stride_h
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    Q_ptrs = Q + qvk_offset + offs_m[:, None] * stride_n + offs_d[None, :]
    K_ptrs = K + qvk_offset + offs_n[None, :] * stride_n + offs_d[:, None]
    V_ptrs = V + qvk_offset + offs_n[:, None] * stride_n + offs_d[None, :]
    O_ptrs = Out + qvk_offset + offs_m[:, None] * stride_n + offs_d[None, :]
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float('inf')
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    q = tl.load(Q_ptrs)
    if STAGE & 1:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K_ptrs, V_ptrs, stride_n, stride_n, start_m, qk_scale,
                                        BLOCK_M, HEAD_DIM, BLOCK_N, 4 - STAGE, offs_m, offs_n, N_CTX)
    if STAGE & 2:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K_ptrs, V_ptrs, stride_n, stride_n, start_m, qk_scale,
                                        BLOCK_M, HEAD_DIM, BLOCK_N, 2, offs_m, offs_n, N_CTX)
    m_i += tl.math.log2(l_i)
    acc = acc / l_i[:, None]
    tl.store(M + off_hz * N_CTX + offs_m, m_i)
    tl.store(O_ptrs, acc.to(Out.type.element_ty))


class Attention(casekit.Case):
    """softmax(Q K^T * sm_scale) V per (batch, head), causal or not; size keys Z, H, N (N_CTX), D, causal."""
    kernel = attn_fwd
    outputs = ['o', 'm']
    params = [('Q', 'pointer', 'f16'), ('K', 'pointer', 'f16'), ('V', 'pointer', 'f16'), ('sm_scale', 'scalar', 'f32'),
              ('M', 'pointer', 'f32'), ('Out', 'pointer', 'f16'), ('stride_z', 'scalar', 'i32'),
              ('stride_h', 'scalar', 'i32'), ('stride_n', 'scalar', 'i32'), ('H', 'scalar', 'i32'),
              ('N_CTX', 'scalar', 'i32')]
    sizes_time = [{'Z': z, 'H': h, 'N': n, 'D': d, 'causal': c}
                  for d in (64, 128) for c in (False, True) for z, h, n in ((16, 8, 1024), (4, 8, 4096), (1, 8, 16384))]
    sizes_check = [{'Z': 2, 'H': 3, 'N': 1024, 'D': d, 'causal': c} for d in (64, 128) for c in (False, True)] + sizes_time
    sizes_sanitize = [{'Z': 1, 'H': 2, 'N': 256, 'D': d, 'causal': c} for d in (64, 128) for c in (False, True)]

    def variant(self, size):
        return f"d{size['D']}.{'causal' if size['causal'] else 'full'}"

    def shape(self, size):
        return f"{size['Z']}x{size['H']}x{size['N']}x{size['D']}{' causal' if size['causal'] else ''}"

    def constexprs(self, size):
        return {'HEAD_DIM': size['D'], 'BLOCK_M': BLOCK_M, 'BLOCK_N': BLOCK_N, 'STAGE': 3 if size['causal'] else 1}

    def make(self, size, gen):
        shape = (size['Z'], size['H'], size['N'], size['D'])
        f16 = torch.float16
        return {'q': casekit.randn(shape, f16, gen), 'k': casekit.randn(shape, f16, gen), 'v': casekit.randn(shape, f16, gen),
                'o': casekit.poisoned(shape, f16), 'm': casekit.poisoned((size['Z'] * size['H'], size['N']), torch.float32)}

    def sm_scale(self, size):
        return 1.0 / size['D'] ** 0.5

    def args(self, t, size):
        q = t['q']
        return [q, t['k'], t['v'], self.sm_scale(size), t['m'], t['o'], q.stride(0), q.stride(1), q.stride(2),
                size['H'], size['N']]

    def grid(self, size):
        return (size['N'] // BLOCK_M, size['Z'] * size['H'])

    def reference(self, t, size):
        # float64, one (batch, head) at a time (a 16384^2 score matrix is 2 GiB in float64).
        z, h, n = size['Z'], size['H'], size['N']
        o = torch.empty(t['q'].shape, dtype=torch.float64, device=t['q'].device)
        m = torch.empty((z * h, n), dtype=torch.float64, device=t['q'].device)
        causal = torch.ones((n, n), dtype=torch.bool, device=t['q'].device).tril() if size['causal'] else None
        for i in range(z):
            for j in range(h):
                s = (t['q'][i, j].double() @ t['k'][i, j].double().t()) * self.sm_scale(size)
                if causal is not None:
                    s = s.masked_fill(~causal, float('-inf'))
                lse = torch.logsumexp(s, dim=1)
                o[i, j] = torch.exp(s - lse[:, None]) @ t['v'][i, j].double()
                m[i * h + j] = lse / torch.log(torch.tensor(2.0, dtype=torch.float64))
                del s
        # o: fp16 P (rounded to 2^-11 relative) times N(0,1) V summed over up to N columns, then fp16 output.
        return {'o': (o, 1e-2, 1e-2), 'm': (m, 1e-4, 1e-4)}

    def bytes_moved(self, size):
        return 4 * size['Z'] * size['H'] * size['N'] * size['D'] * 2 + size['Z'] * size['H'] * size['N'] * 4

    def flops(self, size):
        f = 4 * size['Z'] * size['H'] * size['N'] * size['N'] * size['D']
        return f // 2 if size['causal'] else f


CASE = Attention()
