"""The GPU side of the tuner (`tune.py`): loads variants with `runner.Kernel`, reads the device's
limits and driver version, snapshots and compares outputs, and times launches with CUDA events
(warm-up, median of many runs, L2 flushed before each, launches of the variants interleaved).
Needs torch and a CUDA GPU."""
import ctypes
import re

import torch

import runner
import tune

CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12
CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16
CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39
CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81
CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR = 82
CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97

TORCH_DTYPES = {'f16': torch.float16, 'bf16': torch.bfloat16, 'f32': torch.float32, 'f64': torch.float64,
                'i8': torch.int8, 'i16': torch.int16, 'i32': torch.int32, 'i64': torch.int64, 'i1': torch.bool}


def driver_version():
    """The NVIDIA kernel module's version (580.159.04), else the CUDA driver API's (13000)."""
    try:
        with open('/proc/driver/nvidia/version') as f:
            m = re.search(r'Kernel Module\s+(?:for \S+\s+)?([\d.]+)', f.read())
            if m:
                return m.group(1)
    except OSError:
        pass
    v = ctypes.c_int()
    runner.check(runner.driver().cuDriverGetVersion(ctypes.byref(v)), 'cuDriverGetVersion')
    return str(v.value)


def device_attribute(attr):
    """An integer CUdevice_attribute of the current device."""
    cu = runner.driver()
    dev, v = ctypes.c_int(), ctypes.c_int()
    runner.check(cu.cuCtxGetDevice(ctypes.byref(dev)), 'cuCtxGetDevice')
    runner.check(cu.cuDeviceGetAttribute(ctypes.byref(v), attr, dev), 'cuDeviceGetAttribute')
    return v.value


def synchronize():
    """Waits for the GPU."""
    torch.cuda.synchronize()


def make_tensor(kind, shape, ty):
    """A CLI argument tensor: randn / zeros / empty of a metadata type."""
    dtype = TORCH_DTYPES[ty]
    if kind == 'randn' and dtype.is_floating_point:
        return torch.randn(shape, dtype=dtype, device='cuda')
    if kind == 'randn':
        return torch.randint(-100, 100, shape, device='cuda').to(dtype)
    return (torch.zeros if kind == 'zeros' else torch.empty)(shape, dtype=dtype, device='cuda')


class CudaBackend:
    """The tuner's operations on the current CUDA device."""

    def __init__(self):
        self._limits = None

    def limits(self):
        """The device's tune.DeviceLimits (read once)."""
        if self._limits is None:
            runner.driver()
            self._limits = tune.DeviceLimits(
                name=torch.cuda.get_device_name(), driver=driver_version(),
                sms=device_attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
                shared_per_block=device_attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
                shared_per_sm=device_attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR),
                regs_per_sm=device_attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR),
                regs_per_block=device_attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK),
                threads_per_sm=device_attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR))
        return self._limits

    def load(self, variant):
        """runner.Kernel of a variant (JIT-compiles its PTX; raises if the driver refuses it)."""
        return runner.Kernel(variant.ptx, variant.metadata)

    def registers(self, kernel):
        """Registers per thread, as the driver compiled the kernel."""
        return kernel.regs

    def unfit(self, kernel):
        """Why the driver cannot run the loaded kernel (None if it can)."""
        if kernel.resident_ctas == 0:
            return f'no CTA fits an SM ({kernel.regs} registers, {kernel.shared} B shared)'
        return None

    def bind(self, kernel, grid, args):
        """A no-argument launcher (on the current stream)."""
        return kernel.bind(grid, args)

    def stream_key(self):
        """The current stream, which a packed launcher is bound to."""
        return torch.cuda.current_stream().cuda_stream

    def snapshot(self, args, indices):
        """Copies of the tensors at `indices`, with where they came from, for `restore`."""
        return [(args[i], args[i].clone()) for i in indices if isinstance(args[i], torch.Tensor)]

    def restore(self, saved):
        """Writes the snapshot back into the original tensors."""
        for dst, src in saved:
            dst.copy_(src)

    def capture(self, tensors):
        """Copies of the compared tensors after a launch."""
        torch.cuda.synchronize()
        return [t.clone() for t in tensors if isinstance(t, torch.Tensor)]

    def agree(self, got, want, rtol, atol):
        """(True, '') when every output is close to its expected value, else (False, the worst error)."""
        for k, (g, w) in enumerate(zip(got, want)):
            g64, w64 = g.double(), w.double().to(g.device)
            if g64.shape != w64.shape:
                return False, f'output {k}: shape {tuple(g64.shape)} vs {tuple(w64.shape)}'
            err = (g64 - w64).abs()
            bad = ~(err <= atol + rtol * w64.abs())  # NaN counts as bad
            if bool(bad.any()):
                n = int(bad.sum())
                worst = float(torch.nan_to_num(err, nan=float('inf')).max())
                return False, f'output {k}: {n} of {g64.numel()} elements off, max error {worst:.3g}'
        return True, ''

    def time(self, fns, iters=50, warmup=10, flush=True, before=None):
        """Median µs of each launcher, interleaved with the order rotating every round (runner's
        `time_interleaved_us`: a fixed order biased a variant by its place, and the picks at 10^4 and
        10^6 changed from run to run); the L2 flush and `before` (restoring outputs) run before each
        timed launch, outside its events."""
        return [m for m, _ in runner.time_interleaved_us(fns, iters, warmup, flush, before)]


def show(space):
    """`tune.py show`: each variant, its compiler statistics, and whether and how it fits this GPU."""
    backend = CudaBackend()
    limits = backend.limits()
    print(f'{space.kernel}: {len(space.variants)} variants, key {", ".join(space.key) or "(none)"}, '
          f'space {space.hash[:12]}; {limits.name}, driver {limits.driver}, {limits.sms} SMs')
    for v in space.variants:
        if not v.ok:
            print(f'  {v.index:3} {v.description}: did not compile: {v.diagnostic.splitlines()[0]}')
            continue
        why = tune.misfit(v, limits)
        regs = v.registers
        if why is None:
            try:
                k = backend.load(v)
                regs = k.regs
                why = tune.misfit(v, limits, regs) or backend.unfit(k)
            except Exception as e:
                why = f'does not load: {str(e).splitlines()[0]}'
        fit = f'skipped: {why}' if why else f'{tune.ctas_per_sm(v, limits, regs)} CTAs/SM'
        print(f'  {v.index:3} {v.description}: {v.threads} threads, {v.shared_bytes} B shared, '
              f'{regs if regs is not None else "?"} regs; {fit}')
    return 0
