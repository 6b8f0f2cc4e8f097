/**
 * The IR verifier: per-op checks derived from the declarations (operand/result counts and
 * types, required attributes, regions, successors), traits, each op's own `verify`,
 * terminators, and SSA dominance. Errors are diagnostics at the op, in MLIR's wording.
 */
import { FileLineColLoc, type Location, NameLoc, CallSiteLoc, FusedLoc } from './attributes.js';
import { Diagnostic, DiagnosticError } from './diagnostics.js';
import { Block, BlockArgument, type Operation, OpResult, type Region, type Value } from './ir.js';
import { FunctionType, type Type } from './types.js';
import type { VerifyResult } from './op-spec.js';
import { defaultContext, type Context } from './context.js';
import { GraphRegion, IsolatedFromAbove, NoRegionArguments, NoTerminator, SingleBlock, Terminator } from './traits.js';

/** Builds an error diagnostic located at `op` (source position if parsed, else its location). */
export function opError(op: Operation, message: string): Diagnostic {
  // An op a pass created may have no position of its own: the nearest enclosing op's stands in.
  let pos = op.srcPos;
  let text = pos ? null : locText(op.loc);
  for (let p = op.parentOp; !pos && !text && p; p = p.parentOp) {
    pos = p.srcPos;
    text = pos ? null : locText(p.loc);
  }
  const d = new Diagnostic('error', `'${op.name}' op ${message}`, pos, text);
  d.operation = op;
  return d;
}

/** The file position inside `l`: through names, a call site's callee (else its caller) and the first of fused locations that has one. */
export function fileLineColOf(l: Location): FileLineColLoc | null {
  if (l instanceof FileLineColLoc) return l;
  if (l instanceof NameLoc) return fileLineColOf(l.child);
  if (l instanceof CallSiteLoc) return fileLineColOf(l.callee) ?? fileLineColOf(l.caller);
  if (l instanceof FusedLoc) for (const x of l.locations) {
    const f = fileLineColOf(x);
    if (f) return f;
  }
  return null;
}

/** A compact textual form of a location for diagnostics without source text. */
export function locText(l: Location): string | null {
  const f = fileLineColOf(l);
  return f ? `${f.file}:${f.line}:${f.col}` : null;
}

/** Options for `verify`. */
export interface VerifyOptions {
  allowUnregistered?: boolean;
  /** Whose dialects' type checks run (default: `defaultContext`). */
  context?: Context;
}

/** Verifies `root` and everything nested; throws a `DiagnosticError` at the first problem. */
export function verify(root: Operation, options: VerifyOptions = {}): void {
  new Verifier(options).run(root);
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
  /** The innermost module being verified (the context of dialect type checks). */
  private currentModule: Operation | null = null;
  /** The module `lastChecked` belongs to (most ops share their predecessor's). */
  private lastModule: Operation | null | undefined = undefined;
  private lastChecked: Set<Type> | null = null;
  /** The isolated-from-above ops being verified, outermost first. */
  private readonly isolated: Operation[] = [];
  /** How many of `isolated` have had their isolation checked in full (only ever on the way to an error). */
  private isolationChecked = 0;
  private readonly typeVerifiers: Context['typeVerifiers'];
  private readonly attrVerifiers: Context['attrVerifiers'];

  constructor(private readonly options: VerifyOptions) {
    this.typeVerifiers = (options.context ?? defaultContext).typeVerifiers;
    this.attrVerifiers = (options.context ?? defaultContext).attrVerifiers;
  }

  /** Verifies `root`; the module enclosing it (if any) is the context of dialect type checks. */
  run(root: Operation): void {
    this.currentModule = root.parentOfType('builtin.module');
    this.verifyOp(root);
  }

  private report(op: Operation, r: VerifyResult): void {
    if (!r) return;
    if (typeof r === 'string') this.fail(op, r);
    throw new DiagnosticError(new Diagnostic('error', r.bare, op.srcPos, op.srcPos ? null : locText(op.loc)));
  }

  private fail(op: Operation, message: string): never {
    throw new DiagnosticError(opError(op, message));
  }

  verifyOp(op: Operation): void {
    const spec = op.spec;
    if (!spec) {
      if (!this.options.allowUnregistered && !op.name.includes('.'))
        this.fail(op, 'is not registered');
    }
    const isolated = spec !== undefined && this.verifyTraitsOf(op);
    if (!isolated) return this.verifyRest(op);
    // Isolation is checked as the nested ops' operands are (see `verifyOperandsDominate`); an
    // error found meanwhile first runs the full check, so it is reported before them, as when
    // it ran here.
    this.isolated.push(op);
    try {
      this.verifyRest(op);
    } catch (e) {
      this.checkPendingIsolation();
      throw e;
    } finally {
      this.isolated.pop();
      if (this.isolationChecked > this.isolated.length) this.isolationChecked = this.isolated.length;
    }
  }

  /** Structure and traits of a registered op; returns whether the op is isolated from above. */
  private verifyTraitsOf(op: Operation): boolean {
    this.verifyStructure(op);
    return this.verifyTraits(op);
  }

  /** What follows the traits: the op's own checks, types in context, regions, region checks. */
  private verifyRest(op: Operation): void {
    const spec = op.spec;
    if (spec) this.report(op, spec.decl.verify?.(op));
    if (op.attributes && this.attrVerifiers.size) this.verifyDialectAttributes(op);
    this.verifyTypesInContext(op);
    const outerModule = this.currentModule;
    if (op.name === 'builtin.module') this.currentModule = op;
    const regions = op.regions;
    for (let k = 0; k < regions.length; k++) this.verifyRegion(op, regions[k]);
    this.currentModule = outerModule;
    this.report(op, spec?.decl.verifyRegions?.(op));
  }

  /** Runs the isolation checks of the isolated ops being verified that have not run yet, outermost first. */
  private checkPendingIsolation(): void {
    while (this.isolationChecked < this.isolated.length) {
      const iso = this.isolated[this.isolationChecked++];
      for (const r of iso.regions) checkIsolated(iso, r);
    }
  }

  /** Runs each dialect's check of the discardable attributes named with its prefix (`ttg.num-warps`). */
  private verifyDialectAttributes(op: Operation): void {
    for (const name in op.attributes!) {
      const dot = name.indexOf('.');
      const check = dot > 0 ? this.attrVerifiers.get(name.slice(0, dot)) : undefined;
      if (check) this.report(op, check(op, name, op.attributes![name]));
    }
  }

  /** Runs the dialects' contextual type checks on result and block-argument types. */
  private verifyTypesInContext(op: Operation): void {
    const hooks = this.typeVerifiers;
    if (!hooks.length) return;
    // The context (module attributes) decides validity, so the cache is per enclosing module.
    const module = op.name === 'builtin.module' ? op : this.currentModule;
    let checked = module === this.lastModule ? this.lastChecked! : this.checkedTypes.get(module);
    if (!checked) this.checkedTypes.set(module, (checked = new Set()));
    this.lastModule = module;
    this.lastChecked = checked;
    const results = op.results;
    for (let k = 0; k < results.length; k++) if (!checked.has(results[k].type)) this.checkType(results[k].type, op, checked);
    const regions = op.regions;
    for (let k = 0; k < regions.length; k++) {
      for (const b of regions[k].blocks) for (const a of b.args) if (!checked.has(a.type)) this.checkType(a.type, op, checked);
    }
  }

  /** Runs the dialects' type hooks on `t` (reported at `op`) and records it as checked. */
  private checkType(t: Type, op: Operation, checked: Set<Type>): void {
    for (const h of this.typeVerifiers) {
      const msg = h(t, op);
      if (msg) this.fail(op, msg);
    }
    checked.add(t);
  }

  private verifyStructure(op: Operation): void {
    const spec = op.spec!;
    const c = spec.counts;
    checkCount(op, 'operand', c.operands, c.variadicOperands, op.numOperands);
    checkCount(op, 'result', c.results, c.variadicResults, op.numResults);
    if (c.variadicOperands) this.verifyVariadicOperands(op);
    else {
      for (let k = 0; k < spec.operands.length; k++) {
        const t = spec.operands[k].type;
        if (t && !t.check(op.operands[k].value.type))
          this.fail(op, `operand #${k} must be ${t.description}, but got '${op.operands[k].value.type}'`);
      }
    }
    if (c.variadicResults) this.verifyVariadicResults(op);
    else {
      for (let k = 0; k < spec.results.length; k++) {
        const t = spec.results[k].type;
        if (t && !t.check(op.results[k].type)) this.fail(op, `result #${k} must be ${t.description}, but got '${op.results[k].type}'`);
      }
    }
    const attrs = spec.decl.attrs;
    if (attrs) {
      for (let k = 0; k < attrs.length; k++) {
        const a = attrs[k];
        const v = op.getAttr(a.name);
        if (v === undefined) {
          if (!a.optional && !a.default) this.fail(op, `requires attribute '${a.name}'`);
          continue;
        }
        if (!a.kind.check(v)) this.fail(op, `attribute '${a.name}' failed to satisfy constraint: ${a.kind.description}`);
      }
    }
    const nr = op.regions.length;
    if (c.variadicRegions ? nr < c.regions : nr !== c.regions)
      this.fail(op, `requires ${c.variadicRegions ? 'at least ' : ''}${c.regions} region${c.regions === 1 && !c.variadicRegions ? '' : 's'}, but found ${nr}`);
    if (!c.variadicRegions) {
      const decls = spec.regionDecls;
      for (let k = 0; k < decls.length; k++) {
        const n = decls[k].blocks;
        if (n !== undefined && op.regions[k].blocks.length !== n) this.fail(op, `region #${k} ('${decls[k].name}') failed to verify constraint: region with ${n} blocks`);
      }
    }
    const ns = op.successors.length;
    if (c.variadicSuccessors ? ns < c.successors : ns !== c.successors)
      this.fail(op, `requires ${c.variadicSuccessors ? 'at least ' : ''}${c.successors} successor${c.successors === 1 && !c.variadicSuccessors ? '' : 's'} but found ${ns}`);
  }

  private verifyVariadicOperands(op: Operation): void {
    const spec = op.spec!;
    const sizes = spec.operandGroupSizes(op);
    if (sizes.reduce((a, b) => a + b, 0) !== op.numOperands)
      this.fail(op, `operand segment sizes do not add up to the number of operands (${op.numOperands})`);
    let k = 0;
    spec.operands.forEach((d, g) => {
      if (d.kind === 'optional' && sizes[g] > 1) this.fail(op, `optional operand '${d.name}' has ${sizes[g]} values`);
      for (let j = 0; j < sizes[g]; j++, k++) {
        if (d.type && !d.type.check(op.operand(k).type))
          this.fail(op, `operand #${k} must be ${d.type.description}, but got '${op.operand(k).type}'`);
      }
    });
  }

  private verifyVariadicResults(op: Operation): void {
    const spec = op.spec!;
    const sizes = spec.resultGroupSizes(op);
    let k = 0;
    spec.results.forEach((d, g) => {
      for (let j = 0; j < sizes[g]; j++, k++) {
        if (d.type && !d.type.check(op.result(k).type))
          this.fail(op, `result #${k} must be ${d.type.description}, but got '${op.result(k).type}'`);
      }
    });
  }

  /** Runs the checks of the traits of `op`; returns whether it is isolated from above (its nested ops are checked later). */
  private verifyTraits(op: Operation): boolean {
    const spec = op.spec!;
    const checks = spec.traitVerifiers;
    for (let k = 0; k < checks.length; k++) {
      const msg = checks[k](op);
      if (msg) this.fail(op, msg);
    }
    return spec.traitSet.has(IsolatedFromAbove);
  }

  private verifyRegion(op: Operation, r: Region): void {
    const noTerminator = op.hasTrait(NoTerminator);
    if (op.hasTrait(SingleBlock) && r.blocks.length > 1)
      this.fail(op, `expects region to have 0 or 1 blocks`);
    if (r.blocks.length && r.blocks[0].predecessors().length)
      throw new DiagnosticError(opError(op, 'entry block of region may not have predecessors'));
    const noArgs = op.hasTrait(NoRegionArguments);
    for (const b of r.blocks) {
      if (noArgs && b === r.blocks[0] && b.args.length) this.fail(op, `region #${op.regions.indexOf(r)} should have no arguments`);
      b.ensureOrder();
      // Ops first (their own traits, e.g. HasParent and terminator position), then the block's end.
      for (let inner = b.first; inner; inner = inner.next) {
        this.verifyOperandsDominate(inner);
        this.verifyOp(inner);
        const successors = inner.successors;
        for (let k = 0; k < successors.length; k++) {
          if (successors[k].parent !== r) this.fail(inner, `branching to block of a different region`);
        }
      }
      if (noTerminator || !op.spec) continue;
      const last = b.last;
      if (!last) this.failAt(b, op, 'empty block: expect at least a terminator');
      if (last.spec && !last.hasTrait(Terminator))
        throw new DiagnosticError(opError(last, 'is not a terminator, but the block it ends must end with one').attachNote(`in a region of '${op.name}'`, op.srcPos));
    }
  }

  private failAt(b: Block, op: Operation, message: string): never {
    throw new DiagnosticError(new Diagnostic('error', message, b.srcPos ?? op.srcPos));
  }

  private verifyOperandsDominate(user: Operation): void {
    const ops = user.operands;
    const iso = this.isolated.length ? this.isolated[this.isolated.length - 1] : null;
    for (let k = 0; k < ops.length; k++) {
      const v = ops[k].value;
      // A value of the user's own block is inside every isolated op around it.
      if (iso && v.parentBlock !== user.parent && !isDefinedInside(v, iso)) this.checkPendingIsolation();
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

/** Checks that every op nested in `region` of the isolated op `iso` uses only values defined inside `iso` (ops in pre-order). */
function checkIsolated(iso: Operation, region: Region): void {
  for (const b of region.blocks) {
    for (let inner = b.first; inner; inner = inner.next) {
      const ops = inner.operands;
      for (let k = 0; k < ops.length; k++) {
        const v = ops[k].value;
        // A value of the user's own block is inside `iso` (the common case, decided without a walk up).
        if (v.parentBlock === b || isDefinedInside(v, iso)) continue;
        throw new DiagnosticError(
          opError(inner, `using value defined outside the region`).attachNote(`required by region isolation constraints`, iso.srcPos),
        );
      }
      for (const r of inner.regions) checkIsolated(iso, r);
    }
  }
}

function isGraphRegion(r: Region): boolean {
  return r.parent?.hasTrait(GraphRegion) ?? false;
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

function checkCount(op: Operation, what: string, fixed: number, variable: boolean, actual: number): void {
  const ok = variable ? actual >= fixed : actual === fixed;
  if (ok) return;
  const expect = variable ? `at least ${fixed}` : `${fixed}`;
  throw new DiagnosticError(opError(op, `expected ${expect} ${what}${fixed === 1 && !variable ? '' : 's'}, but found ${actual}`));
}

export { FunctionType };
