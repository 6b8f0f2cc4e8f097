/**
 * `symbol-dce`: removes private symbols (functions and other symbol ops with
 * `sym_visibility = "private"`) that no live op refers to. A symbol is live when it is not
 * private (and the symbol it is nested in, if any, is live), or when an op inside a live symbol,
 * or outside every symbol, refers to it: any attribute of any op, looked into through arrays
 * and dictionaries, holding a `SymbolRefAttr`. References resolve in the nearest enclosing
 * symbol table, `@a::@b` through nested tables. Private symbols only used by dead symbols go too.
 */
import { ArrayAttr, type Attribute, DictionaryAttr, StringAttr, SymbolRefAttr } from '../ir/attributes.js';
import type { Operation } from '../ir/ir.js';
import { lookupSymbol, symbolTableOf } from '../ir/symbols.js';
import type { PassDecl } from './pass.js';
import { SymbolDef, SymbolTable } from '../ir/traits.js';

/** Every symbol reference inside `a` (arrays and dictionaries are searched). */
function collectRefs(a: Attribute, out: SymbolRefAttr[]): void {
  if (a instanceof SymbolRefAttr) out.push(a);
  else if (a instanceof ArrayAttr) for (const x of a.value) collectRefs(x, out);
  else if (a instanceof DictionaryAttr) for (const [, x] of a.entries) collectRefs(x, out);
}

/** Whether `op` is a symbol: a `Symbol` op, or a named symbol table (`module @m`), with a `sym_name`. */
function isSymbol(op: Operation): boolean {
  return (op.hasTrait(SymbolDef) || op.hasTrait(SymbolTable)) && op.getAttr('sym_name') instanceof StringAttr;
}

/** Whether `op` is a private symbol. */
function isPrivate(op: Operation): boolean {
  const v = op.getAttr('sym_visibility');
  return v instanceof StringAttr && v.value === 'private';
}

/** The nearest symbol strictly enclosing `op` (below `root`), or null. */
function enclosingSymbol(op: Operation, root: Operation): Operation | null {
  for (let p = op.parentOp; p && p !== root; p = p.parentOp) if (isSymbol(p)) return p;
  return null;
}

/** The symbols `ref` names, outermost first (`@a::@b` names @a and @b); empty when unresolved. */
function resolve(user: Operation, ref: SymbolRefAttr): Operation[] {
  const table = user.hasTrait(SymbolTable) ? symbolTableOf(user) ?? user : symbolTableOf(user);
  if (!table) return [];
  const out: Operation[] = [];
  let cur = lookupSymbol(table, ref.root);
  for (let k = 0; cur; k++) {
    out.push(cur);
    if (k === ref.nested.length) break;
    cur = cur.hasTrait(SymbolTable) ? lookupSymbol(cur, ref.nested[k]) : null;
  }
  return out;
}

/** The `symbol-dce` pass. */
export const symbolDce: PassDecl = {
  name: 'symbol-dce',
  summary: 'Remove private symbols that are not referenced',
  anchor: 'module',
  statistics: { "num-dce'd": 'number of symbols removed' },
  run(module, ctx) {
    // Which symbols each op's references keep alive, grouped by the symbol the op is in (null: none).
    const usesBy = new Map<Operation | null, Operation[]>();
    const children = new Map<Operation | null, Operation[]>();
    const symbols: Operation[] = [];
    module.walk((op) => {
      if (op !== module && isSymbol(op)) {
        symbols.push(op);
        const parent = enclosingSymbol(op, module);
        children.set(parent, [...(children.get(parent) ?? []), op]);
      }
      const refs: SymbolRefAttr[] = [];
      for (const [, a] of op.allAttrs()) collectRefs(a, refs);
      if (!refs.length) return;
      const owner = op === module ? null : isSymbol(op) ? op : enclosingSymbol(op, module);
      const list = usesBy.get(owner) ?? [];
      for (const r of refs) list.push(...resolve(op, r));
      usesBy.set(owner, list);
    }, 'pre');
    const live = new Set<Operation>();
    const work: (Operation | null)[] = [null];
    const markLive = (s: Operation) => {
      if (live.has(s)) return;
      live.add(s);
      work.push(s);
    };
    while (work.length) {
      const owner = work.pop()!;
      for (const child of children.get(owner) ?? []) if (!isPrivate(child)) markLive(child);
      for (const used of usesBy.get(owner) ?? []) markLive(used);
    }
    const rw = ctx.rewriter();
    for (const s of symbols) {
      // Nested symbols of a removed symbol go with it.
      const parent = enclosingSymbol(s, module);
      if (live.has(s) || (parent && !live.has(parent))) continue;
      // tt.func private @unused(...) {...} -> (erased)
      rw.eraseOp(s);
      ctx.bump("num-dce'd");
    }
  },
};
