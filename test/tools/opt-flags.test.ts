/** Tests of triton-opt's flags (tools/opt-flags.ts, tools/opt-pass-flags.ts): pass flags, aliases, mlir-opt 19 flags and suggestions. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllPasses } from '../../passes/all.js';
import { parsePipeline, pipelineText } from '../../passes/pipeline-text.js';
import { UserError } from '../../tools/input-chunks.js';
import { normalizeArgs, parseOptArgs } from '../../tools/opt-flags.js';
import { readPassFlags } from '../../tools/opt-pass-flags.js';

registerAllPasses();

function userError(args: string[]): string {
  try {
    parseOptArgs(args);
  } catch (e) {
    assert.instance(e, UserError);
    return (e as Error).message;
  }
  return assert.unreachable(`no error for ${args.join(' ')}`) as never;
}

test('--PASS=OPTIONS becomes PASS{OPTIONS}, in command-line order with --pipeline', () => {
  assert.is(readPassFlags(['--cse', '--convert-to-gpu=num-warps=8', '--pipeline=licm', '--canonicalize={max-iterations=2}']).pipeline, 'cse,convert-to-gpu{num-warps=8},licm,canonicalize{max-iterations=2}');
  assert.equal(readPassFlags(['in.tir', '--cse', '-o', 'x']).rest, ['in.tir', '-o', 'x']);
  const o = parseOptArgs(['in.tir', '--convert-to-gpu=num-warps=8 threads-per-warp=16']);
  assert.is(pipelineText(parsePipeline(o.pipeline)), 'builtin.module(convert-to-gpu{num-warps=8 threads-per-warp=16 num-ctas=1 target=cuda:80})');
});

test("Triton's names are aliases; those without an equivalent are errors", () => {
  const o = parseOptArgs(['--tritongpu-coalesce', '--tritongpu-remove-layout-conversions', '--allocate-shared-memory']);
  assert.equal(parsePipeline(o.pipeline).map((e) => e.pass.name), ['coalesce', 'remove-layout-conversions', 'alloc-shared']);
  assert.match(userError(['--tritongpu-prefetch']), "'tritongpu-prefetch' is a Triton pass");
  assert.match(userError(['--tritongpu-prefetch']), 'has no equivalent in triton-ir');
  assert.equal([...(parseOptArgs(['--print-ir-after=tritongpu-coalesce', '--coalesce']).printAfter as Set<string>)], ['coalesce']);
});

test('unknown flags and pass names get suggestions', () => {
  assert.is(userError(['--canonicalise']), "unknown option '--canonicalise'; did you mean '--canonicalize'?");
  assert.is(userError(['--print-ir-after=csee']), "--print-ir-after: 'csee' does not refer to a registered pass; did you mean 'cse'?");
  assert.match(userError(['--debug-only=licn']), "did you mean 'licm'?");
  assert.match(userError(['--split-input-filee']), "did you mean '--split-input-file'?");
});

test('mlir-opt 19 flags', () => {
  assert.equal(normalizeArgs(['-p', 'x', '-p=y', '-cse', '-o', 'out', '-split-input-file']), ['--pass-pipeline', 'x', '--pass-pipeline=y', '--cse', '-o', 'out', '--split-input-file']);
  const o = parseOptArgs([
    'in.tir', '-p', 'builtin.module(cse)', '--mlir-print-local-scope', '--mlir-elide-elementsattrs-if-larger=16', '--mlir-print-value-users',
    '--mlir-print-ir-module-scope', '--mlir-print-skip-regions', '--no-implicit-module', '--split-input-file=// +++', '--output-split-marker=// ===',
    '--verify-roundtrip', '--mlir-print-op-on-diagnostic', '--mlir-timing-display=tree', '--debug-only=cse,tritongpu-coalesce', '--force',
  ]);
  assert.is(o.pipeline, 'builtin.module(cse)');
  assert.ok(o.printLocalScope && o.printValueUsers && o.printIrModuleScope && o.printSkipRegions && o.noImplicitModule && o.verifyRoundtrip && o.printOpOnDiagnostic && o.force);
  assert.is(o.elideElementsAttrsIfLarger, 16);
  assert.is(o.splitInputFile, '// +++');
  assert.is(o.outputSplitMarker, '// ===');
  assert.is(o.timingDisplay, 'tree');
  assert.equal([...(o.debugOnly as Set<string>)], ['cse', 'coalesce']);
  // A value flag takes one argument: the input file after it stays the input.
  const after = parseOptArgs(['--print-ir-after', 'cse', 'in.tir', '--cse', '--print-ir-after=licm']);
  assert.is(after.input, 'in.tir');
  assert.equal([...(after.printAfter as Set<string>)], ['cse', 'licm']);
  const d = parseOptArgs(['in.tir', '--split-input-file']);
  assert.is(d.splitInputFile, '// -----');
  assert.is(d.noImplicitModule, false);
  assert.is(parseOptArgs(['in.tir']).splitInputFile, null);
});

test.run();
