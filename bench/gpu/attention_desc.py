"""Flash-attention forward through tensor descriptors made in the kernel: the `attention_tma` kernel
as Triton's fused-attention tutorial (06) writes it when it is given pointers
(`_maybe_make_tensor_desc`): `tl.make_tensor_descriptor` over Q, K, V and Out viewed as
(Z * H * N_CTX, HEAD_DIM) matrices. The row count is computed in the kernel, so the descriptors are
written on the device by each program (Triton's allocator there, the runner's for ours). Same
configs, sizes, inputs and reference as `attention`.
"""
import triton
import triton.language as tl

from attention import BLOCK_M, BLOCK_N
from attention_tma import AttentionTma, _attn_fwd_inner_tma
from matmul_desc import triton_scratch

BUILDS = {
    'd64.full': {'src': 'bench/gpu/kernels/attention_desc.d64.full.ttir', 'num_warps': 4},
    'd64.causal': {'src': 'bench/gpu/kernels/attention_desc.d64.causal.ttir', 'num_warps': 4},
    'd128.full': {'src': 'bench/gpu/kernels/attention_desc.d128.full.ttir', 'num_warps': 8},
    'd128.causal': {'src': 'bench/gpu/kernels/attention_desc.d128.causal.ttir', 'num_warps': 8},
}


# Z is not specialized: Triton makes an argument equal to 1 a constant, and the sizes have Z = 1 and 2.
@triton.jit(do_not_specialize=['Z'])
def attn_fwd_desc(sm_scale, M, Z, H, q_ptr, k_ptr, v_ptr, o_ptr, N_CTX,
                  HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, STAGE: tl.constexpr):
    y_dim = Z * H * N_CTX
    desc_q = tl.make_tensor_descriptor(q_ptr, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_M, HEAD_DIM])
    desc_k = tl.make_tensor_descriptor(k_ptr, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_N, HEAD_DIM])
    desc_v = tl.make_tensor_descriptor(v_ptr, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_N, HEAD_DIM])
    desc_o = tl.make_tensor_descriptor(o_ptr, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_M, HEAD_DIM])
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


class AttentionDesc(AttentionTma):
    """The `attention` case through descriptors the kernel makes from its pointers."""
    kernel = attn_fwd_desc
    # the hidden global scratch (the runner allocates it per launch) follows these
    params = [('sm_scale', 'scalar', 'f32'), ('M', 'pointer', 'f32'), ('Z', 'scalar', 'i32'), ('H', 'scalar', 'i32'),
              ('q_ptr', 'pointer', 'f16'), ('k_ptr', 'pointer', 'f16'), ('v_ptr', 'pointer', 'f16'), ('o_ptr', 'pointer', 'f16'),
              ('N_CTX', 'scalar', 'i32')]

    def args(self, t, size):
        return [self.sm_scale(size), t['m'], size['Z'], size['H'], t['q'], t['k'], t['v'], t['o'], size['N']]

    def triton_args(self, t, size):
        return self.args(t, size)

    def triton_launch(self, t, size, num_warps=None):
        triton.set_allocator(triton_scratch)
        return super().triton_launch(t, size, num_warps)


CASE = AttentionDesc()
