/**
 * Declarative op specifications ("dialects as data"). A dialect is a table of `OpDecl`s; from
 * one declaration come the parser and printer (through the assembly format), the verifier,
 * the builder and the accessors. Nothing is generated: the declaration is interpreted.
 */
import type { AsmParser, AsmPrinter } from './asm.js';
import type { Attribute } from './attributes.js';
import { DenseArrayAttr } from './attributes.js';
import type { Block, Operation, Region, Value } from './ir.js';
import type { Type } from './types.js';
import type { CompiledFormat, FormatParser, FormatPrinter } from './format.js';
import type { RewritePattern } from './patterns.js';

/** What an op's verifier returns: nothing when valid, else a message (prefixed with the op) or a bare message. */
export type VerifyResult = string | { bare: string } | void | undefined;

/** A predicate on types with a human-readable description for messages. */
export interface TypeConstraint {
  /** Used in messages: `'tt.splat' op operand #0 must be <description>`. */
  description: string;
  check(t: Type): boolean;
  /**
   * When set, `type($x)` in an assembly format prints and parses the type in stripped form
   * (without `!dialect.name`), as ODS does for operands constrained to one dialect type class.
   */
  stripped?: { print(p: AsmPrinter, t: Type): void; parse(p: AsmParser): Type };
  /** The one type this constraint allows (ODS "buildable" types such as i1), used when a format omits it. */
  buildable?: Type;
}

/** A kind of attribute: how it is checked and how it reads/prints where a format names it (`$axis`). */
export interface AttrConstraint {
  description: string;
  check(a: Attribute): boolean;
  /** Parses the value where `$name` appears in a format (e.g. the keyword `slt`). */
  parse(p: AsmParser): Attribute;
  /** Prints the value where `$name` appears in a format. */
  print(p: AsmPrinter, a: Attribute): void;
  /** For optional groups anchored on this attribute: whether the next token can start it. */
  canStart?(p: AsmParser): boolean;
}

/** An operand or result group. */
export interface ValueDecl {
  name: string;
  /** `variadic`: zero or more values; `optional`: zero or one. Default: exactly one. */
  kind?: 'single' | 'variadic' | 'optional';
  type?: TypeConstraint;
}

/** An inherent attribute. */
export interface AttrDecl {
  name: string;
  kind: AttrConstraint;
  optional?: boolean;
  /** Filled in when absent; elided from the custom form when equal. */
  default?: Attribute;
}

/** A region or successor group. */
export interface RegionDecl {
  name: string;
  variadic?: boolean;
}

/** Folding result: an attribute (constant) or an existing value per result. */
export type FoldResult = (Attribute | Value)[] | null;

/** Op-level escape hatch for ops whose syntax the declarative format cannot express. */
export interface CustomSyntax {
  parse(p: FormatParser): void;
  print(p: FormatPrinter, op: Operation): void;
}

/** A named custom directive usable as `custom<Name>(...)` in a format. */
export interface CustomDirective {
  parse(p: FormatParser, args: string[]): void;
  print(p: FormatPrinter, op: Operation, args: string[]): void;
}

/** Context given to type inference rules while parsing a custom form. */
export interface TypeEnv {
  /** Types of each operand group (undefined where not yet known). */
  operand(name: string): Type[] | undefined;
  result(name: string): Type[] | undefined;
  attr(name: string): Attribute | undefined;
  numOperands(name: string): number;
}

/** Everything a dialect table says about one op. */
export interface OpDecl {
  name: string;
  summary?: string;
  operands?: ValueDecl[];
  results?: ValueDecl[];
  attrs?: AttrDecl[];
  regions?: RegionDecl[];
  successors?: RegionDecl[];
  /** Names of traits: `Pure`, `Terminator`, `IsolatedFromAbove`, `SameOperandsAndResultType`, ... */
  traits?: string[];
  /** MLIR declarative assembly format; absent means the op prints in generic form. */
  format?: string;
  /** Whole-op syntax when the format cannot express it. */
  syntax?: CustomSyntax;
  /** Named custom directives for `custom<Name>(...)`. */
  directives?: Record<string, CustomDirective>;
  /** Infers types of operand/result groups the format does not spell out. */
  inferTypes?: Record<string, (env: TypeEnv) => Type[] | undefined>;
  /** The dialect whose ops may be written without prefix inside this op's regions (`func` for func.func). */
  defaultDialect?: string;
  /** Suggested result names (`%c1_i32`, `%cst`). */
  resultNames?: (op: Operation) => (string | null)[];
  /**
   * Extra checks; return a message (reported as `'name' op message`), `{ bare }` for a message
   * without the op prefix (MLIR's `emitError` rather than `emitOpError`), or nothing.
   */
  verify?: (op: Operation) => VerifyResult;
  /** Checks that need the nested ops verified first (run after the op's regions). */
  verifyRegions?: (op: Operation) => VerifyResult;
  /** Canonicalization patterns rooted at this op (collected by the `canonicalize` pass). */
  canonicalize?: RewritePattern[];
  /** Constant folding: `operands[k]` is the constant attribute of operand k, if known. */
  fold?: (op: Operation, operands: (Attribute | null)[]) => FoldResult;
}

/** A dialect: a namespace with its ops, types and attributes. */
export interface DialectDecl {
  name: string;
  summary?: string;
  ops: OpDecl[];
  /** Parsers for `!dialect.mnemonic...`: the parser is positioned after the mnemonic. */
  types?: Record<string, (p: AsmParser) => Type>;
  /** Parsers for `#dialect.mnemonic...`: the parser is positioned after the mnemonic. */
  attrs?: Record<string, (p: AsmParser) => Attribute>;
  /**
   * Checks every op's operand and result types in context (e.g. that a layout's warps match
   * the module's `ttg.num-warps`). Return a message to report at the op, or nothing.
   */
  verifyType?: (t: Type, op: Operation) => string | void;
}

/** A compiled op declaration, with lookup tables the parser, printer and verifier use. */
export class OpSpec {
  readonly traitSet: Set<string>;
  readonly attrIndex: Map<string, AttrDecl>;
  readonly operands: ValueDecl[];
  readonly results: ValueDecl[];
  readonly regionDecls: RegionDecl[];
  readonly successorDecls: RegionDecl[];
  format: CompiledFormat | null = null;
  /** Counts the verifier checks, computed once: fixed-size groups, and whether a variable group exists. */
  readonly counts: {
    operands: number;
    variadicOperands: boolean;
    results: number;
    variadicResults: boolean;
    regions: number;
    variadicRegions: boolean;
    successors: number;
    variadicSuccessors: boolean;
  };
  /** Allowed parent op names from a `HasParent(...)` trait, or null. */
  readonly allowedParents: string[] | null;
  private readonly fixedOperands: Map<string, number> | null;
  private readonly fixedResults: Map<string, number> | null;

  constructor(readonly decl: OpDecl, readonly dialect: string) {
    this.traitSet = new Set(decl.traits ?? []);
    this.attrIndex = new Map((decl.attrs ?? []).map((a) => [a.name, a]));
    this.operands = decl.operands ?? [];
    this.results = decl.results ?? [];
    this.regionDecls = decl.regions ?? [];
    this.successorDecls = decl.successors ?? [];
    this.fixedOperands = countVariable(this.operands) ? null : new Map(this.operands.map((d, k) => [d.name, k]));
    this.fixedResults = countVariable(this.results) ? null : new Map(this.results.map((d, k) => [d.name, k]));
    const isVar = (d: { kind?: string; variadic?: boolean }) => d.kind === 'variadic' || d.kind === 'optional' || d.variadic === true;
    this.counts = {
      operands: this.operands.filter((d) => !isVar(d)).length,
      variadicOperands: this.operands.some(isVar),
      results: this.results.filter((d) => !isVar(d)).length,
      variadicResults: this.results.some(isVar),
      regions: this.regionDecls.filter((d) => !isVar(d)).length,
      variadicRegions: this.regionDecls.some(isVar),
      successors: this.successorDecls.filter((d) => !isVar(d)).length,
      variadicSuccessors: this.successorDecls.some(isVar),
    };
    const parentTrait = [...this.traitSet].find((t) => t.startsWith('HasParent('));
    this.allowedParents = parentTrait ? parentTrait.slice(10, -1).split(',').map((s) => s.trim()) : null;
    if (this.needsOperandSegments) this.traitSet.add('AttrSizedOperandSegments');
    if (this.needsResultSegments) this.traitSet.add('AttrSizedResultSegments');
  }

  get name(): string {
    return this.decl.name;
  }
  /** More than one operand group of variable size needs `operandSegmentSizes`. */
  get needsOperandSegments(): boolean {
    return countVariable(this.operands) > 1;
  }
  get needsResultSegments(): boolean {
    return countVariable(this.results) > 1;
  }

  /** Index of operand group `name` when every operand group has exactly one value; else -1. */
  fixedOperandIndex(name: string): number {
    return this.fixedOperands?.get(name) ?? -1;
  }
  /** Index of result group `name` when every result group has exactly one value; else -1. */
  fixedResultIndex(name: string): number {
    return this.fixedResults?.get(name) ?? -1;
  }

  /** Sizes of each operand group of `op`. */
  operandGroupSizes(op: Operation): number[] {
    return groupSizes(this.operands, op.numOperands, op.getAttr('operandSegmentSizes'));
  }
  resultGroupSizes(op: Operation): number[] {
    return groupSizes(this.results, op.numResults, op.getAttr('resultSegmentSizes'));
  }
  /** The operands of group `name`. */
  operandGroup(op: Operation, name: string): Value[] {
    return sliceGroup(this.operands, this.operandGroupSizes(op), name, (k) => op.operand(k));
  }
  resultGroup(op: Operation, name: string): Value[] {
    return sliceGroup(this.results, this.resultGroupSizes(op), name, (k) => op.result(k));
  }
  regionGroup(op: Operation, name: string): Region[] {
    return sliceGroup(this.regionDecls, variableSizes(this.regionDecls, op.regions.length), name, (k) => op.regions[k]);
  }
  successorGroup(op: Operation, name: string): Block[] {
    return sliceGroup(this.successorDecls, variableSizes(this.successorDecls, op.successors.length), name, (k) => op.successors[k]);
  }
}

function countVariable(decls: ValueDecl[]): number {
  return decls.filter((d) => d.kind === 'variadic' || d.kind === 'optional').length;
}

function groupSizes(decls: ValueDecl[], total: number, segments: Attribute | undefined): number[] {
  if (countVariable(decls) > 1 && segments instanceof DenseArrayAttr) return [...segments.values];
  return variableSizes(decls, total);
}

/** Splits `total` across groups when at most one group is variable. */
function variableSizes(decls: { kind?: string; variadic?: boolean }[], total: number): number[] {
  const isVar = (d: { kind?: string; variadic?: boolean }) => d.kind === 'variadic' || d.kind === 'optional' || d.variadic === true;
  const fixed = decls.filter((d) => !isVar(d)).length;
  return decls.map((d) => (isVar(d) ? Math.max(0, total - fixed) : 1));
}

function sliceGroup<T>(decls: { name: string }[], sizes: number[], name: string, get: (k: number) => T): T[] {
  let start = 0;
  for (let k = 0; k < decls.length; k++) {
    if (decls[k].name === name) {
      const out: T[] = [];
      for (let j = 0; j < sizes[k]; j++) out.push(get(start + j));
      return out;
    }
    start += sizes[k];
  }
  throw new Error(`internal error: no group named '${name}'`);
}

/** Hook installed by `ir/format.ts` to compile assembly formats (kept separate to avoid a cycle). */
let compileFormatImpl: ((spec: OpSpec) => CompiledFormat) | null = null;
export function setFormatCompiler(impl: (spec: OpSpec) => CompiledFormat): void {
  compileFormatImpl = impl;
}

/** All registered dialects and ops. One process-wide registry, filled by `registerDialect`. */
export class DialectRegistry {
  readonly dialects = new Map<string, DialectDecl>();
  readonly ops = new Map<string, OpSpec>();
  readonly typeParsers = new Map<string, (p: AsmParser) => Type>();
  readonly attrParsers = new Map<string, (p: AsmParser) => Attribute>();
  readonly typeVerifiers: ((t: Type, op: Operation) => string | void)[] = [];

  /** Adds a dialect table; compiles every op's format (format errors are internal errors). */
  register(d: DialectDecl): void {
    if (this.dialects.has(d.name)) return;
    this.dialects.set(d.name, d);
    for (const decl of d.ops) {
      const spec = new OpSpec(decl, d.name);
      if (decl.format !== undefined) {
        if (!compileFormatImpl) throw new Error('internal error: format compiler not loaded');
        spec.format = compileFormatImpl(spec);
      }
      this.ops.set(decl.name, spec);
    }
    for (const [m, fn] of Object.entries(d.types ?? {})) this.typeParsers.set(`${d.name}.${m}`, fn);
    for (const [m, fn] of Object.entries(d.attrs ?? {})) this.attrParsers.set(`${d.name}.${m}`, fn);
    if (d.verifyType) this.typeVerifiers.push(d.verifyType);
  }
  lookupOp(name: string): OpSpec | undefined {
    return this.ops.get(name);
  }
  isDialectLoaded(name: string): boolean {
    return this.dialects.has(name);
  }
}

/** The registry every tool uses. */
export const registry = new DialectRegistry();
