/**
 * Unit tests of the `symbol-dce` pass: exact output, the statistic, nested symbol tables, and the lit
 * test run in-process (parse each `// -----` case, run the pass, FileCheck the print).
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import '../../dialects/index.js';
import { parseText } from '../../ir/parser.js';
import { printModule } from '../../ir/printer.js';
import { verify } from '../../ir/verifier.js';
import { symbolDce } from '../../passes/symbol-dce.js';
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

test('removes unreferenced private functions, including private recursion', () => {
  const { out, stats } = runPass(
    symbolDce,
    `tt.func @k() {
  tt.call @used() : () -> ()
  tt.return
}
tt.func private @used() {
  tt.return
}
tt.func private @rec() {
  tt.call @rec() : () -> ()
  tt.return
}
tt.func private @unused()`,
  );
  assert.is(
    out,
    `module {
  tt.func @k() {
    tt.call @used() : () -> ()
    tt.return
  }
  tt.func private @used() {
    tt.return
  }
}
`,
  );
  assert.is(stats.get("num-dce'd"), 2);
});

test('nested symbol tables: @m::@f keeps @m and @f alive, unused private symbols inside go', () => {
  const { out, stats } = runPass(
    symbolDce,
    `module {
  module @m {
    func.func private @f()
    func.func private @g()
    func.func @h() {
      return
    }
  }
  module @dead attributes {sym_visibility = "private"} {
    func.func @x() {
      return
    }
  }
  func.func @main() attributes {uses = @m::@f} {
    return
  }
}`,
  );
  assert.is(stats.get("num-dce'd"), 2);
  assert.not.match(out, /@dead|@g/);
  assert.match(out, /module @m \{\n\s+func\.func private @f\(\)\n\s+func\.func @h\(\) \{\n\s+return\n\s+\}\n\s+\}\n\s+func\.func @main/);
});

test('lit/passes/symbol-dce.tir', () => litCheck(symbolDce));

test.run();
