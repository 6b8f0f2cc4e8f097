// @ts-check
/**
 * A rewrite pass written against triton-ir's public API: integer multiplications by a
 * power of two become shifts. Registered with `registerPass`, run by the pass manager with
 * `canonicalize` and `cse` after it (which share the new constants); statistics go to stderr,
 * the module to stdout.
 *
 *   node mul-to-shift.mjs ../ttir/matmul_kernel.ttir > out.ttir
 */
import { readFileSync } from 'node:fs';
import { DiagnosticError, IntegerAttr, PassManager, arith, parse, parsePipeline, print, registerPass } from 'triton-ir';

/**
 * %c8 = arith.constant 8 : i32              %c3 = arith.constant 3 : i32
 * %y = arith.muli %x, %c8 : i32      ->     %y = arith.shli %x, %c3 : i32
 *
 * Only a constant on the right is matched: canonicalize moves constants there.
 * @type {import('triton-ir').RewritePattern}
 */
const mulByPowerOfTwo = {
  name: 'muli-power-of-two-to-shli',
  root: 'arith.muli',
  rewrite(op, rw) {
    const mul = arith.MulIOp.view(op);
    const c = arith.ConstantOp.match(mul.rhs.definingOp);
    if (!c || !(c.value instanceof IntegerAttr)) return; // scalar constants only
    const n = c.value.value;
    if (n <= 0n || (n & (n - 1n)) !== 0n) return; // not a power of two
    const k = BigInt(n.toString(2).length - 1); // log2(n)
    rw.setInsertionPoint(op);
    const shift = arith.ConstantOp.build(rw, { value: IntegerAttr.get(k, c.value.type) });
    const shl = arith.ShLIOp.build(rw, { lhs: mul.lhs, rhs: shift.result }, { loc: op.loc });
    rw.replaceOp(op, [shl.result]);
  },
};

registerPass({
  name: 'mul-to-shift',
  summary: 'rewrites arith.muli by a power of two into arith.shli',
  anchor: 'function', // run() gets each tt.func
  statistics: { 'patterns-applied': 'multiplications rewritten' },
  run(fn, ctx) {
    ctx.applyPatterns(fn, [mulByPowerOfTwo]);
  },
});

const file = process.argv[2];
try {
  const module = parse(readFileSync(file, 'utf8'), file);
  const pm = new PassManager(parsePipeline('mul-to-shift,canonicalize,cse'), { statistics: true });
  const result = pm.run(module); // verifies the IR after each pass
  if (!result.ok) throw new DiagnosticError(result.diagnostics[result.diagnostics.length - 1]);
  process.stderr.write(pm.report());
  process.stdout.write(print(module));
} catch (e) {
  if (!(e instanceof DiagnosticError)) throw e;
  process.stderr.write(e.diagnostic.format() + '\n');
  process.exitCode = 1;
}
