/**
 * The target object (dialects/ttg/target.ts): building one, reading it from a module's `ttg.*`
 * attributes with Triton's defaults, writing it back, and the architecture spellings it reads.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { hasTarget, makeTarget, parseCapability, targetOf, writeTarget } from '../../dialects/ttg/target.js';
import { parseText } from '../../ir/parser.js';
import { printModule } from '../../ir/printer.js';

registerAllDialects();

const moduleOf = (attrs: string) => parseText(`module attributes {${attrs}} {\n  tt.func @f() {\n    tt.return\n  }\n}\n`, {}, 'm.tir').module;

test('architecture spellings: sm_90a, sm_90, cuda:90 and 90 are capability 90; unknown ones are null', () => {
  for (const s of ['sm_90a', 'sm_90', 'cuda:90', '90']) assert.is(parseCapability(s), 90, s);
  assert.is(parseCapability('sm_80'), 80);
  for (const s of ['sm_75', 'cuda:100', 'gfx942', '']) assert.is(parseCapability(s), null, s);
});

test('makeTarget: a launch shape with the limits of its architecture', () => {
  const t = makeTarget({ arch: 'sm_90a', numWarps: 8 });
  assert.is(t.name, 'cuda:90');
  assert.is(t.capability, 90);
  assert.is(t.numWarps, 8);
  assert.is(t.threadsPerWarp, 32);
  assert.is(t.numCTAs, 1);
  assert.is(t.limits!.maxSharedBytesPerCTA, 227 * 1024);
  assert.is(makeTarget({ arch: 'sm_80' }).limits!.sharedBytesPerSM, 164 * 1024);
  assert.is(makeTarget({}).name, 'cuda:80');
});

test('makeTarget: bad values are messages for the user', () => {
  assert.throws(() => makeTarget({ arch: 'sm_75' }), /unknown architecture 'sm_75'; known: sm_80, sm_90a/);
  assert.throws(() => makeTarget({ numWarps: 3 }), /the number of warps must be a power of 2 from 1 to 32, got 3/);
  assert.throws(() => makeTarget({ numWarps: 64 }), /from 1 to 32, got 64/);
  assert.throws(() => makeTarget({ threadsPerWarp: 48 }), /threads per warp must be a power of 2, got 48/);
});

test('another backend is kept by name, without CUDA limits', () => {
  const t = makeTarget({ arch: 'hip:gfx942', threadsPerWarp: 64 });
  assert.is(t.name, 'hip:gfx942');
  assert.is(t.capability, null);
  assert.is(t.limits, null);
  const m = moduleOf('"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942"');
  assert.is(targetOf(m).name, 'hip:gfx942');
});

test('targetOf: a module says its target; what it does not say reads as Triton defaults', () => {
  const m = moduleOf('"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32');
  const fn = m.region(0).entry!.first!;
  const t = targetOf(fn); // from any op inside
  assert.equal([t.capability, t.numWarps, t.threadsPerWarp, t.numCTAs], [90, 8, 32, 1]);
  assert.ok(hasTarget(fn));
  const bare = moduleOf('');
  assert.not.ok(hasTarget(bare));
  assert.equal([targetOf(bare).capability, targetOf(bare).numWarps], [80, 4]);
});

test('writeTarget then targetOf gives the same target; the attributes print as Triton prints them', () => {
  const m = moduleOf('');
  const t = makeTarget({ arch: 'sm_90a', numWarps: 2 });
  writeTarget(m, t);
  const back = targetOf(m);
  assert.equal([back.name, back.numWarps, back.threadsPerWarp, back.numCTAs], [t.name, 2, 32, 1]);
  assert.match(printModule(m), 'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}');
});

test.run();
