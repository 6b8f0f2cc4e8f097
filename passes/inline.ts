/**
 * `inline`: inlines calls (`tt.call`, `func.call`) of functions defined in the module. The callee
 * must have a single-block body ending in its return op and must not carry `noinline = true`.
 * Calls to functions on a call-graph cycle (recursion, direct or mutual) are never inlined.
 * Inlining repeats up to `max-iterations` rounds, so calls that arrive with an inlined body are
 * inlined in the next round. Callees stay in the module (`symbol-dce` removes unused private ones).
 */
import { CallSiteLoc, IntegerAttr, SymbolRefAttr, UnitAttr } from '../ir/attributes.js';
import { type Operation, ValueMapping } from '../ir/ir.js';
import type { Rewriter } from '../ir/rewriter.js';
import { symbolNameOf } from '../ir/function-syntax.js';
import type { PassContext, PassDecl } from './pass.js';
import { FunctionLike, ReturnLike } from '../ir/traits.js';
import * as func from '../dialects/func.js';
import * as tt from '../dialects/tt/index.js';

/** Call op name -> the function op it calls. */
const CALLEE_KIND: Record<string, string> = { [tt.CallOp.name]: tt.FuncOp.name, [func.CallOp.name]: func.FuncOp.name };

/** The callee name of a call op, or null for other ops and nested references. */
function calleeName(op: Operation): string | null {
  if (!(op.name in CALLEE_KIND)) return null;
  const c = op.getAttr('callee');
  return c instanceof SymbolRefAttr && c.nested.length === 0 ? c.root : null;
}

/** Whether `fn` says it must not be inlined (`noinline = true`, or a unit `noinline`). */
function isNoInline(fn: Operation): boolean {
  const a = fn.getAttr('noinline');
  return (a instanceof IntegerAttr && a.value !== 0n) || a instanceof UnitAttr;
}

/** The functions of the module by name. */
function functionsOf(module: Operation): Map<string, Operation> {
  const out = new Map<string, Operation>();
  for (const b of module.regions[0]?.blocks ?? []) {
    for (const op of b) {
      const name = op.hasTrait(FunctionLike) ? symbolNameOf(op) : undefined;
      if (name !== undefined) out.set(name, op);
    }
  }
  return out;
}

/** Names of the functions that lie on a cycle of the call graph (they can reach themselves). */
function recursiveFunctions(fns: Map<string, Operation>): Set<string> {
  const edges = new Map<string, Set<string>>();
  for (const [name, fn] of fns) {
    const callees = new Set<string>();
    fn.walk((op) => void (calleeName(op) !== null && callees.add(calleeName(op)!)));
    edges.set(name, callees);
  }
  const out = new Set<string>();
  for (const start of fns.keys()) {
    const seen = new Set<string>();
    const stack = [...(edges.get(start) ?? [])];
    while (stack.length) {
      const n = stack.pop()!;
      if (n === start) {
        out.add(start);
        break;
      }
      if (seen.has(n)) continue;
      seen.add(n);
      stack.push(...(edges.get(n) ?? []));
    }
  }
  return out;
}

/** The callee `call` may be replaced with, or null when it must stay a call. */
function inlinableCallee(call: Operation, fns: Map<string, Operation>, recursive: Set<string>): Operation | null {
  const name = calleeName(call);
  const fn = name === null ? undefined : fns.get(name);
  if (!fn || recursive.has(name!) || fn.name !== CALLEE_KIND[call.name] || isNoInline(fn)) return null;
  const body = fn.regions[0];
  if (!body || body.blocks.length !== 1) return null;
  const block = body.blocks[0];
  const ret = block.last;
  if (!ret || !ret.hasTrait(ReturnLike) || ret.numOperands !== call.numResults) return null;
  return block.args.length === call.numOperands ? fn : null;
}

/** Replaces `call` with a copy of `fn`'s body: arguments become the call operands, the return's operands its results. */
function inlineCall(call: Operation, fn: Operation, rw: Rewriter): void {
  const block = fn.regions[0].blocks[0];
  const mapping = new ValueMapping();
  block.args.forEach((a, k) => mapping.map(a, call.operand(k)));
  rw.setInsertionPoint(call);
  for (let op = block.first; op && op !== block.last; op = op.next) {
    const copy = op.clone(mapping);
    // Cloned ops are located at the call site, as MLIR's inliner does.
    if (call.hasExplicitLoc) copy.walk((o) => void (o.hasExplicitLoc && (o.loc = CallSiteLoc.get(o.loc, call.loc))));
    rw.insert(copy);
  }
  // %r = tt.call @f(%x) -> <body of @f with %arg0 := %x>; uses of %r use the returned value
  rw.replaceOp(call, block.last!.operandValues().map((v) => mapping.lookupOrDefault(v)));
}

/** Runs inlining rounds until no call is inlinable or the round limit is reached. */
function run(module: Operation, ctx: PassContext): void {
  const rw = ctx.rewriter();
  const fns = functionsOf(module);
  // Inlining only adds call edges that already existed transitively, so cycles never change.
  const recursive = recursiveFunctions(fns);
  const rounds = Number(ctx.options['max-iterations'] ?? 4);
  for (let round = 0; round < rounds; round++) {
    const work: [Operation, Operation][] = [];
    module.walk((op) => {
      const fn = calleeName(op) === null ? null : inlinableCallee(op, fns, recursive);
      if (fn) work.push([op, fn]);
    });
    if (!work.length) return;
    for (const [call, fn] of work) {
      inlineCall(call, fn, rw);
      ctx.bump('num-inlined');
    }
  }
}

/** The `inline` pass. */
export const inline: PassDecl = {
  name: 'inline',
  summary: 'Inline calls of single-block functions defined in the module',
  anchor: 'module',
  options: {
    'max-iterations': { type: 'int', default: 4, description: 'rounds of inlining (calls inside inlined bodies are inlined in the next round)' },
  },
  statistics: { 'num-inlined': 'number of calls inlined' },
  run,
};
