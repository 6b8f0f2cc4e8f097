/**
 * Prints an nvptx-dialect module as PTX text. Each SSA value gets a virtual register of the
 * class its type asks for; block arguments become registers written by moves on every edge
 * into the block (through temporaries where the moves would overwrite each other). The table
 * `PRINTERS` has one entry per nvptx op with a shape of its own; every other nvptx op prints
 * as `opcode.ptx dst, args;`.
 */
import { ArrayAttr, DictionaryAttr, FloatAttr, IntegerAttr, StringAttr, floatBits } from '../../ir/attributes.js';
import type { Block, Operation, Value } from '../../ir/ir.js';
import { FloatType, IntegerType, type Type } from '../../ir/types.js';
import type { OpDef, View } from '../../ir/op-def.js';
import type { OpDecl } from '../../ir/op-spec.js';
import { TENSOR_MAP_ATTR, internalError, ptxType, widthOf, type Arch } from './emitter.js';
import { PTX_ARCHES, TENSORMAP_PTX_VERSION, limitsOf } from './arch.js';
import { TENSOR_MAP_BYTES } from '../../dialects/ttg/target.js';
import * as cf from '../../dialects/cf.js';
import * as func from '../../dialects/func.js';
import * as nvptx from '../../dialects/nvptx.js';
import { coalesceAccumulators } from './coalesce-accumulators.js';

/** A register class: PTX type and name prefix. */
interface RegClass {
  type: string;
  prefix: string;
}

const PRED: RegClass = { type: '.pred', prefix: '%p' };
const B16: RegClass = { type: '.b16', prefix: '%rs' };
const B32: RegClass = { type: '.b32', prefix: '%r' };
const F32C: RegClass = { type: '.f32', prefix: '%f' };
const B64: RegClass = { type: '.b64', prefix: '%rd' };
const F64C: RegClass = { type: '.f64', prefix: '%fd' };
const CLASSES = [PRED, B16, B32, F32C, B64, F64C];

/** The register class of a register type. */
function classOf(t: Type, op: Operation): RegClass {
  if (t instanceof IntegerType) {
    if (t.width === 1) return PRED;
    if (t.width <= 16) return B16;
    if (t.width === 32) return B32;
    if (t.width === 64) return B64;
  }
  if (t instanceof FloatType) {
    if (t.width === 16) return B16;
    if (t.kind === 'f32') return F32C;
    if (t.kind === 'f64') return F64C;
  }
  throw internalError(op, `no PTX register class for '${t}'`);
}

/** Registers of one kernel: names by value, counts by class. */
class Registers {
  private readonly names = new Map<Value, string>();
  private readonly counts = new Map<RegClass, number>();

  constructor(private readonly where: Operation) {}

  /** Gives `v` the register `name` (an instruction that writes its input in place). */
  alias(v: Value, name: string): void {
    this.names.set(v, name);
  }
  fresh(t: Type): string {
    const c = classOf(t, this.where);
    const n = (this.counts.get(c) ?? 0) + 1;
    this.counts.set(c, n);
    return `${c.prefix}${n}`;
  }
  of(v: Value): string {
    let name = this.names.get(v);
    if (!name) {
      name = this.fresh(v.type);
      this.names.set(v, name);
    }
    return name;
  }
  declarations(): string[] {
    return CLASSES.filter((c) => this.counts.has(c)).map((c) => `\t.reg ${c.type} \t${c.prefix}<${this.counts.get(c)! + 1}>;`);
  }
}

/** An immediate in PTX syntax (floats as exact bit patterns). */
function immediateText(attr: IntegerAttr | FloatAttr): string {
  if (attr instanceof IntegerAttr) return attr.value.toString();
  const t = attr.type as FloatType;
  const bits = floatBits(attr.value, t.kind);
  if (t.kind === 'f32') return `0f${bits.toString(16).toUpperCase().padStart(8, '0')}`;
  if (t.kind === 'f64') return `0d${bits.toString(16).toUpperCase().padStart(16, '0')}`;
  return `0x${bits.toString(16).toUpperCase().padStart(4, '0')}`;
}

const ptxOf = (op: Operation): string => (op.getAttr('ptx') as StringAttr | undefined)?.value ?? '';

/** Bytes as a C string literal's body: printable ASCII as is, `\n`, other bytes as `\xNN`. */
function readable(codes: readonly number[]): string {
  return codes
    .map((c) => (c === 10 ? '\\n' : c === 34 || c === 92 ? `\\${String.fromCharCode(c)}` : c >= 32 && c < 127 ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, '0')}`))
    .join('');
}

/** The module's string constants (printf formats, assertion texts and files), each text once. */
class ModuleStrings {
  private readonly names = new Map<string, string>();

  /** The global holding `bytes` (a byte string) followed by a NUL. */
  nameOf(bytes: string): string {
    let name = this.names.get(bytes);
    if (!name) this.names.set(bytes, (name = `$str_${this.names.size}`));
    return name;
  }
  declarations(): string[] {
    return [...this.names].map(([bytes, name]) => {
      const codes = Array.from(bytes, (c) => c.charCodeAt(0) & 0xff);
      return `.global .align 1 .b8 ${name}[${codes.length + 1}] = {${[...codes, 0].join(', ')}}; // "${readable(codes)}"`;
    });
  }
  get size(): number {
    return this.names.size;
  }
}

/** The CUDA runtime's device functions a module may call, declared when used. */
const EXTERN_FUNCS = {
  vprintf: ['.extern .func (.param .b32 func_retval0) vprintf', '(', '\t.param .b64 vprintf_param_0,', '\t.param .b64 vprintf_param_1', ')', ';'],
  __assertfail: [
    '.extern .func __assertfail',
    '(',
    '\t.param .b64 __assertfail_param_0,',
    '\t.param .b64 __assertfail_param_1,',
    '\t.param .b32 __assertfail_param_2,',
    '\t.param .b64 __assertfail_param_3,',
    '\t.param .b64 __assertfail_param_4',
    ')',
    ';',
  ],
};

/** The local buffer a kernel's printf calls lay their arguments out in. */
const PRINTF_BUFFER = '__printf_buf';

/** Prints the state of one kernel's body. */
interface KernelPrinter {
  regs: Registers;
  label(b: Block): string;
  lines: string[];
  emit(line: string): void;
  strings: ModuleStrings;
  /** The largest printf argument buffer the kernel needs, in bytes. */
  printfBytes: number;
  /** The runtime functions the kernel calls. */
  calls: Set<keyof typeof EXTERN_FUNCS>;
}

/** Emits `call name, (args)` in a scope of its own, each argument through a `.param` of `types[i]` (`.b64`/`.b32`). */
function emitCall(k: KernelPrinter, name: keyof typeof EXTERN_FUNCS, args: readonly string[], types: readonly string[], ret: boolean): void {
  k.calls.add(name);
  args.forEach((a, i) => {
    k.emit(`\t.param .${types[i]} \t${name}_arg_${i};`);
    k.emit(`\tst.param.${types[i]} \t[${name}_arg_${i}], ${a};`);
  });
  if (ret) k.emit(`\t.param .b32 \t${name}_ret;`);
  k.emit(`\tcall${ret ? ` (${name}_ret),` : ''} ${name}, (${args.map((_, i) => `${name}_arg_${i}`).join(', ')});`);
}

const braced = (xs: string[]): string => (xs.length === 1 ? xs[0] : `{${xs.join(', ')}}`);
const guardText = (k: KernelPrinter, guard: Value | undefined): string => (guard ? `@${k.regs.of(guard)} ` : '');

/** Writes the moves of an edge into `dest` (block arguments := `values`) as a parallel copy. */
function edgeMoves(k: KernelPrinter, dest: Block, values: readonly Value[]): void {
  if (!values.length) return;
  const allTargets = dest.args.map((a) => k.regs.of(a));
  const allSources = values.map((v) => k.regs.of(v));
  // A value already in its argument's register moves nothing (and takes no part in the parallel copy).
  const moving = values.map((_, i) => i).filter((i) => allSources[i] !== allTargets[i]);
  const targets = moving.map((i) => allTargets[i]);
  const sources = moving.map((i) => allSources[i]);
  const types = moving.map((i) => values[i].type);
  const overlap = sources.some((s) => targets.includes(s));
  if (!overlap) {
    moving.forEach((_, j) => k.emit(`\tmov.${movType(types[j])} \t${targets[j]}, ${sources[j]};`));
    return;
  }
  const temps = types.map((t) => k.regs.fresh(t));
  moving.forEach((_, j) => k.emit(`\tmov.${movType(types[j])} \t${temps[j]}, ${sources[j]};`));
  moving.forEach((_, j) => k.emit(`\tmov.${movType(types[j])} \t${targets[j]}, ${temps[j]};`));
}

const movType = (t: Type): string => (widthOf(t) === 1 ? 'pred' : `b${Math.max(16, widthOf(t))}`);

/** How one op kind prints. */
type Printer = (k: KernelPrinter, op: Operation) => void;

/** The printer of `def`'s ops, which reads each op through its typed view. */
function printer<D extends OpDecl>(def: OpDef<D>, print: (k: KernelPrinter, op: View<D>) => void): [string, Printer] {
  return [def.name, (k, op) => print(k, def.view(op))];
}

/** One printer per nvptx or control op whose text is not `opcode.ptx dst, args;`. */
const PRINTERS = new Map<string, Printer>([
  printer(nvptx.ImmOp, (k, { value, dst }) => {
    const t = dst.type;
    if (widthOf(t) === 1) {
      k.emit(`\tsetp.ne.u32 \t${k.regs.of(dst)}, ${Number((value as IntegerAttr).value) & 1}, 0;`);
      return;
    }
    k.emit(`\tmov.${movType(t)} \t${k.regs.of(dst)}, ${immediateText(value as IntegerAttr | FloatAttr)};`);
  }),
  printer(nvptx.SregOp, (k, { reg, dst }) => k.emit(`\tmov.u32 \t${k.regs.of(dst)}, %${reg};`)),
  printer(nvptx.SmemBaseOp, (k, { dst }) => k.emit(`\tmov.u32 \t${k.regs.of(dst)}, global_smem;`)),
  printer(nvptx.PackOp, (k, { ptx, args, dst }) => k.emit(`\tmov.${ptx} \t${k.regs.of(dst)}, {${args.map((v) => k.regs.of(v)).join(', ')}};`)),
  printer(nvptx.UnpackOp, (k, { ptx, args, dst }) => k.emit(`\tmov.${ptx} \t{${dst.map((v) => k.regs.of(v)).join(', ')}}, ${k.regs.of(args[0])};`)),
  printer(nvptx.LdOp, (k, { ptx, addr, guard, other, dst }) => {
    const dsts = dst.map((v) => k.regs.of(v));
    other.forEach((v, i) => k.emit(`\tmov.${movType(v.type)} \t${dsts[i]}, ${k.regs.of(v)};`));
    k.emit(`\t${guardText(k, guard)}ld.${ptx} \t${braced(dsts)}, [${k.regs.of(addr)}];`);
  }),
  printer(nvptx.StOp, (k, { ptx, addr, guard, values }) => {
    const vals = values.map((v) => k.regs.of(v));
    k.emit(`\t${guardText(k, guard)}st.${ptx} \t[${k.regs.of(addr)}], ${braced(vals)};`);
  }),
  printer(nvptx.AtomOp, (k, { ptx, addr, guard, values, dst }) => {
    const vals = values.map((v) => k.regs.of(v));
    k.emit(`\t${guardText(k, guard)}atom.${ptx} \t${k.regs.of(dst)}, [${k.regs.of(addr)}], ${vals.join(', ')};`);
  }),
  printer(nvptx.LdmatrixOp, (k, { ptx, addr, dst }) => k.emit(`\tldmatrix.${ptx} \t{${dst.map((v) => k.regs.of(v)).join(', ')}}, [${k.regs.of(addr)}];`)),
  printer(nvptx.MmaOp, (k, { ptx, args, dst }) => {
    const r = args.map((v) => k.regs.of(v));
    const d = dst.map((v) => k.regs.of(v));
    // the verifier checked the counts against the form
    const n = nvptx.mmaFragments(ptx) ?? { a: 4, b: 2 };
    k.emit(`\tmma.${ptx} \t{${d.join(', ')}}, {${r.slice(0, n.a).join(', ')}}, {${r.slice(n.a, n.a + n.b).join(', ')}}, {${r.slice(n.a + n.b).join(', ')}};`);
  }),
  printer(nvptx.WgmmaOp, (k, w) => {
    const inPlace = w.op.getAttr('in_place') !== undefined;
    const seen = new Set<string>();
    const d = w.acc.map((v, i) => {
      const src = k.regs.of(v);
      if ((inPlace || v.hasOneUse) && !seen.has(src)) {
        seen.add(src);
        k.regs.alias(w.dst[i], src);
        return src;
      }
      const dst = k.regs.of(w.dst[i]);
      k.emit(`\tmov.${movType(v.type)} \t${dst}, ${src};`);
      return dst;
    });
    const [b, p] = [w.descB, w.scaleD].map((v) => k.regs.of(v));
    const a = w.a.map((v) => k.regs.of(v));
    // A in registers: a vector of four, and no transpose immediate for it; 8-bit (and tf32) forms
    // take no transpose immediates at all (their tiles are K-major).
    const aText = a.length === 1 ? `${a[0]}` : `{${a.join(', ')}}`;
    const sixteenBit = /\.(b?f16)\.(b?f16)$/.test(w.ptx);
    const trans = !sixteenBit ? [] : a.length === 1 ? [w.transA, w.transB] : [w.transB];
    // integer forms (.s32) take no scale immediates for A and B either
    const scales = w.ptx.includes('.s32.') ? [] : ['1', '1'];
    k.emit(`\twgmma.mma_async.${w.ptx} \t${[`{${d.join(', ')}}`, aText, b, p, ...scales, ...trans].join(', ')};`);
  }),
  printer(nvptx.WgmmaSyncOp, (k, { ptx }) => k.emit(`\twgmma.${ptx};`)),
  printer(nvptx.FenceOp, (k, { ptx }) => k.emit(`\tfence.${ptx};`)),
  printer(nvptx.CpAsyncOp, (k, cp) => k.emit(`\tcp.async.${cp.ptx} \t[${k.regs.of(cp.dst)}], [${k.regs.of(cp.src)}], ${cp.size}, ${k.regs.of(cp.srcBytes)};`)),
  printer(nvptx.CpAsyncGroupOp, (k, { ptx }) => k.emit(`\tcp.async.${ptx};`)),
  printer(nvptx.BarOp, (k, { ptx }) => k.emit(ptx === 'warp.sync' ? '\tbar.warp.sync \t-1;' : `\tbar.${ptx || 'sync'} \t0;`)),
  printer(nvptx.MbarrierOp, (k, { ptx, addr, guard, count }) => {
    const args = ptx.startsWith('inval') ? '' : `, ${count}`;
    k.emit(`\t${guardText(k, guard)}mbarrier.${ptx} \t${ptx.startsWith('arrive') ? '_, ' : ''}[${k.regs.of(addr)}]${args};`);
  }),
  printer(nvptx.MbarrierWaitOp, (k, { addr, phase }) => {
    // a scoped block: its predicate and label are local to it
    const label = `$L__mbarrier_wait_${k.lines.length}`;
    k.emit('\t{');
    k.emit('\t.reg .pred \t%done;');
    k.emit(`${label}:`);
    k.emit(`\tmbarrier.try_wait.parity.shared::cta.b64 \t%done, [${k.regs.of(addr)}], ${k.regs.of(phase)};`);
    k.emit(`\t@!%done bra \t${label};`);
    k.emit('\t}');
  }),
  printer(nvptx.TmaLoadOp, (k, { dst, tmap, bar, guard, coords }) => {
    const c = coords.map((v) => k.regs.of(v)).join(', ');
    k.emit(`\t${guardText(k, guard)}cp.async.bulk.tensor.${coords.length}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes \t[${k.regs.of(dst)}], [${k.regs.of(tmap)}, {${c}}], [${k.regs.of(bar)}];`);
  }),
  printer(nvptx.TmaStoreOp, (k, { tmap, src, guard, coords, reduce }) => {
    const c = coords.map((v) => k.regs.of(v)).join(', ');
    const opcode = reduce ? `cp.reduce.async.bulk.tensor.${coords.length}d.global.shared::cta.${reduce}` : `cp.async.bulk.tensor.${coords.length}d.global.shared::cta`;
    k.emit(`\t${guardText(k, guard)}${opcode}.tile.bulk_group \t[${k.regs.of(tmap)}, {${c}}], [${k.regs.of(src)}];`);
  }),
  printer(nvptx.BulkGroupOp, (k, { ptx, guard }) => k.emit(`\t${guardText(k, guard)}cp.async.bulk.${ptx};`)),
  printer(nvptx.TensormapReplaceOp, (k, { field, ord, immediate, addr, value, guard }) => {
    const dim = ord === undefined ? '' : `${ord}, `;
    const width = value ? widthOf(value.type) : 32;
    k.emit(`\t${guardText(k, guard)}tensormap.replace.tile.${field}.shared::cta.b1024.b${width} \t[${k.regs.of(addr)}], ${dim}${value ? k.regs.of(value) : immediate};`);
  }),
  printer(nvptx.TensormapCopyOp, (k, { dst, src, guard }) => {
    k.emit(`\t${guardText(k, guard)}tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned \t[${k.regs.of(dst)}], [${k.regs.of(src)}], ${TENSOR_MAP_BYTES};`);
  }),
  printer(nvptx.PrefetchTensormapOp, (k, { addr }) => k.emit(`\tprefetch.tensormap \t[${k.regs.of(addr)}];`)),
  printer(nvptx.TensormapAcquireOp, (k, { addr, guard }) => k.emit(`\t${guardText(k, guard)}fence.proxy.tensormap::generic.acquire.gpu \t[${k.regs.of(addr)}], ${TENSOR_MAP_BYTES};`)),
  printer(nvptx.TrapOp, (k) => k.emit('\ttrap;')),
  printer(nvptx.PrintfOp, (k, { format, args, guard }) => {
    const skip = `$L__printf_skip_${k.lines.length}`;
    if (guard) k.emit(`\t@!${k.regs.of(guard)} bra \t${skip};`);
    k.emit('\t{');
    k.emit('\t.reg .b64 \t%printf_format, %printf_args;');
    const { offsets, bytes } = nvptx.printfBufferLayout(args);
    args.forEach((v, n) => k.emit(`\tst.local.${v.type instanceof FloatType ? 'f64' : `b${widthOf(v.type)}`} \t[${PRINTF_BUFFER}+${offsets[n]}], ${k.regs.of(v)};`));
    k.printfBytes = Math.max(k.printfBytes, bytes);
    k.emit(`\tmov.u64 \t%printf_format, ${k.strings.nameOf(format)};`);
    k.emit('\tcvta.global.u64 \t%printf_format, %printf_format;');
    if (args.length) {
      k.emit(`\tmov.u64 \t%printf_args, ${PRINTF_BUFFER};`);
      k.emit('\tcvta.local.u64 \t%printf_args, %printf_args;');
    } else {
      k.emit('\tmov.u64 \t%printf_args, 0;');
    }
    emitCall(k, 'vprintf', ['%printf_format', '%printf_args'], ['b64', 'b64'], true);
    k.emit('\t}');
    if (guard) k.emit(`${skip}:`);
  }),
  printer(nvptx.InlineAsmOp, (k, { op, asm, args, dst }) => {
    const names = [...dst, ...args].map((v) => k.regs.of(v));
    // `$N` (or `${N}`) names result N, then operand N - results; `$$` is a `$`
    const text = nvptx.fillAsmTemplate(asm, (n) => {
      if (n >= names.length) throw internalError(op, `inline asm refers to $${n}, but has ${names.length} operands`);
      return names[n];
    });
    k.emit('\t// begin inline asm');
    for (const line of text.split('\n')) k.emit(`\t${line.trim()}`);
    k.emit('\t// end inline asm');
  }),
  printer(nvptx.AssertfailOp, (k, a) => {
    k.emit('\t{');
    k.emit('\t.reg .b64 \t%assert_message, %assert_file, %assert_function, %assert_char_size;');
    k.emit('\t.reg .b32 \t%assert_line;');
    const texts: [string, string][] = [['%assert_message', a.message], ['%assert_file', a.file], ['%assert_function', a.function]];
    for (const [reg, text] of texts) {
      k.emit(`\tmov.u64 \t${reg}, ${k.strings.nameOf(text)};`);
      k.emit(`\tcvta.global.u64 \t${reg}, ${reg};`);
    }
    k.emit(`\tmov.b32 \t%assert_line, ${a.line};`);
    k.emit('\tmov.u64 \t%assert_char_size, 1;');
    const args = ['%assert_message', '%assert_file', '%assert_line', '%assert_function', '%assert_char_size'];
    emitCall(k, '__assertfail', args, ['b64', 'b64', 'b32', 'b64', 'b64'], false);
    k.emit('\t}');
  }),
  printer(cf.BrOp, (k, { dest, destOperands }) => {
    edgeMoves(k, dest, destOperands);
    k.emit(`\tbra.uni \t${k.label(dest)};`);
  }),
  printer(cf.CondBrOp, (k, br) => {
    const cond = k.regs.of(br.condition);
    const { trueDest: t, falseDest: f, trueDestOperands: tArgs, falseDestOperands: fArgs } = br;
    if (!tArgs.length) {
      k.emit(`\t@${cond} bra \t${k.label(t)};`);
      edgeMoves(k, f, fArgs);
      k.emit(`\tbra.uni \t${k.label(f)};`);
      return;
    }
    const skip = `${k.label(t)}_from_${k.lines.length}`;
    k.emit(`\t@!${cond} bra \t${skip};`);
    edgeMoves(k, t, tArgs);
    k.emit(`\tbra.uni \t${k.label(t)};`);
    k.emit(`${skip}:`);
    edgeMoves(k, f, fArgs);
    k.emit(`\tbra.uni \t${k.label(f)};`);
  }),
  printer(func.ReturnOp, (k) => k.emit('\tret;')),
]);

/** Prints one instruction. */
function printOp(k: KernelPrinter, op: Operation): void {
  const special = PRINTERS.get(op.name);
  if (special) return special(k, op);
  if (op.dialect !== 'nvptx') throw internalError(op, 'is not an nvptx op and cannot be printed as PTX');
  const dst = op.results.map((v) => k.regs.of(v));
  const args = op.operandValues().map((v) => k.regs.of(v));
  if (nvptx.ShflOp.is(op)) args[3] = '-1';
  k.emit(`\t${op.name.slice('nvptx.'.length)}.${ptxOf(op)} \t${[...dst, ...args].join(', ')};`);
}

/** The PTX type of a kernel parameter of register type `t` (i1 travels as a byte, halves as b16). */
const paramType = (t: Type): string => (widthOf(t) === 1 ? 'u8' : ptxType(t, 'u').replace(/^f16$|^bf16$/, 'b16'));

/** The attribute `name` of kernel parameter k, if any. */
function paramAttr(kernel: Operation, k: number, name: string): unknown {
  const attrs = kernel.getAttr('arg_attrs');
  const dict = attrs instanceof ArrayAttr ? attrs.value[k] : undefined;
  return dict instanceof DictionaryAttr ? dict.get(name) : undefined;
}

/** Whether kernel parameter k is a TMA tensor map (passed by value; the kernel reads its address). */
const isTensorMapParam = (kernel: Operation, k: number): boolean => paramAttr(kernel, k, TENSOR_MAP_ATTR) !== undefined;

/** The `.param` declaration of kernel parameter k (a tensor map: 128 bytes aligned to 64, as CUtensorMap). */
function paramDecl(kernel: Operation, name: string, t: Type, k: number): string {
  if (isTensorMapParam(kernel, k)) return `\t.param .align 64 .b8 ${name}_param_${k}[128]`;
  const align = paramAttr(kernel, k, 'nvptx.align');
  const ptr = align instanceof IntegerAttr ? ` .ptr .global .align ${align.value}` : '';
  return `\t.param .${paramType(t)}${ptr} ${name}_param_${k}`;
}

/**
 * The register budget per thread: all of a multiprocessor's 64K registers for one CTA, at most
 * 255, in multiples of 8. Stated explicitly because ptxas otherwise sometimes falls back to 32
 * registers and spills everything in kernels with very many live values (seen with 256 threads).
 * A kernel's `nvptx.maxnreg` (residency.ts's `registerBudget`) replaces it.
 */
export const maxRegisters = (threads: number, arch: Arch): number => {
  const lim = limitsOf(arch);
  return Math.min(lim.maxRegistersPerThread, Math.floor(lim.registersPerSM / threads / 8) * 8);
};

/** Prints one kernel (`func.func` with `nvptx.kernel`). */
function printKernel(kernel: Operation, index: number, arch: Arch, strings: ModuleStrings, calls: Set<keyof typeof EXTERN_FUNCS>): string {
  const name = (kernel.getAttr('sym_name') as StringAttr).value;
  const region = kernel.region(0);
  const regs = new Registers(kernel);
  const labels = new Map<Block, string>();
  region.blocks.forEach((b, i) => labels.set(b, `$L__BB${index}_${i}`));
  const k: KernelPrinter = { regs, label: (b) => labels.get(b)!, lines: [], emit: (l) => k.lines.push(l), strings, printfBytes: 0, calls };
  const entry = region.entry!;
  entry.args.forEach((a, i) => {
    if (!isTensorMapParam(kernel, i)) return k.emit(`\tld.param.${paramType(a.type)} \t${regs.of(a)}, [${name}_param_${i}];`);
    // a tensor map parameter: its generic address
    k.emit(`\tmov.b64 \t${regs.of(a)}, ${name}_param_${i};`);
    k.emit(`\tcvta.param.u64 \t${regs.of(a)}, ${regs.of(a)};`);
  });
  // Accumulators in flight across a back edge keep the loop argument's register (no edge copy).
  coalesceAccumulators(region, (v, arg) => regs.alias(v, regs.of(arg)));
  region.blocks.forEach((b, i) => {
    if (i > 0) k.emit(`${labels.get(b)}:`);
    for (const op of b) printOp(k, op);
  });
  const reqntid = kernel.getAttr('nvptx.reqntid') as IntegerAttr;
  const ctasPerSM = kernel.getAttr('nvptx.ctas_per_sm');
  const budget = kernel.getAttr('nvptx.maxnreg');
  const params = entry.args.map((a, i) => paramDecl(kernel, name, a.type, i));
  return [
    `\t// .globl\t${name}`,
    `.visible .entry ${name}(`,
    params.join(',\n'),
    ')',
    `.reqntid ${reqntid.value}, 1, 1`,
    `.maxnreg ${budget instanceof IntegerAttr ? budget.value : maxRegisters(Number(reqntid.value), arch)}`,
    ...(ctasPerSM instanceof IntegerAttr ? [`// residency hint: ${ctasPerSM.value} CTAs per SM (ctas_per_sm in the launch metadata)`] : []),
    '{',
    ...(k.printfBytes ? [`\t.local .align 8 .b8 \t${PRINTF_BUFFER}[${k.printfBytes}];`] : []),
    ...regs.declarations(),
    '',
    ...k.lines,
    '}',
  ].join('\n');
}

/** The `.version` of `module` for `arch`: the architecture's, or the one device-written tensor maps need. */
function ptxVersionOf(module: Operation, arch: Arch): string {
  let tensormaps = false;
  module.walk((op) => {
    if (nvptx.TensormapReplaceOp.is(op)) tensormaps = true;
  });
  return tensormaps ? TENSORMAP_PTX_VERSION : PTX_ARCHES[arch].ptxVersion;
}

/** Prints an nvptx-dialect module (from `lowerToNvptx`) as PTX for `arch`. */
export function printPtx(module: Operation, arch: Arch): string {
  const kernels = [...(module.region(0).entry ?? [])].filter((op) => func.FuncOp.is(op));
  let usesShared = false;
  module.walk((op) => {
    if (nvptx.SmemBaseOp.is(op)) usesShared = true;
  });
  const head = [
    '//',
    '// Generated by triton-ir (triton-translate --to-ptx)',
    '//',
    '',
    `.version ${ptxVersionOf(module, arch)}`,
    `.target ${arch}`,
    '.address_size 64',
    '',
  ];
  // wgmma's swizzled tiles are placed at 1024-byte aligned offsets from an aligned base.
  let usesWgmma = false;
  module.walk((op) => {
    if (nvptx.WgmmaOp.is(op)) usesWgmma = true;
  });
  if (usesShared) head.push(`.extern .shared .align ${usesWgmma ? 1024 : 16} .b8 global_smem[];`, '');
  // kernels first: they name the strings and runtime functions the head declares
  const strings = new ModuleStrings();
  const calls = new Set<keyof typeof EXTERN_FUNCS>();
  const bodies = kernels.map((k, i) => printKernel(k, i, arch, strings, calls));
  for (const name of calls) head.push(...EXTERN_FUNCS[name], '');
  if (strings.size) head.push(...strings.declarations(), '');
  return `${head.join('\n')}${bodies.join('\n\n')}\n`;
}
