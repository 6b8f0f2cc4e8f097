#!/usr/bin/env python3
"""Auto-tuning of a compiled variant space (`triton-translate --from-c -D...=[...] --all-variants DIR
--to-ptx`): for each new key of a launch (by default the kernel's integer scalar arguments), every
variant that fits the GPU is checked against the first one (or a reference) and timed; the fastest
is remembered in an on-disk cache keyed by (space hash, key, GPU name, driver version), so a later
launch with the same key, in this process or another, runs it directly ("cache hit").

Library (this file needs neither torch nor CUDA; the GPU side is `tune_cuda.CudaBackend`):

    space = tune.Space.load('build/tune/vadd')
    add = tune.Tuner(space, grid=lambda D, A: (tune.cdiv(A['N'], D['SIZE']),), outputs=['c'])
    add(n, a, b, c)                  # tunes on the first launch of a key, then launches the pick

CLI (on the GPU machine):

    python3 tools/gpu/tune.py show SPACE_DIR                       # variants, fit and occupancy here
    python3 tools/gpu/tune.py run SPACE_DIR --grid 'lambda D, A: (cdiv(A["N"], D["SIZE"]),)' \\
        --arg N=1048576 --arg a=randn:1048576 --arg b=randn:1048576 --arg c=empty:1048576 --outputs c
    python3 tools/gpu/tune.py cache [--clear]                      # what the cache holds

See docs/autotuning.md.
"""
import argparse
import datetime
import json
import math
import os
import sys
import tempfile

SPACE_FORMAT = 1
DEFAULT_CACHE = os.path.join(os.path.expanduser('~'), '.cache', 'triton-ir', 'tune-cache.json')
RESERVED_SHARED_PER_CTA = 1024  # the system's shared memory per resident CTA (sm_80 and later)
REGISTER_ALLOCATION_UNIT = 256  # registers are given to warps in units of 256
MAX_CTAS_PER_SM = 32
SATURATING_WARPS = 16  # resident warps an SM needs to hide memory latency (the cost model's assumption)
PROGRAM_OVERHEAD = 0.03  # the cost model's per-program overhead: +3% per doubling of the program count


class TuneError(Exception):
    """A user mistake (bad space, bad arguments, unreadable cache): printed as 'error: ...' by the CLI."""


def cdiv(a, b):
    """Ceiling division, for grid functions."""
    return -(-a // b)


def next_power_of_2(n):
    """The smallest power of two >= n (1 for n <= 1), as Triton rounds sizes."""
    n = int(n)
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


def define_value(text):
    """A -D value as Python sees it: an int for an integer literal, else the text."""
    try:
        return int(text, 0)
    except ValueError:
        return text


class Variant:
    """One point of the space: its -D values, files, and the compiler's statistics."""

    def __init__(self, space_dir, record):
        self.index = record['index']
        self.description = record.get('description') or '(no -D lists)'
        self.status = record['status']
        self.diagnostic = record.get('diagnostic')
        self.choice = record.get('choice', {})
        self.defines = record.get('defines', {})
        self.D = {k: define_value(v) for k, v in self.defines.items()}
        files = record.get('files', {})
        self.ptx = os.path.join(space_dir, files['ptx']) if 'ptx' in files else None
        self.metadata = os.path.join(space_dir, files['metadata']) if 'metadata' in files else None
        self.threads = record.get('threads_per_block')
        self.num_warps = record.get('num_warps')
        self.shared_bytes = record.get('shared_bytes', 0)
        stats = record.get('ptxas') or {}
        self.registers = stats.get('registers')
        self.spill_bytes = stats.get('spill_stores', 0) + stats.get('spill_loads', 0)

    @property
    def ok(self):
        """True when the variant compiled."""
        return self.status == 'ok'

    def __repr__(self):
        return f'Variant({self.index}: {self.description})'


class Space:
    """A compiled space: DIR/space.json and the files it names."""

    def __init__(self, directory, data):
        self.dir = directory
        self.hash = data['hash']
        self.kernel = data.get('kernel')
        self.params = data.get('params') or []
        self.key = data.get('key') or []
        self.arch = data.get('arch')
        self.variants = [Variant(directory, r) for r in data['variants']]

    @classmethod
    def load(cls, directory):
        """Reads DIR/space.json; TuneError when it is missing, of another format, or not PTX."""
        path = os.path.join(directory, 'space.json')
        try:
            with open(path) as f:
                data = json.load(f)
        except OSError as e:
            raise TuneError(f'{path}: cannot read it ({e.strerror}); compile the space with triton-translate '
                            f'--from-c ... --all-variants {directory} --to-ptx') from None
        except json.JSONDecodeError as e:
            raise TuneError(f'{path}: not valid JSON ({e})') from None
        if data.get('format') != SPACE_FORMAT:
            raise TuneError(f'{path}: space format {data.get("format")!r}, this tuner reads {SPACE_FORMAT}')
        if data.get('translation') != 'to-ptx':
            raise TuneError(f'{path}: the space holds {data.get("translation")} files; compile it with --to-ptx')
        return cls(directory, data)

    def compiled(self):
        """The variants that compiled."""
        return [v for v in self.variants if v.ok]

    def param_names(self):
        """The kernel's parameter names, in order."""
        return [p['name'] for p in self.params]

    def bind_args(self, args, kwargs=None):
        """The launch arguments as {parameter name: value} from positional and keyword arguments."""
        names = self.param_names()
        kwargs = dict(kwargs or {})
        if len(args) > len(names):
            raise TuneError(f'{self.kernel} takes {len(names)} arguments, got {len(args)}')
        bound = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in names:
                raise TuneError(f'{self.kernel} has no parameter {k!r} (parameters: {", ".join(names)})')
            if k in bound:
                raise TuneError(f'{self.kernel}: argument {k!r} given twice')
            bound[k] = v
        missing = [n for n in names if n not in bound and not n.startswith('__')]
        if missing:
            raise TuneError(f'{self.kernel}: missing argument{"s" if len(missing) > 1 else ""} {", ".join(missing)}')
        return bound


def tuning_key(bound, key_names, pow2=()):
    """The key of a launch: ((name, value), ...) for each key parameter, in order. Integers named in
    `pow2` are rounded up to a power of two; a tensor counts by its shape and dtype."""
    key = []
    for name in key_names:
        if name not in bound:
            raise TuneError(f'key parameter {name!r} is not an argument of the kernel')
        value = bound[name]
        if hasattr(value, 'shape') and hasattr(value, 'dtype'):
            value = f'{tuple(value.shape)}:{value.dtype}'
        elif name in pow2:
            value = next_power_of_2(value)
        key.append((name, value))
    return tuple(key)


def key_text(key):
    """'M=4096 N=4096' for a key."""
    return ' '.join(f'{n}={v}' for n, v in key) or '(empty key)'


class DeviceLimits:
    """What a GPU can hold, for pruning and the cost model; `name` and `driver` also key the cache."""

    def __init__(self, name, driver, sms, shared_per_block, shared_per_sm, regs_per_sm, regs_per_block,
                 threads_per_sm, max_regs_per_thread=255):
        self.name, self.driver, self.sms = name, driver, sms
        self.shared_per_block, self.shared_per_sm = shared_per_block, shared_per_sm
        self.regs_per_sm, self.regs_per_block = regs_per_sm, regs_per_block
        self.threads_per_sm, self.max_regs_per_thread = threads_per_sm, max_regs_per_thread


def misfit(variant, limits, registers=None):
    """Why `variant` cannot run on the device (None if it can), from its metadata and registers
    (the driver's count when loaded, else ptxas's)."""
    regs = registers if registers is not None else variant.registers
    if variant.shared_bytes > limits.shared_per_block:
        return f'{variant.shared_bytes} B of shared memory, the device allows {limits.shared_per_block} B per block'
    if regs is not None and regs > limits.max_regs_per_thread:
        return f'{regs} registers per thread, the device allows {limits.max_regs_per_thread}'
    if regs is not None and variant.threads and regs * variant.threads > limits.regs_per_block:
        return f'{regs} registers x {variant.threads} threads, the device allows {limits.regs_per_block} per block'
    return None


def ctas_per_sm(variant, limits, registers=None):
    """Resident CTAs per SM from threads, registers (allocated per warp in units of 256) and shared memory."""
    regs = registers if registers is not None else variant.registers
    threads = variant.threads or 128
    fit = [MAX_CTAS_PER_SM, limits.threads_per_sm // threads]
    if regs:
        per_warp = cdiv(regs * 32, REGISTER_ALLOCATION_UNIT) * REGISTER_ALLOCATION_UNIT
        fit.append(limits.regs_per_sm // (per_warp * cdiv(threads, 32)))
    fit.append(limits.shared_per_sm // (variant.shared_bytes + RESERVED_SHARED_PER_CTA))
    return max(0, min(fit))


def estimated_cost(variant, limits, programs, registers=None):
    """Relative time the compiler's statistics predict for `programs` programs (lower is better), the
    wave model: with c CTAs resident per SM, the programs run in ceil(P / (SMs*c)) waves, each SM
    sharing its time among min(c, ceil(P/SMs)) programs; the total work is the same for every
    variant, so a program's share of it is 1/P. An SM hides latency only with enough warps: below
    SATURATING_WARPS resident warps its throughput drops in proportion. Each program also costs a
    fixed overhead (start-up, index set-up, epilogue): every doubling of the program count adds
    PROGRAM_OVERHEAD. Spilled registers double the estimate. Returns (cost, programs), which sorts
    in that order (ties go to fewer programs)."""
    c = ctas_per_sm(variant, limits, registers)
    if c == 0 or programs <= 0:
        return (math.inf, programs)
    waves = cdiv(programs, limits.sms * c)
    sharing = min(c, cdiv(programs, limits.sms))
    warps = sharing * cdiv(variant.threads or 128, 32)
    cost = waves * sharing / programs / min(1.0, warps / SATURATING_WARPS)
    cost *= 1 + PROGRAM_OVERHEAD * math.log2(programs)
    if variant.spill_bytes:
        cost *= 2
    return (cost, programs)


def grid_programs(grid):
    """Number of programs of a launch grid (1 to 3 ints)."""
    n = 1
    for g in grid:
        n *= int(g)
    return n


class Cache:
    """The on-disk choices: a JSON object {entry key: choice}, rewritten atomically on each store."""

    def __init__(self, path=None):
        self.path = path or os.environ.get('TRITON_IR_TUNE_CACHE') or DEFAULT_CACHE

    @staticmethod
    def entry_key(space_hash, key, gpu, driver):
        """The cache's key for one (space, launch key, GPU, driver)."""
        return json.dumps([space_hash, [[n, v] for n, v in key], gpu, driver])

    def _read(self):
        try:
            with open(self.path) as f:
                data = json.load(f)
        except FileNotFoundError:
            return {}
        except (OSError, json.JSONDecodeError) as e:
            raise TuneError(f'{self.path}: the tuning cache cannot be read ({e}); remove it or pass another '
                            f'--cache') from None
        if not isinstance(data, dict):
            raise TuneError(f'{self.path}: the tuning cache is not a JSON object; remove it or pass another --cache')
        return data

    def get(self, space_hash, key, gpu, driver):
        """The stored choice (a dict with 'variant' and its times) or None."""
        return self._read().get(self.entry_key(space_hash, key, gpu, driver))

    def put(self, space_hash, key, gpu, driver, choice):
        """Stores a choice (re-reading the file first, so that other processes' entries are kept)."""
        data = self._read()
        data[self.entry_key(space_hash, key, gpu, driver)] = choice
        os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix='.tune-cache-', dir=os.path.dirname(os.path.abspath(self.path)))
        with os.fdopen(fd, 'w') as f:
            json.dump(data, f, indent=1, sort_keys=True)
            f.write('\n')
        os.replace(tmp, self.path)

    def entries(self):
        """[(space hash, key, gpu, driver, choice)] of every stored choice."""
        out = []
        for k, choice in self._read().items():
            space_hash, key, gpu, driver = json.loads(k)
            out.append((space_hash, tuple((n, v) for n, v in key), gpu, driver, choice))
        return out

    def clear(self):
        """Removes the cache file (nothing if there is none)."""
        if os.path.exists(self.path):
            os.remove(self.path)


class Choice:
    """The outcome of choosing a variant for a key."""

    def __init__(self, variant, key, cached, times=None, skipped=None, dropped=None):
        self.variant, self.key, self.cached = variant, key, cached
        self.times = times or {}  # variant index -> median µs
        self.skipped = skipped or {}  # variant index -> why it was not timed
        self.dropped = dropped or {}  # variant index -> how its output disagreed


class Tuner:
    """Launches a compiled space like one kernel, tuning each new key (see the module doc).

    grid: callable (D, A) -> grid tuple, D the variant's -D values (ints where they are integers),
          A the launch arguments by parameter name (as Triton's `grid` lambda).
    backend: the GPU (tune_cuda.CudaBackend(), the default) or a test double with the same methods.
    key: parameter names of the key (default: the space's, its integer scalars); pow2: names rounded
          up to powers of two. outputs: pointer parameters the kernel writes (default: every pointer),
          compared between variants; restore: parameters the kernel also reads (restored before each run).
    compare: callable (A) -> [tensor] the check compares (default: the outputs; give views such as
          c[:n] when variants may write different padding). reference: callable (A) -> [expected tensor
          per compared tensor] (default: the first variant's). top_k: time only the K variants of
          lowest estimated cost.
    """

    def __init__(self, space, grid, backend=None, cache=None, key=None, pow2=(), outputs=None, restore=(),
                 compare=None, reference=None, rtol=1e-3, atol=1e-3, top_k=None, iters=50, warmup=10, flush=True,
                 retune=False, log=print):
        self.space, self.grid = space, grid
        if backend is None:
            import tune_cuda  # noqa: E402  (needs torch and a GPU)
            backend = tune_cuda.CudaBackend()
        self.backend = backend
        self.cache = cache if cache is not None else Cache()
        self.key_names = list(space.key if key is None else key)
        self.pow2 = set(pow2)
        pointers = [p['name'] for p in space.params if p['kind'] == 'pointer']
        self.outputs = list(pointers if outputs is None else outputs)
        self.restore = list(restore)
        for n in self.key_names + list(self.pow2) + self.outputs + self.restore:
            if n not in space.param_names():
                raise TuneError(f'{n!r} is not a parameter of {space.kernel} ({", ".join(space.param_names())})')
        self.compare, self.reference, self.rtol, self.atol = compare, reference, rtol, atol
        self.top_k, self.iters, self.warmup, self.flush = top_k, iters, warmup, flush
        self.retune, self.log = retune, log
        self.chosen = {}  # key -> Choice, this process
        self.kernels = {}  # variant index -> loaded kernel
        self.launchers = {}  # _launcher_key -> packed launcher
        self.benchmarks = 0  # keys tuned (timed) by this tuner
        self.cache_hits = 0

    def __call__(self, *args, **kwargs):
        """Launches the kernel with these arguments, tuning first if the key is new; returns the Choice."""
        bound = self.space.bind_args(args, kwargs)
        choice = self.choose(bound)
        self.launch(choice.variant, bound)
        return choice

    def key_of(self, bound):
        """The tuning key of bound arguments."""
        return tuning_key(bound, self.key_names, self.pow2)

    def launch(self, variant, bound):
        """Launches one variant with bound arguments. The packed launcher is kept per (variant, grid,
        stream, argument values and tensor addresses): packing in Python took longer than a 4 µs
        kernel, so a tuned launch of a small size timed the dispatch more than the kernel."""
        grid, args = self.grid_of(variant, bound), self.ordered(bound)
        key = self._launcher_key(variant, grid, args)
        run = self.launchers.get(key) if key is not None else None
        if run is None:
            run = self.backend.bind(self.kernel(variant), grid, args)
            if key is not None:
                if len(self.launchers) >= 256:
                    self.launchers.clear()
                self.launchers[key] = run
        run()

    def _launcher_key(self, variant, grid, args):
        """What a packed launcher depends on, or None when an argument is neither a number nor has an address."""
        parts = []
        for a in args:
            if isinstance(a, (bool, int, float)):
                parts.append((type(a).__name__, a))
            elif hasattr(a, 'data_ptr'):
                parts.append(('ptr', a.data_ptr()))
            else:
                return None
        stream = self.backend.stream_key() if hasattr(self.backend, 'stream_key') else None
        return (variant.index, grid, stream, tuple(parts))

    def grid_of(self, variant, bound):
        """The user's grid for a variant, as a tuple."""
        g = self.grid(variant.D, bound)
        return tuple(g) if isinstance(g, (tuple, list)) else (g,)

    def ordered(self, bound):
        """Arguments in parameter order (trailing '__' parameters left out)."""
        return [bound[n] for n in self.space.param_names() if n in bound]

    def kernel(self, variant):
        """The loaded kernel of a variant (loaded once)."""
        if variant.index not in self.kernels:
            self.kernels[variant.index] = self.backend.load(variant)
        return self.kernels[variant.index]

    def choose(self, bound):
        """The variant for these arguments: this process's choice, the cache's, or a new tuning."""
        key = self.key_of(bound)
        if key in self.chosen:
            return self.chosen[key]
        limits = self.backend.limits()
        entry = None if self.retune else self.cache.get(self.space.hash, key, limits.name, limits.driver)
        if entry is not None:
            variant = self._cached_variant(entry)
            if variant is not None:
                self.cache_hits += 1
                self.log(f'cache hit: {self.space.kernel} [{key_text(key)}] -> {variant.description} '
                         f'({entry.get("time_us", float("nan")):.2f} us when tuned on {entry.get("date", "?")})')
                choice = Choice(variant, key, True, {int(k): t for k, t in entry.get('times_us', {}).items()})
                self.chosen[key] = choice
                return choice
        choice = self.tune(bound, key, limits)
        self.chosen[key] = choice
        return choice

    def _cached_variant(self, entry):
        index = entry.get('variant')
        for v in self.space.compiled():
            if v.index == index:
                return v
        self.log(f'warning: the cache names variant {index!r}, which this space does not have compiled; tuning again')
        return None

    def candidates(self, bound, limits):
        """(variants to time, {index: why skipped}): pruned before timing (loading each that fits)."""
        skipped, fit = {}, []
        for v in self.space.variants:
            if not v.ok:
                skipped[v.index] = 'did not compile'
                continue
            why = misfit(v, limits)
            if why is None:
                try:
                    k = self.kernel(v)
                    why = misfit(v, limits, self.backend.registers(k)) or self.backend.unfit(k)
                except Exception as e:  # the driver refused it: resources, JIT failure
                    why = f'does not load: {str(e).splitlines()[0]}'
            if why:
                skipped[v.index] = why
            else:
                fit.append(v)
        if self.top_k and len(fit) > self.top_k:
            rank = self.estimated_ranks(fit, bound, limits)
            ranked = sorted(fit, key=lambda v: rank[v.index])
            for r, v in enumerate(ranked[self.top_k:], start=self.top_k + 1):
                skipped[v.index] = f'--top-k {self.top_k}: estimated cost rank {r}'
            fit = sorted(ranked[:self.top_k], key=lambda v: v.index)
        return fit, skipped

    def tune(self, bound, key, limits=None):
        """Checks and times every candidate on these arguments, stores the fastest; returns the Choice."""
        limits = limits or self.backend.limits()
        fit, skipped = self.candidates(bound, limits)
        for index, why in sorted(skipped.items()):
            if why != 'did not compile':
                self.log(f'  skip {self.space.variants[index].description}: {why}')
        if not fit:
            raise TuneError(f'{self.space.kernel} [{key_text(key)}]: no variant can run on {limits.name}')
        names = self.space.param_names()
        out_idx = [names.index(n) for n in self.outputs]
        keep_idx = sorted(set(out_idx) | {names.index(n) for n in self.restore})
        args = self.ordered(bound)
        saved = self.backend.snapshot(args, keep_idx)
        views = list(self.compare(bound)) if self.compare else [args[i] for i in out_idx]
        expected = list(self.reference(bound)) if self.reference else None
        if expected is not None and len(expected) != len(views):
            raise TuneError(f'the reference gave {len(expected)} tensors for the {len(views)} compared '
                            f'({"compare()" if self.compare else ", ".join(self.outputs)})')
        against = 'the reference' if self.reference else None  # else the first variant's output
        dropped, good = {}, []
        for v in fit:
            self.backend.restore(saved)
            self.launch(v, bound)
            got = self.backend.capture(views)
            if expected is None:
                expected, against = got, f"{v.description}'s output"
                good.append(v)
                continue
            ok, detail = self.backend.agree(got, expected, self.rtol, self.atol)
            if ok:
                good.append(v)
            else:
                dropped[v.index] = detail
                self.log(f'  warning: dropped {v.description}: its output differs from {against} ({detail})')
        if not good:
            raise TuneError(f'{self.space.kernel} [{key_text(key)}]: every variant disagrees with the reference')
        before = (lambda: self.backend.restore(saved)) if self.restore else None
        fns = [self.backend.bind(self.kernel(v), self.grid_of(v, bound), args) for v in good]
        medians = self.backend.time(fns, iters=self.iters, warmup=self.warmup, flush=self.flush, before=before)
        self.backend.restore(saved)
        self.benchmarks += 1
        times = {v.index: t for v, t in zip(good, medians)}
        best = min(good, key=lambda v: (times[v.index], v.index))
        ranks = self.estimated_ranks(good, bound, limits)
        self._report(key, limits, times, best, len(skipped), len(dropped), ranks)
        self.cache.put(self.space.hash, key, limits.name, limits.driver, {
            'variant': best.index, 'description': best.description, 'defines': best.defines,
            'time_us': times[best.index], 'times_us': {str(i): t for i, t in times.items()},
            'skipped': {str(i): w for i, w in skipped.items()}, 'dropped': {str(i): d for i, d in dropped.items()},
            'kernel': self.space.kernel, 'date': datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC'),
        })
        return Choice(best, key, False, times, skipped, dropped)

    def estimated_ranks(self, variants, bound, limits):
        """{index: rank} of the variants by estimated cost (1: cheapest), as --top-k would order them."""
        cost = {v.index: estimated_cost(v, limits, grid_programs(self.grid_of(v, bound)),
                                        self.backend.registers(self.kernel(v))) for v in variants}
        ranked = sorted(cost, key=lambda i: (cost[i], i))
        return {i: r for r, i in enumerate(ranked, start=1)}

    def _report(self, key, limits, times, best, n_skipped, n_dropped, ranks):
        self.log(f'tuned {self.space.kernel} [{key_text(key)}] on {limits.name}: {len(times)} timed, '
                 f'{n_skipped} skipped, {n_dropped} dropped (median of {self.iters}, '
                 f'{"cold" if self.flush else "warm"} L2)')
        width = max(len(self.space.variants[i].description) for i in times)
        measured = {i: r for r, i in enumerate(sorted(times, key=lambda i: (times[i], i)), start=1)}
        for i, t in sorted(times.items()):
            mark = '  <- pick' if i == best.index else ''
            self.log(f'  {self.space.variants[i].description:<{width}}  {t:10.2f} us  {t / times[best.index]:6.3f}x  '
                     f'rank {measured[i]}, estimated {ranks[i]}{mark}')
        self.log(f'  pick: {best.description} ({times[best.index]:.2f} us), stored in {self.cache.path}')


def parse_arg(text, params, torch_side):
    """`NAME=VALUE` of the CLI: a number for a scalar, `randn:SHAPE`/`zeros:SHAPE`/`empty:SHAPE` (SHAPE as
    1024x1024) for a pointer, allocated by `torch_side(kind, shape, type)`."""
    name, eq, value = text.partition('=')
    p = next((p for p in params if p['name'] == name), None)
    if not eq or p is None:
        raise TuneError(f'--arg {text!r}: expected NAME=VALUE with NAME one of {", ".join(q["name"] for q in params)}')
    if p['kind'] == 'scalar':
        try:
            return name, (float(value) if p['type'].startswith(('f', 'bf')) else int(value, 0))
        except ValueError:
            raise TuneError(f'--arg {text!r}: {name} is a {p["type"]} scalar') from None
    kind, _, shape = value.partition(':')
    try:
        dims = tuple(int(d) for d in shape.split('x'))
    except ValueError:
        dims = ()
    if kind not in ('randn', 'zeros', 'empty') or not dims:
        raise TuneError(f'--arg {text!r}: {name} is a pointer; give randn:SHAPE, zeros:SHAPE or empty:SHAPE')
    return name, torch_side(kind, dims, p['type'])


def main(argv=None):
    """CLI: show a space, tune one launch, or list/clear the cache."""
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    show = sub.add_parser('show', help='the variants of a space, and whether each fits this GPU')
    show.add_argument('space')
    run = sub.add_parser('run', help='tune (or take from the cache) one launch, then launch it')
    run.add_argument('space')
    run.add_argument('--grid', required=True, help='Python lambda (D, A) -> grid; cdiv is defined')
    run.add_argument('--arg', action='append', default=[], help='NAME=VALUE (see parse_arg)')
    run.add_argument('--outputs', help='comma-separated pointer parameters the kernel writes')
    run.add_argument('--restore', default='', help='comma-separated parameters restored before each run')
    run.add_argument('--key', help='comma-separated key parameters (default: the space\'s)')
    run.add_argument('--pow2', default='', help='comma-separated key parameters rounded to powers of two')
    run.add_argument('--top-k', type=int, help='time only the K variants of lowest estimated cost')
    run.add_argument('--retune', action='store_true', help='tune even if the cache has the key')
    run.add_argument('--iters', type=int, default=50)
    run.add_argument('--cache', help=f'cache file (default $TRITON_IR_TUNE_CACHE or {DEFAULT_CACHE})')
    cache = sub.add_parser('cache', help='list the cached choices (or --clear them)')
    cache.add_argument('--cache')
    cache.add_argument('--clear', action='store_true')
    a = ap.parse_args(argv)
    try:
        if a.cmd == 'cache':
            return cache_cli(Cache(a.cache), a.clear)
        try:
            import tune_cuda  # noqa: E402
        except ImportError as e:
            raise TuneError(f'{a.cmd} needs torch and a CUDA GPU ({e})') from None
        space = Space.load(a.space)
        if a.cmd == 'show':
            return tune_cuda.show(space)
        split = lambda s: [x for x in (s or '').split(',') if x]  # noqa: E731
        try:
            grid = eval(a.grid, {'cdiv': cdiv, 'next_power_of_2': next_power_of_2})  # the user's own code
        except SyntaxError as e:
            raise TuneError(f'--grid: {e}') from None
        bound = dict(parse_arg(t, space.params, tune_cuda.make_tensor) for t in a.arg)
        tuner = Tuner(space, grid, cache=Cache(a.cache), key=split(a.key) or None, pow2=split(a.pow2),
                      outputs=split(a.outputs) if a.outputs is not None else None, restore=split(a.restore),
                      top_k=a.top_k, iters=a.iters, retune=a.retune)
        choice = tuner(**bound)
        tune_cuda.synchronize()
        print(f'launched {choice.variant.description}' + (' (cache hit)' if choice.cached else ''))
        return 0
    except TuneError as e:
        print(f'tune.py: error: {e}', file=sys.stderr)
        return 1


def cache_cli(cache, clear):
    """`tune.py cache`: one line per stored choice; --clear removes the file."""
    if clear:
        cache.clear()
        print(f'removed {cache.path}')
        return 0
    entries = cache.entries()
    for space_hash, key, gpu, driver, choice in entries:
        print(f'{choice.get("kernel", "?")} [{key_text(key)}] {gpu} (driver {driver}), space {space_hash[:12]}: '
              f'{choice.get("description")} {choice.get("time_us", float("nan")):.2f} us ({choice.get("date", "?")})')
    print(f'{len(entries)} entr{"y" if len(entries) == 1 else "ies"} in {cache.path}')
    return 0


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import tune as this_module  # one copy of the module: tune_cuda imports it as `tune`
    sys.exit(this_module.main())
