/**
 * Tests of the TritonGPU dialect (dialects/ttg/): every layout attribute and op round-trips in
 * custom and generic form, every ttg line of the Triton 3.6 dumps in /work/shared/examples/ttir
 * reads back unchanged, and inconsistent layouts are rejected.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, readdirSync } from 'node:fs';
import '../../ir/format.js';
import '../../ir/printer.js';
import type { AsmParser } from '../../ir/asm.js';
import { defaultContext } from '../../ir/context.js';
import { parseText } from '../../ir/parser.js';
import { printModule } from '../../ir/printer.js';
import { verify } from '../../ir/verifier.js';
import { DiagnosticError } from '../../ir/diagnostics.js';
import { RankedTensorType, f, i } from '../../ir/types.js';
import { builtinDialect } from '../../dialects/builtin.js';
import { funcDialect } from '../../dialects/func.js';
import { PointerType, TensorDescType } from '../../dialects/tt/types.js';
import {
  BLOCKED, MemDescType, SharedMemorySpaceAttr, StructAttr, blocked, slice, ttgDialect, verifyEncoding, SWIZZLED_SHARED,
} from '../../dialects/ttg/index.js';
import { ttngDialect } from '../../dialects/ttng.js';

defaultContext.loadDialect(builtinDialect);
defaultContext.loadDialect(funcDialect);
defaultContext.loadDialect(ttgDialect);
defaultContext.loadDialect(ttngDialect);
// `!tt.ptr` / `!tt.tensordesc` without registering a stub 'tt' dialect (which would shadow the real one).
if (!defaultContext.typeParsers.has('tt.ptr')) defaultContext.typeParsers.set('tt.ptr', (p: AsmParser) => PointerType.parseBody(p));
if (!defaultContext.typeParsers.has('tt.tensordesc')) defaultContext.typeParsers.set('tt.tensordesc', (p: AsmParser) => TensorDescType.parseBody(p));

/** Module attributes of the sm80 matmul dump (8 warps of 32 threads). */
const MODULE_ATTRS = '{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32}';

/** Aliases used by the op tests. */
const ALIASES = [
  '#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>',
  '#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 4], instrShape = [16, 8]}>',
  '#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>',
  '#smem = #ttg.shared_memory',
];

/** A module with the given aliases whose function `@f` takes `args` and holds `body`. */
function wrap(body: string[], args: string, aliases = ALIASES, attrs = MODULE_ATTRS): string {
  return [
    ...aliases,
    `module attributes ${attrs} {`,
    `  func.func @f(${args}) {`,
    ...body.map((l) => '    ' + l),
    '    return',
    '  }',
    '}',
    '',
  ].join('\n');
}

function load(text: string) {
  const parsed = parseText(text);
  verify(parsed.module);
  return parsed;
}

/** Custom text -> print == text; generic print -> parse -> custom print == text. */
function roundTrip(text: string): void {
  const { module, aliasNames } = load(text);
  assert.fixture(printModule(module, { aliasNames }), text);
  const generic = printModule(module, { generic: true, aliasNames });
  const again = load(generic);
  assert.fixture(printModule(again.module, { aliasNames: again.aliasNames }), text);
}

/** The message of the first diagnostic that parsing + verifying `text` produces. */
function errorOf(text: string): string {
  try {
    load(text);
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostic.message;
    throw e;
  }
  return '<no error>';
}

// ---- layout attributes -----------------------------------------------------------------------

const LAYOUTS: [string, string][] = [
  ['blocked', '#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>'],
  ['blocked', '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0], CTAsPerCGA = [2, 1], CTASplitNum = [2, 1], CTAOrder = [1, 0]}>'],
  ['mma', '#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 256, 16]}>'],
  ['mma', '#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 4], CTAsPerCGA = [1, 2], CTASplitNum = [1, 2], CTAOrder = [0, 1], instrShape = [16, 8]}>'],
  ['shared', '#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>'],
  ['shared', '#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>'],
  ['shared', '#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8, fp4Padded = true}>'],
  ['linear', '#ttg.linear<{register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0], [64, 0]], block = []}>'],
  ['smem', '#ttg.shared_memory'],
];

test('every aliased layout attribute round-trips with Triton alias names', () => {
  for (const [alias, text] of LAYOUTS) {
    const module = [`#${alias} = ${text}`, `module {`, `  func.func @f(%x: tensor<1xi32, #${alias}>) {`, '    return', '  }', '}', ''].join('\n');
    // No user names: the printer must pick Triton's alias by itself.
    const { module: m } = parseText(module);
    assert.fixture(printModule(m), module);
    const again = parseText(printModule(m, { generic: true }));
    assert.fixture(printModule(again.module), module);
  }
});

test('slice and dot_op layouts have no alias and print inline', () => {
  const text = wrap(
    [],
    '%a: tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, %b: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %c: tensor<64x8xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %d: tensor<8xi32, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [8, 1, 1], order = [2, 1, 0]}>}>}>>',
    ALIASES.slice(0, 2),
  );
  const printed = printModule(load(text).module, {});
  assert.ok(printed.includes('#blocked1 = #ttg.blocked<{sizePerThread = [1, 1, 1]'), printed);
  assert.ok(printed.includes('#ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 1, parent = #blocked1}>}>'), printed);
  assert.ok(printed.includes('#ttg.dot_op<{opIdx = 1, parent = #blocked}>'), printed);
});

test('layouts are uniqued; default CTA fields are elided and normalized', () => {
  const built = blocked([1, 8], [4, 8], [8, 1], [1, 0]);
  const text = wrap([], '%x: tensor<16x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0], CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], CTAOrder = [1, 0]}>>', []);
  const { module } = load(text);
  const fn = module.regions[0].blocks[0].first!;
  const t = fn.regions[0].blocks[0].args[0].type as RankedTensorType;
  assert.is(t.encoding, built);
  assert.ok(built.is(BLOCKED));
  assert.equal(built.ints('CTAOrder'), [1, 0]);
  assert.is(built.toString(), '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>');
  assert.is(slice(1, built).aliasName(), null);
  assert.is(SharedMemorySpaceAttr.get().aliasName(), 'smem');
});

test('!ttg.memdesc forms: alloc shape, no memory space, immutable; !ttg.async.token', () => {
  const smem = SharedMemorySpaceAttr.get();
  const shared = StructAttr.get(SWIZZLED_SHARED, { vec: 8, perPhase: 1, maxPhase: 8, order: [1, 0] });
  const view = MemDescType.get([128, 64], f('f16'), shared, smem, true, [3, 128, 64]);
  assert.is(view.toString(), '!ttg.memdesc<128x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, #ttg.shared_memory, mutable, 3x128x64>');
  const text = wrap(
    [],
    '%a: !ttg.memdesc<128x64xf16, #shared, #smem, mutable, 3x128x64>, %b: !ttg.memdesc<64xf32, #shared1, #smem, mutable, 64>, %c: !ttg.memdesc<32x32xf16, #shared>, %d: !ttg.memdesc<1xi64, #shared1, #smem, 2x1>, %e: !ttg.async.token',
    [ALIASES[2], '#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>', ALIASES[3]],
  );
  roundTrip(text.replace('mutable, 64>', 'mutable>'));
  const { module } = load(text);
  const args = module.regions[0].blocks[0].first!.regions[0].blocks[0].args;
  assert.is(args[0].type, view);
  assert.is(args[1].type, MemDescType.get([64], f('f32'), (args[1].type as MemDescType).encoding, smem, true));
});

test('!ttg.memdesc: an integer before the encoding and memory space is an attribute, not an alloc shape (fuzz parser/c281b1fb)', () => {
  // As Triton parses it: the encoding and memory space come first, the alloc shape only after them.
  const text = wrap([], '%a: !ttg.memdesc<2xf16, 4 : i64, #smem, mutable>, %b: !ttg.memdesc<2xf16, 4 : i64, #smem, mutable, 4>', [ALIASES[3]]);
  roundTrip(text);
  const args = load(text).module.regions[0].blocks[0].first!.regions[0].blocks[0].args;
  const [a, b] = args.map((x) => x.type as MemDescType);
  assert.is(String(a.encoding), '4 : i64');
  assert.equal(a.allocShape, [2]);
  assert.equal(b.allocShape, [4]);
});

// ---- ops ---------------------------------------------------------------------------------------

const ARGS =
  '%ptrs: tensor<128x64x!tt.ptr<f16>, #blocked>, %mask: tensor<128x64xi1, #blocked>, %other: tensor<128x64xf16, #blocked>, %i: i32, %acc: tensor<128x256xf32, #mma>, %v: tensor<128x64xf16, #blocked>, %q: tensor<128x64xi8, #blocked>';

test('every ttg op round-trips in custom and generic form', () => {
  roundTrip(
    wrap(
      [
        '%0 = ttg.convert_layout %acc : tensor<128x256xf32, #mma> -> tensor<128x256xf32, #blocked>',
        '%a = ttg.local_alloc : () -> !ttg.memdesc<2x128x64xf16, #shared, #smem, mutable>',
        '%1 = ttg.local_alloc %v {alignment = 16 : i32} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>',
        '%2 = ttg.memdesc_index %a[%i] : !ttg.memdesc<2x128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>',
        '%3 = ttg.async_copy_global_to_local %ptrs, %2 mask %mask other %other {contiguity = 8 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked> -> <128x64xf16, #shared, #smem, mutable>',
        '%4 = ttg.async_copy_global_to_local %ptrs, %2 cacheModifier = cg evictionPolicy = evict_last {isVolatile = true} : tensor<128x64x!tt.ptr<f16>, #blocked> -> <128x64xf16, #shared, #smem, mutable>',
        '%5 = ttg.async_copy_global_to_local %ptrs, %2 mask %mask : tensor<128x64x!tt.ptr<f16>, #blocked> -> <128x64xf16, #shared, #smem, mutable>',
        '%6 = ttg.async_commit_group tokens %3, %4',
        '%7 = ttg.async_commit_group',
        '%8 = ttg.async_wait %6, %7 {num = 2 : i32}',
        '%9 = ttg.async_wait {num = 0 : i32}',
        '%10 = ttg.local_load %2 token %8 : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> -> tensor<128x64xf16, #blocked>',
        '%11 = ttg.local_load %2 : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>',
        'ttg.local_store %v, %2 : tensor<128x64xf16, #blocked> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>',
        '%12 = ttg.memdesc_subslice %2[0, 32] : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x32xf16, #shared, #smem, mutable, 128x64>',
        '%13 = ttg.memdesc_trans %2 {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x128xf16, #shared1, #smem, mutable>',
        '%14 = ttg.memdesc_reshape %2 : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<1x128x64xf16, #shared, #smem, mutable>',
        '%15 = ttg.memdesc_reinterpret %2 : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf32, #shared, #smem, mutable>',
        '%16 = ttg.fp4_to_fp %q {axis = 1 : i32} : tensor<128x64xi8, #blocked> -> tensor<128x128xbf16, #blocked>',
        '%17 = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 1024 : i32} : !tt.ptr<i8>',
        'ttg.local_dealloc %a : !ttg.memdesc<2x128x64xf16, #shared, #smem, mutable>',
      ],
      ARGS,
      [...ALIASES.slice(0, 3), '#shared1 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>', ALIASES[3]],
    ),
  );
});

// ---- the Triton 3.6 dumps ----------------------------------------------------------------------

const EXAMPLES = '/work/shared/examples/ttir';

/** Operand types of one dumped ttg/ttng line, from the types the line itself prints. */
function operandTypes(line: string, ops: string[]): string[] {
  const name = /= (ttn?g\.\w+)/.exec(line)?.[1] ?? /^(ttn?g\.\w+)/.exec(line)?.[1];
  const types = line.slice(line.lastIndexOf(' : ') + 3);
  const [from, to] = splitTop(types, ' -> ');
  const tok = '!ttg.async.token';
  switch (name) {
    case 'ttg.convert_layout':
    case 'ttg.local_dealloc':
      return [from];
    case 'ttg.local_alloc':
      return ops.length ? [from.slice(1, -1)] : [];
    case 'ttg.memdesc_index':
      return [from, 'i32'];
    case 'ttg.local_load':
      return ops.length === 2 ? [from, tok] : [from];
    case 'ttg.async_commit_group':
    case 'ttg.async_wait':
      return ops.map(() => tok);
    case 'ttg.async_copy_global_to_local': {
      const elt = (s: string) => from.replace(/!tt\.ptr<(\w+)>/, s === 'mask' ? 'i1' : '$1');
      return [from, `!ttg.memdesc${to}`, elt('mask'), elt('other')].slice(0, ops.length);
    }
    case 'ttng.warp_group_dot': {
      const [ab] = splitTop(types, ' -> ');
      const [a, b] = ab.split(' * ');
      return [a, b, to];
    }
    case 'ttng.warp_group_dot_wait':
      return splitList(types);
  }
  throw new Error(`no operand types known for: ${line}`);
}

function splitTop(s: string, sep: string): [string, string] {
  const k = s.indexOf(sep);
  return k < 0 ? [s, ''] : [s.slice(0, k), s.slice(k + sep.length)];
}

/** Splits `a<..., ...>, b` at top-level commas. */
function splitList(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let k = 0; k < s.length; k++) {
    if (s[k] === '<') depth++;
    else if (s[k] === '>') depth--;
    else if (s[k] === ',' && depth === 0) {
      out.push(s.slice(start, k).trim());
      start = k + 1;
    }
  }
  out.push(s.slice(start).trim());
  return out;
}

/** Each ttg/ttng line of a dump, alone in a module with that dump's aliases and attributes. */
function exampleCases(dialectPrefix: RegExp): { file: string; line: string; text: string }[] {
  const out: { file: string; line: string; text: string }[] = [];
  for (const file of readdirSync(EXAMPLES).filter((n) => n.endsWith('.ttgir'))) {
    const src = readFileSync(`${EXAMPLES}/${file}`, 'utf8').split('\n');
    const aliases = src.filter((l) => /^#\w+ = #ttg\./.test(l));
    const attrs = /module attributes (\{.*\}) \{/.exec(src.find((l) => l.startsWith('module attributes'))!)![1];
    for (const raw of src) {
      const line = raw.trim().replace(/ loc\(.*\)$/, '').replace(/^%\d+ = /, '%0 = ');
      if (!dialectPrefix.test(line)) continue;
      let n = 0;
      const ops: string[] = [];
      const body = line.replace(/(%[\w-]+)(#\d+)?/g, (m, _v, _g, off: number) => {
        if (off < line.indexOf('= ') + 2 && line.includes(' = ')) return m; // result names stay
        ops.push(`%in${n}`);
        return `%in${n++}`;
      });
      const types = operandTypes(line, ops);
      const args = ops.map((o, k) => `${o}: ${types[k]}`).join(', ');
      const used = aliases.filter((a) => new RegExp(`${a.split(' ')[0]}(?![\\w])`).test(body + args));
      out.push({ file, line: body, text: wrap([body], args, used, attrs) });
    }
  }
  return out;
}

test('every ttg line of the Triton 3.6 dumps reads back unchanged (custom and generic)', () => {
  const cases = exampleCases(/^(%[\w:]+ = )?ttg\./);
  assert.ok(cases.length >= 40, `only ${cases.length} lines`);
  for (const c of cases) {
    try {
      roundTrip(c.text);
    } catch (e) {
      throw new Error(`${c.file}: ${c.line}\n${(e as Error).message}`);
    }
  }
});

// ---- verifier errors ----------------------------------------------------------------------------

const B2 = '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>';

test('layout rank must match the tensor rank', () => {
  assert.match(errorOf(wrap([], `%x: tensor<128xf32, ${B2}>`, [])), /has rank 2 but the tensor tensor<128xf32, .*> has rank 1/);
  const t = RankedTensorType.get([4, 4, 4], i(32), blocked([1, 8], [4, 8], [8, 1], [1, 0]));
  assert.match(String(verifyEncoding(t.encoding!, t)), /has rank 2 but the tensor/);
});

test('threadsPerWarp product must equal ttg.threads-per-warp', () => {
  const bad = '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [8, 1], order = [1, 0]}>';
  assert.is(
    errorOf(wrap([], `%x: tensor<128x64xf32, ${bad}>`, [])),
    `'func.func' op layout ${bad} has threadsPerWarp product 64 but the module has ttg.threads-per-warp = 32`,
  );
});

test('warpsPerCTA product must equal ttg.num-warps (blocked, mma, through slice)', () => {
  const attrs4 = MODULE_ATTRS.replace('"ttg.num-warps" = 8', '"ttg.num-warps" = 4');
  assert.match(errorOf(wrap([], `%x: tensor<128x64xf32, ${B2}>`, [], attrs4)), /has warpsPerCTA product 8 but the module has ttg.num-warps = 4/);
  assert.match(errorOf(wrap([], `%x: tensor<128xf32, #ttg.slice<{dim = 1, parent = ${B2}}>>`, [], attrs4)), /warpsPerCTA product 8 .* ttg.num-warps = 4/);
  const mma = '#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 8], instrShape = [16, 8]}>';
  assert.match(errorOf(wrap([], `%x: tensor<128x64xf32, ${mma}>`, [])), /warpsPerCTA product 16 but the module has ttg.num-warps = 8/);
});

test('slice dim must be below the parent rank; parent must be distributed', () => {
  assert.is(errorOf(wrap([], `%x: tensor<128xf32, #ttg.slice<{dim = 2, parent = ${B2}}>>`, [])), 'slice dim=2 must be less than the parent rank=2');
  assert.is(
    errorOf(wrap([], '%x: tensor<128xf32, #ttg.slice<{dim = 0, parent = #shared}>>', ALIASES.slice(2, 3))),
    'expected a distributed encoding trait',
  );
});

test('order must be a permutation; arrays must agree in length', () => {
  const badOrder = '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 1]}>';
  assert.is(errorOf(wrap([], `%x: tensor<128x64xf32, ${badOrder}>`, [])), 'order [1, 1] is not a permutation of 0..1');
  const badLen = '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [32], warpsPerCTA = [8, 1], order = [1, 0]}>';
  assert.is(errorOf(wrap([], `%x: tensor<128x64xf32, ${badLen}>`, [])), 'threadsPerWarp has 1 entries but sizePerThread has 2');
  const partialCTA = '#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0], CTAsPerCGA = [1]}>';
  assert.is(errorOf(wrap([], `%x: tensor<128xf32, ${partialCTA}>`, [])), 'CTAsPerCGA, CTASplitNum, CTAOrder must all be present or all be absent');
  assert.is(errorOf(wrap([], '%x: tensor<128xf32, #ttg.blocked<{sizePerThread = [4], bogus = 1}>>', [])), 'unexpected key: bogus');
});

test('memdesc layout rank must not exceed the memdesc rank', () => {
  const text = wrap(['%a = ttg.local_alloc : () -> !ttg.memdesc<64xf16, #shared, #smem, mutable>'], '', ALIASES.slice(2));
  assert.match(errorOf(text), /^'ttg.local_alloc' op memdesc !ttg.memdesc<64xf16, .*> has rank 1 but its layout .* has rank 2$/);
});

test('shared layouts cannot encode register tensors', () => {
  assert.match(errorOf(wrap([], '%x: tensor<128x64xf32, #shared>', ALIASES.slice(2, 3))), /cannot have the shared-memory layout/);
});

test('op verifiers: memdesc_index shape, immutable stores, allocs without source', () => {
  const idx = wrap(
    ['%0 = ttg.memdesc_index %a[%i] : !ttg.memdesc<2x128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>'],
    '%a: !ttg.memdesc<2x128x64xf16, #shared, #smem, mutable>, %i: i32',
  );
  assert.is(errorOf(idx), "'ttg.memdesc_index' op result shape must be the source shape without its first dimension");
  const store = wrap(['ttg.local_store %v, %a : tensor<128x64xf16, #blocked> -> !ttg.memdesc<128x64xf16, #shared, #smem>'], '%a: !ttg.memdesc<128x64xf16, #shared, #smem>, %v: tensor<128x64xf16, #blocked>');
  assert.is(errorOf(store), "'ttg.local_store' op Cannot store into immutable memory");
  const alloc = wrap(['%a = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #shared, #smem>'], '');
  assert.is(errorOf(alloc), "'ttg.local_alloc' op should have mutable result when no source is given");
});

test.run();
