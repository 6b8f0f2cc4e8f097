/**
 * The translation table of the nvptx dialect's register instructions to LLVM IR: arithmetic,
 * comparisons, conversions and bit operations become LLVM instructions or generic intrinsics,
 * PTX-only math (`ex2.approx`, `rsqrt.approx`...) `llvm.nvvm.*` intrinsics, and the forms LLVM 14
 * cannot express (`div.full`, `tanh.approx`, bf16 conversions, `min.NaN`...) inline asm of the
 * very instruction. A form an entry does not know is a located error, never a guess.
 */
import { FloatAttr, IntegerAttr, StringAttr } from '../../ir/attributes.js';
import type { Operation, Value } from '../../ir/ir.js';
import * as nvptx from '../../dialects/nvptx.js';
import { bitsOf, constantText, isFloat, noTranslation, type FunctionBuilder } from './function-builder.js';

/** How one op translates. */
export type Translate = (f: FunctionBuilder, op: Operation) => void;

/** The `ptx` property of an op (`lo.s32`). */
export const ptxOf = (op: Operation): string => (op.getAttr('ptx') as StringAttr | undefined)?.value ?? '';

/** The modifiers of a form and its type suffix: `rn.f32` is [['rn'], 'f32']. */
function split(op: Operation): [string[], string] {
  const parts = ptxOf(op).split('.');
  return [parts.slice(0, -1), parts[parts.length - 1]];
}

/** Whether a PTX type suffix is a float type. */
const floatSuffix = (t: string): boolean => /^f(16|32|64)$/.test(t);
/** Whether a PTX type suffix is a signed integer. */
const signedSuffix = (t: string): boolean => /^s\d+$/.test(t);

/** The inline asm of `op` exactly as the PTX printer writes it (`name.ptx $0, $1, ...;`), for pure register instructions. */
export function asmOf(f: FunctionBuilder, op: Operation): void {
  const name = `${op.name.slice('nvptx.'.length)}.${ptxOf(op)}`;
  const operands = [...op.results, ...op.operandValues()].map((_, i) => `$${i}`);
  const outs = f.asm({
    template: `${name} ${operands.join(', ')};`,
    outputs: op.results.map((r) => f.typeOf(r, op)),
    inputs: op.operandValues().map((v) => ({ type: f.typeOf(v, op), text: f.value(v) })),
  });
  op.results.forEach((r, i) => f.alias(r, outs[i]));
}

/** `op`'s operands as texts of LLVM type `t` (bitcast where a register holds another type of that width). */
const operandsAs = (f: FunctionBuilder, op: Operation, t: string): string[] => op.operandValues().map((v) => f.as(v, t));

/** Defines `op`'s one result as `rhs` of LLVM type `t`, bitcast to the result's own type when that differs. */
function result(f: FunctionBuilder, op: Operation, t: string, rhs: string): void {
  const own = f.typeOf(op.result(0), op);
  if (own === t) return f.define(op.result(0), rhs);
  f.alias(op.result(0), f.cast(f.compute(rhs), t, own));
}

/** The LLVM type a form computes in: its type suffix's (`f32` float, `s32` i32, `pred` i1, `b16` of a half register half). */
function computeType(f: FunctionBuilder, op: Operation, suffix: string): string {
  if (suffix === 'pred') return 'i1';
  if (suffix === 'f16') return 'half';
  if (suffix === 'f32') return 'float';
  if (suffix === 'f64') return 'double';
  const m = /^[sub](8|16|32|64)$/.exec(suffix);
  if (!m) throw noTranslation(op, `the form '${ptxOf(op)}'`);
  return `i${m[1]}`;
}

/** Two-operand instructions with one LLVM instruction per type class: [integer, float]. */
const BINARY: Record<string, [string | ((signed: boolean) => string), string]> = {
  add: ['add', 'fadd'],
  sub: ['sub', 'fsub'],
  div: [(s) => (s ? 'sdiv' : 'udiv'), 'fdiv'],
  rem: [(s) => (s ? 'srem' : 'urem'), ''],
};

/** add, sub, div, rem: integer forms (`s32`, `u64`) and round-to-nearest float forms (`f32`, `rn.f32`). */
function binary(opcode: string): Translate {
  return (f, op) => {
    const [mods, t] = split(op);
    const [intOp, floatOp] = BINARY[opcode];
    const lt = computeType(f, op, t);
    const [a, b] = operandsAs(f, op, lt);
    if (floatSuffix(t)) {
      if (opcode === 'div' && mods.join('.') === 'full') return asmOf(f, op);
      if (opcode === 'div' && mods[0] === 'approx') {
        if (t !== 'f32') throw noTranslation(op, `the form '${ptxOf(op)}'`);
        return result(f, op, lt, `call float @${declareApprox(f, `llvm.nvvm.div.approx${mods.includes('ftz') ? '.ftz' : ''}.f`, 2)}(float ${a}, float ${b})`);
      }
      if (!floatOp || (mods.length && mods.join('.') !== 'rn')) throw noTranslation(op, `the form '${ptxOf(op)}'`);
      return result(f, op, lt, `${floatOp} ${lt} ${a}, ${b}`);
    }
    if (mods.length) throw noTranslation(op, `the form '${ptxOf(op)}'`);
    const inst = typeof intOp === 'string' ? intOp : intOp(signedSuffix(t));
    result(f, op, lt, `${inst} ${lt} ${a}, ${b}`);
  };
}

/** Declares an `llvm.nvvm` float intrinsic of `arity` float operands; returns its name. */
function declareApprox(f: FunctionBuilder, name: string, arity: number): string {
  f.declare(name, `declare float @${name}(${Array(arity).fill('float').join(', ')})`);
  return name;
}

/** `mul`: `lo` (the low half), `wide` (the full product, twice as wide), `hi` (the high half) of integers; floats round to nearest. */
const mul: Translate = (f, op) => {
  const [mods, t] = split(op);
  const lt = computeType(f, op, t);
  if (floatSuffix(t)) {
    if (mods.length && mods.join('.') !== 'rn') throw noTranslation(op, `the form '${ptxOf(op)}'`);
    const [a, b] = operandsAs(f, op, lt);
    return result(f, op, lt, `fmul ${lt} ${a}, ${b}`);
  }
  const [a, b] = operandsAs(f, op, lt);
  if (mods.join('.') === 'lo') return result(f, op, lt, `mul ${lt} ${a}, ${b}`);
  const wide = `i${bitsOf(lt) * 2}`;
  const ext = signedSuffix(t) ? 'sext' : 'zext';
  const [wa, wb] = [a, b].map((x) => f.compute(`${ext} ${lt} ${x} to ${wide}`));
  if (mods.join('.') === 'wide') return result(f, op, wide, `mul ${wide} ${wa}, ${wb}`);
  if (mods.join('.') !== 'hi') throw noTranslation(op, `the form '${ptxOf(op)}'`);
  const product = f.compute(`mul ${wide} ${wa}, ${wb}`);
  const high = f.compute(`${signedSuffix(t) ? 'ashr' : 'lshr'} ${wide} ${product}, ${bitsOf(lt)}`);
  result(f, op, lt, `trunc ${wide} ${high} to ${lt}`);
};

/** `mad.lo` / `mad.wide` (integer multiply-add) and `fma.rn` / `mad.rn` (fused, `llvm.fma`). */
const fused: Translate = (f, op) => {
  const [mods, t] = split(op);
  const lt = computeType(f, op, t);
  if (floatSuffix(t)) {
    if (mods.join('.') !== 'rn') throw noTranslation(op, `the form '${ptxOf(op)}'`);
    const args = operandsAs(f, op, lt);
    const name = `llvm.fma.${{ half: 'f16', float: 'f32', double: 'f64' }[lt]}`;
    return result(f, op, lt, callText(f, lt, name, args.map((text) => ({ type: lt, text }))));
  }
  const [a, b] = op.operandValues().slice(0, 2).map((v) => f.as(v, lt));
  const mode = mods.join('.');
  if (mode === 'lo') return result(f, op, lt, `add ${lt} ${f.compute(`mul ${lt} ${a}, ${b}`)}, ${f.as(op.operand(2), lt)}`);
  if (mode !== 'wide') throw noTranslation(op, `the form '${ptxOf(op)}'`);
  const wide = `i${bitsOf(lt) * 2}`;
  const ext = signedSuffix(t) ? 'sext' : 'zext';
  const [wa, wb] = [a, b].map((x) => f.compute(`${ext} ${lt} ${x} to ${wide}`));
  result(f, op, wide, `add ${wide} ${f.compute(`mul ${wide} ${wa}, ${wb}`)}, ${f.as(op.operand(2), wide)}`);
};

/** The text of a call to a declared intrinsic (the declaration is recorded). */
function callText(f: FunctionBuilder, ret: string, name: string, args: { type: string; text: string }[]): string {
  f.declare(name, `declare ${ret} @${name}(${args.map((a) => a.type).join(', ')})`);
  return `call ${ret} @${name}(${args.map((a) => `${a.type} ${a.text}`).join(', ')})`;
}

/** The LLVM intrinsic suffix of a type (`i32`, `f32`). */
const suffixOf = (lt: string): string => ({ half: 'f16', float: 'f32', double: 'f64' })[lt] ?? lt;

/** `min` / `max`: `llvm.smin`/`umin` on integers, `llvm.minnum` on floats (PTX's min returns the non-NaN operand); `NaN` forms as inline asm. */
function minMax(kind: 'min' | 'max'): Translate {
  return (f, op) => {
    const [mods, t] = split(op);
    const lt = computeType(f, op, t);
    if (floatSuffix(t) && mods.join('.') === 'NaN') return asmOf(f, op);
    if (mods.length) throw noTranslation(op, `the form '${ptxOf(op)}'`);
    const name = floatSuffix(t) ? `llvm.${kind}num.${suffixOf(lt)}` : `llvm.${signedSuffix(t) ? 's' : 'u'}${kind}.${lt}`;
    const args = operandsAs(f, op, lt).map((text) => ({ type: lt, text }));
    result(f, op, lt, callText(f, lt, name, args));
  };
}

/** `neg` and `abs`: integer and float forms. */
function signOp(kind: 'neg' | 'abs'): Translate {
  return (f, op) => {
    const [mods, t] = split(op);
    if (mods.length) throw noTranslation(op, `the form '${ptxOf(op)}'`);
    const lt = computeType(f, op, t);
    const [a] = operandsAs(f, op, lt);
    if (kind === 'neg') return result(f, op, lt, floatSuffix(t) ? `fneg ${lt} ${a}` : `sub ${lt} 0, ${a}`);
    if (floatSuffix(t)) return result(f, op, lt, callText(f, lt, `llvm.fabs.${suffixOf(lt)}`, [{ type: lt, text: a }]));
    result(f, op, lt, callText(f, lt, `llvm.abs.${lt}`, [{ type: lt, text: a }, { type: 'i1', text: 'false' }]));
  };
}

/** `and`, `or`, `xor`, `not` on bits (`b32`) or predicates (`pred`); float registers are bitcast. */
function bitwise(kind: 'and' | 'or' | 'xor' | 'not'): Translate {
  return (f, op) => {
    const [mods, t] = split(op);
    if (mods.length || !/^(pred|b\d+)$/.test(t)) throw noTranslation(op, `the form '${ptxOf(op)}'`);
    const lt = computeType(f, op, t);
    const args = operandsAs(f, op, lt);
    if (kind === 'not') return result(f, op, lt, `xor ${lt} ${args[0]}, ${lt === 'i1' ? 'true' : '-1'}`);
    result(f, op, lt, `${kind} ${lt} ${args[0]}, ${args[1]}`);
  };
}

/** The constant value of `v` when an `nvptx.imm` defines it. */
function constantOf(v: Value): bigint | undefined {
  const def = v.definingOp;
  if (!def || !nvptx.ImmOp.is(def)) return undefined;
  const attr = def.getAttr('value');
  return attr instanceof IntegerAttr ? BigInt(attr.value) : undefined;
}

/**
 * `shl` and `shr`: the amount is a 32-bit register in PTX, and amounts of the width or more give 0
 * (or the sign for `shr.s`), where LLVM's shifts are poison: a non-constant amount is clamped.
 */
function shift(kind: 'shl' | 'shr'): Translate {
  return (f, op) => {
    const [mods, t] = split(op);
    if (mods.length) throw noTranslation(op, `the form '${ptxOf(op)}'`);
    const lt = computeType(f, op, t);
    const width = bitsOf(lt);
    const x = f.as(op.operand(0), lt);
    const amountValue = op.operand(1);
    const amountType = f.typeOf(amountValue, op);
    const amount = f.value(amountValue);
    const inst = kind === 'shl' ? 'shl' : signedSuffix(t) ? 'ashr' : 'lshr';
    const known = constantOf(amountValue);
    const widen = (a: string) => (amountType === lt ? a : f.compute(`${bitsOf(amountType) < width ? 'zext' : 'trunc'} ${amountType} ${a} to ${lt}`));
    if (known !== undefined && known >= 0n && known < BigInt(width)) return result(f, op, lt, `${inst} ${lt} ${x}, ${known}`);
    const inRange = f.compute(`icmp ult ${amountType} ${amount}, ${width}`);
    if (inst === 'ashr') {
      const clamped = f.compute(`select i1 ${inRange}, ${amountType} ${amount}, ${amountType} ${width - 1}`);
      return result(f, op, lt, `ashr ${lt} ${x}, ${widen(clamped)}`);
    }
    const shifted = f.compute(`${inst} ${lt} ${x}, ${widen(amount)}`);
    result(f, op, lt, `select i1 ${inRange}, ${lt} ${shifted}, ${lt} 0`);
  };
}

/** PTX comparison → LLVM predicate: integers by signedness, floats ordered (`lt`) or unordered (`ltu`). */
const INT_CMP: Record<string, [string, string]> = {
  eq: ['eq', 'eq'], ne: ['ne', 'ne'], lt: ['slt', 'ult'], le: ['sle', 'ule'], gt: ['sgt', 'ugt'], ge: ['sge', 'uge'],
  lo: ['ult', 'ult'], ls: ['ule', 'ule'], hi: ['ugt', 'ugt'], hs: ['uge', 'uge'],
};
const FLOAT_CMP: Record<string, string> = {
  eq: 'oeq', ne: 'one', lt: 'olt', le: 'ole', gt: 'ogt', ge: 'oge',
  equ: 'ueq', neu: 'une', ltu: 'ult', leu: 'ule', gtu: 'ugt', geu: 'uge', num: 'ord', nan: 'uno',
};

/** `setp.cmp.type`: `icmp` or `fcmp`. */
const setp: Translate = (f, op) => {
  const [mods, t] = split(op);
  const lt = computeType(f, op, t);
  const [a, b] = operandsAs(f, op, lt);
  const cmp = mods.join('.');
  if (floatSuffix(t)) {
    const pred = FLOAT_CMP[cmp];
    if (!pred) throw noTranslation(op, `the form '${ptxOf(op)}'`);
    return f.define(op.result(0), `fcmp ${pred} ${lt} ${a}, ${b}`);
  }
  const pred = INT_CMP[cmp];
  if (!pred) throw noTranslation(op, `the form '${ptxOf(op)}'`);
  f.define(op.result(0), `icmp ${pred[signedSuffix(t) ? 0 : 1]} ${lt} ${a}, ${b}`);
};

/** `selp.type a, b, p`: `select i1 p, a, b`. */
const selp: Translate = (f, op) => {
  const lt = f.typeOf(op.result(0), op);
  const [a, b, p] = op.operandValues();
  f.define(op.result(0), `select i1 ${f.value(p)}, ${lt} ${f.as(a, lt)}, ${lt} ${f.as(b, lt)}`);
};

/** `mov`: a copy, which needs no instruction (or a bitcast between types of one width). */
const mov: Translate = (f, op) => {
  f.alias(op.result(0), f.as(op.operand(0), f.typeOf(op.result(0), op)));
};

/** Float-to-integer rounding of `cvt.r?i.f.f` → the LLVM intrinsic of that rounding. */
const ROUND_TO_INTEGRAL: Record<string, string> = { rni: 'rint', rzi: 'trunc', rmi: 'floor', rpi: 'ceil' };

/**
 * `cvt.[rnd.]dst.src`: integer widening and narrowing, f16/f32/f64 extension and round-to-nearest
 * truncation, integer-to-float (rn) and saturating float-to-integer (rzi, as PTX saturates), and
 * float rounding to integral values; other forms (bf16, directed roundings) as inline asm.
 */
const cvt: Translate = (f, op) => {
  const parts = ptxOf(op).split('.');
  const [dst, src] = parts.slice(-2);
  const rnd = parts.slice(0, -2).join('.');
  const from = f.typeOf(op.operand(0), op);
  const to = f.typeOf(op.result(0), op);
  const x = f.value(op.operand(0));
  const isInt = (s: string | undefined) => !!s && /^[sub](8|16|32|64)$/.test(s);
  if (isInt(dst) && isInt(src) && !rnd && !isFloat(from) && !isFloat(to)) {
    const [dw, sw] = [Number(dst.slice(1)), Number(src.slice(1))];
    if (dw !== bitsOf(to) || sw > bitsOf(from)) return asmOf(f, op);
    const value = sw < bitsOf(from) ? f.compute(`trunc ${from} ${x} to i${sw}`) : x;
    const srcType = `i${sw}`;
    if (dw === sw) return f.alias(op.result(0), value);
    const inst = dw < sw ? 'trunc' : signedSuffix(src) ? 'sext' : 'zext';
    return f.define(op.result(0), `${inst} ${srcType} ${value} to ${to}`);
  }
  const floatKinds = ['f16', 'f32', 'f64'];
  if (floatKinds.includes(dst) && floatKinds.includes(src) && isFloat(from) && isFloat(to)) {
    if (dst === src && ROUND_TO_INTEGRAL[rnd]) return f.define(op.result(0), callText(f, to, `llvm.${ROUND_TO_INTEGRAL[rnd]}.${suffixOf(to)}`, [{ type: to, text: x }]));
    if (bitsOf(to) > bitsOf(from) && !rnd) return f.define(op.result(0), `fpext ${from} ${x} to ${to}`);
    if (bitsOf(to) < bitsOf(from) && rnd === 'rn') return f.define(op.result(0), `fptrunc ${from} ${x} to ${to}`);
  }
  if (floatKinds.includes(dst) && isInt(src) && isFloat(to) && !isFloat(from) && rnd === 'rn' && bitsOf(from) === Number(src.slice(1)))
    return f.define(op.result(0), `${signedSuffix(src) ? 'sitofp' : 'uitofp'} ${from} ${x} to ${to}`);
  if (isInt(dst) && floatKinds.includes(src) && isFloat(from) && !isFloat(to) && rnd === 'rzi' && bitsOf(to) === Number(dst.slice(1))) {
    const name = `llvm.${signedSuffix(dst) ? 'fptosi' : 'fptoui'}.sat.${to}.${suffixOf(from)}`;
    return f.define(op.result(0), callText(f, to, name, [{ type: from, text: x }]));
  }
  asmOf(f, op);
};

/** One-operand float math through `llvm.nvvm.<name>.<approx|rn>[.ftz].<f|d>` or a generic intrinsic; other forms as inline asm. */
function floatMath(name: string, forms: Record<string, string>): Translate {
  return (f, op) => {
    const intrinsic = forms[ptxOf(op)];
    if (!intrinsic) return asmOf(f, op);
    const lt = f.typeOf(op.result(0), op);
    result(f, op, lt, callText(f, lt, intrinsic, [{ type: lt, text: f.as(op.operand(0), lt) }]));
  };
}

/** `popc`, `clz` (results are 32-bit in PTX, also for b64) and `brev`. */
function bitCount(intrinsic: 'ctpop' | 'ctlz' | 'bitreverse'): Translate {
  return (f, op) => {
    const [mods, t] = split(op);
    if (mods.length || !/^b(32|64)$/.test(t)) throw noTranslation(op, `the form '${ptxOf(op)}'`);
    const lt = computeType(f, op, t);
    const args = [{ type: lt, text: f.as(op.operand(0), lt) }, ...(intrinsic === 'ctlz' ? [{ type: 'i1', text: 'false' }] : [])];
    const r = f.compute(callText(f, lt, `llvm.${intrinsic}.${lt}`, args));
    const own = f.typeOf(op.result(0), op);
    if (own === lt) return f.alias(op.result(0), r);
    f.define(op.result(0), `trunc ${lt} ${r} to ${own}`);
  };
}

/** `copysign.type a, b`: b's magnitude with a's sign (`llvm.copysign(b, a)`). */
const copysign: Translate = (f, op) => {
  const [mods, t] = split(op);
  if (mods.length || !floatSuffix(t)) throw noTranslation(op, `the form '${ptxOf(op)}'`);
  const lt = computeType(f, op, t);
  const [a, b] = operandsAs(f, op, lt);
  result(f, op, lt, callText(f, lt, `llvm.copysign.${suffixOf(lt)}`, [{ type: lt, text: b }, { type: lt, text: a }]));
};

/** `testp.class.type`: NaN and infinity tests as float comparisons. */
const testp: Translate = (f, op) => {
  const [mods, t] = split(op);
  const lt = computeType(f, op, t);
  const [x] = operandsAs(f, op, lt);
  const test = mods.join('.');
  if (test === 'notanumber') return f.define(op.result(0), `fcmp uno ${lt} ${x}, ${x}`);
  if (test === 'number') return f.define(op.result(0), `fcmp ord ${lt} ${x}, ${x}`);
  if (test !== 'infinite' && test !== 'finite') throw noTranslation(op, `the form '${ptxOf(op)}'`);
  const magnitude = f.compute(callText(f, lt, `llvm.fabs.${suffixOf(lt)}`, [{ type: lt, text: x }]));
  const infinity = lt === 'half' ? '0xH7C00' : '0x7FF0000000000000';
  f.define(op.result(0), `fcmp ${test === 'infinite' ? 'oeq' : 'one'} ${lt} ${magnitude}, ${infinity}`);
};

/** `nvptx.imm`: the constant itself stands for the register. */
const imm: Translate = (f, op) => {
  const attr = op.getAttr('value');
  if (!(attr instanceof IntegerAttr || attr instanceof FloatAttr)) throw noTranslation(op, 'a non-numeric immediate');
  f.alias(op.result(0), constantText(attr, f.typeOf(op.result(0), op)));
};

/** `nvptx.pack`: registers joined into a wider one (element 0 in the low bits), through a vector. */
const pack: Translate = (f, op) => {
  const args = op.operandValues();
  const et = f.typeOf(args[0], op);
  if (args.some((a) => f.typeOf(a, op) !== et)) throw noTranslation(op, 'operands of different types');
  const vector = `<${args.length} x ${et}>`;
  let acc = 'undef';
  args.forEach((a, i) => (acc = f.compute(`insertelement ${vector} ${acc}, ${et} ${f.value(a)}, i32 ${i}`)));
  const own = f.typeOf(op.result(0), op);
  if (bitsOf(own) !== bitsOf(et) * args.length) throw noTranslation(op, `the widths of '${ptxOf(op)}'`);
  f.define(op.result(0), `bitcast ${vector} ${acc} to ${own}`);
};

/** `nvptx.unpack`: a register split into narrower ones (element 0 from the low bits). */
const unpack: Translate = (f, op) => {
  const et = f.typeOf(op.result(0), op);
  if (op.results.some((r) => f.typeOf(r, op) !== et)) throw noTranslation(op, 'results of different types');
  const src = op.operand(0);
  const st = f.typeOf(src, op);
  if (bitsOf(st) !== bitsOf(et) * op.results.length) throw noTranslation(op, `the widths of '${ptxOf(op)}'`);
  const vector = `<${op.results.length} x ${et}>`;
  const v = f.compute(`bitcast ${st} ${f.value(src)} to ${vector}`);
  op.results.forEach((r, i) => f.define(r, `extractelement ${vector} ${v}, i32 ${i}`));
};

/** The special registers `llvm.nvvm.read.ptx.sreg.*` reads. */
const SREGS = new Set(['laneid', 'warpid', ...['tid', 'ntid', 'ctaid', 'nctaid'].flatMap((r) => ['x', 'y', 'z'].map((d) => `${r}.${d}`))]);

/** `nvptx.sreg`: `llvm.nvvm.read.ptx.sreg.<reg>`. */
const sreg: Translate = (f, op) => {
  const reg = (op.getAttr('reg') as StringAttr).value;
  if (!SREGS.has(reg)) throw noTranslation(op, `the special register '%${reg}'`);
  f.define(op.result(0), callText(f, 'i32', `llvm.nvvm.read.ptx.sreg.${reg}`, []));
};

/** Float math with an `llvm.nvvm` (or generic) intrinsic per form; forms not listed become inline asm. */
const MATH: [string, Record<string, string>][] = [
  ['sqrt', { 'rn.f32': 'llvm.sqrt.f32', 'rn.f64': 'llvm.sqrt.f64', 'approx.f32': 'llvm.nvvm.sqrt.approx.f', 'approx.ftz.f32': 'llvm.nvvm.sqrt.approx.ftz.f' }],
  ['rsqrt', { 'approx.f32': 'llvm.nvvm.rsqrt.approx.f', 'approx.ftz.f32': 'llvm.nvvm.rsqrt.approx.ftz.f', 'approx.f64': 'llvm.nvvm.rsqrt.approx.d' }],
  ['rcp', { 'rn.f32': 'llvm.nvvm.rcp.rn.f', 'rn.ftz.f32': 'llvm.nvvm.rcp.rn.ftz.f', 'rn.f64': 'llvm.nvvm.rcp.rn.d', 'approx.ftz.f64': 'llvm.nvvm.rcp.approx.ftz.d' }],
  ['ex2', { 'approx.f32': 'llvm.nvvm.ex2.approx.f', 'approx.ftz.f32': 'llvm.nvvm.ex2.approx.ftz.f', 'approx.ftz.f64': 'llvm.nvvm.ex2.approx.d' }],
  ['lg2', { 'approx.f32': 'llvm.nvvm.lg2.approx.f', 'approx.ftz.f32': 'llvm.nvvm.lg2.approx.ftz.f', 'approx.ftz.f64': 'llvm.nvvm.lg2.approx.d' }],
  ['sin', { 'approx.f32': 'llvm.nvvm.sin.approx.f', 'approx.ftz.f32': 'llvm.nvvm.sin.approx.ftz.f' }],
  ['cos', { 'approx.f32': 'llvm.nvvm.cos.approx.f', 'approx.ftz.f32': 'llvm.nvvm.cos.approx.ftz.f' }],
  ['tanh', {}],
];

/** One entry per register instruction of the nvptx dialect. */
export const REGISTER_INSTRUCTIONS: [string, Translate][] = [
  ['nvptx.add', binary('add')],
  ['nvptx.sub', binary('sub')],
  ['nvptx.div', binary('div')],
  ['nvptx.rem', binary('rem')],
  ['nvptx.mul', mul],
  ['nvptx.mad', fused],
  ['nvptx.fma', fused],
  ['nvptx.min', minMax('min')],
  ['nvptx.max', minMax('max')],
  ['nvptx.neg', signOp('neg')],
  ['nvptx.abs', signOp('abs')],
  ['nvptx.and', bitwise('and')],
  ['nvptx.or', bitwise('or')],
  ['nvptx.xor', bitwise('xor')],
  ['nvptx.not', bitwise('not')],
  ['nvptx.shl', shift('shl')],
  ['nvptx.shr', shift('shr')],
  ['nvptx.setp', setp],
  ['nvptx.selp', selp],
  ['nvptx.cvt', cvt],
  ['nvptx.mov', mov],
  ...MATH.map(([name, forms]): [string, Translate] => [`nvptx.${name}`, floatMath(name, forms)]),
  ['nvptx.copysign', copysign],
  ['nvptx.popc', bitCount('ctpop')],
  ['nvptx.clz', bitCount('ctlz')],
  ['nvptx.brev', bitCount('bitreverse')],
  // prmt has no LLVM 14 intrinsic: the instruction itself as inline asm
  ['nvptx.prmt', asmOf],
  ['nvptx.testp', testp],
  ['nvptx.imm', imm],
  ['nvptx.pack', pack],
  ['nvptx.unpack', unpack],
  ['nvptx.sreg', sreg],
];
