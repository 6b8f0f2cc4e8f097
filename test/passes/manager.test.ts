/**
 * The pass infrastructure: pipeline parsing (options, nesting, named pipelines, errors),
 * analysis caching and invalidation, statistics, and the rewriter's change recording.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { IntegerAttr } from '../../ir/attributes.js';
import { DiagnosticError } from '../../ir/diagnostics.js';
import type { Operation } from '../../ir/ir.js';
import { parseText } from '../../ir/parser.js';
import { applyPatternsGreedily, type RewritePattern } from '../../ir/patterns.js';
import { printModule } from '../../ir/printer.js';
import { i } from '../../ir/types.js';
import { registerAllPasses } from '../../passes/all.js';
import { PassManager } from '../../passes/manager.js';
import { AnalysisCache, PassContext, type PassDecl } from '../../passes/pass.js';
import { parsePipeline, pipelineText } from '../../passes/pipeline-text.js';
import { NAMED_PIPELINES, nearMatches, registerPass, registerPipeline } from '../../passes/registry.js';

registerAllDialects();
registerAllPasses();

const FN = `tt.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  tt.return %0 : i32
}
tt.func @g(%a: i32) -> i32 {
  tt.return %a : i32
}
`;

function pipelineError(text: string): string {
  try {
    parsePipeline(text);
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostic.format();
    throw e;
  }
  throw new Error(`pipeline '${text}' parsed without error`);
}

test('pipelines: options are typed, defaults filled, nesting kept', () => {
  const e = parsePipeline("builtin.module(test-crash{function=g}, tt.func(test-invalid-ir))");
  assert.is(e.length, 2);
  assert.equal(e[0].options, { function: 'g' });
  assert.is(e[0].nest, null);
  assert.is(e[1].nest, 'tt.func');
  assert.is(pipelineText(e), 'builtin.module(test-crash{function=g},tt.func(test-invalid-ir))');
  assert.equal(parsePipeline('test-crash')[0].options, { function: '' });
  assert.equal(parsePipeline('  '), []);
});

test('pipelines: errors point at the token and suggest near matches', () => {
  assert.is(
    pipelineError('test-crash,test-crsh'),
    "<pipeline>:1:12: error: 'test-crsh' does not refer to a registered pass or pass pipeline; did you mean 'test-crash'?\ntest-crash,test-crsh\n           ^",
  );
  assert.match(pipelineError('test-crash{fn=1}'), "pass 'test-crash' has no option 'fn'");
  assert.match(pipelineError('test-crash test-crash'), "expected ',' or the end of the pipeline");
  assert.match(pipelineError('test-crash{function="x}'), 'unterminated string in pass option');
});

test('pipelines: typed option values are checked', () => {
  const typed: PassDecl = {
    name: 'test-typed-options',
    summary: 'testing: only declares options',
    anchor: 'module',
    options: {
      n: { type: 'int', default: 4, description: 'a number' },
      b: { type: 'bool', default: false, description: 'a flag' },
      l: { type: 'string-list', default: [], description: 'a list' },
    },
    run() {},
  };
  registerPass(typed);
  assert.equal(parsePipeline('test-typed-options{n=8 b l=x,y}')[0].options, { n: 8, b: true, l: ['x', 'y'] });
  assert.match(pipelineError('test-typed-options{n=eight}'), "option 'n' of pass 'test-typed-options' expects an integer, got 'eight'");
  assert.match(pipelineError('test-typed-options{b=maybe}'), "expects true or false, got 'maybe'");
});

test('pipelines: named pipelines expand', () => {
  registerPipeline('test-pair', 'two no-op crash tests', 'test-crash{function=none},test-crash{function=none}');
  assert.is(parsePipeline('test-pair').length, 2);
  assert.ok('default' in NAMED_PIPELINES);
});

test('pipelines: the default pipeline takes arch, num-warps and num-stages', () => {
  const entries = parsePipeline('default{num-warps=8 arch=sm_90a num-stages=4}');
  const convert = entries.find((e) => e.pass.name === 'convert-to-gpu')!;
  assert.is(convert.options['num-warps'], 8);
  assert.is(convert.options.target, 'cuda:90');
  assert.is(entries.find((e) => e.pass.name === 'software-pipeline')!.options['num-stages'], 4);
  assert.is(parsePipeline('default').find((e) => e.pass.name === 'convert-to-gpu')!.options.target, 'cuda:80');
  assert.match(pipelineError('default{arch=sm_70}'), "pipeline 'default': unknown architecture 'sm_70'; known: sm_80, sm_90a");
  assert.match(pipelineError('default{num-warp=8}'), "pipeline 'default' has no option 'num-warp'; did you mean 'num-warps'?");
});

test('pipelines: upstream pass names are aliases', () => {
  assert.is(parsePipeline('tritongpu-pipeline')[0].pass.name, 'software-pipeline');
  assert.is(parsePipeline('tritongpu-coalesce')[0].pass.name, 'coalesce');
  assert.match(pipelineError('pipeline'), "'pipeline' does not refer to a registered pass or pass pipeline");
});

test('near matches rank by edit distance', () => {
  assert.equal(nearMatches('cse', ['cse', 'dce', 'licm']), ['cse', 'dce']);
  assert.equal(nearMatches('canonicalise', ['canonicalize', 'inline']), ['canonicalize']);
  assert.equal(nearMatches('zzz', ['canonicalize']), []);
});

test('analyses are cached per op and dropped unless preserved', () => {
  const cache = new AnalysisCache();
  const m = parseText(FN).module;
  let computed = 0;
  const count = (op: Operation) => {
    computed++;
    return op.name;
  };
  cache.get('names', m, count);
  cache.get('names', m, count);
  assert.is(computed, 1);
  cache.invalidate(new Set(['names']));
  assert.ok(cache.has('names', m));
  cache.invalidate(null);
  assert.ok(cache.has('names', m));
  cache.invalidate(new Set());
  assert.not.ok(cache.has('names', m));
});

test('function-anchored passes run once per function; statistics are collected', () => {
  const seen: string[] = [];
  const counting: PassDecl = {
    name: 'test-count-functions',
    summary: 'testing: counts the functions it runs on',
    anchor: 'function',
    statistics: { functions: 'functions visited' },
    run(fn, ctx) {
      seen.push(String(fn.getAttr('sym_name')));
      ctx.bump('functions');
    },
  };
  registerPass(counting);
  const m = parseText(FN).module;
  let report = '';
  const pm = new PassManager(parsePipeline('test-count-functions'), { statistics: true, reproducerDir: null, log: (t) => (report += t) });
  assert.ok(pm.run(m).ok);
  assert.equal(seen, ['"f"', '"g"']);
  assert.match(pm.report(), "'test-count-functions'\n  (functions) 2");
});

test('rewriter records changes, so a pattern that does nothing has not applied', () => {
  const m = parseText(FN).module;
  const lazy: RewritePattern = { name: 'looks-but-does-nothing', root: 'arith.addi', rewrite: () => {} };
  const r = applyPatternsGreedily(m, [lazy], { removeDeadOps: false, fold: false });
  assert.is(r.applied, 0);
  assert.not.ok(r.changed);
  const swap: RewritePattern = {
    name: 'addi-to-constant',
    root: 'arith.addi',
    rewrite: (op, rw) => {
      rw.replaceOpWithNewOp(op, 'arith.constant', { attrs: { value: IntegerAttr.get(7, i(32)) } });
    },
  };
  const r2 = applyPatternsGreedily(m, [swap]);
  assert.is(r2.applied, 1);
  assert.ok(printModule(m).includes('%c7_i32 = arith.constant 7 : i32'));
});

test('patterns that undo each other make the driver fail loudly', () => {
  const m = parseText(FN).module;
  const flip = (from: number, to: number): RewritePattern => ({
    name: `flip-${from}-${to}`,
    root: 'arith.constant',
    rewrite: (op, rw) => {
      const v = op.getAttr('value');
      if (v instanceof IntegerAttr && v.num === from) rw.modifyInPlace(op, () => op.setAttr('value', IntegerAttr.get(to, i(32))));
    },
  });
  const start: RewritePattern = {
    name: 'start',
    root: 'arith.addi',
    rewrite: (op, rw) => void rw.replaceOpWithNewOp(op, 'arith.constant', { attrs: { value: IntegerAttr.get(1, i(32)) } }),
  };
  assert.throws(() => applyPatternsGreedily(m, [start, flip(1, 2), flip(2, 1)], { maxIterations: 5 }), /did not converge after 5 iterations/);
});

test('PassContext.fail reports at the op with its name', () => {
  const m = parseText(FN).module;
  const ctx = new PassContext(
    { name: 'x', summary: 'testing only', anchor: 'module', run() {} },
    {},
    new AnalysisCache(),
  );
  const fn = m.regions[0].blocks[0].first!;
  assert.throws(() => ctx.fail(fn, 'is not supported here'), (e: unknown) => e instanceof DiagnosticError && e.diagnostic.message === "'tt.func' op is not supported here");
});


test('reproducers are rebuilt from a fresh input, with no copy of the module before each pass', () => {
  const text = `tt.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %x = arith.addi %a, %c0 : i32
  tt.return %x : i32
}
`;
  const dir = mkdtempSync(join(tmpdir(), 'pm-repro-'));
  try {
    let reparsed = 0;
    const module = parseText(text, {}, 'in.tir').module;
    const pm = new PassManager(parsePipeline('canonicalize,test-crash'), {
      reproducerDir: dir,
      reparseInput: () => {
        reparsed++;
        return parseText(text, {}, 'in.tir').module;
      },
    });
    const r = pm.run(module);
    assert.is(r.ok, false);
    // Rebuilt once, for the failure only.
    assert.is(reparsed, 1);
    assert.ok(r.reproducer, 'a reproducer for the crash');
    const written = readFileSync(r.reproducer!, 'utf8');
    // The IR before test-crash: canonicalize folded the addition of zero.
    assert.not.match(written, 'arith.addi');
    assert.match(written, 'tt.return %a');
    assert.match(written, /pipeline: ".*test-crash/);
    // Nothing is rebuilt when no pass fails.
    reparsed = 0;
    const ok = new PassManager(parsePipeline('canonicalize,cse'), { reproducerDir: dir, reparseInput: () => (reparsed++, parseText(text, {}, 'in.tir').module) });
    assert.ok(ok.run(parseText(text, {}, 'in.tir').module).ok);
    assert.is(reparsed, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
