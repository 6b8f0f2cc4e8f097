#!/usr/bin/env python3
"""Unit tests of the tuner's logic (tools/gpu/tune.py) with a fake GPU: the key, the cache, pruning,
the cost model, the correctness check and the pick. Needs python3 only (no torch, no GPU).

    python3 test/tools/gpu/test_tune.py [SPACE_DIR]

With SPACE_DIR (a space compiled by triton-translate, as lit/tools/tune-python.tc does), the space
file the compiler wrote is loaded and tuned with the fake GPU too.
"""
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'tools', 'gpu'))
import tune  # noqa: E402

REAL_SPACE = None

H100 = dict(name='Fake H100', driver='580.1', sms=132, shared_per_block=232448, shared_per_sm=233472,
            regs_per_sm=65536, regs_per_block=65536, threads_per_sm=2048)


class FakeKernel:
    def __init__(self, variant, regs):
        self.variant, self.regs = variant, regs


class FakeGpu:
    """The tuner's backend without a GPU. Arguments are Python lists (tensors) and ints. A variant's
    kernel writes `value(variant, args)` into every element of its outputs; `wrong` variants write 1
    more; a variant with `accumulate` adds to its output instead of overwriting it. Times come from
    `times(variant index, args)`; every timing is recorded in `timed`."""

    def __init__(self, times, wrong=(), regs=None, accumulate=False, refuse=(), **limits):
        self.times, self.wrong, self.regs = times, set(wrong), regs or {}
        self.accumulate, self.refuse = accumulate, set(refuse)
        self._limits = tune.DeviceLimits(**{**H100, **limits})
        self.timed = []  # [(variant indices, before given)]
        self.launches = []  # variant indices, in launch order

    def limits(self):
        return self._limits

    def load(self, variant):
        if variant.index in self.refuse:
            raise RuntimeError('cuModuleLoadDataEx failed: 209 CUDA_ERROR_NO_BINARY_FOR_GPU\nJIT log: ...')
        return FakeKernel(variant, self.regs.get(variant.index, 32))

    def registers(self, kernel):
        return kernel.regs

    def unfit(self, kernel):
        return None

    def bind(self, kernel, grid, args):
        v = kernel.variant

        def run():
            self.launches.append(v.index)
            for a in args:
                if isinstance(a, list) and a and a[0] == 'out':
                    for i in range(1, len(a)):
                        value = 2.0 + (1 if v.index in self.wrong else 0)
                        a[i] = a[i] + value if self.accumulate else value
        run.index = v.index
        run.grid = grid
        return run

    def snapshot(self, args, indices):
        return [(args[i], list(args[i])) for i in indices if isinstance(args[i], list)]

    def restore(self, saved):
        for dst, src in saved:
            dst[:] = src

    def capture(self, values):
        return [list(v) for v in values if isinstance(v, list)]

    def agree(self, got, want, rtol, atol):
        for g, w in zip(got, want):
            for x, y in zip(g[1:], w[1:]):
                if abs(x - y) > atol + rtol * abs(y):
                    return False, f'{x} vs {y}'
        return True, ''

    def time(self, fns, iters=50, warmup=10, flush=True, before=None):
        self.timed.append(([f.index for f in fns], before is not None))
        if before:
            before()
        return [self.times(f.index, f.grid) for f in fns]


def record(index, size, status='ok', shared=0, regs=32, threads=128, spills=0, diagnostic=None):
    r = {'index': index, 'choice': {'SIZE': str(size)}, 'defines': {'SIZE': str(size), 'TYPE': 'float'},
         'description': f'SIZE={size}', 'status': status, 'seconds': 0.1}
    if status == 'ok':
        r.update(files={'ptx': f'k.{index}.ptx', 'metadata': f'k.{index}.json'}, num_warps=threads // 32,
                 threads_per_block=threads, shared_bytes=shared,
                 ptxas={'registers': regs, 'spill_stores': spills, 'spill_loads': 0})
    else:
        r['diagnostic'] = diagnostic or 'k.tc:3:7: error: tile size must be a power of two, got 48'
    return r


def make_space(directory, records, hash_='h' * 64):
    data = {'format': 1, 'source': 'k.tc', 'translation': 'to-ptx', 'arch': 'sm_90a', 'kernel': 'add',
            'params': [{'name': 'N', 'kind': 'scalar', 'type': 'i32'}, {'name': 'x', 'kind': 'pointer', 'type': 'f32'},
                       {'name': 'out', 'kind': 'pointer', 'type': 'f32'}],
            'key': ['N'], 'hash': hash_, 'variants': records}
    with open(os.path.join(directory, 'space.json'), 'w') as f:
        json.dump(data, f)
    return tune.Space.load(directory)


def grid(D, A):
    return (tune.cdiv(A['N'], D['SIZE']),)


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.dir = self.tmp.name
        self.cache = tune.Cache(os.path.join(self.dir, 'cache', 'tune.json'))
        self.lines = []

    def tuner(self, space, gpu, **kw):
        return tune.Tuner(space, grid, backend=gpu, cache=self.cache, log=self.lines.append, **kw)

    def args(self, n):
        return [n, ['in', 1.0, 1.0], ['out', 0.0, 0.0]]


class KeyTest(Base):
    def test_next_power_of_2(self):
        self.assertEqual([tune.next_power_of_2(n) for n in (0, 1, 2, 3, 1000, 1024, 1025)], [1, 1, 2, 4, 1024, 1024, 2048])

    def test_key_is_the_named_parameters_in_order_with_pow2_rounding(self):
        bound = {'M': 1000, 'N': 4096, 'K': 33}
        self.assertEqual(tune.tuning_key(bound, ['K', 'M']), (('K', 33), ('M', 1000)))
        self.assertEqual(tune.tuning_key(bound, ['M', 'K'], pow2={'M'}), (('M', 1024), ('K', 33)))

    def test_tensor_key_is_shape_and_dtype(self):
        class T:
            shape, dtype = (4, 8), 'torch.float16'
        self.assertEqual(tune.tuning_key({'x': T()}, ['x']), (('x', '(4, 8):torch.float16'),))

    def test_unknown_key_parameter_is_an_error(self):
        with self.assertRaisesRegex(tune.TuneError, "key parameter 'Q'"):
            tune.tuning_key({'N': 1}, ['Q'])

    def test_space_key_defaults_to_the_compiler_list(self):
        space = make_space(self.dir, [record(0, 32)])
        self.assertEqual(self.tuner(space, FakeGpu(lambda i, g: 1.0)).key_of(space.bind_args(self.args(5))), (('N', 5),))

    def test_arguments_by_name_and_errors(self):
        space = make_space(self.dir, [record(0, 32)])
        self.assertEqual(space.bind_args([3], {'x': 'a', 'out': 'b'}), {'N': 3, 'x': 'a', 'out': 'b'})
        with self.assertRaisesRegex(tune.TuneError, 'missing argument out'):
            space.bind_args([3, 'a'])
        with self.assertRaisesRegex(tune.TuneError, "no parameter 'y'"):
            space.bind_args([3, 'a', 'b'], {'y': 1})
        with self.assertRaisesRegex(tune.TuneError, 'takes 3 arguments, got 4'):
            space.bind_args([1, 2, 3, 4])


class SpaceFileTest(Base):
    def test_missing_space_is_a_clear_error(self):
        with self.assertRaisesRegex(tune.TuneError, 'space.json: cannot read it.*--all-variants'):
            tune.Space.load(os.path.join(self.dir, 'nothing'))

    def test_other_format_or_translation_is_refused(self):
        with open(os.path.join(self.dir, 'space.json'), 'w') as f:
            json.dump({'format': 2, 'translation': 'to-ptx', 'variants': [], 'hash': ''}, f)
        with self.assertRaisesRegex(tune.TuneError, 'space format 2'):
            tune.Space.load(self.dir)
        with open(os.path.join(self.dir, 'space.json'), 'w') as f:
            json.dump({'format': 1, 'translation': 'tt-ir', 'variants': [], 'hash': ''}, f)
        with self.assertRaisesRegex(tune.TuneError, 'holds tt-ir files; compile it with --to-ptx'):
            tune.Space.load(self.dir)

    def test_failed_variants_are_listed_but_not_compiled(self):
        space = make_space(self.dir, [record(0, 32), record(1, 48, status='failed')])
        self.assertEqual([v.index for v in space.compiled()], [0])
        self.assertIn('power of two', space.variants[1].diagnostic)
        self.assertEqual(space.variants[0].D, {'SIZE': 32, 'TYPE': 'float'})


class PickAndCacheTest(Base):
    def test_picks_the_fastest_and_stores_it(self):
        space = make_space(self.dir, [record(0, 32), record(1, 64), record(2, 128)])
        gpu = FakeGpu(lambda i, g: {0: 30.0, 1: 10.0, 2: 20.0}[i])
        t = self.tuner(space, gpu)
        choice = t(*self.args(1000))
        self.assertEqual(choice.variant.index, 1)
        self.assertFalse(choice.cached)
        self.assertEqual(choice.times, {0: 30.0, 1: 10.0, 2: 20.0})
        self.assertEqual(gpu.launches[-1], 1)  # the call launched the pick
        self.assertEqual(t.benchmarks, 1)
        entry = self.cache.get(space.hash, (('N', 1000),), 'Fake H100', '580.1')
        self.assertEqual((entry['variant'], entry['description'], entry['time_us']), (1, 'SIZE=64', 10.0))
        self.assertTrue(any('pick: SIZE=64 (10.00 us)' in line for line in self.lines))
        # every timed variant with its measured rank and the cost model's: N = 1000 makes 32, 16 and 8
        # programs, fewer than the 132 SMs, so the most programs (SIZE=32) is estimated fastest
        self.assertIn('  SIZE=32        30.00 us   3.000x  rank 3, estimated 1', self.lines)
        self.assertIn('  SIZE=64        10.00 us   1.000x  rank 1, estimated 2  <- pick', self.lines)
        self.assertIn('  SIZE=128       20.00 us   2.000x  rank 2, estimated 3', self.lines)

    def test_grid_comes_from_the_variant_defines(self):
        space = make_space(self.dir, [record(0, 32), record(1, 64)])
        seen = {}
        gpu = FakeGpu(lambda i, g: seen.setdefault(i, g) and 1.0)
        self.tuner(space, gpu)(*self.args(1000))
        self.assertEqual(seen, {0: (32,), 1: (16,)})

    def test_same_key_in_the_process_does_not_retune(self):
        space = make_space(self.dir, [record(0, 32), record(1, 64)])
        gpu = FakeGpu(lambda i, g: float(i + 1))
        t = self.tuner(space, gpu)
        t(*self.args(1000))
        t(*self.args(1000))
        self.assertEqual((len(gpu.timed), t.benchmarks, t.cache_hits), (1, 1, 0))

    def test_second_process_uses_the_cache_and_prints_cache_hit(self):
        space = make_space(self.dir, [record(0, 32), record(1, 64), record(2, 128)])
        first = self.tuner(space, FakeGpu(lambda i, g: {0: 3.0, 1: 1.0, 2: 2.0}[i]))
        first(*self.args(1 << 20))
        gpu = FakeGpu(lambda i, g: self.fail('timed although cached'))
        again = self.tuner(space, gpu)
        choice = again(*self.args(1 << 20))
        self.assertTrue(choice.cached)
        self.assertEqual(choice.variant.index, 1)
        self.assertEqual((again.benchmarks, again.cache_hits, gpu.timed, gpu.launches), (0, 1, [], [1]))
        self.assertTrue(any(line.startswith('cache hit: add [N=1048576] -> SIZE=64') for line in self.lines))

    def test_other_gpu_driver_key_or_space_misses_the_cache(self):
        space = make_space(self.dir, [record(0, 32), record(1, 64)])
        self.tuner(space, FakeGpu(lambda i, g: 1.0))(*self.args(1000))
        for gpu in (FakeGpu(lambda i, g: 1.0, name='Fake H200'), FakeGpu(lambda i, g: 1.0, driver='590.2')):
            t = self.tuner(space, gpu)
            t(*self.args(1000))
            self.assertEqual(t.benchmarks, 1)
        t = self.tuner(space, FakeGpu(lambda i, g: 1.0))
        t(*self.args(1001))
        self.assertEqual(t.benchmarks, 1)
        other = make_space(self.dir, [record(0, 32), record(1, 64)], hash_='g' * 64)
        t = self.tuner(other, FakeGpu(lambda i, g: 1.0))
        t(*self.args(1000))
        self.assertEqual(t.benchmarks, 1)
        self.assertEqual(len(self.cache.entries()), 5)

    def test_retune_forces_a_benchmark_and_replaces_the_entry(self):
        space = make_space(self.dir, [record(0, 32), record(1, 64)])
        self.tuner(space, FakeGpu(lambda i, g: [1.0, 2.0][i]))(*self.args(1000))
        t = self.tuner(space, FakeGpu(lambda i, g: [2.0, 1.0][i]), retune=True)
        self.assertEqual(t(*self.args(1000)).variant.index, 1)
        self.assertEqual(t.benchmarks, 1)
        self.assertEqual(self.cache.get(space.hash, (('N', 1000),), 'Fake H100', '580.1')['variant'], 1)

    def test_pow2_keys_share_one_tuning(self):
        space = make_space(self.dir, [record(0, 32), record(1, 64)])
        gpu = FakeGpu(lambda i, g: 1.0)
        t = self.tuner(space, gpu, pow2=['N'])
        self.assertEqual(t(*self.args(1000)).key, (('N', 1024),))
        t(*self.args(1020))
        self.assertEqual(len(gpu.timed), 1)

    def test_corrupt_cache_is_an_error_and_is_left_alone(self):
        os.makedirs(os.path.dirname(self.cache.path))
        with open(self.cache.path, 'w') as f:
            f.write('{not json')
        space = make_space(self.dir, [record(0, 32)])
        with self.assertRaisesRegex(tune.TuneError, 'tuning cache cannot be read'):
            self.tuner(space, FakeGpu(lambda i, g: 1.0))(*self.args(1000))
        with open(self.cache.path) as f:
            self.assertEqual(f.read(), '{not json')

    def test_cache_entry_naming_a_missing_variant_retunes(self):
        space = make_space(self.dir, [record(0, 32), record(1, 64)])
        self.cache.put(space.hash, (('N', 1000),), 'Fake H100', '580.1', {'variant': 7})
        t = self.tuner(space, FakeGpu(lambda i, g: 1.0))
        t(*self.args(1000))
        self.assertEqual(t.benchmarks, 1)
        self.assertTrue(any('names variant 7' in line for line in self.lines))


class LauncherCacheTest(Base):
    def test_a_launch_with_the_same_addresses_reuses_the_packed_launcher(self):
        class Buf(list):
            """A fake tensor: its address decides whether a packed launcher still applies."""

            def __init__(self, ptr, *values):
                super().__init__(values)
                self.ptr = ptr

            def data_ptr(self):
                return self.ptr

        space = make_space(self.dir, [record(0, 32), record(1, 64)])
        gpu = FakeGpu(lambda i, g: float(i + 1))
        binds = []
        plain_bind = gpu.bind
        gpu.bind = lambda kernel, grid, args: binds.append((kernel.variant.index, grid)) or plain_bind(kernel, grid, args)
        t = self.tuner(space, gpu)
        t(1000, Buf(0x1000, 'in', 1.0, 1.0), Buf(0x2000, 'out', 0.0, 0.0))  # tunes: binds each variant
        tuned = len(binds)
        t(1000, Buf(0x1000, 'in', 1.0, 1.0), Buf(0x2000, 'out', 0.0, 0.0))  # same addresses: no new bind
        self.assertEqual(len(binds), tuned)
        t(1000, Buf(0x1000, 'in', 1.0, 1.0), Buf(0x3000, 'out', 0.0, 0.0))  # a new output address: one new bind
        self.assertEqual(binds[tuned:], [(0, (32,))])
        t(1000, Buf(0x1000, 'in', 1.0, 1.0), Buf(0x3000, 'out', 0.0, 0.0))
        self.assertEqual(len(binds), tuned + 1)
        t(2000, Buf(0x1000, 'in', 1.0, 1.0), Buf(0x3000, 'out', 0.0, 0.0))  # a new scalar (a new key: tuned again)
        self.assertIn((0, (63,)), binds[tuned + 1:])
        self.assertEqual(gpu.launches[-1], 0)


class CorrectnessTest(Base):
    def test_a_variant_that_disagrees_with_the_first_is_dropped_even_if_fastest(self):
        space = make_space(self.dir, [record(0, 32), record(1, 64), record(2, 128)])
        gpu = FakeGpu(lambda i, g: {0: 3.0, 1: 1.0, 2: 2.0}[i], wrong={1})
        choice = self.tuner(space, gpu)(*self.args(1000))
        self.assertEqual(choice.variant.index, 2)
        self.assertEqual(list(choice.dropped), [1])
        self.assertEqual(gpu.timed[0][0], [0, 2])
        self.assertTrue(any('warning: dropped SIZE=64' in line and "SIZE=32's" in line for line in self.lines))

    def test_a_reference_is_used_when_given(self):
        space = make_space(self.dir, [record(0, 32), record(1, 64)])
        gpu = FakeGpu(lambda i, g: 1.0, wrong={0})
        choice = self.tuner(space, gpu, outputs=['out'], reference=lambda A: [['out', 2.0, 2.0]])(*self.args(1000))
        self.assertEqual((choice.variant.index, list(choice.dropped)), (1, [0]))

    def test_all_disagreeing_with_the_reference_is_an_error(self):
        space = make_space(self.dir, [record(0, 32)])
        with self.assertRaisesRegex(tune.TuneError, 'every variant disagrees'):
            self.tuner(space, FakeGpu(lambda i, g: 1.0, wrong={0}), outputs=['out'],
                       reference=lambda A: [['out', 2.0, 2.0]])(*self.args(8))

    def test_a_reference_with_the_wrong_number_of_outputs_is_an_error(self):
        space = make_space(self.dir, [record(0, 32)])
        with self.assertRaisesRegex(tune.TuneError, 'the reference gave 1 tensors for the 2 compared \\(x, out\\)'):
            self.tuner(space, FakeGpu(lambda i, g: 1.0), reference=lambda A: [['out', 2.0, 2.0]])(*self.args(8))

    def test_outputs_are_restored_between_runs_for_kernels_that_read_them(self):
        space = make_space(self.dir, [record(0, 32), record(1, 64)])
        gpu = FakeGpu(lambda i, g: 1.0, accumulate=True)
        args = self.args(1000)
        t = self.tuner(space, gpu, restore=['out'])
        t(*args)
        self.assertEqual(gpu.timed[0][1], True)  # the timer restores before each run
        self.assertEqual(args[2], ['out', 2.0, 2.0])  # exactly one launch's effect is left
        self.assertEqual(t.benchmarks, 1)  # both agreed: each check ran from the restored state


    def test_compare_checks_only_the_given_views(self):
        space = make_space(self.dir, [record(0, 32), record(1, 64)])
        gpu = FakeGpu(lambda i, g: 1.0)
        bound_seen = []

        def compare(A):
            bound_seen.append(A['N'])
            return [A['out']]
        t = self.tuner(space, gpu, compare=compare, reference=lambda A: [['out', 2.0, 2.0]])
        self.assertEqual(t(*self.args(64)).dropped, {})
        self.assertEqual(bound_seen, [64])
        t = self.tuner(space, FakeGpu(lambda i, g: 1.0, wrong={1}), compare=compare, retune=True,
                       reference=lambda A: [['out', 2.0, 2.0]])
        self.assertEqual(list(t(*self.args(64)).dropped), [1])


class PruneTest(Base):
    def test_variants_that_cannot_fit_are_skipped_before_timing(self):
        space = make_space(self.dir, [record(0, 32), record(1, 64, shared=300000), record(2, 128, regs=255, threads=512),
                                      record(3, 256), record(4, 48, status='failed'), record(5, 512)])
        gpu = FakeGpu(lambda i, g: 1.0, refuse={3})
        choice = self.tuner(space, gpu)(*self.args(4096))
        self.assertEqual(gpu.timed[0][0], [0, 5])
        self.assertIn('300000 B of shared memory, the device allows 232448', choice.skipped[1])
        self.assertIn('255 registers x 512 threads', choice.skipped[2])
        self.assertIn('does not load: cuModuleLoadDataEx failed', choice.skipped[3])
        self.assertEqual(choice.skipped[4], 'did not compile')

    def test_driver_register_count_is_used_when_loaded(self):
        space = make_space(self.dir, [record(0, 32, regs=None, threads=1024), record(1, 64)])
        gpu = FakeGpu(lambda i, g: 1.0, regs={0: 128})
        choice = self.tuner(space, gpu)(*self.args(4096))
        self.assertIn('128 registers x 1024 threads', choice.skipped[0])

    def test_occupancy(self):
        limits = tune.DeviceLimits(**H100)
        space = make_space(self.dir, [record(0, 32, regs=60, shared=24576), record(1, 64, regs=164, shared=49152),
                                      record(2, 128, regs=16, threads=1024)])
        # 60 regs -> 2048 per warp x 4 warps = 8192 -> 8 CTAs; 24576 + 1024 B -> 9 CTAs
        self.assertEqual(tune.ctas_per_sm(space.variants[0], limits), 8)
        # 164 regs -> 5376 per warp -> 21504 per CTA -> 3 CTAs
        self.assertEqual(tune.ctas_per_sm(space.variants[1], limits), 3)
        # 1024 threads -> 2 per SM by threads
        self.assertEqual(tune.ctas_per_sm(space.variants[2], limits), 2)

    def test_wave_model(self):
        limits = tune.DeviceLimits(**{**H100, 'sms': 4})
        space = make_space(self.dir, [record(0, 32, regs=32), record(1, 64, regs=32, spills=8),
                                      record(2, 128, shared=200000)])
        v = space.variants[0]  # 32 regs, 128 threads: 16 CTAs per SM (by threads), 64 slots on 4 SMs

        def near(got, want):
            self.assertAlmostEqual(got[0], want, places=12)
        # one full wave of 64 programs; overhead 1 + 0.03 x log2(64) = 1.18
        near(tune.estimated_cost(v, limits, 64), 1 * 16 / 64 * 1.18)
        self.assertEqual(tune.estimated_cost(v, limits, 64)[1], 64)
        # 128 programs: two full waves, same work per program-slot, one more doubling of overhead
        near(tune.estimated_cost(v, limits, 128), 2 * 16 / 128 * 1.21)
        # 8 programs: 2 per SM, 8 warps resident: half the saturating 16 warps; 1 + 0.03 x 3
        near(tune.estimated_cost(v, limits, 8), 1 * 2 / 8 / 0.5 * 1.09)
        near(tune.estimated_cost(space.variants[1], limits, 64), 2 * 16 / 64 * 1.18)  # spills double
        # 200000 B of shared: 1 CTA per SM, 4 warps: a quarter of the throughput
        near(tune.estimated_cost(space.variants[2], limits, 64), 16 * 1 / 64 / 0.25 * 1.18)

    def test_tail_wave_costs_more_than_a_full_one(self):
        limits = tune.DeviceLimits(**{**H100, 'sms': 4})
        v = make_space(self.dir, [record(0, 32)]).variants[0]
        # 65 programs: a second wave for one program (2 x 16 / 65) against one full wave of 64
        self.assertGreater(tune.estimated_cost(v, limits, 65)[0], 1.6 * tune.estimated_cost(v, limits, 64)[0])

    def test_top_k_times_only_the_cheapest_estimates(self):
        space = make_space(self.dir, [record(0, 32), record(1, 64), record(2, 128, spills=4), record(3, 256, shared=200000)])
        gpu = FakeGpu(lambda i, g: 1.0)
        n = 132 * 64 * 32  # SIZE=32: 8448 programs = 4 full waves of 132 x 16
        choice = self.tuner(space, gpu, top_k=2)(*self.args(n))
        # the same wave cost 16 / 2112 for SIZE=32, 64 and 128 (full waves), overhead x (1 + 0.03 log2 P):
        # SIZE=64 (4224 programs) < SIZE=32 (8448); SIZE=128 spills (x2); SIZE=256: 1 CTA/SM of 4 warps (x4)
        self.assertEqual(gpu.timed[0][0], [0, 1])
        self.assertEqual(choice.skipped[2], '--top-k 2: estimated cost rank 3')
        self.assertEqual(choice.skipped[3], '--top-k 2: estimated cost rank 4')

    def test_top_k_prefers_fewer_programs_when_waves_are_full(self):
        space = make_space(self.dir, [record(0, 32), record(1, 64), record(2, 128)])
        gpu = FakeGpu(lambda i, g: 1.0)
        self.tuner(space, gpu, top_k=1)(*self.args(2112 * 128 * 4))  # 16, 8 and 4 full waves of 2112 programs
        self.assertEqual(gpu.timed[0][0], [2])


class CliTest(Base):
    def test_cache_listing_and_clear(self):
        space = make_space(self.dir, [record(0, 32), record(1, 64)])
        self.tuner(space, FakeGpu(lambda i, g: [2.0, 1.0][i]))(*self.args(1000))
        out = io.StringIO()
        sys.stdout, saved = out, sys.stdout
        try:
            tune.main(['cache', '--cache', self.cache.path])
            tune.main(['cache', '--cache', self.cache.path, '--clear'])
        finally:
            sys.stdout = saved
        self.assertIn('add [N=1000] Fake H100 (driver 580.1), space hhhhhhhhhhhh: SIZE=64 1.00 us', out.getvalue())
        self.assertIn('1 entry in', out.getvalue())
        self.assertFalse(os.path.exists(self.cache.path))


class CompiledSpaceTest(Base):
    """The space file triton-translate wrote (lit/tools/tune-python.tc passes its folder)."""

    def setUp(self):
        super().setUp()
        if REAL_SPACE is None:
            self.skipTest('no SPACE_DIR given')

    def test_compiled_space_loads_and_tunes(self):
        space = tune.Space.load(REAL_SPACE)
        self.assertEqual((space.kernel, space.key, space.param_names()), ('add', ['N'], ['N', 'a', 'b', 'c']))
        self.assertEqual([(v.index, v.ok) for v in space.variants], [(0, True), (1, False), (2, True)])
        for v in space.compiled():
            self.assertTrue(os.path.isfile(v.ptx) and os.path.isfile(v.metadata), v)
            with open(v.ptx) as f:
                self.assertIn('.entry add(', f.read())
        gpu = FakeGpu(lambda i, g: {0: 5.0, 2: 4.0}[i])
        args = [4096, ['in', 1.0], ['in', 1.0], ['out', 0.0]]
        choice = self.tuner(space, gpu)(*args)
        self.assertEqual((choice.variant.description, choice.key), ('SIZE=128', (('N', 4096),)))
        self.assertEqual(gpu.timed[0][0], [0, 2])


if __name__ == '__main__':
    if len(sys.argv) > 1 and not sys.argv[1].startswith('-'):
        REAL_SPACE = sys.argv.pop(1)
    unittest.main(verbosity=1)
