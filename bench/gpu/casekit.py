"""Shared pieces of the GPU benchmark cases (bench/gpu/<case>.py).

A case module defines a literal `BUILDS` dict (read without importing by tools/gpu/list_builds.py,
so it must stay a plain literal) and `CASE`, an instance of a `Case` subclass. BUILDS maps a variant
name to how the compiler input is compiled:

    BUILDS = {'d16': {'src': 'bench/gpu/kernels/vector_add_f32.d16.ttir'},
              'b4096': {'src': 'examples/triton-c/softmax.tc', 'flags': ['-DBLOCK=4096'], 'num_warps': 8}}

`num_warps` (optional) is passed to the compiler as `--num-warps N` and is also the number of warps
of the Triton kernels launched for that variant. The built files are `<case>.<variant>.ptx/.json`
(`<case>.ptx/.json` for the variant '').
"""
import math

import torch

# Where inputs live; tools/gpu/dump_triton.py --offline switches this to 'meta' (no GPU needed).
DEVICE = 'cuda'
# Poisoned guard elements kept before and after every output buffer.
GUARD = 1024
POISON_BYTE = 0xFF

TORCH_TYPES = {
    torch.bool: 'i1', torch.int8: 'i8', torch.int16: 'i16', torch.int32: 'i32', torch.int64: 'i64',
    torch.float16: 'f16', torch.bfloat16: 'bf16', torch.float32: 'f32', torch.float64: 'f64',
    torch.float8_e4m3fn: 'f8E4M3FN', torch.float8_e5m2: 'f8E5M2',
}


def type_name(dtype):
    """The metadata type name ('f32', 'f16', ...) of a torch dtype."""
    return TORCH_TYPES[dtype]


def next_pow2(n):
    """The smallest power of two >= n."""
    return 1 << max(0, (n - 1).bit_length())


def generator(seed):
    """A torch random generator on DEVICE seeded with `seed` (CPU generator for the meta device)."""
    g = torch.Generator(device='cpu' if DEVICE == 'meta' else DEVICE)
    g.manual_seed(seed)
    return g


def randn(shape, dtype, gen, scale=1.0, shift=0.0):
    """Normal random numbers (never all zeros) of `dtype` on DEVICE: shift + scale * N(0, 1)."""
    if DEVICE == 'meta':
        return torch.empty(shape, dtype=dtype, device='meta')
    x = torch.randn(shape, dtype=torch.float32, device=DEVICE, generator=gen)
    return (x * scale + shift).to(dtype)


def randint(shape, low, high, dtype, gen):
    """Uniform random integers in [low, high) of `dtype` on DEVICE."""
    if DEVICE == 'meta':
        return torch.empty(shape, dtype=dtype, device='meta')
    return torch.randint(low, high, shape, device=DEVICE, generator=gen, dtype=torch.int64).to(dtype)


def rand(shape, dtype, gen):
    """Uniform [0, 1) random numbers of `dtype` on DEVICE."""
    if DEVICE == 'meta':
        return torch.empty(shape, dtype=dtype, device='meta')
    return torch.rand(shape, dtype=torch.float32, device=DEVICE, generator=gen).to(dtype)


def poisoned(shape, dtype):
    """An output tensor filled with 0xFF bytes (NaN for floats), with poisoned guard zones around it."""
    n = math.prod(shape)
    buf = torch.empty(n + 2 * GUARD, dtype=dtype, device=DEVICE)
    if DEVICE != 'meta':
        buf.view(torch.uint8).fill_(POISON_BYTE)
    return buf[GUARD:GUARD + n].view(shape)


def repoison(t):
    """Fills an output made by `poisoned` (and its guard zones) with 0xFF bytes again."""
    t._base.view(torch.uint8).fill_(POISON_BYTE)


def guard_ok(t):
    """Whether the guard zones around an output made by `poisoned` still hold only 0xFF bytes."""
    raw = t._base.view(torch.uint8)
    elt = t.element_size()
    lo = GUARD * elt
    hi = (GUARD + t.numel()) * elt
    return bool(raw[:lo].eq(POISON_BYTE).all()) and bool(raw[hi:].eq(POISON_BYTE).all())


def compare(out, expected, rtol, atol):
    """Checks |out - expected| <= atol + rtol*|expected| (atol may be a tensor).

    Returns (ok, max_abs_error, worst) where worst is the largest error / bound ratio (<= 1 passes)
    and non-finite outputs always fail.
    """
    o = out.double()
    bad = int((~torch.isfinite(o)).sum())
    diff = (o - expected).abs()
    bound = atol + rtol * expected.abs()
    diff = torch.nan_to_num(diff, nan=math.inf)
    worst = float((diff / bound).max())
    max_abs = float(diff.max())
    return bad == 0 and worst <= 1.0, max_abs, worst


class Case:
    """One benchmark case. Subclasses fill in the attributes and methods below.

    name            the module's file stem (set by the loader)
    builds          the module's BUILDS dict
    params          our kernel's parameters in order: (name, 'pointer'|'scalar', type)
    kernel          a @triton.jit kernel with exactly our kernel's parameters (plus constexprs): its
                    TTIR is the compiler input (dump_ttir) or, for Triton-C cases, it stands in for
                    our kernel when validating the runner with Triton's own PTX
    dump_ttir       whether `kernel`'s TTIR is the compiler input (False for Triton-C cases)
    outputs         names of the output tensors in the dict made by `make`
    sizes_check / sizes_time / sizes_sanitize   lists of size dicts
    default_warps   number of warps when BUILDS gives none
    """
    name = ''
    builds = {}
    params = []
    kernel = None
    dump_ttir = True
    outputs = []
    sizes_check = []
    sizes_time = []
    sizes_sanitize = []
    default_warps = 4
    tune_warps = []

    def variant(self, size):
        """The BUILDS variant whose PTX handles `size` (it must match Triton's specialization)."""
        return ''

    def shape(self, size):
        """A short text for the table, e.g. '4096x1000'."""
        return 'x'.join(str(v) for v in size.values())

    def num_warps(self, size):
        """Warps of the Triton kernels (and of our compile, through BUILDS) for `size`."""
        return self.builds[self.variant(size)].get('num_warps', self.default_warps)

    def constexprs(self, size):
        """The constexpr keyword arguments of `kernel` for `size`."""
        return {}

    def params_for(self, size):
        """Our kernel's parameters for the variant handling `size` (`params` unless types vary by variant)."""
        return self.params

    def make(self, size, gen):
        """Inputs (random) and outputs (poisoned) as a dict of tensors."""
        raise NotImplementedError

    def args(self, t, size):
        """Our kernel's arguments, in `params` order (tensors for pointers, numbers for scalars)."""
        raise NotImplementedError

    def grid(self, size):
        """The launch grid (1 to 3 dimensions) of our kernel and of `kernel`."""
        raise NotImplementedError

    def reference(self, t, size):
        """{output name: (expected float64 tensor, rtol, atol)} computed independently in float64."""
        raise NotImplementedError

    def bytes_moved(self, size):
        """Bytes read + written by one launch (for GB/s)."""
        raise NotImplementedError

    def triton_args(self, t, size):
        """Positional arguments of `kernel` (by default our kernel's arguments)."""
        return self.args(t, size)

    def triton_launch(self, t, size, num_warps=None):
        """A no-argument callable that launches the Triton kernel to compare with on `t`."""
        grid = self.grid(size)
        args = self.triton_args(t, size)
        kw = dict(self.constexprs(size), num_warps=num_warps or self.num_warps(size))
        return lambda: self.kernel[grid](*args, **kw)


def with_specials(t, specials):
    """`t` (1-D) with `specials` written at its start and again at a stride through it (when long enough)."""
    if DEVICE == 'meta':
        return t
    s = torch.tensor(specials, dtype=t.dtype, device=t.device)
    k = len(specials)
    for start in range(0, t.numel() - k + 1, max(k, t.numel() // 7)):
        t[start:start + k] = s
    return t


class BlockCase(Case):
    """A kernel over n elements, one program per `block` of them (constexpr BLOCK). Triton specializes
    n on divisibility by 16, so sizes that are multiples of 16 and the others have different TTIR:
    variants 'd16' and 'odd'."""
    block = 1024

    def variant(self, size):
        return 'd16' if size['n'] % 16 == 0 else 'odd'

    def constexprs(self, size):
        return {'BLOCK': self.block}

    def grid(self, size):
        return (-(-size['n'] // self.block),)


class RowCase(Case):
    """A kernel run by one program per row of a rows x cols matrix, with BLOCK_SIZE = the next
    power of two of cols; its BUILDS variants are named `b<BLOCK_SIZE>`."""

    def variant(self, size):
        # Strides and n_cols equal cols: 1000 is not a multiple of 16 (Triton specializes it
        # without divisibility), 4096 is.
        return {1000: 'b1024', 4096: 'b4096'}[size['cols']]

    def constexprs(self, size):
        return {'BLOCK_SIZE': next_pow2(size['cols'])}

    def grid(self, size):
        return (size['rows'],)


class TransposeCase(Case):
    """Y (N x M) = X^T for an M x N fp32 X, ldx = N, ldy = M, one TM x TN tile per program on a
    (cdiv(M, TM), cdiv(N, TN)) grid; size keys M and N. Subclasses give `variant` and `tile`
    ({'TM': .., 'TN': ..} for a size)."""
    outputs = ['y']
    params = [('X', 'pointer', 'f32'), ('Y', 'pointer', 'f32'), ('M', 'scalar', 'i32'), ('N', 'scalar', 'i32'),
              ('ldx', 'scalar', 'i32'), ('ldy', 'scalar', 'i32')]

    def tile(self, size):
        """The tile {'TM': .., 'TN': ..} of the variant handling `size`."""
        raise NotImplementedError

    def shape(self, size):
        return f"{size['M']}x{size['N']}"

    def constexprs(self, size):
        return self.tile(size)

    def make(self, size, gen):
        m, n = size['M'], size['N']
        return {'x': randn((m, n), torch.float32, gen), 'y': poisoned((n, m), torch.float32)}

    def args(self, t, size):
        return [t['x'], t['y'], size['M'], size['N'], t['x'].stride(0), t['y'].stride(0)]

    def grid(self, size):
        tile = self.tile(size)
        return ((size['M'] + tile['TM'] - 1) // tile['TM'], (size['N'] + tile['TN'] - 1) // tile['TN'])

    def reference(self, t, size):
        # A transposition copies bits: exact (atol only keeps 0/0 out of the error ratio).
        return {'y': (t['x'].t(), 0.0, 1e-30)}

    def bytes_moved(self, size):
        return 2 * size['M'] * size['N'] * 4
