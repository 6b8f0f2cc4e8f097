/**
 * Triton-C parser: every example kernel parses (through the real preprocessor), each Triton
 * extension builds the expected AST (ranges and precedence, newaxis, reductions, transpose,
 * `@`, masked dereference, tile casts, bitcast, attributes, loops, compound assignments), and
 * syntax errors are located C-style diagnostics (fixture test/fixtures/triton-c/parse/).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DiagnosticError, SourceFile } from '../../ir/diagnostics.js';
import type { Expr, FunctionDef, Program, Stmt, SubscriptItem, TypeSpec } from '../../frontend/triton-c/ast.js';
import { parseTritonC } from '../../frontend/triton-c/parser.js';
import { preprocess } from '../../frontend/triton-c/preprocessor.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const examples = join(root, 'examples/triton-c');
const fixtures = join(root, 'test/fixtures/triton-c/parse');

// ---- helpers -----------------------------------------------------------------------------

/** Compact s-expression of an expression, to check tree shapes at a glance. */
function sx(e: Expr): string {
  switch (e.kind) {
    case 'ident': return e.name;
    case 'int': return `${e.value}${e.suffix}`;
    case 'float': return `${e.value}${e.suffix}`;
    case 'range': return `(... ${sx(e.lo)} ${sx(e.hi)})`;
    case 'binary': return `(${e.op} ${sx(e.lhs)} ${sx(e.rhs)})`;
    case 'unary': return `(${e.op} ${sx(e.operand)})`;
    case 'masked-deref': return `(masked ${sx(e.mask)} ${sx(e.ptr)})`;
    case 'incdec': return e.prefix ? `(${e.op}pre ${sx(e.target)})` : `(${e.op}post ${sx(e.target)})`;
    case 'assign': return `(${e.op} ${sx(e.target)} ${sx(e.value)})`;
    case 'conditional': return `(? ${sx(e.cond)} ${sx(e.then)} ${sx(e.else)})`;
    case 'call': return `(call ${[e.callee, ...e.args.map(sx)].join(' ')})`;
    case 'subscript': return `(sub ${sx(e.base)} ${e.items.map(item).join(' ')})`;
    case 'cast': return `(cast ${ty(e.type)}${e.shape ? `[${e.shape.map(sx).join(',')}]` : ''} ${sx(e.operand)})`;
    case 'bitcast': return `(bitcast ${ty(e.type)}${e.shape ? `[${e.shape.map(sx).join(',')}]` : ''} ${sx(e.operand)})`;
    case 'comma': return `(, ${e.exprs.map(sx).join(' ')})`;
  }
}

function item(i: SubscriptItem): string {
  if (i.kind === 'all') return ':';
  if (i.kind === 'newaxis') return 'newaxis';
  if (i.kind === 'reduce') return `red${i.op}`;
  return `[${sx(i.expr)}]`;
}

function ty(t: TypeSpec): string {
  return [...t.qualifiers, t.scalar].join(' ') + '*'.repeat(t.pointers);
}

function parse(text: string): Program {
  return parseTritonC(text, 't.tc');
}

/** The body statements of `void f() { <body> }`. */
function body(src: string): Stmt[] {
  return parse(`void f() {\n${src}\n}`).functions[0].body.stmts;
}

/** The expression of the expression statement `<src>;`. */
function expr(src: string): Expr {
  const s = body(`${src};`)[0];
  if (s.kind !== 'expr') throw new Error(`not an expression statement: ${s.kind}`);
  return s.expr;
}

function decl(src: string): Extract<Stmt, { kind: 'decl' }> {
  const s = body(src)[0];
  if (s.kind !== 'decl') throw new Error(`not a declaration: ${s.kind}`);
  return s;
}

/** The diagnostic of a parse that must fail. */
function error(text: string, locate?: Parameters<typeof parseTritonC>[2]): string {
  try {
    parseTritonC(text, 't.tc', locate);
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostic.format();
    throw e;
  }
  throw new Error(`parsed without error:\n${text}`);
}

function preprocessAndParse(file: string, defines: Record<string, string>): Program {
  const pp = preprocess(new SourceFile(file, readFileSync(join(examples, file), 'utf8')), { defines });
  return parseTritonC(pp.text, file, (o) => pp.map.locate(o));
}

const TILES = { TYPE: 'half', TM: '64', TN: '64', TK: '16', SIZE: '128', MB: '64', NB: '64', KB: '16', BLOCK: '1024' };

/** The four fused-transposition variants of matmul-fused-trans.tc (its header comment). */
const FUSED = {
  A: { USE_A: 'a', STRIDE_AK: '1', STRIDE_AM: 'lda', BROADCAST_AK: 'newaxis,:', BROADCAST_AM: ':,newaxis', SHAPE_A: 'TM,TK' },
  AT: { USE_A: '^a', STRIDE_AK: 'lda', STRIDE_AM: '1', BROADCAST_AK: ':,newaxis', BROADCAST_AM: 'newaxis,:', SHAPE_A: 'TK,TM' },
  B: { USE_B: 'b', STRIDE_BK: 'ldb', STRIDE_BN: '1', BROADCAST_BK: ':,newaxis', BROADCAST_BN: 'newaxis,:', SHAPE_B: 'TK,TN' },
  BT: { USE_B: '^b', STRIDE_BK: '1', STRIDE_BN: 'ldb', BROADCAST_BK: 'newaxis,:', BROADCAST_BN: ':,newaxis', SHAPE_B: 'TN,TK' },
};

function declInit(f: FunctionDef, name: string): Expr {
  for (const s of walk(f.body.stmts)) {
    if (s.kind !== 'decl') continue;
    for (const d of s.declarators) if (d.name === name && d.init) return d.init;
  }
  throw new Error(`no declaration of ${name}`);
}

function* walk(stmts: Stmt[]): Generator<Stmt> {
  for (const s of stmts) {
    yield s;
    if (s.kind === 'block') yield* walk(s.stmts);
    if (s.kind === 'for' || s.kind === 'while' || s.kind === 'do') yield* walk([s.body]);
    if (s.kind === 'if') yield* walk(s.else ? [s.then, s.else] : [s.then]);
  }
}

// ---- example kernels ---------------------------------------------------------------------

test('every example kernel parses after preprocessing', () => {
  const files = readdirSync(examples).filter((f) => f.endsWith('.tc'));
  assert.ok(files.length >= 10, `${files.length} examples`);
  for (const f of files) {
    const defines = f === 'matmul-fused-trans.tc' ? { ...TILES, ...FUSED.A, ...FUSED.B } : TILES;
    const p = preprocessAndParse(f, defines);
    assert.is(p.functions.length, 1, f);
    assert.ok(p.functions[0].body.stmts.length >= 3, f);
  }
});

test('matmul.tc: signature, attributes, tile declarations, loop, store', () => {
  const f = preprocessAndParse('matmul.tc', TILES).functions[0];
  assert.is(f.name, 'dot');
  assert.ok(f.global);
  assert.is(ty(f.returnType), 'void');
  assert.equal(f.params.map((p) => `${ty(p.type)} ${p.name}`), [
    'half* A', 'half* B', 'half* C', 'int32 M', 'int32 N', 'int32 K', 'int32 lda', 'int32 ldb', 'int32 ldc',
  ]);
  assert.equal(f.params[6].attrs.map((a) => [a.name, a.arg]), [['multipleof', 8]]);
  assert.is(sx(declInit(f, 'rm')), '(+ (* pm 64) (... 0 64))');
  assert.is(sx(declInit(f, 'pa')), '(+ (+ A (* (sub rk newaxis :) 1)) (* (sub rm : newaxis) lda))');
  const loop = f.body.stmts.find((s) => s.kind === 'for');
  assert.ok(loop && loop.kind === 'for');
  assert.is(loop.init?.kind, 'decl');
  assert.is(sx(loop.cond!), '(> k 0)');
  assert.is(sx(loop.step!), '(-= k 16)');
  const last = f.body.stmts[f.body.stmts.length - 1];
  assert.ok(last.kind === 'expr');
  assert.is(sx(last.expr), '(= (deref pc) c)');
});

test('matmul-fused-trans.tc: the four -D variants', () => {
  const cases: [Record<string, string>, string, string][] = [
    [{ ...FUSED.A, ...FUSED.B }, '(+= c (@ a b))', '64,16'],
    [{ ...FUSED.AT, ...FUSED.B }, '(+= c (@ (transpose a) b))', '16,64'],
    [{ ...FUSED.A, ...FUSED.BT }, '(+= c (@ a (transpose b)))', '64,16'],
    [{ ...FUSED.AT, ...FUSED.BT }, '(+= c (@ (transpose a) (transpose b)))', '16,64'],
  ];
  for (const [defs, update, shapeA] of cases) {
    const f = preprocessAndParse('matmul-fused-trans.tc', { ...TILES, ...defs }).functions[0];
    const loop = f.body.stmts.find((s) => s.kind === 'for');
    assert.ok(loop && loop.kind === 'for' && loop.body.kind === 'block');
    const first = loop.body.stmts[0];
    assert.ok(first.kind === 'expr');
    assert.is(sx(first.expr), update);
    const pa = f.body.stmts.find((s) => s.kind === 'decl' && s.declarators[0].name === 'pa');
    assert.ok(pa && pa.kind === 'decl');
    assert.is(pa.declarators[0].shape!.map(sx).join(','), shapeA);
  }
});

test('transpose-checked.tc and softmax.tc: masked loads/stores, reductions, bitcast', () => {
  const t = preprocessAndParse('transpose-checked.tc', TILES).functions[0];
  const store = t.body.stmts[t.body.stmts.length - 1];
  assert.ok(store.kind === 'expr');
  assert.is(sx(store.expr), '(= (masked checky py) (transpose (masked checkx px)))');
  const s = preprocessAndParse('softmax.tc', TILES).functions[0];
  assert.is(sx(declInit(s, 'x')), '(? check (deref px) (- (bitcast float 2139095040)))');
  assert.is(sx(declInit(s, 'z')), '(- x (sub x redmax))');
  assert.is(sx(declInit(s, 'denom')), '(sub num red+)');
  assert.is(sx(declInit(s, 'num')), '(call exp z)');
});

// ---- precedence --------------------------------------------------------------------------

test('range binds tighter than every binary operator (original Triton ParseRangeExpr)', () => {
  assert.is(sx(expr('pm * TM + 0 ... TM')), '(+ (* pm TM) (... 0 TM))');
  assert.is(sx(expr('0 ... TM * 2')), '(* (... 0 TM) 2)');
  assert.is(sx(expr('id * 32 + (0 ... 32)')), '(+ (* id 32) (... 0 32))');
  assert.is(sx(expr('-1 ... 4')), '(... (- 1) 4)');
  assert.is(sx(expr('(float) x ... 4')), '(... (cast float x) 4)');
  assert.is(sx(expr('0...TM')), '(... 0 TM)');
  assert.is(sx(expr('a ... b ... c')), '(... (... a b) c)');
});

test('@ binds tighter than * and looser than ... (original Triton ParseMatmulExpr)', () => {
  assert.is(sx(expr('a * b @ c')), '(* a (@ b c))');
  assert.is(sx(expr('a @ b * c')), '(* (@ a b) c)');
  assert.is(sx(expr('a @ b + c')), '(+ (@ a b) c)');
  assert.is(sx(expr('^a @ ^b')), '(@ (transpose a) (transpose b))');
  assert.is(sx(expr('(*pa) @ (*pb)')), '(@ (deref pa) (deref pb))');
  assert.is(sx(expr('a @ b @ c')), '(@ (@ a b) c)');
});

test('C operators keep C precedence and associativity', () => {
  assert.is(sx(expr('a + b * c - d')), '(- (+ a (* b c)) d)');
  assert.is(sx(expr('a << 1 + b')), '(<< a (+ 1 b))');
  assert.is(sx(expr('x < M && y >= N || z != 0')), '(|| (&& (< x M) (>= y N)) (!= z 0))');
  assert.is(sx(expr('a | b ^ c & d == e')), '(| a (^ b (& c (== d e))))');
  assert.is(sx(expr('a = b += c')), '(= a (+= b c))');
  assert.is(sx(expr('a = c ? *p : v')), '(= a (? c (deref p) v))');
  assert.is(sx(expr('a ? b : c ? d : e')), '(? a b (? c d e))');
  assert.is(sx(expr('-x * ~y / !z % &w')), '(% (/ (* (- x) (~ y)) (! z)) (addr w))');
});

// ---- Triton extensions -------------------------------------------------------------------

test('subscripts: newaxis, :, reductions and index expressions', () => {
  assert.is(sx(expr('rk[newaxis, :]')), '(sub rk newaxis :)');
  assert.is(sx(expr('z[:, +]')), '(sub z : red+)');
  assert.is(sx(expr('x[max]')), '(sub x redmax)');
  assert.is(sx(expr('x[min, :]')), '(sub x redmin :)');
  assert.is(sx(expr('x[i + 1]')), '(sub x [(+ i 1)])');
  assert.is(sx(expr('x[max + 1]')), '(sub x [(+ max 1)])');
  assert.is(sx(expr('x[+1]')), '(sub x [(+ 1)])');
  assert.is(sx(expr('u[:, newaxis][newaxis, :, :]')), '(sub (sub u : newaxis) newaxis : :)');
  const s = expr('x[:, +]');
  assert.ok(s.kind === 'subscript');
  assert.equal(s.items.map((i) => i.pos), [13, 16]); // "void f() {\n" is 11 characters
});

test('transpose, dereference, masked dereference as load and store target', () => {
  assert.is(sx(expr('*py = ^(*px)')), '(= (deref py) (transpose (deref px)))');
  assert.is(sx(expr('*?(checky)py = ^(*?(checkx)px)')), '(= (masked checky py) (transpose (masked checkx px)))');
  assert.is(sx(expr('*? (rm[:, newaxis] < M && rn [newaxis, :] < N) pc = acc')),
    '(= (masked (&& (< (sub rm : newaxis) M) (< (sub rn newaxis :) N)) pc) acc)');
  assert.is(sx(expr('*(c + off) = *(a + off) + *(b + off)')), '(= (deref (+ c off)) (+ (deref (+ a off)) (deref (+ b off))))');
  assert.is(sx(expr('a = check ? *pa : 0')), '(= a (? check (deref pa) 0))');
  assert.is(sx(expr('x = *?(m) p + 1')), '(= x (+ (masked m p) 1))');
});

test('casts to scalar, pointer and tile types; bitcast', () => {
  assert.is(sx(expr('(float[TN]) x')), '(cast float[TN] x)');
  assert.is(sx(expr('(half[TM, TN]) acc')), '(cast half[TM,TN] acc)');
  assert.is(sx(expr('(int*) p')), '(cast int32* p)');
  assert.is(sx(expr('(unsigned char) c + 1')), '(+ (cast uint8 c) 1)');
  assert.is(sx(expr('bitcast<float>(0x7F800000)')), '(bitcast float 2139095040)');
  assert.is(sx(expr('bitcast<half>((int16)0x7C00)')), '(bitcast half (cast int16 31744))');
  assert.is(sx(expr('bitcast<int32*>(p + 1)')), '(bitcast int32* (+ p 1))');
  assert.is(sx(expr('bitcast<uint32[TM, TN, TB]>(x)')), '(bitcast uint32[TM,TN,TB] x)');
  assert.is(sx(expr('(x)')), 'x');
});

test('the comma operator: loosest of all, left to right; not in calls, subscripts or shapes', () => {
  assert.is(sx(expr('i = 0, j = n - 1')), '(, (= i 0) (= j (- n 1)))');
  assert.is(sx(expr('a, b ? c : d, e')), '(, a (? b c d) e)');
  assert.is(sx(expr('f((a, b), c)')), '(call f (, a b) c)');
  assert.is(sx(expr('x[:, newaxis]')), '(sub x : newaxis)');
});

test('builtins are ordinary calls', () => {
  assert.is(sx(expr('get_program_id(0)')), '(call get_program_id 0)');
  assert.is(sx(expr('get_num_programs(1)')), '(call get_num_programs 1)');
  assert.is(sx(expr('atomic_cas(p, 0, 1)')), '(call atomic_cas p 0 1)');
  assert.is(sx(expr('atomic_add(p, x, m)')), '(call atomic_add p x m)');
  assert.is(sx(expr('atomic_xchg(p, 1)')), '(call atomic_xchg p 1)');
  assert.is(sx(expr('select(c, exp(x), log(y))')), '(call select c (call exp x) (call log y))');
  assert.is(sx(expr('sqrtf(max(a, min(b, c)))')), '(call sqrtf (call max a (call min b c)))');
  assert.is(sx(expr('__debug_barrier()')), '(call __debug_barrier)');
});

test('attributes on parameters and locals', () => {
  const f = parse(`__global__ void k(float* __restrict__ X __readonly __noalias, float* Y __aligned(16) __writeonly,
      int lda __multipleof(8), int n __retune, int m __attribute__((multipleof(4), noalias))) {
    int x __multipleof(16) = lda * 2;
    const float* p[4] __aligned(16) = X;
  }`).functions[0];
  const attrs = f.params.map((p) => p.attrs.map((a) => (a.arg === null ? a.name : `${a.name}(${a.arg})`)).join(' '));
  assert.equal(attrs, ['readonly noalias', 'aligned(16) writeonly', 'multipleof(8)', 'retune', 'multipleof(4) noalias']);
  assert.equal(f.params[0].type.qualifiers, ['restrict']);
  const d0 = f.body.stmts[0];
  const d1 = f.body.stmts[1];
  assert.ok(d0.kind === 'decl' && d1.kind === 'decl');
  assert.equal(d0.declarators[0].attrs.map((a) => [a.name, a.arg]), [['multipleof', 16]]);
  assert.equal(d1.declarators[0].attrs.map((a) => [a.name, a.arg]), [['aligned', 16]]);
  assert.is(ty(d1.type), 'const float*');
  assert.is(d1.declarators[0].shape!.map(sx).join(','), '4');
});

test('declarations: tiles, several declarators, pointer qualifiers', () => {
  const d = decl('float c[TM, TN] = 0, s = 1.5f, t;');
  assert.is(ty(d.type), 'float');
  assert.equal(d.declarators.map((x) => [x.name, x.shape ? x.shape.map(sx).join(',') : null, x.init ? sx(x.init) : null]), [
    ['c', 'TM,TN', '0'], ['s', null, '1.5f'], ['t', null, null],
  ]);
  const p = decl('TYPE* pa[TM, TK] = A + rk[newaxis, :], *pb[TK, TN] = B;'.replace(/TYPE/g, 'half'));
  assert.is(ty(p.type), 'half*');
  assert.equal(p.declarators.map((x) => x.name), ['pa', 'pb']);
  assert.is(ty(decl('float * const restrict q = 0;').type), 'const restrict float*');
  assert.is(ty(decl('int ** pp = 0;').type), 'int32**');
});

test('C type keyword combinations map to Triton scalars', () => {
  const table: [string, string][] = [
    ['int', 'int32'], ['signed', 'int32'], ['unsigned', 'uint32'], ['unsigned int', 'uint32'], ['long', 'int64'],
    ['long long', 'int64'], ['long int', 'int64'], ['unsigned long', 'uint64'], ['char', 'int8'], ['signed char', 'int8'],
    ['unsigned char', 'uint8'], ['short', 'int16'], ['unsigned short int', 'uint16'], ['bool', 'bool'], ['half', 'half'],
    ['float', 'float'], ['double', 'double'], ['bfloat16', 'bfloat16'], ['int8', 'int8'], ['int16', 'int16'],
    ['int32', 'int32'], ['int64', 'int64'], ['uint8', 'uint8'], ['uint16', 'uint16'], ['uint32', 'uint32'], ['uint64', 'uint64'],
  ];
  for (const [c, scalar] of table) assert.is(decl(`${c} x;`).type.scalar, scalar, c);
  assert.is(parse('void f(void) {}').functions[0].params.length, 0);
  assert.is(parse('void f() {}').functions[0].params.length, 0);
});

test('statements: for, while, do, if/else, break, continue, return, blocks, empty', () => {
  const s = body(`
    for (;;) { break; }
    for (i = 0; i < 4; i++) continue;
    while (k > 0) k -= 1;
    do { k++; } while (k < 10);
    if (a) if (b) x = 1; else x = 2;
    { ; }
    return;`);
  assert.equal(s.map((x) => x.kind), ['for', 'for', 'while', 'do', 'if', 'block', 'return']);
  const [f0, f1, w, d, i, b, r] = s;
  assert.ok(f0.kind === 'for' && f0.init === null && f0.cond === null && f0.step === null);
  assert.ok(f0.body.kind === 'block' && f0.body.stmts[0].kind === 'break');
  assert.ok(f1.kind === 'for' && f1.init?.kind === 'expr' && f1.body.kind === 'continue');
  assert.is(sx(f1.step!), '(++post i)');
  assert.ok(w.kind === 'while' && sx(w.cond) === '(> k 0)');
  assert.ok(d.kind === 'do' && sx(d.cond) === '(< k 10)');
  assert.ok(i.kind === 'if' && i.else === null && i.then.kind === 'if' && i.then.else !== null, 'else binds to the inner if');
  assert.ok(b.kind === 'block' && b.stmts[0].kind === 'empty');
  assert.ok(r.kind === 'return' && r.value === null);
  const rv = body('return a + 1;')[0];
  assert.ok(rv.kind === 'return' && sx(rv.value!) === '(+ a 1)');
});

test('all compound assignments, ++/-- prefix and postfix', () => {
  for (const op of ['=', '+=', '-=', '*=', '/=', '%=', '<<=', '>>=', '&=', '|=', '^=']) {
    assert.is(sx(expr(`x ${op} y`)), `(${op} x y)`);
  }
  assert.is(sx(expr('++x')), '(++pre x)');
  assert.is(sx(expr('--x')), '(--pre x)');
  assert.is(sx(expr('x++')), '(++post x)');
  assert.is(sx(expr('x--')), '(--post x)');
  assert.is(sx(expr('a[:, newaxis]++ + 1')), '(+ (++post (sub a : newaxis)) 1)');
});

test('literals: suffixes, hex, octal, floats, characters; comments', () => {
  const lit = (s: string): Expr => expr(s);
  const i = lit('42u');
  assert.ok(i.kind === 'int' && i.value === 42n && i.suffix === 'u');
  const h = lit('0xFFull');
  assert.ok(h.kind === 'int' && h.value === 255n && h.suffix === 'ull');
  const o = lit('017');
  assert.ok(o.kind === 'int' && o.value === 15n);
  const big = lit('9223372036854775807L');
  assert.ok(big.kind === 'int' && big.value === 9223372036854775807n && big.suffix === 'L');
  const f = lit('1.0f');
  assert.ok(f.kind === 'float' && f.value === 1 && f.suffix === 'f');
  const e = lit('1e-3');
  assert.ok(e.kind === 'float' && e.value === 0.001 && e.suffix === '');
  const d = lit('.5');
  assert.ok(d.kind === 'float' && d.value === 0.5);
  const c = lit("'a'");
  assert.ok(c.kind === 'int' && c.value === 97n);
  const withComments = parse('/* header */ void f(/* no args */) { // line\n int x = 1; /* tail */ }');
  assert.is(withComments.functions[0].body.stmts.length, 1);
});

test('positions are offsets of each node\'s first character; infix nodes record their operator', () => {
  const text = 'void f() {\n  c += a @ b;\n}';
  const s = parse(text).functions[0].body.stmts[0];
  assert.ok(s.kind === 'expr' && s.expr.kind === 'assign');
  assert.is(s.pos, text.indexOf('c +='));
  assert.is(s.expr.opPos, text.indexOf('+='));
  const m = s.expr.value;
  assert.ok(m.kind === 'binary');
  assert.is(m.pos, text.indexOf('a @'));
  assert.is(m.opPos, text.indexOf('@'));
  const f = parse(text).functions[0];
  assert.is(f.pos, 0);
  assert.is(f.body.pos, text.indexOf('{'));
});

// ---- syntax errors -----------------------------------------------------------------------

test('syntax errors: exact messages and positions (fixture)', () => {
  const chunks = readFileSync(join(fixtures, 'syntax-errors.tc'), 'utf8').split(/^\/\/ -----\n/m).slice(1);
  assert.ok(chunks.length >= 12, `${chunks.length} cases`);
  for (const chunk of chunks) {
    const m = /^\/\/ ERROR (\d+):(\d+) (.*)\n/.exec(chunk);
    assert.ok(m, `bad case header: ${chunk}`);
    const text = chunk.slice(m[0].length);
    const header = error(text).split('\n')[0];
    assert.is(header, `t.tc:${m[1]}:${m[2]}: error: ${m[3]}`, text);
  }
});

test('syntax errors: source line, caret and notes', () => {
  assert.is(error('void f() {\n  int x = (a + b;\n}'), [
    "t.tc:2:17: error: expected ')'",
    '  int x = (a + b;',
    '                ^',
    "t.tc:2:11: note: to match this '('",
    '  int x = (a + b;',
    '          ^',
  ].join('\n'));
  assert.is(error('void f() {\n  int rm[32] = 0 ... 32\n}'), [
    "t.tc:2:24: error: expected ';' after declaration",
    '  int rm[32] = 0 ... 32',
    '                       ^',
  ].join('\n'));
  assert.is(error('void f() {\n  for (;;) {\n'), [
    "t.tc:2:13: error: expected '}'",
    '  for (;;) {',
    '            ^',
    "t.tc:2:12: note: to match this '{'",
    '  for (;;) {',
    '           ^',
  ].join('\n'));
});

test('syntax errors are reported in the original source through the preprocessor map', () => {
  const src = '#define INIT 0 ... TM\nvoid f() {\n  int rm[TM] = INIT\n  int y;\n  x = rm[BAD];\n}\n';
  const pp = preprocess(new SourceFile('k.tc', src), { defines: { TM: '64' } });
  assert.is(error(pp.text, (o) => pp.map.locate(o)).split('\n').slice(0, 3).join('\n'), [
    "k.tc:3:16: error: expected ';' after declaration (in expansion of macro TM, in expansion of macro INIT)",
    '  int rm[TM] = INIT',
    '               ^',
  ].join('\n'));
  const pp2 = preprocess(new SourceFile('k.tc', 'void f() {\n  x = rm[BAD];\n}\n'), { defines: { BAD: ':, +)' } });
  assert.is(error(pp2.text, (o) => pp2.map.locate(o)).split('\n').slice(0, 3).join('\n'), [
    'k.tc:2:10: error: expected expression (in expansion of macro BAD)',
    '  x = rm[BAD];',
    '         ^',
  ].join('\n'));
  // A locator without original files: the preprocessed line is shown, at the original line/column.
  const plain = error('void f() {\n  int x = 1\n}', (o) => ({ file: 'orig.tc', line: 7, col: o - 12 + 3, expansion: [] }));
  assert.ok(plain.startsWith("orig.tc:7:"), plain);
});

test('no input ends in anything but a DiagnosticError (every prefix of every example)', () => {
  for (const f of readdirSync(examples).filter((x) => x.endsWith('.tc'))) {
    const defines = f === 'matmul-fused-trans.tc' ? { ...TILES, ...FUSED.AT, ...FUSED.BT } : TILES;
    const pp = preprocess(new SourceFile(f, readFileSync(join(examples, f), 'utf8')), { defines });
    for (let n = 0; n < pp.text.length; n += 7) {
      try {
        parseTritonC(pp.text.slice(0, n), f);
      } catch (e) {
        if (!(e instanceof DiagnosticError)) throw new Error(`${f} prefix ${n}: ${String(e)}`);
      }
    }
  }
});

test.run();
