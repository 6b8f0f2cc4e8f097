/**
 * Tests of the TritonNvidiaGPU dialect (dialects/ttng.ts): every op round-trips in custom and
 * generic form, the ttng lines of the sm90 Triton 3.6 dump read back unchanged, and the op
 * verifiers reject mismatched types.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import '../../ir/format.js';
import '../../ir/printer.js';
import type { AsmParser } from '../../ir/asm.js';
import { defaultContext } from '../../ir/context.js';
import { parseText } from '../../ir/parser.js';
import { printModule } from '../../ir/printer.js';
import { verify } from '../../ir/verifier.js';
import { DiagnosticError } from '../../ir/diagnostics.js';
import { builtinDialect } from '../../dialects/builtin.js';
import { funcDialect } from '../../dialects/func.js';
import { PointerType, TensorDescType } from '../../dialects/tt/types.js';
import { ttgDialect } from '../../dialects/ttg/index.js';
import { ttngDialect } from '../../dialects/ttng.js';

defaultContext.loadDialect(builtinDialect);
defaultContext.loadDialect(funcDialect);
defaultContext.loadDialect(ttgDialect);
defaultContext.loadDialect(ttngDialect);
if (!defaultContext.typeParsers.has('tt.ptr')) defaultContext.typeParsers.set('tt.ptr', (p: AsmParser) => PointerType.parseBody(p));
if (!defaultContext.typeParsers.has('tt.tensordesc')) defaultContext.typeParsers.set('tt.tensordesc', (p: AsmParser) => TensorDescType.parseBody(p));

const SM90 = readFileSync('/work/shared/examples/ttir/matmul_kernel.sm90.ttgir', 'utf8').split('\n');
const ALIASES = SM90.filter((l) => /^#\w+ = #ttg\./.test(l));
const ATTRS = /module attributes (\{.*\}) \{/.exec(SM90.find((l) => l.startsWith('module attributes'))!)![1];
const BAR = '#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>';

function wrap(body: string[], args: string, aliases: string[]): string {
  return [...aliases, `module attributes ${ATTRS} {`, `  func.func @f(${args}) {`, ...body.map((l) => '    ' + l), '    return', '  }', '}', ''].join('\n');
}

function load(text: string) {
  const parsed = parseText(text);
  verify(parsed.module);
  return parsed;
}

function roundTrip(text: string): void {
  const { module, aliasNames } = load(text);
  assert.fixture(printModule(module, { aliasNames }), text);
  const again = load(printModule(module, { generic: true, aliasNames }));
  assert.fixture(printModule(again.module, { aliasNames: again.aliasNames }), text);
}

function errorOf(text: string): string {
  try {
    load(text);
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostic.message;
    throw e;
  }
  return '<no error>';
}

const A = '!ttg.memdesc<128x64xf16, #shared, #smem, mutable>';
const B = '!ttg.memdesc<64x256xf16, #shared, #smem, mutable>';
const ACC = 'tensor<128x256xf32, #mma>';
const BARRIER = '!ttg.memdesc<1xi64, #bar, #smem, mutable>';
const DESC = '!tt.tensordesc<tensor<128x64xf16, #shared>>';
const ARGS = `%a: ${A}, %b: ${B}, %acc: ${ACC}, %p: i1, %i: i32, %bar: ${BARRIER}, %desc: ${DESC}`;
const ALL_ALIASES = [BAR, ...ALIASES.filter((l) => /^#(mma|shared|smem) /.test(l))];

test('every ttng op round-trips in custom and generic form', () => {
  roundTrip(
    wrap(
      [
        'ttng.fence_async_shared {bCluster = false}',
        'ttng.cluster_arrive {relaxed = true}',
        'ttng.cluster_wait',
        `%0 = ttng.warp_group_dot %a, %b, %acc {inputPrecision = 0 : i32, isAsync = true} : ${A} * ${B} -> ${ACC}`,
        `%1 = ttng.warp_group_dot %a, %b, %0, %p {maxNumImpreciseAcc = 32 : i32} : ${A} * ${B} -> ${ACC}`,
        `%2:3 = ttng.warp_group_dot_wait %1, %a, %b {pendings = 1 : i32} : ${ACC}, ${A}, ${B}`,
        `ttng.init_barrier %bar, 1 : ${BARRIER}`,
        `ttng.barrier_expect %bar, 16384, %p : ${BARRIER}`,
        `ttng.wait_barrier %bar, %i : ${BARRIER}`,
        `ttng.wait_barrier %bar, %i, %p deps %a, %b : ${BARRIER}, <128x64xf16, #shared, #smem, mutable>, <64x256xf16, #shared, #smem, mutable>`,
        `ttng.arrive_barrier %bar, 2 : ${BARRIER}`,
        `ttng.arrive_barrier %bar, 1, %p : ${BARRIER}`,
        `ttng.async_tma_copy_global_to_local %desc[%i, %i] %a, %bar, %p : ${DESC}, ${BARRIER} -> ${A}`,
        `ttng.async_tma_copy_global_to_local %desc[%i, %i] %a, %bar, %p cacheModifier = cg evictionPolicy = evict_first : ${DESC}, ${BARRIER} -> ${A}`,
        `ttng.async_tma_copy_local_to_global %desc[%i, %i] %a : ${DESC}, ${A}`,
        'ttng.async_tma_store_wait {pendings = 0 : i32}',
        `ttng.inval_barrier %bar : ${BARRIER}`,
      ],
      ARGS,
      ALL_ALIASES,
    ),
  );
});

test('the ttng lines of the sm90 dump read back unchanged', () => {
  const lines = SM90.map((l) => l.trim().replace(/ loc\(.*\)$/, '')).filter((l) => /= ttng\./.test(l));
  assert.ok(lines.length >= 3);
  for (const line of lines) {
    const types = line.slice(line.lastIndexOf(' : ') + 3);
    let n = 0;
    const body = line.replace(/%[\w-]+(#\d+)?/g, (m, _g, off: number) => (off < line.indexOf(' = ') ? m : `%in${n++}`));
    let argTypes: string[];
    if (line.includes('ttng.warp_group_dot ')) {
      const [ab, d] = types.split(' -> ');
      argTypes = [...ab.split(' * '), d];
    } else argTypes = types.split(/, (?=tensor|!ttg)/);
    const args = argTypes.map((t, k) => `%in${k}: ${t}`).join(', ');
    const used = ALIASES.filter((a) => new RegExp(`${a.split(' ')[0]}(?!\\w)`).test(body));
    const text = wrap([body], args, used);
    try {
      roundTrip(text);
    } catch (e) {
      throw new Error(`${line}\n${(e as Error).message}`);
    }
  }
});

test('warp_group_dot: result type must match the accumulator', () => {
  const bad = wrap([`%0 = "ttng.warp_group_dot"(%a, %b, %acc) : (${A}, ${B}, ${ACC}) -> tensor<128x256xf16, #mma>`], ARGS, ALL_ALIASES);
  assert.is(errorOf(bad), "'ttng.warp_group_dot' op result's type must match the accumulator's type");
});

test('warp_group_dot_wait: outputs must mirror inputs', () => {
  const bad = wrap([`%0 = "ttng.warp_group_dot_wait"(%acc) <{pendings = 0 : i32}> : (${ACC}) -> ${A}`], ARGS, ALL_ALIASES);
  assert.is(errorOf(bad), "'ttng.warp_group_dot_wait' op output #0 must have the type of input #0");
});

test('arrive_barrier: count must be at least 1; bad layouts in ttng types are caught', () => {
  assert.is(errorOf(wrap([`ttng.arrive_barrier %bar, 0 : ${BARRIER}`], ARGS, ALL_ALIASES)), "'ttng.arrive_barrier' op count must be greater than or equal to 1");
  const badMma = ALL_ALIASES.map((l) => l.replace('warpsPerCTA = [8, 1]', 'warpsPerCTA = [4, 1]'));
  assert.match(errorOf(wrap([], ARGS, badMma)), /warpsPerCTA product 4 but the module has ttg.num-warps = 8/);
});

test.run();
