/**
 * Unit tests of the `dce` pass: exact output, the statistic, and the lit
 * test run in-process (parse each `// -----` case, run the pass, FileCheck the print).
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import '../../dialects/index.js';
import { parseText } from '../../ir/parser.js';
import { printModule } from '../../ir/printer.js';
import { verify } from '../../ir/verifier.js';
import { dce } from '../../passes/dce.js';
import { AnalysisCache, PassContext, type PassDecl, type PassOptions } from '../../passes/pass.js';
import { runFileCheck } from '../../tools/filecheck.js';

/** Parses `text`, runs `pass` on each anchor op, verifies, and returns the print and statistics. */
function runPass(pass: PassDecl, text: string, options: PassOptions = {}): { out: string; stats: Map<string, number> } {
  const { module } = parseText(text);
  verify(module);
  const defaults = Object.fromEntries(Object.entries(pass.options ?? {}).map(([k, d]) => [k, d.default]));
  const ctx = new PassContext(pass, { ...defaults, ...options }, new AnalysisCache());
  if (pass.anchor === 'module') pass.run(module, ctx);
  else for (const op of module.regions[0].blocks[0].ops) if (op.hasTrait('FunctionLike')) pass.run(op, ctx);
  verify(module);
  return { out: printModule(module), stats: ctx.statistics };
}

/** Runs the lit file `lit/passes/<name>.tir` as its RUN line would and FileChecks the output. */
function litCheck(pass: PassDecl): void {
  const path = new URL(`../../lit/passes/${pass.name}.tir`, import.meta.url);
  const text = readFileSync(path, 'utf8');
  const out = text.split(/^\/\/ -----$/m).map((chunk) => runPass(pass, chunk).out).join('// -----\n');
  const r = runFileCheck(text, out, { checkFileName: `${pass.name}.tir` });
  assert.ok(r.ok, r.message + '\n--- output ---\n' + out);
}

test('erases dead chains and counts every erased op', () => {
  const { out, stats } = runPass(
    dce,
    `func.func @f(%arg0: i32) -> i32 {
  %0 = arith.addi %arg0, %arg0 : i32
  %1 = arith.muli %0, %0 : i32
  %2 = arith.subi %1, %arg0 : i32
  %3 = arith.xori %arg0, %arg0 : i32
  return %3 : i32
}`,
  );
  assert.is(
    out,
    `module {
  func.func @f(%arg0: i32) -> i32 {
    %0 = arith.xori %arg0, %arg0 : i32
    return %0 : i32
  }
}
`,
  );
  assert.is(stats.get('num-dce'), 3);
});

test('a dead region op goes with the values used only inside it', () => {
  const { out, stats } = runPass(
    dce,
    `func.func @f(%arg0: i1, %arg1: i32) {
  %0 = arith.muli %arg1, %arg1 : i32
  %1 = scf.if %arg0 -> (i32) {
    scf.yield %0 : i32
  } else {
    scf.yield %arg1 : i32
  }
  return
}`,
  );
  assert.is(out, 'module {\n  func.func @f(%arg0: i1, %arg1: i32) {\n    return\n  }\n}\n');
  assert.is(stats.get('num-dce'), 2);
});

test('keeps side effects and unused block arguments', () => {
  const src = `tt.func @f(%arg0: !tt.ptr<f32>, %arg1: i32) {
  %0 = scf.for %arg2 = %arg1 to %arg1 step %arg1 iter_args(%arg3 = %arg1) -> (i32)  : i32 {
    %1 = tt.load %arg0 : !tt.ptr<f32>
    scf.yield %arg3 : i32
  }
  tt.return
}`;
  const { out, stats } = runPass(dce, src);
  assert.is(stats.get('num-dce') ?? 0, 0);
  assert.match(out, /%0 = scf\.for %arg2 = %arg1 to %arg1 step %arg1 iter_args\(%arg3 = %arg1\) -> \(i32\)  : i32 \{\n\s+%1 = tt\.load %arg0/);
});

test('lit/passes/dce.tir', () => litCheck(dce));

test.run();
