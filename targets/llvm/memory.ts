/**
 * The translation table of the nvptx dialect's memory, warp and synchronization instructions:
 * loads and stores through pointers in LLVM's NVPTX address spaces (global 1, shared 3), guarded
 * accesses as branches around them, relaxed atomics as `atomicrmw`/`cmpxchg`, shuffles and barriers
 * as `llvm.nvvm.*` intrinsics, and what LLVM 14 cannot express (`ldmatrix`, `mma.sync`, `cp.async`
 * with a source size, cache operators, atomics with memory-order qualifiers, fences) as inline asm
 * of the very PTX instruction.
 */
import type { Operation, Value } from '../../ir/ir.js';
import * as nvptx from '../../dialects/nvptx.js';
import { bitsOf, noTranslation, type FunctionBuilder } from './function-builder.js';
import { ptxOf, type Translate } from './instructions.js';

/** LLVM's NVPTX address spaces by PTX state space. */
const ADDRESS_SPACES: Record<string, number> = { global: 1, shared: 3, const: 4, local: 5 };

/** A parsed `ld`/`st` form: `global.v4.b32` is space global, 4 elements of 32 bits. */
interface Access {
  space: string;
  vector: number;
  bits: number;
  signed: boolean;
  /** Qualifiers LLVM 14 has no IR for (cache operators `cg`, `cs`, `wt`...): the access stays inline asm. */
  qualifiers: string[];
}

/** Parses an `ld`/`st` form, or throws the located error. */
function accessOf(op: Operation): Access {
  const parts = ptxOf(op).split('.');
  const m = /^([sub])(8|16|32|64)$/.exec(parts[parts.length - 1]);
  if (!m) throw noTranslation(op, `the form '${ptxOf(op)}'`);
  let rest = parts.slice(0, -1);
  const space = ADDRESS_SPACES[rest[0]] !== undefined ? rest[0] : 'generic';
  if (space !== 'generic') rest = rest.slice(1);
  let vector = 1;
  const v = /^v(2|4)$/.exec(rest[rest.length - 1] ?? '');
  if (v) {
    vector = Number(v[1]);
    rest = rest.slice(0, -1);
  }
  return { space, vector, bits: Number(m[2]), signed: m[1] === 's', qualifiers: rest };
}

/** The pointer type of `element` in an access's address space. */
const pointerTo = (element: string, a: Access): string => `${element}${a.space === 'generic' ? '' : ` addrspace(${ADDRESS_SPACES[a.space]})`}*`;

/** The element type an access reads or writes: the registers' type, or an integer of the access width where they are wider. */
function memoryElement(f: FunctionBuilder, op: Operation, registers: readonly Value[], a: Access): string {
  const types = [...new Set(registers.map((r) => f.typeOf(r, op)))];
  if (types.length !== 1) throw noTranslation(op, 'registers of different types in one access');
  const t = types[0];
  if (bitsOf(t) === a.bits) return t;
  if (bitsOf(t) > a.bits && !t.startsWith('i')) throw noTranslation(op, `the form '${ptxOf(op)}' on '${t}' registers`);
  if (bitsOf(t) < a.bits) throw noTranslation(op, `the form '${ptxOf(op)}' on '${t}' registers`);
  return `i${a.bits}`;
}

/** The inline-asm text of an access's address operand and its constraint type. */
const addressInput = (f: FunctionBuilder, addr: Value, op: Operation) => ({ type: f.typeOf(addr, op), text: f.value(addr) });

/** `{$i, $i+1, ...}` or `$i` for n registers from index i. */
const regList = (from: number, n: number): string => (n === 1 ? `$${from}` : `{${Array.from({ length: n }, (_, k) => `$${from + k}`).join(', ')}}`);

/** `nvptx.ld`: a load through an address-space pointer; with a guard, a branch around it and phis with the `other` values. */
const ld: Translate = (f, op) => {
  const load = nvptx.LdOp.view(op);
  const a = accessOf(op);
  if (load.dst.length !== a.vector) throw noTranslation(op, `${load.dst.length} results of '${ptxOf(op)}'`);
  const regTypes = load.dst.map((r) => f.typeOf(r, op));
  const outside = load.dst.map((r, i) => (load.other[i] ? f.as(load.other[i], regTypes[i]) : 'undef'));
  f.guarded(load.guard, () => {
    if (a.qualifiers.length || a.space === 'generic') {
      const outs = f.asm({
        template: `ld.${ptxOf(op)} ${regList(0, a.vector)}, [$${a.vector}];`,
        outputs: regTypes,
        inputs: [addressInput(f, load.addr, op)],
        memory: true,
      });
      return { results: [...load.dst], inside: outs, outside };
    }
    const element = memoryElement(f, op, load.dst, a);
    const memType = a.vector === 1 ? element : `<${a.vector} x ${element}>`;
    const ptr = f.compute(`inttoptr ${f.typed(load.addr)} to ${pointerTo(memType, a)}`);
    const loaded = f.compute(`load ${memType}, ${pointerTo(memType, a)} ${ptr}, align ${(a.bits / 8) * a.vector}`);
    const elements = a.vector === 1 ? [loaded] : load.dst.map((_, i) => f.compute(`extractelement ${memType} ${loaded}, i32 ${i}`));
    const inside = elements.map((e, i) => {
      if (element === regTypes[i]) return e;
      return f.compute(`${a.signed ? 'sext' : 'zext'} ${element} ${e} to ${regTypes[i]}`);
    });
    return { results: [...load.dst], inside, outside };
  });
};

/** `nvptx.st`: a store through an address-space pointer; with a guard, a branch around it. */
const st: Translate = (f, op) => {
  const store = nvptx.StOp.view(op);
  const a = accessOf(op);
  if (store.values.length !== a.vector) throw noTranslation(op, `${store.values.length} values of '${ptxOf(op)}'`);
  f.guarded(store.guard, () => {
    if (a.qualifiers.length || a.space === 'generic') {
      f.asm({
        template: `st.${ptxOf(op)} [$0], ${regList(1, a.vector)};`,
        outputs: [],
        inputs: [addressInput(f, store.addr, op), ...store.values.map((v) => ({ type: f.typeOf(v, op), text: f.value(v) }))],
        memory: true,
      });
      return;
    }
    const element = memoryElement(f, op, store.values, a);
    const memType = a.vector === 1 ? element : `<${a.vector} x ${element}>`;
    const values = store.values.map((v) => (f.typeOf(v, op) === element ? f.value(v) : f.compute(`trunc ${f.typed(v)} to ${element}`)));
    let data = values[0];
    if (a.vector > 1) {
      data = 'undef';
      values.forEach((v, i) => (data = f.compute(`insertelement ${memType} ${data}, ${element} ${v}, i32 ${i}`)));
    }
    const ptr = f.compute(`inttoptr ${f.typed(store.addr)} to ${pointerTo(memType, a)}`);
    f.emit(`store ${memType} ${data}, ${pointerTo(memType, a)} ${ptr}, align ${(a.bits / 8) * a.vector}`);
  });
};

/** `atom` operations with an `atomicrmw` of the same meaning, by type class. */
const RMW: Record<string, (t: string) => string | undefined> = {
  add: (t) => (t[0] === 'f' ? 'fadd' : 'add'),
  exch: () => 'xchg',
  and: () => 'and',
  or: () => 'or',
  xor: () => 'xor',
  max: (t) => (t[0] === 's' ? 'max' : t[0] === 'u' ? 'umax' : undefined),
  min: (t) => (t[0] === 's' ? 'min' : t[0] === 'u' ? 'umin' : undefined),
};

/**
 * `nvptx.atom`: relaxed (`atom.global.add.f32`, `atom.relaxed.gpu.global...`) forms as `atomicrmw`
 * or `cmpxchg` monotonic (PTX's default scope is the GPU, LLVM NVPTX's); forms with another memory
 * order or scope as inline asm, which keeps them exactly.
 */
const atom: Translate = (f, op) => {
  const a = nvptx.AtomOp.view(op);
  const parts = ptxOf(op).split('.');
  const rt = f.typeOf(a.dst, op);
  f.guarded(a.guard, () => {
    const plain = parts[0] === 'relaxed' && parts[1] === 'gpu' ? parts.slice(2) : parts;
    const [space, operation, type] = plain;
    const rmw = plain.length === 3 && ADDRESS_SPACES[space] ? RMW[operation]?.(type) : undefined;
    const access: Access = { space, vector: 1, bits: Number(type?.slice(1)), signed: false, qualifiers: [] };
    const values = a.values.map((v) => f.as(v, rt));
    if (rmw && a.values.length === 1) {
      const ptr = f.compute(`inttoptr ${f.typed(a.addr)} to ${pointerTo(rt, access)}`);
      return { results: [a.dst], inside: [f.compute(`atomicrmw ${rmw} ${pointerTo(rt, access)} ${ptr}, ${rt} ${values[0]} monotonic`)], outside: ['undef'] };
    }
    if (plain.length === 3 && ADDRESS_SPACES[space] && operation === 'cas' && a.values.length === 2 && rt.startsWith('i')) {
      const ptr = f.compute(`inttoptr ${f.typed(a.addr)} to ${pointerTo(rt, access)}`);
      const pair = f.compute(`cmpxchg ${pointerTo(rt, access)} ${ptr}, ${rt} ${values[0]}, ${rt} ${values[1]} monotonic monotonic`);
      return { results: [a.dst], inside: [f.compute(`extractvalue { ${rt}, i1 } ${pair}, 0`)], outside: ['undef'] };
    }
    const outs = f.asm({
      template: `atom.${ptxOf(op)} $0, [$1], ${a.values.map((_, i) => `$${i + 2}`).join(', ')};`,
      outputs: [rt],
      inputs: [addressInput(f, a.addr, op), ...values.map((text) => ({ type: rt, text }))],
      memory: true,
    });
    return { results: [a.dst], inside: outs, outside: ['undef'] };
  });
};

/** `nvptx.shfl` (`sync.bfly.b32` etc.): `llvm.nvvm.shfl.sync.<mode>.<i32|f32>` over the full warp, as the PTX printer's mask. */
const shfl: Translate = (f, op) => {
  const m = /^sync\.(bfly|up|down|idx)\.b32$/.exec(ptxOf(op));
  if (!m) throw noTranslation(op, `the form '${ptxOf(op)}'`);
  const [value, lane, clamp] = op.operandValues();
  const t = f.typeOf(value, op);
  const kind = t === 'float' ? 'f32' : 'i32';
  const lt = kind === 'f32' ? 'float' : 'i32';
  const name = `llvm.nvvm.shfl.sync.${m[1]}.${kind}`;
  f.declare(name, `declare ${lt} @${name}(i32, ${lt}, i32, i32)`);
  const r = f.compute(`call ${lt} @${name}(i32 -1, ${lt} ${f.as(value, lt)}, i32 ${f.as(lane, 'i32')}, i32 ${f.as(clamp, 'i32')})`);
  f.alias(op.result(0), f.cast(r, lt, f.typeOf(op.result(0), op)));
};

/** `nvptx.bar`: `bar.sync 0` is `llvm.nvvm.barrier0`. */
const bar: Translate = (f, op) => {
  if (ptxOf(op) !== 'sync') throw noTranslation(op, `the form 'bar.${ptxOf(op)}'`);
  f.declare('llvm.nvvm.barrier0', 'declare void @llvm.nvvm.barrier0() #0');
  f.emit('call void @llvm.nvvm.barrier0()');
};

/** `nvptx.ldmatrix`: inline asm (LLVM 14 has no ldmatrix intrinsic); reads shared memory and is warp-wide. */
const ldmatrix: Translate = (f, op) => {
  const view = nvptx.LdmatrixOp.view(op);
  const outs = f.asm({
    template: `ldmatrix.${ptxOf(op)} ${regList(0, view.dst.length)}, [$${view.dst.length}];`,
    outputs: view.dst.map((r) => f.typeOf(r, op)),
    inputs: [addressInput(f, view.addr, op)],
    memory: true,
    convergent: true,
  });
  view.dst.forEach((r, i) => f.alias(r, outs[i]));
};

/** `nvptx.mma`: `mma.sync` as inline asm (LLVM 14 has mma intrinsics, but not for every form we print); warp-wide, no memory. */
const mma: Translate = (f, op) => {
  const n = nvptx.mmaFragments(ptxOf(op));
  if (!n) throw noTranslation(op, `the form '${ptxOf(op)}'`);
  const d = op.results.length;
  const groups = [regList(0, d), regList(d, n.a), regList(d + n.a, n.b), regList(d + n.a + n.b, n.c)].map((g) => (g.startsWith('{') ? g : `{${g}}`));
  const outs = f.asm({
    template: `mma.${ptxOf(op)} ${groups.join(', ')};`,
    outputs: op.results.map((r) => f.typeOf(r, op)),
    inputs: op.operandValues().map((v) => ({ type: f.typeOf(v, op), text: f.value(v) })),
    convergent: true,
  });
  op.results.forEach((r, i) => f.alias(r, outs[i]));
};

/** `nvptx.cp_async`: inline asm (LLVM 14's `llvm.nvvm.cp.async.*` intrinsics have no source-size operand for zero fill). */
const cpAsync: Translate = (f, op) => {
  const cp = nvptx.CpAsyncOp.view(op);
  f.asm({
    template: `cp.async.${ptxOf(op)} [$0], [$1], ${cp.size}, $2;`,
    outputs: [],
    inputs: [cp.dst, cp.src, cp.srcBytes].map((v) => addressInput(f, v, op)),
    memory: true,
  });
};

/** `nvptx.cp_async_group`: `llvm.nvvm.cp.async.commit.group`, `.wait.group(N)`, `.wait.all`. */
const cpAsyncGroup: Translate = (f, op) => {
  const form = ptxOf(op);
  const wait = /^wait_group (\d+)$/.exec(form);
  if (form === 'commit_group' || form === 'wait_all') {
    const name = `llvm.nvvm.cp.async.${form.replace('_', '.')}`;
    f.declare(name, `declare void @${name}()`);
    return f.emit(`call void @${name}()`);
  }
  if (!wait) throw noTranslation(op, `the form 'cp.async.${form}'`);
  f.declare('llvm.nvvm.cp.async.wait.group', 'declare void @llvm.nvvm.cp.async.wait.group(i32 immarg)');
  f.emit(`call void @llvm.nvvm.cp.async.wait.group(i32 ${wait[1]})`);
};

/** `nvptx.fence`: inline asm (LLVM 14's fences do not name PTX's scopes and proxies). */
const fence: Translate = (f, op) => {
  f.asm({ template: `fence.${ptxOf(op)};`, outputs: [], inputs: [], memory: true });
};

/** `nvptx.trap`: `llvm.trap`. */
const trap: Translate = (f) => {
  f.declare('llvm.trap', 'declare void @llvm.trap()');
  f.emit('call void @llvm.trap()');
};

/** `nvptx.smem_base`: the 32-bit shared-window address of `@global_smem`, the dynamic shared memory. */
const smemBase: Translate = (f, op) => {
  f.define(op.result(0), `ptrtoint [0 x i8] addrspace(3)* @global_smem to ${f.typeOf(op.result(0), op)}`);
};

/** One entry per memory, warp or synchronization instruction of the nvptx dialect. */
export const MEMORY_INSTRUCTIONS: [string, Translate][] = [
  ['nvptx.ld', ld],
  ['nvptx.st', st],
  ['nvptx.atom', atom],
  ['nvptx.shfl', shfl],
  ['nvptx.bar', bar],
  ['nvptx.ldmatrix', ldmatrix],
  ['nvptx.mma', mma],
  ['nvptx.cp_async', cpAsync],
  ['nvptx.cp_async_group', cpAsyncGroup],
  ['nvptx.fence', fence],
  ['nvptx.trap', trap],
  ['nvptx.smem_base', smemBase],
];

/** Whether any op of `module` uses the dynamic shared memory. */
export function usesSharedMemory(module: Operation): boolean {
  let uses = false;
  module.walk((op) => {
    if (nvptx.SmemBaseOp.is(op)) uses = true;
  });
  return uses;
}

