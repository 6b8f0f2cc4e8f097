#!/usr/bin/env python3
"""Loads a PTX kernel and its metadata JSON (the contract of `triton-translate --to-ptx --emit-metadata`)
and launches it on the GPU through the CUDA driver API (ctypes on libcuda, in torch's context and
stream), with torch tensors for pointers and Python numbers for scalars. Also CUDA-event timing.

CLI: `python3 tools/gpu/runner.py KERNEL.ptx [--meta KERNEL.json]` loads the kernel and prints its
metadata and the driver's view of it (registers, local memory, limits).
"""
import argparse
import ctypes
import json
import re
import statistics
import struct
import sys

import torch

# Scalar types of the metadata and the ctypes value each is passed as.
SCALAR_CTYPES = {
    'i1': ctypes.c_uint8, 'i8': ctypes.c_int8, 'i16': ctypes.c_int16, 'i32': ctypes.c_int32,
    'i64': ctypes.c_int64, 'f16': ctypes.c_uint16, 'bf16': ctypes.c_uint16, 'f32': ctypes.c_float,
    'f64': ctypes.c_double,
}
TYPE_BYTES = {'i1': 1, 'i8': 1, 'i16': 2, 'i32': 4, 'i64': 8, 'f16': 2, 'bf16': 2, 'f32': 4, 'f64': 8}
# Bytes of a tensor element of each pointee type (the scalar types and the 8-bit floats).
ELEMENT_BYTES = {**TYPE_BYTES, 'f8E4M3FN': 1, 'f8E5M2': 1}
TORCH_POINTEE = {
    torch.bool: 'i1', torch.int8: 'i8', torch.uint8: 'i8', torch.int16: 'i16', torch.int32: 'i32',
    torch.int64: 'i64', torch.float16: 'f16', torch.bfloat16: 'bf16', torch.float32: 'f32', torch.float64: 'f64',
    torch.float8_e4m3fn: 'f8E4M3FN', torch.float8_e5m2: 'f8E5M2',
}

CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0
CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1
CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3
CU_FUNC_ATTRIBUTE_NUM_REGS = 4
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9
CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81
# Shared memory the system keeps per resident CTA (sm_80 and later).
RESERVED_SHARED_PER_CTA = 1024
# The shared memory sizes (KiB) an SM's unified storage can be split into, up to the device's most
# (A100: 164; H100, H200: 228), as the CUDA programming guide lists them for compute capability 8.x / 9.0.
SHARED_CONFIGS_KIB = (0, 8, 16, 32, 64, 100, 132, 164, 196, 228)


def carveout_percent(want_bytes, per_sm_bytes):
    """The carveout percentage that makes the driver configure the smallest shared memory size
    holding `want_bytes` (see Kernel._apply_residency_hint): the middle of the range between that
    size and the one below it, as a percentage of `per_sm_bytes`."""
    sizes = [k * 1024 for k in SHARED_CONFIGS_KIB if k * 1024 <= per_sm_bytes]
    k = next((i for i, c in enumerate(sizes) if c >= want_bytes), len(sizes) - 1)
    below = sizes[k - 1] if k else 0
    return max(1, min(100, round(100 * (below + sizes[k]) / 2 / per_sm_bytes)))
CU_JIT_INFO_LOG_BUFFER = 3
CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4
CU_JIT_ERROR_LOG_BUFFER = 5
CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6
DEFAULT_SHARED_LIMIT = 48 * 1024

_cuda = None


class CudaError(RuntimeError):
    """A CUDA driver call failed."""


def driver():
    """libcuda, loaded once, with the current context set to torch's (the device's primary context)."""
    global _cuda
    if _cuda is None:
        torch.cuda.init()
        torch.empty(1, device='cuda')  # makes torch create and bind the primary context
        _cuda = ctypes.CDLL('libcuda.so.1')
        check(_cuda.cuInit(0), 'cuInit')
        # (tensor map, data type, rank, address, dims, strides, box, element strides, interleave, swizzle,
        # L2 promotion, fill); a driver older than CUDA 12 has no tensor maps, and runs everything else
        if hasattr(_cuda, 'cuTensorMapEncodeTiled'):
            _cuda.cuTensorMapEncodeTiled.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32, ctypes.c_void_p,
                                                     ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                                     ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int]
        ctx = ctypes.c_void_p()
        check(_cuda.cuCtxGetCurrent(ctypes.byref(ctx)), 'cuCtxGetCurrent')
        if not ctx.value:
            dev = ctypes.c_int()
            check(_cuda.cuDeviceGet(ctypes.byref(dev), torch.cuda.current_device()), 'cuDeviceGet')
            check(_cuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), 'cuDevicePrimaryCtxRetain')
            check(_cuda.cuCtxSetCurrent(ctx), 'cuCtxSetCurrent')
    return _cuda


def check(result, what):
    """Raises CudaError with the driver's name and text for a failed CUresult."""
    if result != 0:
        name, text = ctypes.c_char_p(), ctypes.c_char_p()
        _cuda.cuGetErrorName(result, ctypes.byref(name))
        _cuda.cuGetErrorString(result, ctypes.byref(text))
        raise CudaError(f'{what} failed: {result} {(name.value or b"?").decode()} ({(text.value or b"").decode()})')


def ptx_entry_params(ptx, name=None):
    """The `.entry` name and its parameters as [(ptx type, name)] of kernel `name` in PTX text (default:
    the first kernel; a versioned kernel's module has two)."""
    entry = re.escape(name) if name else r'[\w$]+'
    m = re.search(r'\.entry\s+(' + entry + r')\s*\(([^)]*)\)', ptx)
    if not m and name:
        first = re.search(r'\.entry\s+([\w$]+)', ptx)
        return (first.group(1) if first else None), []
    if not m:
        raise ValueError('no .entry found in the PTX')
    params = []
    for decl in m.group(2).split(','):
        decl = decl.strip()
        if not decl:
            continue
        pm = re.match(r'\.param\s+(?:\.align\s+\d+\s+)?\.(\w+)\b.*?([\w$]+)(?:\[\d+\])?$', decl)
        if not pm:
            raise ValueError(f'cannot read PTX parameter {decl!r}')
        params.append((pm.group(1), pm.group(2)))
    return m.group(1), params


# Parameter kinds passed as a 128-byte CUtensorMap: "tensordesc" (the caller passes the tensor) and
# "tensormap" (hidden: the launcher builds it from other arguments).
TENSOR_MAP_KINDS = ('tensordesc', 'tensormap')


def check_signature(meta, ptx):
    """Checks the metadata against the PTX: same kernel name, same number and sizes of parameters."""
    name, ptx_params = ptx_entry_params(ptx, meta['name'])
    problems = []
    if name != meta['name']:
        problems.append(f'PTX entry is {name!r}, metadata name is {meta["name"]!r}')
    if len(ptx_params) != len(meta['params']):
        problems.append(f'PTX has {len(ptx_params)} parameters, metadata {len(meta["params"])}')
    for (ptype, pname), p in zip(ptx_params, meta['params']):
        if p['kind'] in TENSOR_MAP_KINDS:
            if ptype != 'b8':
                problems.append(f'parameter {p["name"]}: PTX .{ptype} for a {p["kind"]} (a .b8 [128] tensor map)')
            continue
        want = 8 if p['kind'] in ('pointer', 'global_scratch') else TYPE_BYTES[p['type']]
        width = re.search(r'(\d+)$', ptype)
        have = int(width.group(1)) // 8 if width else None
        if ptype == 'pred' or have is None or (have != want and not (want == 1 and have in (1, 2))):
            problems.append(f'parameter {p["name"]}: PTX .{ptype} for a {p["kind"]} {p["type"]}')
    if problems:
        raise ValueError('metadata does not match the PTX: ' + '; '.join(problems))


def half_bits(x):
    """The IEEE binary16 bits of a Python float."""
    return struct.unpack('<H', struct.pack('<e', x))[0]


def bf16_bits(x):
    """The bfloat16 bits of a Python float (round to nearest even)."""
    b = struct.unpack('<I', struct.pack('<f', x))[0]
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF


def check_divisibility(p, value):
    """Raises if the metadata says the kernel was specialized for a multiple of p['divisibility']
    (Triton's tt.divisibility: a byte address for pointers) and `value` is not one."""
    d = p.get('divisibility')
    if d and value % d:
        raise ValueError(f'{p["name"]}: the kernel assumes a multiple of {d}, got {value} (wrong variant?)')


# cuTensorMapEncodeTiled's enums: the data type of each element type (a copy moves bits, but a
# reduction through the map adds floats as floats and compares i32 / i64 as signed, as Triton's
# atomic_add / atomic_max do; 8-bit and 16-bit integers have only unsigned types), the swizzle by
# bytes, 256-byte L2 promotion, no interleave, zeros for out-of-bounds elements.
TMA_DATA_TYPE = {'i8': 0, 'f8E4M3FN': 0, 'f8E5M2': 0, 'i16': 1, 'i32': 3, 'i64': 5,
                 'f16': 6, 'f32': 7, 'f64': 8, 'bf16': 9}
TMA_SWIZZLE = {0: 0, 32: 1, 64: 2, 128: 3}
TMA_L2_PROMOTION_256B = 3


class TensorMap(ctypes.Structure):
    """A CUtensorMap: 128 opaque bytes, aligned to 64 (ctypes cannot align a structure to 64, so
    the map lives at the first 64-byte aligned address of a larger buffer)."""
    _fields_ = [('raw', ctypes.c_uint8 * 192)]

    def address(self):
        base = ctypes.addressof(self)
        return base + (-base % 64)


# The most an unbounded dim of a hidden tensor map may get: past every int32 coordinate. (2^32, which
# cuTensorMapEncodeTiled accepts, made the copies fault with an illegal instruction: H200, driver
# 580.159.04, 2026-11-28.)
UNBOUNDED_EXTENT = 2 ** 31


def allocation_bytes(base):
    """The bytes from tensor `base`'s first element to the end of its storage, or None (an int address)."""
    if isinstance(base, int) or not hasattr(base, 'untyped_storage'):
        return None
    storage = base.untyped_storage()
    return storage.data_ptr() + storage.nbytes() - base.data_ptr()


def unbounded_extent(rest, byte_stride):
    """The extent of an unbounded dim `byte_stride` bytes apart over an allocation of `rest` bytes (None:
    unknown): every coordinate whose address stays inside it, at most UNBOUNDED_EXTENT."""
    if rest is None:
        return UNBOUNDED_EXTENT
    return max(1, min(UNBOUNDED_EXTENT, -(-rest // byte_stride)))


def encode_tiled_tensor_map(p, address, dims, byte_strides, elt_bytes):
    """The CUtensorMap for tensor-map parameter `p` ("tensordesc" or "tensormap") of the tensor at GPU
    `address` with `dims` and `byte_strides` (outermost dim first, as torch and the metadata list
    them; one stride per dim but the innermost, which is contiguous) of `elt_bytes`-byte elements:
    `cuTensorMapEncodeTiled` with dims, strides and the metadata's `box` reversed (innermost first, as
    the driver takes them), element strides 1, no interleave, the metadata's swizzle, 256-byte L2
    promotion, zero fill. Raises ValueError unless the address and strides are multiples of 16 bytes
    (TMA's rule) and every dim is at least 1. Returns a TensorMap whose `address()` the launch passes."""
    name, box = p['name'], p['box']
    rank = len(dims)
    if rank != len(box) or len(byte_strides) != rank - 1:
        raise ValueError(f'{name}: a {len(box)}-d box needs {len(box)} dims and {len(box) - 1} strides, '
                         f'got dims {list(dims)} and byte strides {list(byte_strides)}')
    if any(d < 1 for d in dims):
        raise ValueError(f'{name}: TMA needs every dim at least 1, got {list(dims)}')
    if address % 16 or any(s % 16 for s in byte_strides):
        raise ValueError(f'{name}: TMA needs a 16-byte aligned base address and byte strides, '
                         f'got address {address:#x} and byte strides {list(byte_strides)}')
    tmap = TensorMap()
    driver_dims = (ctypes.c_uint64 * rank)(*reversed(dims))
    driver_strides = (ctypes.c_uint64 * max(1, rank - 1))(*reversed(byte_strides))
    driver_box = (ctypes.c_uint32 * rank)(*reversed(box))
    element_strides = (ctypes.c_uint32 * rank)(*([1] * rank))
    cu = driver()
    data_type = TMA_DATA_TYPE.get(p['type'], {1: 0, 2: 1, 4: 2, 8: 4}[elt_bytes])
    check(cu.cuTensorMapEncodeTiled(ctypes.c_void_p(tmap.address()), data_type, rank,
                                    ctypes.c_void_p(address), driver_dims, driver_strides, driver_box,
                                    element_strides, 0, TMA_SWIZZLE[p['swizzle_bytes']], TMA_L2_PROMOTION_256B, 0),
          f'cuTensorMapEncodeTiled({name})')
    return tmap


def encode_tensor_map(p, value):
    """The CUtensorMap of a 2-d (or wider) torch tensor for descriptor parameter `p` ("tensordesc"):
    the tensor's dims and byte strides, the metadata's box and swizzle (see encode_tiled_tensor_map)."""
    if not hasattr(value, 'is_cuda') or not value.is_cuda:
        raise TypeError(f'{p["name"]}: a tensor descriptor needs a GPU tensor')
    if TORCH_POINTEE.get(value.dtype) != p['type']:
        raise TypeError(f'{p["name"]}: {value.dtype} tensor for a descriptor of {p["type"]}')
    rank = value.dim()
    if rank != len(p['box']):
        raise ValueError(f'{p["name"]}: a {len(p["box"])}-d descriptor needs a {len(p["box"])}-d tensor, got {rank}-d')
    if value.stride(-1) != 1:
        raise ValueError(f'{p["name"]}: TMA needs the last dim contiguous, strides {tuple(value.stride())}')
    elt = value.element_size()
    byte_strides = [value.stride(d) * elt for d in range(rank - 1)]
    return encode_tiled_tensor_map(p, value.data_ptr(), list(value.shape), byte_strides, elt)


def encode_hidden_tensor_map(p, given):
    """The CUtensorMap of hidden parameter `p` ("tensormap"), built from the launch's arguments
    `given` (by parameter name) as `p['from']` says: the tensor (or int address) of argument `base`,
    the dims of the integer arguments `shape` and the strides in elements of `strides` (both
    outermost first; the innermost stride is 1; an entry {params, times} is the product of those
    arguments and the constant). A dim named None is unbounded: the kernel's copies
    along it stand for unmasked loads, whose addresses are all inside the base's allocation, so it
    gets every coordinate that stays inside it (unbounded_extent; UNBOUNDED_EXTENT for an int
    address) and no valid read becomes a zero. Raises ValueError where an argument of `positive` is
    not > 0 (the kernel divides by it to find a coordinate). See encode_tiled_tensor_map for the rest."""
    source = p['from']

    def argument(name):
        """The given argument `name`, which the map is built from."""
        if name not in given:
            raise ValueError(f'{p["name"]}: the tensor map is built from argument {name!r}, which was not given')
        return given[name]

    for name in source.get('positive', []):
        if int(argument(name)) <= 0:
            raise ValueError(f'{p["name"]}: the kernel copies by TMA only where {name} > 0, got {int(argument(name))}')
    base = argument(source['base'])
    if isinstance(base, int):
        address = base
    elif base is None:
        raise ValueError(f'{p["name"]}: the tensor map needs the tensor of {source["base"]!r}, got None')
    elif not getattr(base, 'is_cuda', False):
        raise TypeError(f'{p["name"]}: the tensor map needs a GPU tensor for {source["base"]!r}')
    elif TORCH_POINTEE.get(base.dtype) != p['type']:
        raise TypeError(f'{p["name"]}: {base.dtype} tensor {source["base"]!r} for a tensor map of {p["type"]}')
    else:
        address = base.data_ptr()
    def term(entry):
        """A dim or stride: an integer argument's value (by name), or a product {params: [names], times: C}."""
        if isinstance(entry, str):
            return int(argument(entry))
        value = int(entry['times'])
        for name in entry['params']:
            value *= int(argument(name))
        return value

    elt = ELEMENT_BYTES[p['type']]
    byte_strides = [term(n) * elt for n in source['strides']]
    rest = allocation_bytes(base)
    dims = [unbounded_extent(rest, stride) if n is None else term(n)
            for n, stride in zip(source['shape'], byte_strides + [elt])]
    if any(n is not None and d >= 2 ** 31 for n, d in zip(source['shape'], dims)):
        # the kernel computes its dims in i32: past that its own arithmetic would have wrapped
        raise ValueError(f'{p["name"]}: tensor extent past i32 in {dims}')
    if any(d < 0 for d in dims):
        raise ValueError(f'{p["name"]}: negative tensor extent in {dict(zip(source["shape"], dims))}')
    # An extent of 0 (K = 0: the loop that copies through the map never runs) is encoded as 1: the
    # driver wants dims >= 1, and no copy reads the map.
    dims = [max(d, 1) for d in dims]
    return encode_tiled_tensor_map(p, address, dims, byte_strides, elt)


def is_hidden(p):
    """Whether the caller may leave out parameter `p` when it is trailing: a "tensormap" or the
    "global_scratch" (the launcher builds them) or a name starting with '__' (Triton's scratch
    pointers: null / zero)."""
    return p['kind'] in ('tensormap', 'global_scratch') or p['name'].startswith('__')


def global_scratch(p, grid):
    """The kernel's global scratch for a launch on `grid`: `bytes_per_program` bytes for each program
    (the tensor maps the kernel writes on the device live there). Its contents need no initialization."""
    programs = 1
    for n in grid:
        programs *= int(n)
    return torch.empty(programs * int(p['bytes_per_program']), dtype=torch.uint8, device='cuda')


def hidden_argument(p, given, grid=(1,)):
    """What the launcher passes for a hidden parameter `p` the caller left out: the tensor map of a
    "tensormap" (from the `given` arguments, by name), the scratch of "global_scratch" for `grid`,
    else a null pointer or zero."""
    if p['kind'] == 'tensormap':
        return encode_hidden_tensor_map(p, given)
    if p['kind'] == 'global_scratch':
        return global_scratch(p, grid)
    return None if p['kind'] == 'pointer' else 0


def pack_arg(p, value):
    """A ctypes value for one kernel argument described by the metadata parameter `p` (a TensorMap for
    a tensor descriptor: the launch passes its aligned address; a hidden "tensormap" takes only the
    TensorMap that `hidden_argument` built)."""
    if p['kind'] == 'tensordesc':
        return encode_tensor_map(p, value)
    if p['kind'] == 'tensormap':
        if not isinstance(value, TensorMap):
            raise TypeError(f'{p["name"]}: a hidden tensor map, which the launcher builds; pass nothing for it')
        return value
    if p['kind'] == 'global_scratch':
        return ctypes.c_uint64(value.data_ptr())
    if p['kind'] == 'pointer':
        if value is None:
            return ctypes.c_uint64(0)
        if isinstance(value, int):
            return ctypes.c_uint64(value)
        if not value.is_cuda:
            raise TypeError(f'{p["name"]}: tensor is not on the GPU')
        if TORCH_POINTEE.get(value.dtype) != p['type'] and not (p['type'] == 'i8' and value.dtype == torch.uint8):
            raise TypeError(f'{p["name"]}: {value.dtype} tensor for a pointer to {p["type"]}')
        check_divisibility(p, value.data_ptr())
        return ctypes.c_uint64(value.data_ptr())
    ty = p['type']
    if ty == 'i1':
        return ctypes.c_uint8(1 if value else 0)
    if ty == 'f16':
        return ctypes.c_uint16(half_bits(float(value)))
    if ty == 'bf16':
        return ctypes.c_uint16(bf16_bits(float(value)))
    if ty in ('f32', 'f64'):
        return SCALAR_CTYPES[ty](float(value))
    value = int(value)
    check_divisibility(p, value)
    bits = TYPE_BYTES[ty] * 8
    if not -(1 << (bits - 1)) <= value < (1 << bits):
        raise OverflowError(f'{p["name"]}: {value} does not fit {ty}')
    if value >= (1 << (bits - 1)):
        value -= 1 << bits  # an unsigned value of that width, passed with the same bits
    return SCALAR_CTYPES[ty](value)


def takes_first_copy(versions, params, args):
    """Whether a launch of a versioned kernel with `args` (in parameter order) takes its specialized
    copy: every parameter `versions` lists is a multiple of its divisor. Otherwise the launch may run
    `versions['otherwise']`, the kernel of the original copy alone."""
    names = [p['name'] for p in params]
    return all(int(args[names.index(n)]) % int(versions['divisor']) == 0 for n in versions['params'])


class Kernel:
    """A PTX kernel loaded into torch's CUDA context, launched with `launch`."""

    def __init__(self, ptx_path, meta_path=None, entry=None):
        """Reads PTX + metadata (default: the .json beside the .ptx), checks them and loads the module.

        A versioned kernel (metadata `versions`, tools/gpu/README.md) also loads its `otherwise`
        kernel, which `bind` launches where some listed parameter is not a multiple of the divisor;
        `entry` (that kernel's name, shared_bytes and ctas_per_sm) is how it is loaded."""
        meta_path = meta_path or re.sub(r'\.ptx$', '', ptx_path) + '.json'
        with open(ptx_path) as f:
            self.ptx = f.read()
        with open(meta_path) as f:
            self.meta = json.load(f)
        if entry is not None:
            self.meta = {**{k: v for k, v in self.meta.items() if k not in ('versions', 'ctas_per_sm')}, **entry}
        self.path = ptx_path
        self.name = self.meta['name']
        self.params = self.meta['params']
        self.threads = int(self.meta['threads_per_block'])
        self.shared = int(self.meta.get('shared_bytes', 0))
        check_signature(self.meta, self.ptx)
        cu = driver()
        self.module = ctypes.c_void_p()
        self._load(cu)
        self.function = ctypes.c_void_p()
        check(cu.cuModuleGetFunction(ctypes.byref(self.function), self.module, self.name.encode()),
              f'cuModuleGetFunction({self.name})')
        if self.shared > DEFAULT_SHARED_LIMIT:
            check(cu.cuFuncSetAttribute(self.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                        self.shared), 'cuFuncSetAttribute(max dynamic shared)')
        self.ctas_per_sm = self.meta.get('ctas_per_sm')
        self.carveout = self._apply_residency_hint(cu) if self.ctas_per_sm else None
        self.resident_ctas = self.occupancy()
        self.regs = self.attribute(CU_FUNC_ATTRIBUTE_NUM_REGS)
        self.local_bytes = self.attribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)
        self.static_shared = self.attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)
        self.max_threads = self.attribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)
        if self.threads > self.max_threads:
            raise ValueError(f'{self.name}: {self.threads} threads per block, the driver allows {self.max_threads} '
                             f'({self.regs} registers per thread)')
        versions = self.meta.get('versions')
        self.otherwise = Kernel(ptx_path, meta_path, versions['otherwise']) if versions else None

    def _load(self, cu):
        """cuModuleLoadDataEx on the PTX text, with the JIT's error log in the exception."""
        size = 1 << 16
        err, info = ctypes.create_string_buffer(size), ctypes.create_string_buffer(size)
        opts = (ctypes.c_int * 4)(CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                                  CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES)
        vals = (ctypes.c_void_p * 4)(ctypes.addressof(err), size, ctypes.addressof(info), size)
        data = ctypes.c_char_p(self.ptx.encode() + b'\0')
        result = cu.cuModuleLoadDataEx(ctypes.byref(self.module), data, 4, opts, vals)
        if result != 0:
            try:
                check(result, f'cuModuleLoadDataEx({self.path})')
            except CudaError as e:
                raise CudaError(f'{e}\nJIT log: {err.value.decode(errors="replace").strip()}') from None
        self.jit_log = info.value.decode(errors='replace').strip()

    def _apply_residency_hint(self, cu):
        """Realizes the metadata's `ctas_per_sm` with the shared memory carveout: the SM's shared memory
        is one of a few sizes (SHARED_CONFIGS_KIB), and the carveout, a percentage of the most an SM
        has, picks one. The size wanted is the smallest that holds `ctas_per_sm` x (`shared_bytes` +
        1 KiB); the percentage asked for is the middle of the range between it and the size below,
        because the driver's rounding of a percentage near a size is not the obvious one (H200,
        2026-11-27, ncu's launch__shared_mem_config_size: 7% -> 16 KiB, 9% -> 32 KiB, but 14% ->
        64 KiB, 18% -> 64 KiB, 27% -> 100 KiB; the percentage of exactly 12 x 5,248 bytes, 27%, gave
        16 CTAs per SM instead of 12). The rest of the unified storage becomes L1. Returns the percentage."""
        dev, per_sm = ctypes.c_int(), ctypes.c_int()
        check(cu.cuCtxGetDevice(ctypes.byref(dev)), 'cuCtxGetDevice')
        check(cu.cuDeviceGetAttribute(ctypes.byref(per_sm), CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, dev),
              'cuDeviceGetAttribute(max shared per SM)')
        percent = carveout_percent(int(self.ctas_per_sm) * (self.shared + RESERVED_SHARED_PER_CTA), per_sm.value)
        self.set_carveout(percent)
        return percent

    def set_carveout(self, percent):
        """Sets the kernel's preferred shared memory carveout (a percentage; -1: the driver's default)."""
        check(driver().cuFuncSetAttribute(self.function, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, percent),
              'cuFuncSetAttribute(preferred shared memory carveout)')

    def occupancy(self):
        """CTAs of this kernel an SM holds at once, as the driver computes it (carveout included)."""
        n = ctypes.c_int()
        check(driver().cuOccupancyMaxActiveBlocksPerMultiprocessor(ctypes.byref(n), self.function, self.threads, self.shared),
              'cuOccupancyMaxActiveBlocksPerMultiprocessor')
        return n.value

    def attribute(self, attr):
        """An integer CUfunction_attribute of the loaded kernel."""
        v = ctypes.c_int()
        check(driver().cuFuncGetAttribute(ctypes.byref(v), attr, self.function), 'cuFuncGetAttribute')
        return v.value

    def bind(self, grid, args, stream=None):
        """Packs `args` (in parameter order) once; returns a no-argument function that launches on `grid`
        (1 to 3 ints) on `stream` (default: torch's current stream).

        Trailing hidden parameters (`is_hidden`) may be left out: a "tensormap" gets the tensor map
        built from the other arguments (`encode_hidden_tensor_map`), a '__' name (e.g. Triton's scratch
        pointers) a null pointer / zero.
        """
        args = list(args)
        if self.otherwise is not None and not takes_first_copy(self.meta['versions'], self.params, args):
            return self.otherwise.bind(grid, args, stream)
        given = {p['name']: a for p, a in zip(self.params, args)}
        while len(args) < len(self.params) and is_hidden(self.params[len(args)]):
            args.append(hidden_argument(self.params[len(args)], given, grid))
        if len(args) != len(self.params):
            raise TypeError(f'{self.name} takes {len(self.params)} arguments, got {len(args)}')
        values = [pack_arg(p, a) for p, a in zip(self.params, args)]
        addresses = [v.address() if isinstance(v, TensorMap) else ctypes.addressof(v) for v in values]
        pointers = (ctypes.c_void_p * max(1, len(values)))(*addresses)
        g = [ctypes.c_uint(int(x)) for x in tuple(grid) + (1,) * (3 - len(grid))]
        if stream is None:
            stream = torch.cuda.current_stream().cuda_stream
        cu, fn, threads, shared = driver(), self.function, ctypes.c_uint(self.threads), ctypes.c_uint(self.shared)
        one, s = ctypes.c_uint(1), ctypes.c_void_p(stream)

        def run():
            check(cu.cuLaunchKernel(fn, g[0], g[1], g[2], threads, one, one, shared, s, pointers, None),
                  f'cuLaunchKernel({self.name})')
        run.packed = values  # the packed arguments (tensor maps included) live as long as the launcher
        run.args = args  # and the tensors behind them (the global scratch included)
        return run

    def launch(self, grid, args, stream=None):
        """Launches once on `grid` with `args` (see `bind`)."""
        self.bind(grid, args, stream)()

    def describe(self):
        """A one-line summary: name, threads, shared memory, registers, local memory."""
        return (f'{self.name}: {self.threads} threads/block, {self.shared} B dynamic shared, {self.regs} regs, '
                f'{self.local_bytes} B local, {self.static_shared} B static shared, {self.resident_ctas} CTAs/SM'
                + (f' (hint {self.ctas_per_sm}, carveout {self.carveout}%)' if self.ctas_per_sm else '')
                + (f'; otherwise {self.otherwise.describe()}' if self.otherwise else ''))


_flush_buffer = None


def flush_l2():
    """Overwrites a buffer of twice the L2 size so that the next kernel starts with a cold cache."""
    global _flush_buffer
    if _flush_buffer is None:
        l2 = getattr(torch.cuda.get_device_properties(0), 'L2_cache_size', 0) or (64 << 20)
        _flush_buffer = torch.empty(max(2 * l2, 256 << 20), dtype=torch.int8, device='cuda')
    _flush_buffer.zero_()


def time_us(fn, iters=100, warmup=10, flush=True):
    """Median time of `fn` (which launches GPU work) in microseconds, from CUDA events around each run.

    A cache flush runs before every timed run (outside the events), which also keeps the GPU busy while
    the host queues the launch, so launch overhead is not measured. Returns (median, min).
    """
    for _ in range(warmup):
        fn()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(iters)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(iters)]
    for s, e in zip(starts, ends):
        if flush:
            flush_l2()
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    times = [s.elapsed_time(e) * 1000.0 for s, e in zip(starts, ends)]
    return statistics.median(times), min(times)


def time_interleaved_us(fns, iters=100, warmup=10, flush=True, before=None):
    """Median and min times (µs) of each of `fns`, run in turn so that clock and thermal drift over the
    measurement affects all of them alike (back-to-back blocks of one kernel then the other differ by
    up to 8% on a warm H100 from drift alone). Same events and flushes as `time_us`.

    The order rotates every round (f0 f1 f2, f1 f2 f0, f2 f0 f1, ...) and a kernel's time is the mean,
    over the positions, of its median in each: the position in a round biases a short kernel by itself
    (the same 14 µs layernorm measured 0.952x of its own copy one place later on an H200, 2026-11-27),
    and a rotation cancels that. `iters` is rounded up to a multiple of len(fns). `before` (e.g.
    restoring outputs a kernel overwrites) runs before each launch, outside its events."""
    n = len(fns)
    rounds = -(-iters // n) * n
    for _ in range(warmup):
        for fn in fns:
            if before:
                before()
            fn()
    starts = [[torch.cuda.Event(enable_timing=True) for _ in range(rounds)] for _ in fns]
    ends = [[torch.cuda.Event(enable_timing=True) for _ in range(rounds)] for _ in fns]
    for i in range(rounds):
        for k in range(n):
            j = (i + k) % n
            if before:
                before()
            if flush:
                flush_l2()
            starts[j][i].record()
            fns[j]()
            ends[j][i].record()
    torch.cuda.synchronize()
    out = []
    for j in range(n):
        times = [s.elapsed_time(e) * 1000.0 for s, e in zip(starts[j], ends[j])]
        # round i put fn j at position (j - i) mod n
        by_position = [[t for i, t in enumerate(times) if (j - i) % n == p] for p in range(n)]
        out.append((statistics.fmean(statistics.median(ts) for ts in by_position), min(times)))
    return out


def main(argv=None):
    """CLI: load a kernel and describe it."""
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('ptx')
    ap.add_argument('--meta', help='metadata JSON (default: the .json beside the .ptx)')
    a = ap.parse_args(argv)
    k = Kernel(a.ptx, a.meta)
    print(k.describe())
    for p in k.params:
        print(f'  {p["kind"]:7} {p["type"]:4} {p["name"]}')
    if k.jit_log:
        print('JIT:', k.jit_log)
    return 0


if __name__ == '__main__':
    sys.exit(main())
