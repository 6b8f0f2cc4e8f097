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
import { compileFormat, type CompiledFormat, type FormatParser, type FormatPrinter } from './format.js';
import type { RewritePattern } from './patterns.js';
import { Terminator, type Trait } from './traits.js';
import type { OpDef } from './op-def.js';

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

/**
 * A kind of attribute: how it is checked and how it reads/prints where a format names it (`$axis`).
 * `A` is the attribute class it accepts; `V` the native value a typed view reads it as (`number`
 * for an i32 attribute, the case name for an enum), when `value` converts.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface AttrConstraint<A extends Attribute = any, V = any> {
  description: string;
  check(a: Attribute): boolean;
  /** The native value of an attribute this constraint accepts (typed views return it). */
  value?(a: A): V;
  /** The attribute for a native value (typed builders accept it); undefined means "leave it absent". */
  fromValue?(v: V): A | undefined;
  /** What a typed view reads when the attribute is absent (`false` for unit attributes). */
  absent?: V;
  /** Parses the value where `$name` appears in a format (e.g. the keyword `slt`). */
  parse(p: AsmParser): Attribute;
  /** Prints the value where `$name` appears in a format. */
  print(p: AsmPrinter, a: Attribute): void;
  /** For optional groups anchored on this attribute: whether the next token can start it. */
  canStart?(p: AsmParser): boolean;
}

/** An operand or result group. */
export interface ValueDecl {
  readonly name: string;
  /** `variadic`: zero or more values; `optional`: zero or one. Default: exactly one. */
  readonly kind?: 'single' | 'variadic' | 'optional';
  readonly type?: TypeConstraint;
  /** One line for the generated docs. */
  readonly summary?: string;
}

/** An inherent attribute. */
export interface AttrDecl {
  readonly name: string;
  readonly kind: AttrConstraint;
  readonly optional?: boolean;
  /** Filled in when absent; elided from the custom form when equal. */
  readonly default?: Attribute;
}

/** A region or successor group. */
export interface RegionDecl {
  readonly name: string;
  readonly variadic?: boolean;
  /** MLIR's `SizedRegion<N>`: the region must have exactly this many blocks. */
  readonly blocks?: number;
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
  readonly name: string;
  /** One line: what the op does (shown by `--list-ops` and the generated dialect docs). */
  readonly summary?: string;
  readonly operands?: readonly ValueDecl[];
  readonly results?: readonly ValueDecl[];
  readonly attrs?: readonly AttrDecl[];
  readonly regions?: readonly RegionDecl[];
  readonly successors?: readonly RegionDecl[];
  /** Trait objects (`ir/traits.ts`): `Pure`, `Terminator`, `HasParent('tt.reduce')`, ... */
  readonly traits?: readonly Trait[];
  /**
   * For an op whose purity depends on its attributes (MLIR's conditional memory effects): it is
   * Pure exactly where this holds (`tt.elementwise_inline_asm` with `pure = true`).
   */
  readonly pureWhen?: (op: Operation) => boolean;
  /**
   * For an op whose only effect is reading memory (MLIR's `MemRead`) where this holds (`tt.load`
   * unless volatile): unused, it is trivially dead and DCE erases it; it is still not pure (CSE
   * and hoisting must not move it across writes).
   */
  readonly readOnlyWhen?: (op: Operation) => boolean;
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
  /** The dialect's ops, each made by `defineOp` (`ir/op-def.ts`). */
  ops: readonly OpDef[];
  /** Parsers for `!dialect.mnemonic...`: the parser is positioned after the mnemonic. */
  types?: Record<string, (p: AsmParser) => Type>;
  /** Parsers for `#dialect.mnemonic...`: the parser is positioned after the mnemonic. */
  attrs?: Record<string, (p: AsmParser) => Attribute>;
  /**
   * Checks every op's operand and result types in context (e.g. that a layout's warps match
   * the module's `ttg.num-warps`). Return a message to report at the op, or nothing.
   */
  verifyType?: (t: Type, op: Operation) => string | void;
  /**
   * Checks a discardable attribute named `<dialect>.<...>` on any op (MLIR's
   * verifyOperationAttribute), e.g. that `ttg.num-warps` is an i32 power of two. Return a message
   * to report at the op, or nothing.
   */
  verifyAttribute?: (op: Operation, name: string, value: Attribute) => string | void;
}

/** A compiled op declaration, with lookup tables the parser, printer and verifier use. */
export class OpSpec {
  readonly traitSet: Set<Trait>;
  /** The checks of the traits that have one, in declaration order (run by the verifier). */
  readonly traitVerifiers: ((op: Operation) => string | undefined)[];
  readonly attrIndex: Map<string, AttrDecl>;
  readonly operands: readonly ValueDecl[];
  readonly results: readonly ValueDecl[];
  readonly regionDecls: readonly RegionDecl[];
  readonly successorDecls: readonly RegionDecl[];
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
  private compiledFormat: CompiledFormat | null | undefined = undefined;
  private readonly operandLayout: GroupLayout;
  private readonly resultLayout: GroupLayout;
  private readonly regionLayout: GroupLayout;
  private readonly successorLayout: GroupLayout;
  private readonly fixedOperands: Map<string, number> | null;
  private readonly fixedResults: Map<string, number> | null;

  constructor(readonly decl: OpDecl, readonly dialect: string) {
    this.traitSet = new Set(decl.traits ?? []);
    // The terminator's position is checked last, after its parent (as mlir-opt reports a misplaced scf.condition).
    const checked = (decl.traits ?? []).filter((t) => t.verify);
    this.traitVerifiers = [...checked.filter((t) => t !== Terminator), ...checked.filter((t) => t === Terminator)].map((t) => t.verify!);
    this.attrIndex = new Map((decl.attrs ?? []).map((a) => [a.name, a]));
    this.operands = decl.operands ?? [];
    this.results = decl.results ?? [];
    this.regionDecls = decl.regions ?? [];
    this.successorDecls = decl.successors ?? [];
    this.operandLayout = GroupLayout.of(this.operands);
    this.resultLayout = GroupLayout.of(this.results);
    this.regionLayout = GroupLayout.of(this.regionDecls);
    this.successorLayout = GroupLayout.of(this.successorDecls);
    this.fixedOperands = this.operandLayout.variable ? null : new Map(this.operands.map((d, k) => [d.name, k]));
    this.fixedResults = this.resultLayout.variable ? null : new Map(this.results.map((d, k) => [d.name, k]));
    this.counts = {
      operands: this.operandLayout.fixed,
      variadicOperands: this.operandLayout.variable > 0,
      results: this.resultLayout.fixed,
      variadicResults: this.resultLayout.variable > 0,
      regions: this.regionLayout.fixed,
      variadicRegions: this.regionLayout.variable > 0,
      successors: this.successorLayout.fixed,
      variadicSuccessors: this.successorLayout.variable > 0,
    };
  }

  /**
   * The compiled assembly format, null for an op without one (it prints generically or through
   * `syntax`). Compiled on first use: a run compiles the formats of the ops it reads or prints,
   * not the ~400 of every loaded dialect (test/dialects/formats.test.ts compiles them all).
   */
  get format(): CompiledFormat | null {
    if (this.compiledFormat === undefined) this.compiledFormat = this.decl.format === undefined ? null : compileFormat(this);
    return this.compiledFormat;
  }

  get name(): string {
    return this.decl.name;
  }
  /** More than one operand group of variable size needs `operandSegmentSizes`. */
  get needsOperandSegments(): boolean {
    return this.operandLayout.variable > 1;
  }
  get needsResultSegments(): boolean {
    return this.resultLayout.variable > 1;
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
    return this.operandLayout.sizes(op.numOperands, op, 'operandSegmentSizes');
  }
  resultGroupSizes(op: Operation): number[] {
    return this.resultLayout.sizes(op.numResults, op, 'resultSegmentSizes');
  }
  /** The operands of group `name`. */
  operandGroup(op: Operation, name: string): Value[] {
    return this.operandLayout.slice(name, op.numOperands, op, 'operandSegmentSizes', (k) => op.operands[k].value);
  }
  resultGroup(op: Operation, name: string): Value[] {
    return this.resultLayout.slice(name, op.numResults, op, 'resultSegmentSizes', (k) => op.results[k]);
  }
  regionGroup(op: Operation, name: string): Region[] {
    return this.regionLayout.slice(name, op.regions.length, null, '', (k) => op.regions[k]);
  }
  successorGroup(op: Operation, name: string): Block[] {
    return this.successorLayout.slice(name, op.successors.length, null, '', (k) => op.successors[k]);
  }
}

/**
 * How an op's values (operands, results, regions or successors) split into the declared groups,
 * precomputed per declaration: with at most one group of variable size (nearly every op), a
 * group's values are found without building the list of sizes.
 */
class GroupLayout {
  private readonly index = new Map<string, number>();
  private readonly isVariable: boolean[];
  /** How many groups have a variable size. */
  readonly variable: number;
  /** How many groups have exactly one value. */
  readonly fixed: number;
  /** The one variable group, when there is exactly one; else -1. */
  private readonly variableIndex: number;

  private static readonly NONE = new GroupLayout([]);

  /** The layout of `decls` (one shared instance for the many ops that declare no group of a kind). */
  static of(decls: readonly { name: string; kind?: string; variadic?: boolean }[]): GroupLayout {
    return decls.length ? new GroupLayout(decls) : GroupLayout.NONE;
  }

  private constructor(decls: readonly { name: string; kind?: string; variadic?: boolean }[]) {
    decls.forEach((d, k) => this.index.set(d.name, k));
    this.isVariable = decls.map((d) => d.kind === 'variadic' || d.kind === 'optional' || d.variadic === true);
    this.variable = this.isVariable.filter(Boolean).length;
    this.fixed = decls.length - this.variable;
    this.variableIndex = this.variable === 1 ? this.isVariable.indexOf(true) : -1;
  }

  /**
   * The size of each group for `total` values. With several variable groups the sizes are `op`'s
   * segment attribute `segmentsName` (without it each variable group is given all the rest).
   */
  sizes(total: number, op: Operation | null, segmentsName: string): number[] {
    if (this.variable > 1) {
      const segments = op?.getAttr(segmentsName);
      if (segments instanceof DenseArrayAttr) return [...segments.values];
    }
    const rest = Math.max(0, total - this.fixed);
    return this.isVariable.map((v) => (v ? rest : 1));
  }

  /** The values of group `name`, read by `get` from their positions among the `total`. */
  slice<T>(name: string, total: number, op: Operation | null, segmentsName: string, get: (k: number) => T): T[] {
    const k = this.index.get(name);
    if (k === undefined) throw new Error(`internal error: no group named '${name}'`);
    let start: number;
    let size: number;
    if (this.variable <= 1) {
      const rest = Math.max(0, total - this.fixed);
      size = this.isVariable[k] ? rest : 1;
      start = this.variableIndex >= 0 && k > this.variableIndex ? k - 1 + rest : k;
    } else {
      const sizes = this.sizes(total, op, segmentsName);
      start = 0;
      for (let j = 0; j < k; j++) start += sizes[j];
      size = sizes[k];
    }
    const out = new Array<T>(size);
    for (let j = 0; j < size; j++) out[j] = get(start + j);
    return out;
  }
}

