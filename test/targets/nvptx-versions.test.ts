/**
 * The kernel of the original copy alone (targets/nvptx/versions.ts): a kernel that version-alignment
 * split into a specialized and an original copy is emitted twice, whole and as its original copy
 * alone (`<name>__unaligned`, with its own shared memory), and the launch metadata says which
 * parameters pick the copy. Input: Triton 3.6's TTIR of its tutorial matmul for an odd shape
 * (128x256x64 tiles, f16, 8 warps) through the default pipeline.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import * as arith from '../../dialects/arith.js';
import * as scf from '../../dialects/scf.js';
import type { Operation } from '../../ir/ir.js';
import { IntegerAttr } from '../../ir/attributes.js';
import { Builder } from '../../ir/builder.js';
import { IntegerType } from '../../ir/types.js';
import { parseText } from '../../ir/parser.js';
import { registerAllPasses } from '../../passes/all.js';
import { runPipeline } from '../../passes/manager.js';
import { isVersions } from '../../passes/support/versioned-if.js';
import { compileToPtx, metadataJson, targetFor } from '../../targets/nvptx/index.js';

registerAllDialects();
registerAllPasses();

const kernelText = (name: string): string => readFileSync(new URL(`../../bench/gpu/kernels/${name}`, import.meta.url), 'utf8');

/** The module of `name` after the default pipeline for `arch` (ttg level, shared memory allocated). */
function ttg(name: string, arch: 'sm_80' | 'sm_90a'): Operation {
  const { module } = parseText(kernelText(name), {}, name);
  const r = runPipeline(module, `default{arch=${arch} num-warps=8}`, { reproducerDir: null });
  assert.ok(r.ok, r.diagnostics.map((d) => d.message).join('\n'));
  return module;
}

/** The launch metadata of a ttg-level module, parsed. */
function metadata(module: Operation, arch: 'sm_80' | 'sm_90a') {
  const r = compileToPtx(module, { target: targetFor(arch, 8) });
  return { ...JSON.parse(metadataJson(r.kernels, arch)), ptx: r.ptx };
}

/** The `.entry` names of a PTX text. */
const entries = (ptx: string): string[] => [...ptx.matchAll(/^\.visible \.entry (\w+)\(/gm)].map((m) => m[1]);

/** The versioned scf.if of the module's kernel. */
function versionsIf(module: Operation): Operation {
  let found: Operation | undefined;
  module.walk((op) => void (scf.IfOp.is(op) && isVersions(op) && (found = op)));
  assert.ok(found, 'a versioned scf.if');
  return found!;
}

// The original copy's buffers: A's 128x64 f16 tile (16 KiB) and B's 64x256 (32 KiB), one stage each,
// and the epilogue's 128x256 f16 layout exchange (64 KiB) after them; the specialized copy holds
// three stages of both tiles (3 x 48 KiB).
const ORIGINAL = 128 * 256 * 2;
const SPECIALIZED = 3 * (128 * 64 + 64 * 256) * 2;

test('sm_90a: the original copy alone is a second kernel with its own shared memory, picked by N, K and the row strides', () => {
  const meta = metadata(ttg('matmul.odd.ttir', 'sm_90a'), 'sm_90a');
  assert.is(meta.shared_bytes, SPECIALIZED);
  assert.equal(meta.versions, { divisor: 4, params: ['N', 'K', 'stride_am', 'stride_bk', 'stride_cm'], otherwise: { name: 'matmul_kernel__unaligned', shared_bytes: ORIGINAL } });
  assert.equal(entries(meta.ptx), ['matmul_kernel', 'matmul_kernel__unaligned']);
  // the second kernel is the original copy only: no condition, no pipelined copies
  const second = meta.ptx.slice(meta.ptx.indexOf('.entry matmul_kernel__unaligned('));
  assert.not.match(second, 'cp.async');
  assert.match(meta.ptx.slice(0, meta.ptx.indexOf('.entry matmul_kernel__unaligned(')), 'cp.async');
});

test('sm_80: both copies pipeline their tiles in three stages (one size serves both), still two kernels', () => {
  const meta = metadata(ttg('matmul.odd.ttir', 'sm_80'), 'sm_80');
  assert.is(meta.shared_bytes, SPECIALIZED);
  assert.equal(meta.versions.otherwise, { name: 'matmul_kernel__unaligned', shared_bytes: SPECIALIZED });
});

test('a kernel without copies has one kernel and no versions', () => {
  const meta = metadata(ttg('matmul.d16.ttir', 'sm_90a'), 'sm_90a');
  assert.not.ok('versions' in meta);
  assert.equal(entries(meta.ptx), ['matmul_kernel']);
});

test('the condition is read in any operand order', () => {
  const module = ttg('matmul.odd.ttir', 'sm_90a');
  module.walk((op) => {
    if (arith.CmpIOp.is(op) || (arith.AndIOp.is(op) && String(op.result(0).type) === 'i32')) {
      const [a, b] = [op.operand(0), op.operand(1)];
      op.setOperands([b, a]);
    }
  });
  assert.equal(metadata(module, 'sm_90a').versions.otherwise.shared_bytes, ORIGINAL);
});

test('a condition that is not a conjunction of alignment tests: no second kernel', () => {
  const module = ttg('matmul.odd.ttir', 'sm_90a');
  const ifOp = versionsIf(module);
  // (%N & 3) == 0 and ... -> (%N & 3) != 0 and ...: the launcher could no longer tell the copies apart
  let flipped = false;
  module.walk((op) => {
    if (flipped || !arith.CmpIOp.is(op)) return;
    op.setAttr('predicate', arith.CmpIPredicate.byName('ne'));
    flipped = true;
  });
  assert.ok(flipped);
  const meta = metadata(module, 'sm_90a');
  assert.not.ok('versions' in meta);
  assert.is(meta.shared_bytes, SPECIALIZED);
  assert.equal(entries(meta.ptx), ['matmul_kernel']);
  assert.ok(ifOp.parent, 'the if is still there');
});

test('tests of different divisors: no versions', () => {
  const module = ttg('matmul.odd.ttir', 'sm_90a');
  // the first (%x & 3) -> (%x & 7): that parameter is now tested for a multiple of 8, the others of 4
  let masked: Operation | undefined;
  module.walk((op) => {
    if (!masked && arith.AndIOp.is(op) && String(op.result(0).type) === 'i32' && [...op.result(0).uses()].some((u) => arith.CmpIOp.is(u.owner))) masked = op;
  });
  assert.ok(masked);
  const b = new Builder().setInsertionPoint(masked!);
  masked!.setOperand(1, arith.ConstantOp.build(b, { value: IntegerAttr.get(7, IntegerType.get(32)) }).result);
  assert.not.ok('versions' in metadata(module, 'sm_90a'));
});

test.run();
