import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as api from '../../tools/api.js';
import { type PassDecl, Builder, Context, DiagnosticError, IntegerAttr, PassManager, Pure, arith, parsePipeline, createContext, i, parse, print, registerPass, runPipeline, tt, verify } from '../../tools/api.js';

const matmul = readFileSync(new URL('../../examples/ttir/matmul_kernel.ttir', import.meta.url), 'utf8');

test('parse then print is stable, keeps aliases and locations, and prints the generic form', () => {
  const once = print(parse(matmul, 'matmul_kernel.ttir'), { debugInfo: true });
  assert.is(print(parse(once, 'again.ttir'), { debugInfo: true }), once);
  assert.match(once, /^#loc = loc\(/m);
  assert.not.match(print(parse(matmul)), /loc\(/);
  assert.match(print(parse(matmul), { generic: true }), /"tt\.load"\(/);
});

test('parse errors are located DiagnosticErrors', () => {
  try {
    parse('module {\n  %0 = arith.bogus : i32\n}\n', 'bad.tir');
    assert.unreachable();
  } catch (e) {
    assert.instance(e, DiagnosticError);
    assert.match((e as DiagnosticError).diagnostic.format(), /^bad\.tir:2:/);
  }
});

test('createContext is ready and separate; an empty Context knows no dialect', () => {
  const m = parse(matmul, 'm.ttir', { context: createContext() });
  verify(m, { context: createContext() });
  assert.throws(() => parse(matmul, 'm.ttir', { context: new Context() }), (e: unknown) => e instanceof DiagnosticError);
});

test('typed views, traits and builders from the entry', () => {
  const m = parse(matmul);
  const loads: string[] = [];
  m.walk((op) => {
    const load = tt.LoadOp.match(op);
    if (load) loads.push(load.mask ? 'masked' : 'plain');
  });
  assert.equal(loads, ['masked', 'masked']);
  const fn = m.regions[0].blocks[0].first!;
  const b = new Builder().setInsertionPointToStart(tt.FuncOp.view(fn).body.blocks[0]);
  const c = arith.ConstantOp.build(b, { value: IntegerAttr.get(4, i(32)) });
  assert.ok(c.op.hasTrait(Pure));
  verify(m);
});

test('pipelines of our passes run at once; a pass of your own runs in a PassManager', () => {
  assert.ok(runPipeline(parse(matmul), 'canonicalize,cse').ok);
  // registerPass is shown by examples/api (package.test.ts); the default registry is shared by these tests.
  let seen = 0;
  const own: PassDecl = { name: 'count-funcs', summary: 'counts functions', anchor: 'function', run: () => void seen++ };
  const pm = new PassManager([...parsePipeline('canonicalize'), { pass: own, options: {}, nest: null }]);
  assert.ok(pm.run(parse(matmul)).ok);
  assert.is(seen, 1);
  assert.type(registerPass, 'function');
});

test('the dialect namespaces and the target are exported', () => {
  for (const ns of ['builtin', 'func', 'arith', 'math', 'scf', 'cf', 'tt', 'ttg', 'ttng'] as const) assert.type(api[ns], 'object', ns);
  assert.type(api.compileToPtx, 'function');
  assert.type(api.compileTritonC, 'function');
  assert.type(api.scf.ForOp.match, 'function');
});

test.run();
