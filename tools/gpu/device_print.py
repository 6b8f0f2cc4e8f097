#!/usr/bin/env python3
"""Device printf and assertions on the GPU: our PTX of Triton's own `tl.device_print` and
`tl.device_assert` kernels, next to Triton's, on the same fresh random data.

  python3 tools/gpu/device_print.py --dump DIR      Triton's TTIR of the two kernels (DIR/print.ttir,
                                                    DIR/assert.ttir; file paths made relative)
  python3 tools/gpu/device_print.py --check BUILD   runs BUILD/print.ptx and BUILD/assert.ptx (with their
                                                    .json metadata from `triton-translate --emit-metadata`)
  python3 tools/gpu/device_print.py --interpreter FILE
                                                    Triton's print kernel on arange inputs against FILE, the
                                                    lines of `triton-run bench/gpu/kernels/device_print.ttir
                                                    --grid=2 --arg ptr:f32:200:arange --arg ptr:i32:200:arange
                                                    --arg ptr:f16:32:arange --arg i32:200 --print=none`

--check verifies, each in a child process (a failed device assertion ends a CUDA context):
- print: every line ours prints is a line Triton prints (Triton prints broadcast copies and scalars
  once per thread holding them, we print each element once), every element of every printed tensor
  appears exactly once, and each printed value is the input's (float64 reference, `%f`'s rounding);
- assert, passing: no output, the kernel's result is right;
- assert, failing: the launch fails with CUDA's device-side assertion error and the output names the
  message, the file and the line, as Triton's does.
"""
import argparse
import collections
import ctypes
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
N = 200          # two programs of 128, the second partly masked
BLOCK = 128
GRID = (2,)


def kernels():
    """The Triton kernels (imported late: --check's children need only the one they run)."""
    import triton
    import triton.language as tl

    @triton.jit
    def print_kernel(x_ptr, y_ptr, h_ptr, n, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        offs = pid * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask, other=0.0)
        y = tl.load(y_ptr + offs, mask=mask, other=0)
        tl.device_print("x", x)
        tl.device_print("x y", x, y)
        tl.device_print("y hex", y, hex=True)
        tl.device_print("y64", y.to(tl.int64) * 3000000000)
        tl.device_print("pid", pid)
        # an 8 x 4 f16 tile: fewer elements than threads, so Triton's layout broadcasts it
        r = tl.arange(0, 8)[:, None] * 4 + tl.arange(0, 4)[None, :]
        h = tl.load(h_ptr + r)
        tl.device_print("h", h)

    @triton.jit(debug=True)
    def assert_kernel(x_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask, other=0)
        tl.device_assert(x < 100, "x < 100")
        tl.store(x_ptr + offs, x + 1, mask=mask)

    return print_kernel, assert_kernel


def inputs(seed):
    """Fresh random inputs: x f32, y i32 (both signs), h f16 (32 values), a i32 below 100."""
    import torch
    g = torch.Generator(device='cuda').manual_seed(seed)
    x = torch.randn(N, device='cuda', generator=g, dtype=torch.float32) * 100
    y = torch.randint(-2**31, 2**31 - 1, (N,), device='cuda', generator=g, dtype=torch.int32)
    h = (torch.randn(32, device='cuda', generator=g) * 10).to(torch.float16)
    a = torch.randint(-1000, 100, (N,), device='cuda', generator=g, dtype=torch.int32)
    return x, y, h, a


def dump(folder):
    import torch
    print_kernel, assert_kernel = kernels()
    x, y, h, a = inputs(1)
    os.makedirs(folder, exist_ok=True)
    for stem, fn, args in (('print', print_kernel, (x, y, h, N)), ('assert', assert_kernel, (a, N))):
        compiled = fn.warmup(*args, BLOCK=BLOCK, grid=GRID, num_warps=4)
        with open(os.path.join(folder, f'{stem}.ttir'), 'w') as f:
            f.write(compiled.asm['ttir'].replace(REPO + '/', ''))
        print(f'{stem}: TTIR written ({len(compiled.asm["ttir"])} chars)')
    torch.cuda.synchronize()


def captured(run):
    """Runs `run()` with the process's stdout (fd 1, where device printf goes) captured; returns the text."""
    libc = ctypes.CDLL(None)
    sys.stdout.flush()
    libc.fflush(None)
    saved = os.dup(1)
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 1)
        try:
            run()
        finally:
            libc.fflush(None)
            os.dup2(saved, 1)
            os.close(saved)
        tmp.seek(0)
        return tmp.read().decode(errors='replace')


def child(kind, build, seed):
    """One run in this process: prints the captured device output between markers (for the parent)."""
    import torch
    sys.path.insert(0, HERE)
    from runner import Kernel
    x, y, h, a = inputs(seed)
    if kind in ('ours-print', 'triton-print'):
        if kind == 'ours-print':
            k = Kernel(os.path.join(build, 'print.ptx'))
            run = lambda: (k.launch(GRID, [x, y, h, N]), torch.cuda.synchronize())  # noqa: E731
        else:
            print_kernel, _ = kernels()
            run = lambda: (print_kernel[GRID](x, y, h, N, BLOCK=BLOCK, num_warps=4), torch.cuda.synchronize())  # noqa: E731
        text = captured(run)
        print('@@OUT@@' + text + '@@END@@')
        return
    k = Kernel(os.path.join(build, 'assert.ptx'))
    if kind == 'assert-pass':
        before = a.clone()
        text = captured(lambda: (k.launch(GRID, [a, N]), torch.cuda.synchronize()))
        ok = torch.equal(a, before + 1)
        print(f'@@PASS@@ output={len(text)} result={"ok" if ok else "WRONG"}')
        return
    bad = a.clone()
    bad[137] = 100 + seed % 50  # one element breaks the assertion, in the second program
    try:
        text = captured(lambda: (k.launch(GRID, [bad, N]), torch.cuda.synchronize()))
        print('@@OUT@@' + text + '@@END@@')
        print('@@FAIL@@ no error raised')
    except Exception as e:  # noqa: BLE001 - the CUDA error is what is checked
        print(f'@@FAIL@@ {e}')


def run_child(kind, build, seed):
    r = subprocess.run([sys.executable, __file__, '--child', kind, '--build', build, '--seed', str(seed)],
                       capture_output=True, text=True, timeout=120)
    return r.stdout + r.stderr, r.returncode


def between(text, start='@@OUT@@', end='@@END@@'):
    i, j = text.find(start), text.find(end)
    return text[i + len(start):j] if 0 <= i < j else None


def check_print(build, seed):
    import torch
    ours_text, _ = run_child('ours-print', build, seed)
    triton_text, _ = run_child('triton-print', build, seed)
    ours, theirs = between(ours_text), between(triton_text)
    if ours is None or theirs is None:
        print('print: FAILED to capture output\n' + ours_text[-2000:] + triton_text[-2000:])
        return False
    ours_lines = [l for l in ours.splitlines() if l]
    their_set = set(l for l in theirs.splitlines() if l)
    ok = True
    extra = [l for l in ours_lines if l not in their_set]
    missing = their_set - set(ours_lines)
    dup = [l for l, c in collections.Counter(ours_lines).items() if c > 1]
    print(f'print: ours {len(ours_lines)} lines, Triton {len(theirs.splitlines())} lines '
          f'({len(their_set)} distinct); ours not in Triton\'s: {len(extra)}, Triton\'s not in ours: {len(missing)}, '
          f'ours repeated: {len(dup)}')
    for l in extra[:5] + sorted(missing)[:5] + dup[:5]:
        print('   ', l)
    ok = not extra and not missing and not dup
    # values against the inputs (float64 reference, printed with %f)
    x, y, h, _ = inputs(seed)
    xs = x.double().cpu().tolist()
    ys = y.cpu().tolist()
    hs = h.double().cpu().tolist()
    bad = 0
    pattern = re.compile(r'^pid \((\d+), 0, 0\) idx \(([\d ,]*)\) (x|x y|y hex|y64|pid|h): (?:\(operand (\d)\) )?(\S+)$')
    seen = collections.Counter()
    for line in ours_lines:
        m = pattern.match(line)
        if not m:
            bad += 1
            continue
        pid, idx, name, operand, value = int(m[1]), [int(t) for t in m[2].replace(' ', '').split(',') if t], m[3], m[4], m[5]
        seen[name] += 1
        if name == 'pid':
            good = int(value) == pid
        elif name == 'h':
            good = value == f'{hs[idx[0] * 4 + idx[1]]:f}'
        else:
            k = pid * BLOCK + idx[0]
            xv = xs[k] if k < N else 0.0
            yv = ys[k] if k < N else 0
            if name == 'x' or (name == 'x y' and operand == '0'):
                good = value == f'{xv:f}'
            elif name == 'x y':
                good = int(value) == yv
            elif name == 'y hex':
                good = value == f'0x{yv & 0xffffffff:08x}'
            else:
                good = int(value) == yv * 3000000000
        bad += not good
    want = {'x': 2 * BLOCK, 'x y': 4 * BLOCK, 'y hex': 2 * BLOCK, 'y64': 2 * BLOCK, 'pid': 2, 'h': 2 * 32}
    counts_ok = dict(seen) == want
    print(f'print: values checked against the inputs: {len(ours_lines) - bad} right, {bad} wrong; '
          f'lines per print {dict(seen)} ({"as expected" if counts_ok else f"expected {want}"})')
    return ok and bad == 0 and counts_ok


def check_assert(build, seed):
    text, _ = run_child('assert-pass', build, seed)
    m = re.search(r'@@PASS@@ output=(\d+) result=(\w+)', text)
    passed = bool(m) and m[1] == '0' and m[2] == 'ok'
    print(f'assert, holding: {"no output, result right" if passed else "FAILED: " + text[-1500:]}')
    text, _ = run_child('assert-fail', build, seed)
    fail = re.search(r'@@FAIL@@ (.*)', text)
    err = fail[1] if fail else ''
    device_error = 'assert' in err.lower() or '710' in err
    report = re.search(r'(\S+):(\d+): \S+: block: \[1,0,0\], thread: \[(\d+),0,0\] Assertion `x < 100` failed', text)
    print(f'assert, failing: error: {err.strip()[:160]}')
    print(f'assert, failing: report: {report[0] if report else "MISSING"}')
    if report and report[3] != str(137 - BLOCK):
        print(f'assert, failing: expected thread {137 - BLOCK}, got {report[3]}')
        report = None
    return passed and device_error and report is not None


def compare_interpreter(path):
    """Triton's lines for arange inputs against the CPU interpreter's (`triton-run`) for the same."""
    import torch
    print_kernel, _ = kernels()
    x = torch.arange(N, device='cuda', dtype=torch.float32)
    y = torch.arange(N, device='cuda', dtype=torch.int32)
    h = torch.arange(32, device='cuda', dtype=torch.float16)
    theirs = captured(lambda: (print_kernel[GRID](x, y, h, N, BLOCK=BLOCK, num_warps=4), torch.cuda.synchronize()))
    with open(path) as f:
        ours = [l for l in f.read().splitlines() if l.startswith('pid (')]
    their_set = set(l for l in theirs.splitlines() if l)
    extra = [l for l in ours if l not in their_set]
    missing = sorted(their_set - set(ours))
    print(f'interpreter: {len(ours)} lines, Triton {len(their_set)} distinct; interpreter not in Triton\'s: {len(extra)}, '
          f'Triton\'s not in the interpreter\'s: {len(missing)}')
    for l in extra[:5] + missing[:5]:
        print('   ', l)
    ok = not extra and not missing and len(set(ours)) == len(ours)
    print('interpreter against Triton:', 'PASS' if ok else 'FAIL')
    return 0 if ok else 1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--dump', metavar='DIR')
    ap.add_argument('--check', metavar='BUILD')
    ap.add_argument('--interpreter', metavar='FILE')
    ap.add_argument('--child', help=argparse.SUPPRESS)
    ap.add_argument('--build', help=argparse.SUPPRESS)
    ap.add_argument('--seed', type=int, default=None)
    opts = ap.parse_args(argv)
    if opts.child:
        return child(opts.child, opts.build, opts.seed)
    if opts.dump:
        return dump(opts.dump)
    if opts.interpreter:
        return compare_interpreter(opts.interpreter)
    if opts.check:
        seed = opts.seed if opts.seed is not None else int.from_bytes(os.urandom(4), 'little')
        print(f'seed {seed}')
        ok = check_print(opts.check, seed)
        ok = check_assert(opts.check, seed) and ok
        print('device print/assert:', 'PASS' if ok else 'FAIL')
        return 0 if ok else 1
    ap.error('give --dump DIR, --check BUILD or --interpreter FILE')


if __name__ == '__main__':
    sys.exit(main())
