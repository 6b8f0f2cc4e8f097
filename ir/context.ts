/**
 * The context (MLIR's `MLIRContext` with its `DialectRegistry`): the dialects loaded, their ops,
 * type and attribute parsers and type checks. Dialects are added explicitly with
 * `loadDialect`; nothing registers itself on import.
 */
import type { AsmParser } from './asm.js';
import type { Attribute } from './attributes.js';
import type { Operation } from './ir.js';
import { installOpPrinter } from './printer.js';
import type { DialectDecl, OpSpec } from './op-spec.js';
import type { Type } from './types.js';

/** The dialects and ops a parser, verifier and builder know. */
export class Context {
  readonly dialects = new Map<string, DialectDecl>();
  readonly ops = new Map<string, OpSpec>();
  readonly typeParsers = new Map<string, (p: AsmParser) => Type>();
  readonly attrParsers = new Map<string, (p: AsmParser) => Attribute>();
  readonly typeVerifiers: ((t: Type, op: Operation) => string | void)[] = [];
  /** The dialects' checks of their discardable attributes, by dialect name. */
  readonly attrVerifiers = new Map<string, (op: Operation, name: string, value: Attribute) => string | void>();

  constructor() {
    installOpPrinter();
  }

  /** Adds a dialect table (a second load of one dialect does nothing). */
  loadDialect(d: DialectDecl): this {
    if (this.dialects.has(d.name)) return this;
    this.dialects.set(d.name, d);
    for (const def of d.ops) this.ops.set(def.spec.name, def.spec);
    for (const [m, fn] of Object.entries(d.types ?? {})) this.typeParsers.set(`${d.name}.${m}`, fn);
    for (const [m, fn] of Object.entries(d.attrs ?? {})) this.attrParsers.set(`${d.name}.${m}`, fn);
    if (d.verifyType) this.typeVerifiers.push(d.verifyType);
    if (d.verifyAttribute) this.attrVerifiers.set(d.name, d.verifyAttribute);
    return this;
  }
  /** The compiled declaration of op `name`, when its dialect is loaded. */
  lookupOp(name: string): OpSpec | undefined {
    return this.ops.get(name);
  }
  isDialectLoaded(name: string): boolean {
    return this.dialects.has(name);
  }
}

/**
 * The context tools and tests use when they pass none. It starts empty: a tool loads its
 * dialects into it (`registerAllDialects(defaultContext)`) before it parses.
 */
export const defaultContext = new Context();
