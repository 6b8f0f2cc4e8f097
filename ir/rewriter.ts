/**
 * The rewriter: a Builder whose every mutation is recorded (so callers can ask whether anything
 * changed, instead of trusting a pattern's own success flag) and reported to a listener (so a
 * pattern driver can keep its worklist current).
 */
import { Builder, type CreateArgs } from './builder.js';
import { type Block, Operation, type Region, type Value } from './ir.js';

/** Observes rewrites; the greedy driver uses it to maintain its worklist. */
export interface RewriteListener {
  onInserted?(op: Operation): void;
  onErased?(op: Operation): void;
  onModified?(op: Operation): void;
  /** `op`'s results are about to be replaced by `values`. */
  onReplaced?(op: Operation, values: readonly Value[]): void;
}

/** Counters a pass reports with `--pass-statistics`. */
export interface RewriteCounts {
  created: number;
  erased: number;
  modified: number;
}

/** A builder that records changes. */
export class Rewriter extends Builder {
  /** Whether any mutation went through this rewriter since the last `resetChanged`. */
  changed = false;
  readonly counts: RewriteCounts = { created: 0, erased: 0, modified: 0 };

  constructor(public listener: RewriteListener = {}) {
    super();
  }

  resetChanged(): void {
    this.changed = false;
  }

  protected override notifyInserted(op: Operation): void {
    this.changed = true;
    this.counts.created++;
    const onInserted = this.listener.onInserted;
    if (!onInserted) return;
    // (most ops a rewrite builds hold no regions: no walk for them)
    if (op.regions.length === 0) onInserted.call(this.listener, op);
    else op.walk((o) => onInserted.call(this.listener, o), 'pre');
  }

  /** Creates `name` right before `op` (the usual way patterns build replacements). */
  createBefore(op: Operation, name: string, args: CreateArgs = {}): Operation {
    return this.before(op).create(name, args);
  }

  /** Erases `op` (and everything nested); its results must be unused. */
  eraseOp(op: Operation): void {
    for (const r of op.results) {
      if (r.hasUses) throw new Error(`internal error: erasing '${op.name}' whose result #${r.index} still has uses`);
    }
    const onErased = this.listener.onErased;
    if (onErased) {
      if (op.regions.length === 0) onErased.call(this.listener, op);
      else op.walk((o) => onErased.call(this.listener, o), 'post');
    }
    op.erase();
    this.changed = true;
    this.counts.erased++;
  }

  /** Replaces every use of `op`'s results with `values`, then erases `op`. */
  replaceOp(op: Operation, values: readonly Value[]): void {
    this.listener.onReplaced?.(op, values);
    for (let k = 0; k < op.results.length; k++) this.replaceAllUsesWith(op.results[k], values[k]);
    this.eraseOp(op);
  }

  /** Creates `name` before `op` and replaces `op` with its results. */
  replaceOpWithNewOp(op: Operation, name: string, args: CreateArgs = {}): Operation {
    const created = this.createBefore(op, name, args);
    this.replaceOp(op, created.results);
    return created;
  }

  /** Makes every use of `from` use `to`; the users count as modified. */
  replaceAllUsesWith(from: Value, to: Value): void {
    if (from === to || !from.hasUses) return;
    const onModified = this.listener.onModified;
    if (onModified) for (let u = from.firstUse; u; u = u.nextUse) onModified.call(this.listener, u.owner);
    from.replaceAllUsesWith(to);
    this.changed = true;
  }

  /** Runs `change` on `op` (attributes, operands...) and records the modification. */
  modifyInPlace(op: Operation, change: () => void): void {
    change();
    this.changed = true;
    this.counts.modified++;
    this.listener.onModified?.(op);
  }

  /** Moves the ops of `block` before `op`, using `args` for the block's arguments; the block is left empty. */
  inlineBlockBefore(block: Block, op: Operation, args: readonly Value[] = []): void {
    block.args.forEach((a, k) => this.replaceAllUsesWith(a, args[k]));
    for (const inner of block) {
      inner.remove();
      op.parent!.insertBefore(inner, op);
      this.listener.onModified?.(inner);
    }
    this.changed = true;
  }

  /** Moves `op` before `before` (e.g. hoisting out of a loop). */
  moveOpBefore(op: Operation, before: Operation): void {
    op.moveBefore(before);
    this.changed = true;
    this.listener.onModified?.(op);
  }

  /** Moves all blocks of `from` to the end of `to`. */
  inlineRegion(from: Region, to: Region): void {
    from.moveBlocksTo(to);
    this.changed = true;
  }
}

export { Operation };
