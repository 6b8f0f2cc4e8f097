#!/usr/bin/env python3
"""Unit tests of the runner's launch contract (tools/gpu/runner.py) that need no GPU: which kernel
a launch of a versioned kernel runs (metadata `versions`, tools/gpu/README.md) and the carveout
that realizes a residency hint (`ctas_per_sm`).
Needs python3 only: torch, which the runner imports, is stubbed.

    python3 test/tools/gpu/test_runner.py [METADATA_JSON]

With METADATA_JSON (the compiler's --emit-metadata of Triton's odd-shape matmul, as
lit/tools/runner-versions.tir writes it), that file's contract is tested too.
"""
import json
import os
import sys
import types
import unittest



class _TorchStub(types.ModuleType):
    """Stands in for torch at import: every attribute (dtypes in the runner's tables) is its name."""

    def __getattr__(self, name):
        return f'torch.{name}'


sys.modules.setdefault('torch', _TorchStub('torch'))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'tools', 'gpu'))
import runner  # noqa: E402

REAL_META = None

MATMUL = {
    'name': 'matmul_kernel', 'shared_bytes': 147456,
    'params': [{'name': n, 'kind': 'pointer' if n.endswith('_ptr') else 'scalar', 'type': 'f16' if n.endswith('_ptr') else 'i32'}
               for n in ('a_ptr', 'b_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_cm')],
    'versions': {'divisor': 4, 'params': ['N', 'K', 'stride_am', 'stride_bk'],
                 'otherwise': {'name': 'matmul_kernel__unaligned', 'shared_bytes': 65536}},
}


def matmul_args(M, N, K):
    """The matmul's arguments for row-major A (M x K), B (K x N), C (M x N); tensors as None."""
    return [None, None, None, M, N, K, K, N, N]


class TakesFirstCopy(unittest.TestCase):
    def check(self, meta):
        first = lambda M, N, K: runner.takes_first_copy(meta['versions'], meta['params'], matmul_args(M, N, K))  # noqa: E731
        self.assertTrue(first(1000, 3000, 700))
        self.assertFalse(first(999, 3001, 701))
        # M is not tested: only N, K and the strides pick the copy
        self.assertTrue(first(999, 3000, 700))
        # one of them not a multiple of 4 is enough for the original copy
        self.assertFalse(first(1000, 3000, 702))
        self.assertFalse(first(1000, 3002, 700))

    def test_versions(self):
        self.check(MATMUL)

    def test_compiled_metadata(self):
        if REAL_META is None:
            self.skipTest('no metadata file given')
        with open(REAL_META) as f:
            meta = json.load(f)
        print(f"compiled: {meta['name']} shared_bytes {meta['shared_bytes']} versions {json.dumps(meta['versions'])}")
        self.check(meta)


TWO_ENTRIES = '''
.visible .entry k(
\t.param .u64 k_param_0,
\t.param .u32 k_param_1
)
{ ret; }
.visible .entry k__unaligned(
\t.param .u64 k__unaligned_param_0,
\t.param .u32 k__unaligned_param_1
)
{ ret; }
'''


class CheckSignature(unittest.TestCase):
    PARAMS = [{'name': 'x', 'kind': 'pointer', 'type': 'f32'}, {'name': 'n', 'kind': 'scalar', 'type': 'i32'}]

    def test_each_kernel_of_a_module_with_two(self):
        runner.check_signature({'name': 'k', 'params': self.PARAMS}, TWO_ENTRIES)
        runner.check_signature({'name': 'k__unaligned', 'params': self.PARAMS}, TWO_ENTRIES)

    def test_a_name_not_in_the_module(self):
        with self.assertRaisesRegex(ValueError, "PTX entry is 'k', metadata name is 'other'"):
            runner.check_signature({'name': 'other', 'params': self.PARAMS}, TWO_ENTRIES)


class CarveoutPercent(unittest.TestCase):
    H200 = 233472  # bytes of shared memory an SM has at most (228 KiB)
    A100 = 167936  # 164 KiB

    def test_middle_of_the_wanted_size_and_the_one_below(self):
        # 12 CTAs of a 32x32 f32 transpose (4,224 + 1,024 bytes each): 62,976 bytes -> 64 KiB,
        # asked as 48 KiB of 228 (21%), not 27% (which the driver turned into 100 KiB)
        self.assertEqual(runner.carveout_percent(12 * 5248, self.H200), 21)
        # 6 CTAs: 31,488 bytes -> 32 KiB, asked as 24 KiB (11%), not 14% (which became 64 KiB)
        self.assertEqual(runner.carveout_percent(6 * 5248, self.H200), 11)
        # 3 CTAs: 15,744 bytes -> 16 KiB, asked as 12 KiB (5%)
        self.assertEqual(runner.carveout_percent(3 * 5248, self.H200), 5)

    def test_bounds(self):
        self.assertEqual(runner.carveout_percent(1, self.H200), 2)  # 8 KiB: 4 KiB of 228 -> 1.75% -> 2
        self.assertEqual(runner.carveout_percent(10 ** 9, self.H200), 93)  # at most the largest size: 212 of 228 KiB
        self.assertEqual(runner.carveout_percent(12 * 5248, self.A100), 29)  # 48 of 164 KiB

    def test_each_size_is_reached_by_its_own_percentage(self):
        sizes = [k * 1024 for k in runner.SHARED_CONFIGS_KIB if 0 < k * 1024 <= self.H200]
        for below, size in zip([0] + sizes, sizes):
            p = runner.carveout_percent(size, self.H200)
            self.assertLess(below, p * self.H200 / 100, f'{size}: {p}%')
            self.assertLess(p * self.H200 / 100, size, f'{size}: {p}%')


if __name__ == '__main__':
    if len(sys.argv) > 1 and not sys.argv[1].startswith('-'):
        REAL_META = sys.argv.pop(1)
    unittest.main(verbosity=2)
