/**
 * The fuzzer's own parts on synthetic failures: the classifier (five classes, signatures),
 * the minimizer (a fake target that throws on a marker must shrink to the marker), the
 * seeded mutator, the corpus and the `-D` lines of Triton-C inputs. In-process; no worker.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Diagnostic, DiagnosticError, SourceFile } from '../../ir/diagnostics.js';
import { runCampaign } from '../../tools/fuzz/campaign.js';
import { loadCorpus } from '../../tools/fuzz/corpus.js';
import type { FuzzRunner } from '../../tools/fuzz/runner.js';
import { minimize } from '../../tools/fuzz/minimize.js';
import { mutate, Random, tokenize } from '../../tools/fuzz/mutate.js';
import { classifyDiagnostic, classifyError, signatureHash, signatureOf, type Outcome } from '../../tools/fuzz/outcome.js';
import { definesOf, TARGET_NAMES, TARGETS } from '../../tools/fuzz/targets.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A located error diagnostic at `offset` of `text`. */
function located(message: string, text = 'abc\ndef', offset = 5): DiagnosticError {
  return new DiagnosticError(new Diagnostic('error', message, { source: new SourceFile('in.tir', text), offset }));
}

test('classifier: located, unlocated and internal diagnostics, exceptions', () => {
  const l = classifyError(located("expected ':'"));
  assert.is(l.class, 'located');
  assert.ok(l.message.startsWith("in.tir:2:2: error: expected ':'\ndef\n ^"), l.message);
  assert.is(classifyError(new DiagnosticError(new Diagnostic('error', 'no kernel', null))).class, 'unlocated');
  assert.is(classifyDiagnostic(new Diagnostic('error', 'bad', null, 'k.py:3:4')).class, 'located');
  assert.is(classifyError(located("internal error in pass 'cse' on 'tt.func': x is undefined")).class, 'internal');
  assert.is(classifyError(located("pass 'coalesce' produced invalid IR: bad")).class, 'internal');
  assert.is(classifyError(new TypeError("Cannot read properties of undefined (reading 'push')")).class, 'internal');
  assert.is(classifyError(new RangeError('Maximum call stack size exceeded')).message, 'RangeError: Maximum call stack size exceeded');
  assert.is(classifyError('a string').class, 'internal');
});

test('classifier: signatures drop the location and the numbers, hashes are stable', () => {
  const a = classifyError(located("internal error in pass 'alloc-shared': layout size 0 is not a power of two", 'x\ny\nz', 3));
  const b = classifyError(located("internal error in pass 'alloc-shared': layout size 6 is not a power of two", 'x\ny\nz\nw', 5));
  assert.is(signatureOf(a), "internal: error: internal error in pass 'alloc-shared': layout size N is not a power of two");
  assert.is(signatureOf(a), signatureOf(b));
  const round: Outcome = { class: 'internal', message: 'round trip: the printed IR does not parse back: fuzz-input:12:3: error: expected x' };
  assert.is(signatureOf(round), 'internal: round trip: the printed IR does not parse back: error: expected x');
  assert.is(signatureHash('abc'), signatureHash('abc'));
  assert.match(signatureHash('abc'), /^[0-9a-f]{8}$/);
  assert.is.not(signatureHash('abc'), signatureHash('abd'));
});

/** A fake target: an internal error on inputs holding `MARK`, a located error on inputs holding `{`, else success. */
function fakeTarget(text: string): Outcome {
  try {
    if (text.includes('MARK')) throw new TypeError(`exploded at ${text.indexOf('MARK')}`);
    if (text.includes('{')) throw located('unbalanced', text, text.indexOf('{'));
    return { class: 'success', message: '' };
  } catch (e) {
    return classifyError(e);
  }
}

test('minimizer: a fake target that throws on a marker shrinks to the marker', async () => {
  const random = new Random(7);
  const noise = Array.from({ length: 300 }, () => 'abc {}();\n x = 1'[random.below(16)]).join('');
  const input = `${noise}\n${noise.slice(0, 100)}MARK${noise.slice(100)}\n${noise}`;
  const signature = signatureOf(fakeTarget(input));
  assert.is(signature, 'internal: TypeError: exploded at N');
  let tests = 0;
  const small = await minimize(input, async (t) => (tests++, signatureOf(fakeTarget(t)) === signature));
  assert.is(small, 'MARK');
  assert.ok(tests < 2000, `${tests} tests`);
});

test('minimizer: keeps the failure class (a located error does not count as the internal one)', async () => {
  const input = 'x{y\nMARK\nz';
  const signature = signatureOf(fakeTarget(input));
  assert.is(await minimize(input, async (t) => signatureOf(fakeTarget(t)) === signature), 'MARK');
  const loc = signatureOf(fakeTarget('ab{cd'));
  assert.is(await minimize('ab{cd\nef', async (t) => signatureOf(fakeTarget(t)) === loc), '{');
});

test('minimizer: stops at its test budget', async () => {
  let tests = 0;
  const small = await minimize('a\nb\nc\nd\ne\nf\nMARK', async (t) => (tests++, t.includes('MARK')), { maxTests: 3 });
  assert.ok(tests <= 3);
  assert.ok(small.includes('MARK'));
});

test('mutator: the same seed gives the same inputs, under the size limit', () => {
  const corpus = ['tt.func @k(%a: i32) {\n  %c = arith.constant 128 : i32\n  tt.return\n}\n', 'module {\n}\n'];
  const run = (seed: number) => {
    const random = new Random(seed);
    return Array.from({ length: 200 }, () => mutate(corpus, random, 500));
  };
  assert.equal(run(3), run(3));
  assert.not.equal(run(3), run(4));
  for (const t of run(5)) assert.ok(t.length <= 500);
  assert.is(tokenize('%a = arith.constant 1.5e3 : f32').join(''), '%a = arith.constant 1.5e3 : f32');
});

test('corpus: every target has inputs from the project', () => {
  for (const name of TARGET_NAMES) {
    const corpus = loadCorpus(root, TARGETS[name], 65536);
    assert.ok(corpus.length > 50, `${name}: ${corpus.length}`);
    for (const e of corpus) assert.ok(TARGETS[name].accepts(e.path), e.path);
  }
});

test('frontend target: -D definitions come from the input RUN lines, over defaults', () => {
  const d = definesOf("// RUN: triton-translate %s --from-c -DTM=32 '-DTN=[16, 64]' -DUSE_X\nint x;");
  assert.is(d.TM, '32');
  assert.is(d.TN, '16');
  assert.is(d.USE_X, '1');
  assert.is(d.TYPE, 'float');
});

test('targets: a valid kernel succeeds everywhere, bad input gives a located error', () => {
  const kernel = 'tt.func public @k(%p: !tt.ptr<f32>) {\n  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>\n  tt.return\n}\n';
  for (const name of ['parser', 'passes', 'ptx'] as const) assert.is(TARGETS[name].run(kernel).class, 'success', name);
  assert.is(TARGETS.parser.run('tt.func @k(').class, 'located');
  assert.is(TARGETS.frontend.run('__global__ void k(float *p) { int x = 1; }').class, 'success');
  assert.is(TARGETS.frontend.run('__global__ void k(float *p) { int x = ; }').class, 'located');
});

test('campaign: --inputs N runs exactly N inputs, the same ones for the same seed', async () => {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const campaign = async (seed: number): Promise<string[]> => {
    const seen: string[] = [];
    // A fake runner: records each input and calls every one a located error.
    const runner = { run: async (_t: string, text: string): Promise<Outcome> => (seen.push(text), { class: 'located', message: 'x:1:1: error: e' }) } as unknown as FuzzRunner;
    const r = await runCampaign(runner, { root, target: 'parser', seconds: 0, inputs: 40, seed, maxBytes: 4096, save: false, minimizeSeconds: 0, log: () => {} });
    assert.is(r.inputs, 40);
    assert.is(r.counts.located, 40);
    return seen;
  };
  const a = await campaign(3);
  assert.is(a.length, 40);
  assert.equal(await campaign(3), a);
  assert.not.equal(await campaign(4), a);
});

test.run();
