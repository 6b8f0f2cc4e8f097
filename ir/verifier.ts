/**
 * The IR verifier: per-op checks derived from the declarations (operand/result counts and
 * types, required attributes, regions, successors), traits, each op's own `verify`,
 * terminators, and SSA dominance. Errors are diagnostics at the op, in MLIR's wording.
 */
import { FileLineColLoc, type Location, NameLoc, CallSiteLoc, FusedLoc } from './attributes.js';
import { Diagnostic, DiagnosticError } from './diagnostics.js';
import { Block, BlockArgument, type Operation, OpResult, type Region, type Value } from './ir.js';
import { FunctionType, RankedTensorType, ShapedType, type Type, encodingOf, shapeOf } from './types.js';
import { registry } from './op-spec.js';

/** Builds an error diagnostic located at `op` (source position if parsed, else its location). */
export function opError(op: Operation, message: string): Diagnostic {
  return new Diagnostic('error', `'${op.name}' op ${message}`, op.srcPos, op.srcPos ? null : locText(op.loc));
}

/** A compact textual form of a location for diagnostics without source text. */
export function locText(l: Location): string | null {
  if (l instanceof FileLineColLoc) return `${l.file}:${l.line}:${l.col}`;
  if (l instanceof NameLoc) return locText(l.child);
  if (l instanceof CallSiteLoc) return locText(l.callee) ?? locText(l.caller);
  if (l instanceof FusedLoc) for (const x of l.locations) {
    const t = locText(x);
    if (t) return t;
  }
  return null;
}

/** Options for `verify`. */
export interface VerifyOptions {
  allowUnregistered?: boolean;
}

/** Verifies `root` and everything nested; throws a `DiagnosticError` at the first problem. */
export function verify(root: Operation, options: VerifyOptions = {}): void {
  new Verifier(options).verifyOp(root);
}

/** Verifies and returns the diagnostic instead of throwing (null when valid). */
export function verifyDiagnostic(root: Operation, options: VerifyOptions = {}): Diagnostic | null {
  try {
    verify(root, options);
    return null;
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostic;
    throw e;
  }
}

class Verifier {
  private readonly domCache = new Map<Region, Map<Block, Block | null>>();
  /** Types already checked by the dialects' hooks (valid for one module, whose attributes fix the context). */
  private readonly checkedTypes = new Map<Operation | null, Set<Type>>();
  constructor(private readonly options: VerifyOptions) {}

  private fail(op: Operation, message: string): never {
    throw new DiagnosticError(opError(op, message));
  }

  verifyOp(op: Operation): void {
    const spec = op.spec;
    if (!spec) {
      if (!this.options.allowUnregistered && !op.name.includes('.'))
        this.fail(op, 'is not registered');
    } else {
      this.verifyStructure(op);
      this.verifyTraits(op);
      const msg = spec.decl.verify?.(op);
      if (msg) this.fail(op, msg);
    }
    this.verifyTypesInContext(op);
    for (const r of op.regions) this.verifyRegion(op, r);
    const regionMsg = spec?.decl.verifyRegions?.(op);
    if (regionMsg) this.fail(op, regionMsg);
  }

  /** Runs the dialects' contextual type checks on result and block-argument types. */
  private verifyTypesInContext(op: Operation): void {
    const hooks = registry.typeVerifiers;
    if (!hooks.length) return;
    // The context (module attributes) decides validity, so the cache is per enclosing module.
    const module = op.name === 'builtin.module' ? op : op.parentOfType('builtin.module');
    let checked = this.checkedTypes.get(module);
    if (!checked) this.checkedTypes.set(module, (checked = new Set()));
    const seen = checked;
    const check = (t: Type) => {
      if (seen.has(t)) return;
      for (const h of hooks) {
        const msg = h(t, op);
        if (msg) this.fail(op, msg);
      }
      seen.add(t);
    };
    for (const r of op.results) check(r.type);
    for (const r of op.regions) for (const b of r.blocks) for (const a of b.args) check(a.type);
  }

  private verifyStructure(op: Operation): void {
    const spec = op.spec!;
    checkCount(this, op, 'operand', spec.operands, op.numOperands);
    checkCount(this, op, 'result', spec.results, op.numResults);
    const sizes = spec.operandGroupSizes(op);
    if (sizes.reduce((a, b) => a + b, 0) !== op.numOperands)
      this.fail(op, `operand segment sizes do not add up to the number of operands (${op.numOperands})`);
    let k = 0;
    spec.operands.forEach((d, g) => {
      for (let j = 0; j < sizes[g]; j++, k++) {
        if (d.kind === 'optional' && sizes[g] > 1) this.fail(op, `optional operand '${d.name}' has ${sizes[g]} values`);
        if (d.type && !d.type.check(op.operand(k).type))
          this.fail(op, `operand #${k} must be ${d.type.description}, but got '${op.operand(k).type}'`);
      }
    });
    const rsizes = spec.resultGroupSizes(op);
    k = 0;
    spec.results.forEach((d, g) => {
      for (let j = 0; j < rsizes[g]; j++, k++) {
        if (d.type && !d.type.check(op.result(k).type))
          this.fail(op, `result #${k} must be ${d.type.description}, but got '${op.result(k).type}'`);
      }
    });
    for (const a of spec.decl.attrs ?? []) {
      const v = op.getAttr(a.name);
      if (v === undefined) {
        if (!a.optional && !a.default) this.fail(op, `requires attribute '${a.name}'`);
        continue;
      }
      if (!a.kind.check(v)) this.fail(op, `attribute '${a.name}' failed to satisfy constraint: ${a.kind.description}`);
    }
    const fixedRegions = spec.regionDecls.filter((r) => !r.variadic).length;
    const variadicRegions = spec.regionDecls.some((r) => r.variadic);
    if (variadicRegions ? op.regions.length < fixedRegions : op.regions.length !== fixedRegions)
      this.fail(op, `requires ${fixedRegions} region${fixedRegions === 1 ? '' : 's'}, but found ${op.regions.length}`);
    const fixedSucc = spec.successorDecls.filter((r) => !r.variadic).length;
    const variadicSucc = spec.successorDecls.some((r) => r.variadic);
    if (variadicSucc ? op.successors.length < fixedSucc : op.successors.length !== fixedSucc)
      this.fail(op, `requires ${variadicSucc ? 'at least ' : ''}${fixedSucc} successor${fixedSucc === 1 && !variadicSucc ? '' : 's'} but found ${op.successors.length}`);
  }

  private verifyTraits(op: Operation): void {
    const spec = op.spec!;
    const traits = spec.traitSet;
    if (traits.has('SameOperandsAndResultType')) {
      const t = op.numOperands ? op.operand(0).type : op.numResults ? op.result(0).type : null;
      for (const v of [...op.operandValues(), ...op.results])
        if (v.type !== t) this.fail(op, 'requires the same type for all operands and results');
    }
    if (traits.has('SameTypeOperands')) {
      for (const v of op.operandValues()) if (v.type !== op.operand(0).type) this.fail(op, 'requires all operands to have the same type');
    }
    if (traits.has('SameOperandsAndResultShape')) {
      const all = [...op.operandValues(), ...op.results].map((v) => v.type);
      const s0 = shapeKey(all[0]);
      for (const t of all) if (shapeKey(t) !== s0) this.fail(op, 'requires the same shape for all operands and results');
    }
    if (traits.has('SameOperandsShape')) {
      const s0 = op.numOperands ? shapeKey(op.operand(0).type) : '';
      for (const v of op.operandValues()) if (shapeKey(v.type) !== s0) this.fail(op, 'requires the same shape for all operands');
    }
    if (traits.has('SameOperandsAndResultEncoding')) {
      const all = [...op.operandValues(), ...op.results].map((v) => v.type).filter((t) => t instanceof RankedTensorType);
      const e0 = all.length ? encodingOf(all[0]) : null;
      for (const t of all) if (encodingOf(t) !== e0) this.fail(op, 'requires the same encoding for all operands and results');
    }
    if (traits.has('SameOperandsEncoding')) {
      const all = op.operandValues().map((v) => v.type).filter((t) => t instanceof RankedTensorType);
      const e0 = all.length ? encodingOf(all[0]) : null;
      for (const t of all) if (encodingOf(t) !== e0) this.fail(op, 'requires the same encoding for all operands');
    }
    if (traits.has('Terminator')) {
      if (op.parent && op.parent.last !== op) this.fail(op, 'must be the last operation in the parent block');
    }
    for (const t of traits) {
      if (!t.startsWith('HasParent(')) continue;
      const allowed = t.slice(10, -1).split(',').map((s) => s.trim());
      const parent = op.parentOp;
      if (!parent || !allowed.includes(parent.name))
        this.fail(op, `expects parent op ${allowed.length > 1 ? 'to be one of' : ''}${allowed.length > 1 ? ' ' : ''}'${allowed.join(', ')}'`);
    }
    if (traits.has('IsolatedFromAbove')) {
      op.walk((inner) => {
        if (inner === op) return;
        inner.operands.forEach((o, k) => {
          if (!isDefinedInside(o.value, op))
            throw new DiagnosticError(
              opError(inner, `using value defined outside the region`).attachNote(`required by region isolation constraints`, op.srcPos),
            );
          void k;
        });
      }, 'pre');
    }
  }

  private verifyRegion(op: Operation, r: Region): void {
    const noTerminator = op.hasTrait('NoTerminator');
    if (op.hasTrait('SingleBlock') && r.blocks.length > 1)
      this.fail(op, `expects region to have 0 or 1 blocks`);
    if (r.blocks.length && r.blocks[0].predecessors().length)
      throw new DiagnosticError(opError(op, 'entry block of region may not have predecessors'));
    for (const b of r.blocks) {
      if (!noTerminator && op.spec) {
        const last = b.last;
        if (!last) this.failAt(b, op, 'empty block: expect at least a terminator');
        if (last.spec && !last.hasTrait('Terminator'))
          throw new DiagnosticError(opError(last, 'is not a terminator, but the block it ends must end with one').attachNote(`in a region of '${op.name}'`, op.srcPos));
      }
      b.ensureOrder();
      for (let inner = b.first; inner; inner = inner.next) {
        this.verifyOperandsDominate(inner);
        this.verifyOp(inner);
        for (const s of inner.successors) {
          if (s.parent !== r) this.fail(inner, `branching to block of a different region`);
        }
      }
    }
  }

  private failAt(b: Block, op: Operation, message: string): never {
    throw new DiagnosticError(new Diagnostic('error', message, b.srcPos ?? op.srcPos));
  }

  private verifyOperandsDominate(user: Operation): void {
    const ops = user.operands;
    for (let k = 0; k < ops.length; k++) {
      const v = ops[k].value;
      if (!this.dominates(v, user)) {
        const d = opError(user, `operand #${k} does not dominate this use`);
        const def = v.definingOp;
        if (def?.srcPos) d.attachNote('operand defined here', def.srcPos);
        throw new DiagnosticError(d);
      }
    }
  }

  /** Whether the definition of `v` properly dominates `user`. */
  private dominates(v: Value, user: Operation): boolean {
    const defBlock = v.parentBlock;
    if (!defBlock) return false; // unresolved forward reference or detached value
    const region = defBlock.parent;
    // Walk up from the user to the op whose block is in the defining region.
    let a: Operation | null = user;
    while (a && a.parent?.parent !== region) a = a.parentOp;
    if (!a) return false;
    const useBlock = a.parent!;
    if (useBlock === defBlock) {
      if (v instanceof BlockArgument) return true;
      const def = (v as OpResult).owner;
      if (def === a) return false;
      return def.orderIndex < a.orderIndex || (useBlock.ensureOrder(), def.orderIndex < a.orderIndex);
    }
    if (region && isGraphRegion(region)) return true;
    return this.blockDominates(defBlock, useBlock, region!);
  }

  private blockDominates(a: Block, b: Block, region: Region): boolean {
    const idom = this.idoms(region);
    for (let x: Block | null | undefined = b; x; x = idom.get(x)) if (x === a) return true;
    return false;
  }

  /** Immediate dominators of a region's blocks (Cooper, Harvey and Kennedy's iterative algorithm). */
  private idoms(region: Region): Map<Block, Block | null> {
    const cached = this.domCache.get(region);
    if (cached) return cached;
    const blocks = region.blocks;
    const order: Block[] = [];
    const seen = new Set<Block>();
    const dfs = (b: Block) => {
      seen.add(b);
      for (const s of b.last?.successors ?? []) if (!seen.has(s)) dfs(s);
      order.push(b);
    };
    if (blocks.length) dfs(blocks[0]);
    const rpo = order.reverse();
    const index = new Map(rpo.map((b, k) => [b, k]));
    const preds = new Map<Block, Block[]>(blocks.map((b) => [b, []]));
    for (const b of blocks) for (const s of b.last?.successors ?? []) preds.get(s)?.push(b);
    const idom = new Map<Block, Block | null>();
    if (rpo.length) idom.set(rpo[0], rpo[0]);
    const intersect = (x: Block, y: Block): Block => {
      while (x !== y) {
        while (index.get(x)! > index.get(y)!) x = idom.get(x)!;
        while (index.get(y)! > index.get(x)!) y = idom.get(y)!;
      }
      return x;
    };
    for (let changed = true; changed; ) {
      changed = false;
      for (const b of rpo.slice(1)) {
        let nd: Block | null = null;
        for (const p of preds.get(b)!) if (idom.has(p)) nd = nd ? intersect(p, nd) : p;
        if (nd && idom.get(b) !== nd) {
          idom.set(b, nd);
          changed = true;
        }
      }
    }
    if (rpo.length) idom.set(rpo[0], null);
    this.domCache.set(region, idom);
    return idom;
  }
}

function isGraphRegion(r: Region): boolean {
  return r.parent?.hasTrait('GraphRegion') ?? false;
}

function isDefinedInside(v: Value, op: Operation): boolean {
  for (let b: Block | null = v.parentBlock; b; ) {
    const owner: Operation | null = b.parentOp;
    if (owner === op) return true;
    if (!owner) return false;
    b = owner.parent;
  }
  return false;
}

function checkCount(
  vf: Verifier,
  op: Operation,
  what: string,
  decls: { kind?: string }[],
  actual: number,
): void {
  const fixed = decls.filter((d) => d.kind !== 'variadic' && d.kind !== 'optional').length;
  const variable = decls.some((d) => d.kind === 'variadic' || d.kind === 'optional');
  const ok = variable ? actual >= fixed : actual === fixed;
  if (ok) return;
  const expect = variable ? `at least ${fixed}` : `${fixed}`;
  throw new DiagnosticError(opError(op, `expected ${expect} ${what}${fixed === 1 && !variable ? '' : 's'}, but found ${actual}`));
  void vf;
}

function shapeKey(t: Type): string {
  return t instanceof ShapedType ? shapeOf(t).join('x') : '';
}

export { FunctionType };
