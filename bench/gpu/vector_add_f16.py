"""Vector add, fp16: the same Triton tutorial 01 kernel as vector_add_f32, on half precision."""
import torch

from vector_add_f32 import VectorAdd

BUILDS = {
    'd16': {'src': 'bench/gpu/kernels/vector_add_f16.d16.ttir'},
    'odd': {'src': 'bench/gpu/kernels/vector_add_f16.odd.ttir'},
}

# One fp16 rounding of the exact sum: half an ulp is 4.9e-4 relative (6e-8 absolute for subnormals).
CASE = VectorAdd(torch.float16, rtol=1e-3, atol=1e-7)
