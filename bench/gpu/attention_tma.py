"""Flash-attention forward through TMA tensor descriptors: the `attention` case's kernel in the form
Triton's fused-attention tutorial (06) takes on Hopper, with host-side `TensorDescriptor`s over Q, K,
V and Out viewed as (Z * H * N_CTX, HEAD_DIM) matrices: Q and Out in BLOCK_M x HEAD_DIM blocks, K and
V in BLOCK_N x HEAD_DIM blocks (K read untransposed and used as `k.T`), M through a pointer. Same
configs, sizes, inputs and reference as `attention`.
"""
import triton
import triton.language as tl

from attention import Attention, BLOCK_M, BLOCK_N

BUILDS = {
    'd64.full': {'src': 'bench/gpu/kernels/attention_tma.d64.full.ttir', 'num_warps': 4},
    'd64.causal': {'src': 'bench/gpu/kernels/attention_tma.d64.causal.ttir', 'num_warps': 4},
    'd128.full': {'src': 'bench/gpu/kernels/attention_tma.d128.full.ttir', 'num_warps': 8},
    'd128.causal': {'src': 'bench/gpu/kernels/attention_tma.d128.causal.ttir', 'num_warps': 8},
}


@triton.jit
def _attn_fwd_inner_tma(acc, l_i, m_i, q, desc_k, desc_v, offset_y, start_m, qk_scale,
                        BLOCK_M: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr, STAGE: tl.constexpr,
                        offs_m, offs_n, N_CTX):
    if STAGE == 1:
        lo, hi = 0, start_m * BLOCK_M
    elif STAGE == 2:
        lo, hi = start_m * BLOCK_M, (start_m + 1) * BLOCK_M
        lo = tl.multiple_of(lo, BLOCK_M)
    else:
        lo, hi = 0, N_CTX
    offsetk_y = offset_y + lo
    offsetv_y = offset_y + lo
    for start_n in range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        k = desc_k.load([offsetk_y, 0]).T
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
        v = desc_v.load([offsetv_y, 0])
        p = p.to(tl.float16)
        acc = tl.dot(p, v, acc)
        m_i = m_ij
        offsetk_y += BLOCK_N
        offsetv_y += BLOCK_N
    return acc, l_i, m_i


@triton.jit
def attn_fwd_tma(sm_scale, M, H, desc_q, desc_k, desc_v, desc_o, N_CTX,
                 HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, STAGE: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    offset_y = off_hz * N_CTX
    qo_offset_y = offset_y + start_m * BLOCK_M
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float('inf')
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    q = desc_q.load([qo_offset_y, 0])
    if STAGE & 1:
        acc, l_i, m_i = _attn_fwd_inner_tma(acc, l_i, m_i, q, desc_k, desc_v, offset_y, start_m, qk_scale,
                                            BLOCK_M, HEAD_DIM, BLOCK_N, 4 - STAGE, offs_m, offs_n, N_CTX)
    if STAGE & 2:
        acc, l_i, m_i = _attn_fwd_inner_tma(acc, l_i, m_i, q, desc_k, desc_v, offset_y, start_m, qk_scale,
                                            BLOCK_M, HEAD_DIM, BLOCK_N, 2, offs_m, offs_n, N_CTX)
    m_i += tl.math.log2(l_i)
    acc = acc / l_i[:, None]
    tl.store(M + off_hz * N_CTX + offs_m, m_i)
    desc_o.store([qo_offset_y, 0], acc.to(tl.float16))


class AttentionTma(Attention):
    """The `attention` case through tensor descriptors (loads of Q, K, V and the store of Out by TMA)."""
    kernel = attn_fwd_tma
    # A descriptor parameter is followed by the matrix's shape (i32 each) and strides (i64 each).
    params = [('sm_scale', 'scalar', 'f32'), ('M', 'pointer', 'f32'), ('H', 'scalar', 'i32')]
    params += [p for d in ('desc_q', 'desc_k', 'desc_v', 'desc_o')
               for p in [(d, 'tensordesc', 'f16'), (d, 'scalar', 'i32'), (d, 'scalar', 'i32'), (d, 'scalar', 'i64'), (d, 'scalar', 'i64')]]
    params += [('N_CTX', 'scalar', 'i32')]

    @staticmethod
    def matrices(t, size):
        """Q, K, V and Out as (Z * H * N_CTX, HEAD_DIM) matrices."""
        return [t[n].view(-1, size['D']) for n in ('q', 'k', 'v', 'o')]

    def args(self, t, size):
        desc = lambda x: [x, x.shape[0], x.shape[1], x.stride(0), x.stride(1)]  # noqa: E731
        q, k, v, o = self.matrices(t, size)
        return [self.sm_scale(size), t['m'], size['H'], *desc(q), *desc(k), *desc(v), *desc(o), size['N']]

    def triton_args(self, t, size):
        from triton.tools.tensor_descriptor import TensorDescriptor
        q, k, v, o = self.matrices(t, size)
        d = size['D']
        return [self.sm_scale(size), t['m'], size['H'], TensorDescriptor.from_tensor(q, [BLOCK_M, d]),
                TensorDescriptor.from_tensor(k, [BLOCK_N, d]), TensorDescriptor.from_tensor(v, [BLOCK_N, d]),
                TensorDescriptor.from_tensor(o, [BLOCK_M, d]), size['N']]


CASE = AttentionTma()
