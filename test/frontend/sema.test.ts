/**
 * Tests of Triton-C semantic checks (frontend/triton-c/sema*.ts and their use in irgen): each
 * erroneous snippet must fail with an exact, located message; plus unit tests of the type rules.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileTritonC } from '../../frontend/triton-c/index.js';
import { assignedOuterVars, broadcastShapes, commonScalar, dotAccumulator, foldInt } from '../../frontend/triton-c/sema.js';
import { parseTritonC } from '../../frontend/triton-c/parser.js';
import { DiagnosticError } from '../../ir/diagnostics.js';

/** Compiles `body` inside a kernel and returns the first line of the formatted error. */
function errorOf(src: string, defines: Record<string, string> = {}): string {
  try {
    compileTritonC(src, 'k.c', defines);
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostic.format().split('\n')[0];
    throw e;
  }
  return assert.unreachable('expected an error') as never;
}

const kernel = (body: string, params = 'float* X, int n') => `__global__ void k(${params}) {\n${body}\n}`;

const CASES: [string, string, string][] = [
  ['incompatible shapes in an initialisation (the seed example)',
    kernel('  float x[16, 8] = 3.14;\n  float y[16, 8] = 5.17;\n  float z[8, 8] = x + y;'),
    'k.c:4:19: error: incompatible shapes: cannot assign a tile of shape [16, 8] to \'z\' of shape [8, 8]'],
  ['incompatible shapes in a binary operator',
    kernel('  float x[16] = 0;\n  float y[8, 8] = 0;\n  float z[8, 8] = x + y;'),
    'k.c:4:21: error: incompatible shapes [16] and [8, 8] for \'+\''],
  ['assignment of a tile of another shape',
    kernel('  float x[16] = 0;\n  float y[32] = 0;\n  x = y;'),
    'k.c:4:3: error: incompatible shapes: cannot assign a tile of shape [32] to \'x\' of shape [16]'],
  ['range length not a power of two',
    kernel('  int r[16] = 0 ... 10;'),
    'k.c:2:15: error: range length must be a power of two, got 0 ... 10 (length 10)'],
  ['range bound not constant',
    kernel('  int r[16] = 0 ... n;'),
    'k.c:2:21: error: range end must be an integer constant'],
  ['tile size not constant',
    kernel('  float x[n] = 0;'),
    'k.c:2:11: error: tile size must be an integer constant'],
  ['tile size not a power of two',
    kernel('  float x[TM] = 0;'),
    'k.c:2:11: error: tile size must be a power of two, got 12 (in expansion of macro TM)'],
  ['@ with mismatched inner dimensions',
    kernel('  float a[16, 8] = 0;\n  float b[16, 8] = 0;\n  float c[16, 8] = a @ b;'),
    'k.c:4:22: error: incompatible shapes [16, 8] and [16, 8] for \'@\': inner dimensions 8 and 16 differ'],
  ['@ on 1-D tiles',
    kernel('  float a[16] = 0;\n  float c = a @ a;'),
    'k.c:3:15: error: operands of \'@\' must be both 2-D tiles, or both 3-D tiles batched along their last dimension, got shapes [16] and [16]'],
  ['mask shape not matching the pointer tile',
    kernel('  bool m[32] = 0;\n  float x[16] = *?(m) (X + (0 ... 16));'),
    'k.c:3:20: error: incompatible shapes: mask of shape [32] for pointers of shape [16]'],
  ['undeclared name',
    kernel('  float x = y + 1;'),
    'k.c:2:13: error: use of undeclared identifier \'y\''],
  ['subscript rank mismatch',
    kernel('  float x[16, 8] = 0;\n  float y[16] = x[+];'),
    'k.c:3:17: error: subscript has 1 dimension but the tile has shape [16, 8]'],
  ['indexing a tile with an expression',
    kernel('  float x[16] = 0;\n  float y = x[3];'),
    'k.c:3:15: error: tiles cannot be indexed by an expression; use \':\', \'newaxis\' or a reduction (\'+\', \'max\', \'min\')'],
  ['dereferencing a non-pointer',
    kernel('  float x = *n;'),
    'k.c:2:13: error: cannot dereference a value of non-pointer type \'int32\''],
  ['pointer plus float',
    kernel('  float* p = X + 1.5;'),
    'k.c:2:16: error: invalid operands to binary \'+\' (\'float*\' and \'double\')'],
  ['assigning a pointer of another type',
    kernel('  half* p = X;', 'float* X'),
    'k.c:2:13: error: cannot assign a value of type \'float*\' to \'p\' of type \'half*\''],
  ['tile condition in if',
    kernel('  int r[16] = 0 ... 16;\n  if (r < n) { n = 1; }'),
    'k.c:3:7: error: the condition of \'if\' must be a scalar, got \'bool[16]\''],
  ['unknown function',
    kernel('  float x = foo(1);'),
    'k.c:2:13: error: call to undeclared function \'foo\''],
  ['wrong number of arguments',
    kernel('  int p = get_program_id(0, 1);'),
    'k.c:2:11: error: \'get_program_id\' expects 1 argument, got 2'],
  ['transposing a 1-D tile',
    kernel('  float x[16] = 0;\n  float y[16] = ^x;'),
    'k.c:3:17: error: cannot transpose a value of type \'float[16]\': \'^\' needs a tile of rank 2 or more'],
  ['redefinition',
    kernel('  int a = 1;\n  int a = 2;'),
    'k.c:3:7: error: redefinition of \'a\''],
  ['break outside a loop',
    kernel('  if (n > 0) { break; }'),
    'k.c:2:16: error: \'break\' statement not in loop statement'],
];

for (const [name, src, want] of CASES) {
  test(`error: ${name}`, () => {
    assert.is(errorOf(src, { TM: '12' }), want);
  });
}

test('errors show the user source line with a caret', () => {
  try {
    compileTritonC(kernel('  float x = y;'), 'k.c', {});
    assert.unreachable();
  } catch (e) {
    assert.instance(e, DiagnosticError);
    assert.is((e as DiagnosticError).diagnostic.format(), "k.c:2:13: error: use of undeclared identifier 'y'\n  float x = y;\n            ^");
  }
});

test('broadcastShapes follows NumPy', () => {
  assert.equal(broadcastShapes([16, 1], [1, 32]), [16, 32]);
  assert.equal(broadcastShapes([8], [4, 8]), [4, 8]);
  assert.equal(broadcastShapes([], [4, 8]), [4, 8]);
  assert.is(broadcastShapes([16], [8, 8]), null);
});

test('commonScalar: C conversions without narrow promotion, literals adopt the other type', () => {
  assert.is(commonScalar('int32', 'float'), 'float');
  assert.is(commonScalar('half', 'float'), 'float');
  assert.is(commonScalar('half', 'bfloat16'), 'float');
  assert.is(commonScalar('int8', 'int32'), 'int32');
  assert.is(commonScalar('int32', 'uint32'), 'uint32');
  assert.is(commonScalar('half', 'double', false, true), 'half');
  assert.is(commonScalar('int64', 'int32', false, true), 'int64');
  assert.is(commonScalar('int32', 'double', false, true), 'float');
  assert.is(dotAccumulator('half'), 'float');
  assert.is(dotAccumulator('int8'), 'int32');
});

test('foldInt folds constant expressions', () => {
  const p = parseTritonC('void f() { int x = (2 + 3) * 4 << 1; }', 'f.c');
  const d = p.functions[0].body.stmts[0];
  assert.ok(d.kind === 'decl');
  if (d.kind === 'decl') assert.is(foldInt(d.declarators[0].init!), 40n);
});

test('assignedOuterVars ignores names declared inside', () => {
  const p = parseTritonC('void f() { { int a = 1; a = 2; b = 3; c += 1; for (int i = 0; i < 3; i++) d = i; } }', 'f.c');
  assert.equal(assignedOuterVars([p.functions[0].body.stmts[0]]), ['b', 'c', 'd']);
});

test.run();
