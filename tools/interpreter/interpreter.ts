/**
 * The CPU interpreter for tt / ttg IR: runs a `tt.func` once per program instance of a grid,
 * on typed-array buffers (see memory.ts), with values as in values.ts. Op implementations live
 * in the ops-*.ts tables; an op without one is an error naming it.
 */
import type { Block, Operation, Region, Value } from '../../ir/ir.js';
import { symbolNameOf } from '../../ir/function-syntax.js';
import { IntegerType, signless, type Type } from '../../ir/types.js';
import { PointerType, TensorDescType } from '../../dialects/tt/types.js';
import * as cf from '../../dialects/cf.js';
import * as func from '../../dialects/func.js';
import * as scf from '../../dialects/scf.js';
import * as tt from '../../dialects/tt/index.js';
import { InterpreterError, OpError, describeOpLocation, fail, opFailure } from './errors.js';
import { Buffer, Memory } from './memory.js';
import { type DescValue, PtrData, type RtValue, asTensor, eltClass, tensor, wrapInt } from './values.js';
import { OP_TABLE } from './ops-table.js';
import { rounderFor } from './floats.js';
import { bufferView, buildHiddenTensormap, hiddenParamsNote, hiddenTensormapParams } from './tensormap-args.js';

/** A kernel argument: a buffer (pointer to its first element), a buffer with an element offset, or a scalar. */
export type ArgValue = Buffer | { buffer: Buffer; offset: number } | number | bigint | boolean;

/** Options of `interpret`. */
export interface InterpretOptions {
  /** Grid size [x, y, z] (missing dimensions are 1). */
  grid: readonly number[];
  /**
   * One value per kernel parameter, except hidden tensor-map parameters (`tir.tensormap`), which
   * the interpreter builds from the others as the launcher does.
   */
  args: readonly ArgValue[];
  /** The buffers the pointer arguments live in (required when there are pointer arguments). */
  memory?: Memory;
  /** Stop with an error after this many executed ops (default: unlimited). */
  maxOps?: number;
}

/** What a launch produced besides the buffers it wrote. */
export interface InterpretResult {
  /** Lines printed by `tt.print`. */
  prints: string[];
  /** Number of ops executed over all programs. */
  opsExecuted: number;
  /** Wall-clock time of the launch in milliseconds. */
  ms: number;
}

export type { OpImpl } from './op-impl.js';

/** Where a region's execution ended: its terminator and the terminator's operand values. */
export interface RegionExit {
  term: Operation;
  values: RtValue[];
}

/** The state of one launch; op implementations use it to run regions, read memory and report. */
export class Interpreter {
  /** The current program id (x, y, z). */
  pid: [number, number, number] = [0, 0, 0];
  readonly grid: [number, number, number];
  readonly prints: string[] = [];
  opsExecuted = 0;
  private frames: Map<Value, RtValue>[] = [];
  private env: Map<Value, RtValue> = new Map();
  private readonly funcs = new Map<string, Operation>();

  constructor(readonly module: Operation, readonly memory: Memory, grid: readonly number[], readonly maxOps = Infinity) {
    this.grid = [grid[0] ?? 1, grid[1] ?? 1, grid[2] ?? 1];
    module.walk((op) => {
      if (!tt.FuncOp.is(op) && !func.FuncOp.is(op)) return;
      const n = symbolNameOf(op);
      if (n) this.funcs.set(n, op);
    });
  }

  /** The function named `name`, or an error listing the functions there are. */
  func(name: string): Operation {
    const f = this.funcs.get(name);
    if (!f) throw new InterpreterError(`interpreter: no function '@${name}' in the module (have: ${[...this.funcs.keys()].map((n) => '@' + n).join(', ') || 'none'})`, null, null);
    return f;
  }

  /** The value bound to an SSA value. */
  get(v: Value): RtValue {
    const r = this.env.get(v);
    if (r === undefined) fail(`internal error: SSA value of type '${v.type}' has no runtime value (defined in a region not executed?)`);
    return r;
  }
  /** The values of `op`'s operands, in order. */
  operandValues(op: Operation): RtValue[] {
    const out = new Array<RtValue>(op.operands.length);
    for (let k = 0; k < out.length; k++) out[k] = this.get(op.operands[k].value);
    return out;
  }
  /** Binds an SSA value. */
  set(v: Value, r: RtValue): void {
    this.env.set(v, r);
  }

  /** Calls a function with argument values in a fresh frame; returns the values of its `tt.return`. */
  call(fn: Operation, args: RtValue[]): RtValue[] {
    this.frames.push(this.env);
    this.env = new Map();
    try {
      return this.runRegion(fn.regions[0], args).values;
    } finally {
      this.env = this.frames.pop()!;
    }
  }

  /**
   * Runs a region from its entry block with `args`, following `cf.br` / `cf.cond_br` between its
   * blocks, until a terminator that leaves the region (yield, return, condition ...).
   */
  runRegion(region: Region, args: RtValue[]): RegionExit {
    let block: Block | null = region.entry;
    let blockArgs = args;
    while (block) {
      const exit = this.runBlock(block, blockArgs);
      const jump = cf.BrOp.match(exit.term);
      if (jump) {
        block = jump.dest;
        blockArgs = exit.values;
        continue;
      }
      const br = cf.CondBrOp.match(exit.term);
      if (!br) return exit;
      const taken = (asTensor(this.get(br.condition)).data as Int32Array)[0] !== 0;
      block = taken ? br.trueDest : br.falseDest;
      blockArgs = (taken ? br.trueDestOperands : br.falseDestOperands).map((v) => this.get(v));
    }
    throw new InterpreterError('interpreter: internal error: empty region', null, this.pid);
  }

  /** Binds a block's arguments and executes its ops; returns at its terminator (not executed). */
  runBlock(block: Block, args: RtValue[]): RegionExit {
    if (args.length !== block.args.length) {
      throw new InterpreterError(`interpreter: internal error: block expects ${block.args.length} arguments, got ${args.length}`, null, this.pid);
    }
    block.args.forEach((a, k) => this.env.set(a, args[k]));
    for (let op = block.first; op; op = op.next) {
      if (op.next === null && isRegionExit(op)) return { term: op, values: this.operandValues(op) };
      this.execute(op);
    }
    throw new InterpreterError('interpreter: internal error: block without terminator', null, this.pid);
  }

  /** Executes one op and binds its results. */
  execute(op: Operation): void {
    if (++this.opsExecuted > this.maxOps) throw opFailure(op, this.pid, `op limit of ${this.maxOps} reached`);
    const impl = OP_TABLE.get(op.name);
    if (!impl) {
      const where = describeOpLocation(op);
      throw new InterpreterError(`interpreter: no implementation for '${op.name}'${where} (program (${this.pid.join(', ')}))`, op.name, this.pid);
    }
    let outs: RtValue[];
    try {
      outs = impl(op, this);
    } catch (e) {
      if (e instanceof OpError) throw opFailure(op, this.pid, e.message);
      throw e;
    }
    for (let k = 0; k < op.results.length; k++) this.env.set(op.results[k], outs[k]);
  }

  /** Runs every program instance of the grid (x fastest), each with a fresh environment. */
  launch(fn: Operation, args: RtValue[]): void {
    const [gx, gy, gz] = this.grid;
    for (let z = 0; z < gz; z++)
      for (let y = 0; y < gy; y++)
        for (let x = 0; x < gx; x++) {
          this.pid = [x, y, z];
          this.env = new Map();
          this.runRegion(fn.regions[0], args);
        }
  }
}

/** The terminators that leave a block (the interpreter handles them; every other op has a table entry). */
const EXITS = new Set<string>([tt.ReturnOp, func.ReturnOp, scf.YieldOp, scf.ConditionOp, tt.ReduceReturnOp, tt.ScanReturnOp, cf.BrOp, cf.CondBrOp].map((d) => d.name));

function isRegionExit(op: Operation): boolean {
  return EXITS.has(op.name);
}

/**
 * The descriptor passed as argument `k`: its tensor is the buffer given there, and its shape and
 * strides (in elements) are the arguments after it (i32 each, then i64 each), as Triton passes a
 * host-side TensorDescriptor.
 */
function descriptorArg(args: readonly ArgValue[], types: readonly Type[], k: number): DescValue {
  const t = types[k] as TensorDescType;
  const rank = t.blockType.rank;
  const view = bufferView(args[k]);
  if (!view) throw new InterpreterError(`interpreter: argument #${k} is a tensor descriptor '${t}': give the buffer of its tensor`, null, null);
  const buffer = view.buffer;
  const elt = t.blockType.elementType;
  if (signless(buffer.elt) !== signless(elt)) throw new InterpreterError(`interpreter: argument #${k}: a descriptor of '${elt}' over a buffer of '${buffer.elt}'`, null, null);
  const dims = types.slice(k + 1, k + 1 + 2 * rank);
  if (dims.length < 2 * rank || dims.some((d) => !(d instanceof IntegerType))) {
    throw new InterpreterError(`interpreter: parameter #${k} is a tensor descriptor, which Triton follows with its shape and strides (${rank} i32, then ${rank} i64)`, null, null);
  }
  const ints = args.slice(k + 1, k + 1 + 2 * rank).map((a, j) => {
    if (typeof a !== 'number' && typeof a !== 'bigint') throw new InterpreterError(`interpreter: argument #${k + 1 + j} (a shape or stride of descriptor #${k}) must be an integer`, null, null);
    return Number(a);
  });
  return { kind: 'desc', buf: buffer.id, base: view.offset, elt, shape: ints.slice(0, rank), strides: ints.slice(rank) };
}

/** Converts a kernel argument to the runtime value of a parameter of type `t`. */
export function argToValue(arg: ArgValue, t: Type, index: number): RtValue {
  if (t instanceof PointerType) {
    if (arg instanceof Buffer) return tensor([], t, new PtrData(Int32Array.of(arg.id), Float64Array.of(0)));
    if (typeof arg === 'object' && 'buffer' in arg) return tensor([], t, new PtrData(Int32Array.of(arg.buffer.id), Float64Array.of(arg.offset)));
    throw new InterpreterError(`interpreter: argument #${index} has pointer type '${t}' but got ${typeof arg}`, null, null);
  }
  if (typeof arg === 'object') throw new InterpreterError(`interpreter: argument #${index} has type '${t}' but got a buffer`, null, null);
  const c = eltClass(t);
  if (c.k === 'i64') return tensor([], t, BigInt64Array.of(BigInt.asIntN(64, BigInt(typeof arg === 'boolean' ? Number(arg) : arg))));
  if (c.k === 'int') {
    const v = typeof arg === 'bigint' ? Number(BigInt.asIntN(32, arg)) : Number(arg);
    if (!Number.isInteger(v)) throw new InterpreterError(`interpreter: argument #${index} of type '${t}' must be an integer, got ${arg}`, null, null);
    return tensor([], t, Int32Array.of(wrapInt(v, c.width)));
  }
  if (c.k === 'float') {
    const r = new Float64Array(1);
    r[0] = Number(arg);
    return tensor([], t, roundForKind(c.kind, r));
  }
  throw new InterpreterError(`interpreter: unsupported argument type '${t}'`, null, null);
}

function roundForKind(kind: string, d: Float64Array): Float64Array {
  return d.map(rounderFor(kind));
}

/**
 * Runs `kernelName` of `module` for every program of `grid`; pointer arguments refer to buffers
 * of `options.memory`, which hold the results afterwards. Throws `InterpreterError` on failures.
 */
export function interpret(module: Operation, kernelName: string, options: InterpretOptions): InterpretResult {
  const t0 = performance.now();
  const memory = options.memory ?? new Memory();
  const it = new Interpreter(module, memory, options.grid, options.maxOps);
  const fn = it.func(kernelName);
  const entry = fn.regions[0]?.entry;
  if (!entry) throw new InterpreterError(`interpreter: function '@${kernelName}' has no body`, null, null);
  const types = entry.args.map((p) => p.type);
  const hidden = hiddenTensormapParams(fn, types);
  const passed = types.length - hidden.length;
  if (options.args.length !== passed) {
    throw new InterpreterError(`interpreter: '@${kernelName}' takes ${passed} arguments, got ${options.args.length}${hiddenParamsNote(hidden)}`, null, null);
  }
  const args = types.slice(0, passed).map((t, k) => (t instanceof TensorDescType ? descriptorArg(options.args, types, k) : argToValue(options.args[k], t, k)));
  for (const k of hidden) args.push(buildHiddenTensormap(fn, k, types, options.args, args));
  it.launch(fn, args);
  return { prints: it.prints, opsExecuted: it.opsExecuted, ms: performance.now() - t0 };
}
