"""Shared pieces of the tuning runs (bench/gpu/tuning/tune_vector_add.py, tune_matmul.py): paths, options, the
two passes (tune, then the same keys again from the cache), checks and the comparison table."""
import argparse
import json
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(REPO, 'tools', 'gpu'))
sys.path.insert(0, os.path.join(REPO, 'bench', 'gpu'))

import torch  # noqa: E402

import runner  # noqa: E402
import tune  # noqa: E402


def options(doc, space_name):
    """The command line of a tuning run."""
    ap = argparse.ArgumentParser(description=doc.split('\n\n')[0])
    ap.add_argument('--space', default=os.path.join(REPO, 'build', 'tune', space_name),
                    help='the compiled space (bench/gpu/tuning/build.sh writes build/tune/<name>)')
    ap.add_argument('--cache', required=True, help='the tuning cache file')
    ap.add_argument('--picks', required=True, help='JSON of the picks: written by the first run, compared by --expect-cached')
    ap.add_argument('--expect-cached', action='store_true',
                    help='a later process: every key must come from the cache (no benchmarking), with the same picks')
    ap.add_argument('--iters', type=int, default=50, help='timed runs per kernel (median)')
    ap.add_argument('--seed', type=int, default=None, help='seed of the random inputs (default: a new one, printed)')
    a = ap.parse_args()
    if a.seed is None:
        a.seed = random.SystemRandom().randrange(1 << 30)
    return a


class Report:
    """Prints lines and counts failed checks; `finish` prints the verdict and gives the exit status."""

    def __init__(self, title):
        self.failures = []
        self.say(f'== {title} ({time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}, {torch.cuda.get_device_name()}, '
                 f'torch {torch.__version__})')

    def say(self, *parts):
        print(*parts, flush=True)

    def check(self, ok, what):
        """A check: PASS/FAIL line; failures make the exit status 1."""
        self.say(f'  {"PASS" if ok else "FAIL"} {what}')
        if not ok:
            self.failures.append(what)

    def finish(self):
        self.say(f'RESULT: {"PASS" if not self.failures else "FAIL (" + "; ".join(self.failures) + ")"}')
        return 1 if self.failures else 0


def generator(seed):
    """A CUDA random generator."""
    g = torch.Generator(device='cuda')
    g.manual_seed(seed)
    return g


def call_timed(fn):
    """Runs fn() to completion on the GPU; returns (its result, seconds)."""
    t0 = time.perf_counter()
    r = fn()
    torch.cuda.synchronize()
    return r, time.perf_counter() - t0


def close(got, want, rtol, atol):
    """(all close, max abs error): got and want compared in float64."""
    g, w = got.double(), want.double()
    err = (g - w).abs()
    ok = bool(torch.isfinite(g).all()) and bool((err <= atol + rtol * w.abs()).all())
    return ok, float(torch.nan_to_num(err, nan=float('inf')).max())


def compare_times(rep, rows, iters, work=None):
    """Times the launchers of `rows` [(name, fn)] interleaved (cold L2, median of `iters`) and prints
    each time and its ratio to the first row's (> 1: the first is faster). Returns {name: µs}."""
    res = runner.time_interleaved_us([fn for _, fn in rows], iters=iters, warmup=5)
    first = res[0][0]
    width = max(len(n) for n, _ in rows)
    out = {}
    for (name, _), (med, _) in zip(rows, res):
        rate = f'  {work(med)}' if work else ''
        rep.say(f'    {name:<{width}}  {med:10.2f} us  {med / first:6.3f}x of tuned{rate}')
        out[name] = med
    return out


def summary_table(rep, header, rows):
    """Prints a markdown table (for bench/gpu/RESULTS.md): header cells, then one row of cells per key."""
    rep.say('| ' + ' | '.join(header) + ' |')
    rep.say('|' + '|'.join(' --- ' if k == 0 else ' ---: ' for k in range(len(header))) + '|')
    for r in rows:
        rep.say('| ' + ' | '.join(f'{c:.2f}' if isinstance(c, float) else str(c) for c in r) + ' |')


def config_text(cfg):
    """A triton.Config in one short line: BLOCK_SIZE=1024 w4 s3."""
    if cfg is None:
        return '(none)'
    return ' '.join(f'{k}={v}' for k, v in cfg.kwargs.items()) + f' w{cfg.num_warps} s{cfg.num_stages}'


def save_or_compare_picks(rep, a, picks):
    """First run: writes the picks; --expect-cached: checks they are the ones the first run wrote."""
    if not a.expect_cached:
        with open(a.picks, 'w') as f:
            json.dump(picks, f, indent=1)
        return
    try:
        with open(a.picks) as f:
            first = json.load(f)
    except OSError as e:
        rep.check(False, f'picks of the first run readable ({e})')
        return
    rep.check(first == picks, f'same picks as the first process ({first})')
