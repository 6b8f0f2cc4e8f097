/**
 * Specialized parsing of the common declarative formats. An op whose operands and results are
 * all single values and whose format uses only literals, operands, attributes, `type(...)` of
 * single operands or results, `attr-dict` and optional groups of those (`arith.addi`,
 * `arith.cmpi`, `tt.splat`, ...) gets a plan, computed once: steps with the operand and result
 * indices resolved, operands kept as text offsets and types in arrays. That avoids the general
 * engine's per-op group maps, list allocations and lookups by name (`ir/format.ts`).
 *
 * Parsing with a plan gives exactly what the general engine gives. Whenever the plan's type
 * inference meets something unusual (a rule returning several types, a type that cannot be
 * inferred), it hands what it read to the general engine, which finishes the op and reports
 * any error in its usual words.
 */
import {
  finishParse, parseOneType, releaseScratch, singleton, takeScratch, tryStart, type CompiledFormat, type Element,
  type FormatParser, type OperationState,
} from './format.js';
import type { SourcePos } from './diagnostics.js';
import type { Value } from './ir.js';
import { PUNCT } from './lexer.js';
import type { AttrDecl, OpSpec, TypeConstraint, TypeEnv } from './op-spec.js';
import { SameOperandsAndResultType, SameTypeOperands } from './traits.js';
import type { Type } from './types.js';

/** What a plan needs from the parser beyond `FormatParser`: operands read as text offsets. */
export interface PlanParser extends FormatParser {
  /** Consumes an SSA operand reference (`%x`, `%x#1`) and stores its text offsets at `k`. */
  parseOperandInto(starts: Int32Array, ends: Int32Array, k: number): void;
  /** `parsePunct(text)` for the punctuation of token kind `kind`. */
  parsePunctKind(kind: number, text: string): void;
  /** `resolveOperand` for the reference `text[start, end)`. */
  resolveRange(start: number, end: number, type: Type): Value;
  /** The source text. */
  readonly source: { readonly text: string };
}

/** One step of a plan. */
type Step =
  | { k: 'keyword'; text: string }
  | { k: 'punct'; text: string; /** its token kind */ kind: number }
  | { k: 'operand'; index: number }
  | { k: 'attr'; name: string; decl: AttrDecl }
  | { k: 'type'; result: boolean; index: number; constraint: TypeConstraint | undefined; qualified: boolean }
  | { k: 'attrdict'; withKeyword: boolean }
  | { k: 'optional'; first: Element; then: Step[]; else: Step[] };

const NO_REGIONS: OperationState['regions'] = Object.freeze([]) as unknown as OperationState['regions'];
const NO_SUCCESSORS: OperationState['successors'] = Object.freeze([]) as unknown as OperationState['successors'];

/** A format compiled against its op for the fast path, with its reusable per-op state. */
export class FormatPlan {
  private readonly nOperands: number;
  private readonly nResults: number;
  private readonly refStarts: Int32Array;
  private readonly refEnds: Int32Array;
  private readonly operandTypes: (Type | undefined)[];
  private readonly resultTypes: (Type | undefined)[];
  /** Assignment order of operand and result types (index, or -1 - index for results). */
  private readonly order: number[] = [];
  private orderLength = 0;
  /** How many of `order` the format's own `type(...)` directives assigned (what the fallback replays). */
  private parsedLength = 0;
  private firstOperandType: Type | undefined;
  private firstResultType: Type | undefined;
  private readonly sameAll: boolean;
  private readonly sameOperands: boolean;
  private readonly env: TypeEnv;
  /** The state of the op being parsed (for the inference rules' `attr`). */
  private current: FormatParser | null = null;
  /**
   * The parser state of this op kind, reused from op to op: its operand and result-type lists
   * have exactly the op's sizes (`Operation.create` copies them), and plan ops have no regions
   * or successors. Reuse is safe because a plan op contains no nested op.
   */
  private state: OperationState | null = null;
  private readonly operandValues: Value[];
  /** Made on first use with real values, so that its shape is that of every other position. */
  private sharedPos: SourcePos | null = null;
  private readonly resultTypeList: Type[];

  constructor(
    private readonly spec: OpSpec,
    private readonly steps: Step[],
  ) {
    this.nOperands = spec.operands.length;
    this.nResults = spec.results.length;
    this.refStarts = new Int32Array(this.nOperands);
    this.refEnds = new Int32Array(this.nOperands);
    this.operandTypes = new Array(this.nOperands).fill(undefined);
    this.resultTypes = new Array(this.nResults).fill(undefined);
    this.operandValues = new Array(this.nOperands).fill(null);
    this.resultTypeList = new Array(this.nResults).fill(null);
    this.sameAll = spec.traitSet.has(SameOperandsAndResultType);
    this.sameOperands = spec.traitSet.has(SameTypeOperands);
    const indexOf = (list: readonly { name: string }[], n: string) => list.findIndex((d) => d.name === n);
    this.env = {
      operand: (n) => {
        const k = indexOf(spec.operands, n);
        const t = k < 0 ? undefined : this.operandTypes[k];
        return t ? singleton(t) : undefined;
      },
      result: (n) => {
        const k = indexOf(spec.results, n);
        const t = k < 0 ? undefined : this.resultTypes[k];
        return t ? singleton(t) : undefined;
      },
      attr: (n) => {
        const st = this.current!.state;
        return st.props?.[n] ?? st.attrs?.[n] ?? spec.attrIndex.get(n)?.default;
      },
      numOperands: (n) => (indexOf(spec.operands, n) < 0 ? 0 : 1),
    };
  }

  /**
   * The parser state for the next op of this kind, whose name is at `offset` in `source`, to be
   * set as `p.state` before `parse`. Its `pos` object is reused too (the op keeps the source
   * and offset, not the object); only the general engine may put it in a diagnostic, and it
   * gets a copy.
   */
  stateFor(source: SourcePos['source'], offset: number): OperationState {
    const pos = (this.sharedPos ??= { source, offset });
    pos.source = source;
    pos.offset = offset;
    const st = (this.state ??= {
      name: this.spec.name,
      spec: this.spec,
      operands: this.operandValues,
      resultTypes: this.resultTypeList,
      props: null,
      attrs: null,
      regions: NO_REGIONS,
      successors: NO_SUCCESSORS,
      pos,
    });
    st.pos = pos;
    st.props = null;
    st.attrs = null;
    st.operands = this.operandValues;
    st.resultTypes = this.resultTypeList;
    return st;
  }

  /** Parses the op into `p.state` (which `stateFor` gave). */
  parse(p: PlanParser): void {
    this.operandTypes.fill(undefined);
    this.resultTypes.fill(undefined);
    this.orderLength = 0;
    this.firstOperandType = this.firstResultType = undefined;
    this.runSteps(p, this.steps);
    this.parsedLength = this.orderLength;
    this.current = p;
    const complete = this.inferMissing();
    this.current = null;
    if (!complete) return this.finishGenerally(p);
    for (let k = 0; k < this.nOperands; k++) this.operandValues[k] = p.resolveRange(this.refStarts[k], this.refEnds[k], this.operandTypes[k]!);
    for (let k = 0; k < this.nResults; k++) this.resultTypeList[k] = this.resultTypes[k]!;
  }

  private runSteps(p: PlanParser, steps: Step[]): void {
    for (let i = 0; i < steps.length; i++) {
      const s = steps[i];
      switch (s.k) {
        case 'keyword':
          p.parseKeyword(s.text);
          break;
        case 'punct':
          p.parsePunctKind(s.kind, s.text);
          break;
        case 'operand':
          p.parseOperandInto(this.refStarts, this.refEnds, s.index);
          break;
        case 'attr':
          p.setProperty(s.name, s.decl.kind.parse(p));
          break;
        case 'type':
          this.assign(s.result, s.index, parseOneType(p, s.constraint, s.qualified));
          break;
        case 'attrdict':
          if (s.withKeyword) p.parseOptionalAttrDictWithKeyword();
          else p.parseOptionalAttrDict();
          break;
        case 'optional':
          this.runSteps(p, tryStart(p, this.spec, s.first) ? s.then : s.else);
          break;
      }
    }
  }

  private assign(result: boolean, index: number, t: Type): void {
    if (result) {
      this.resultTypes[index] = t;
      this.firstResultType ??= t;
    } else {
      this.operandTypes[index] = t;
      this.firstOperandType ??= t;
    }
    this.order[this.orderLength++] = result ? -1 - index : index;
  }

  /**
   * The general engine's inference (`inferMissing` in `ir/format.ts`) over the plan's arrays:
   * rules, then traits, then buildable types, in up to three rounds. False when a type stays
   * unknown or a rule answers something other than one type.
   */
  private inferMissing(): boolean {
    if (this.orderLength === this.nOperands + this.nResults) return true;
    const rules = this.spec.decl.inferTypes;
    for (let round = 0; round < 3; round++) {
      let missing = 0;
      for (let k = 0; k < this.nOperands; k++) {
        if (this.operandTypes[k]) continue;
        const d = this.spec.operands[k];
        const t = this.infer(rules?.[d.name], d.type);
        if (t === undefined) missing++;
        else if (t === null) return false;
        else this.assign(false, k, t);
      }
      for (let k = 0; k < this.nResults; k++) {
        if (this.resultTypes[k]) continue;
        const d = this.spec.results[k];
        const t = this.infer(rules?.[d.name], d.type);
        if (t === undefined) missing++;
        else if (t === null) return false;
        else this.assign(true, k, t);
      }
      if (!missing) return true;
    }
    return false;
  }

  /** One inferred type; undefined when none is known yet, null when the answer is not a single type. */
  private infer(rule: ((env: TypeEnv) => Type[] | undefined) | undefined, c: TypeConstraint | undefined): Type | undefined | null {
    const ruled = rule ? rule(this.env) : undefined;
    if (ruled !== undefined && ruled !== null) return ruled.length === 1 && ruled[0] ? ruled[0] : null;
    if (this.sameAll || this.sameOperands) {
      const first = this.firstOperandType ?? (this.sameAll ? this.firstResultType : undefined);
      if (first) return first;
    }
    return c?.buildable;
  }

  /** Hands the operands and types the text gave to the general engine, which infers the rest and finishes the op. */
  private finishGenerally(p: PlanParser): void {
    const spec = this.spec;
    const st = p.state;
    st.pos = { source: st.pos.source, offset: st.pos.offset };
    st.operands = [];
    st.resultTypes = [];
    st.regions = [];
    st.successors = [];
    const s = takeScratch();
    try {
      const text = p.source.text;
      for (let k = 0; k < this.nOperands; k++) {
        const start = this.refStarts[k];
        s.refs.set(spec.operands[k].name, [{ image: text.slice(start, this.refEnds[k]), startOffset: start }]);
      }
      for (let j = 0; j < this.parsedLength; j++) {
        const o = this.order[j];
        if (o >= 0) s.operandTypes.set(spec.operands[o].name, singleton(this.operandTypes[o]!));
        else s.resultTypes.set(spec.results[-1 - o].name, singleton(this.resultTypes[-1 - o]!));
      }
      finishParse(p, spec, s);
    } finally {
      releaseScratch();
    }
  }
}

/** The plan for `spec`'s format, or null when the format needs the general engine. */
export function planFor(spec: OpSpec, format: CompiledFormat): FormatPlan | null {
  if (format.plan !== undefined) return format.plan as FormatPlan | null;
  const plan = compilePlan(spec, format);
  format.plan = plan;
  return plan;
}

function compilePlan(spec: OpSpec, format: CompiledFormat): FormatPlan | null {
  const single = (d: { kind?: string }) => d.kind === undefined || d.kind === 'single';
  if (!spec.operands.every(single) || !spec.results.every(single)) return null;
  if (spec.regionDecls.length || spec.successorDecls.length) return null;
  const seenOperands = new Set<number>();
  const typed = new Set<string>();
  const compile = (els: Element[], optional: boolean): Step[] | null => {
    const out: Step[] = [];
    for (const e of els) {
      const step = compileElement(e, optional);
      if (step === null) return null;
      if (step !== undefined) out.push(step);
    }
    return out;
  };
  const compileElement = (e: Element, optional: boolean): Step | null | undefined => {
    switch (e.k) {
      case 'lit':
        if (e.text === '' || e.text === ' ' || e.text === '\\n') return undefined;
        if (e.keyword) return { k: 'keyword', text: e.text };
        // Unknown punctuation stays with the general engine, which reports it.
        return PUNCT[e.text] === undefined ? null : { k: 'punct', text: e.text, kind: PUNCT[e.text] };
      case 'operand': {
        const index = spec.operands.findIndex((d) => d.name === e.name);
        // Each operand exactly once, never optional: its reference is then always read.
        if (optional || index < 0 || seenOperands.has(index)) return null;
        seenOperands.add(index);
        return { k: 'operand', index };
      }
      case 'attr':
        return { k: 'attr', name: e.name, decl: spec.attrIndex.get(e.name)! };
      case 'type': {
        const result = e.arg.kind === 'result';
        if (e.arg.kind !== 'operand' && !result) return null;
        const decls = result ? spec.results : spec.operands;
        const index = decls.findIndex((d) => d.name === e.arg.name);
        // Types assigned once and unconditionally keep the inference order simple.
        const key = e.arg.kind + ':' + e.arg.name;
        if (optional || index < 0 || typed.has(key)) return null;
        typed.add(key);
        return { k: 'type', result, index, constraint: decls[index].type, qualified: e.qualified };
      }
      case 'attrdict':
        return { k: 'attrdict', withKeyword: e.withKeyword };
      case 'optional': {
        const first = e.then[0];
        if (!first) return null;
        const thenSteps = compile(first.k === 'lit' ? e.then.slice(1) : e.then, true);
        const elseSteps = compile(e.else, true);
        if (!thenSteps || !elseSteps) return null;
        return { k: 'optional', first, then: thenSteps, else: elseSteps };
      }
      default:
        return null;
    }
  };
  const steps = compile(format.elements, false);
  if (!steps || seenOperands.size !== spec.operands.length) return null;
  return new FormatPlan(spec, steps);
}

