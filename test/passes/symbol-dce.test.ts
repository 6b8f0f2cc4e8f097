/**
 * Unit tests of the `symbol-dce` pass: exact output, the statistic, nested symbol tables, and the lit
 * test run in-process (parse each `// -----` case, run the pass, FileCheck the print).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { symbolDce } from '../../passes/symbol-dce.js';
import { litCheck, runPass } from '../helpers/pass-harness.js';

registerAllDialects();


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
