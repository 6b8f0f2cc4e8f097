/**
 * Specialized printing of the common declarative formats, the counterpart of
 * `ir/format-plan.ts`: for an op whose operands and results are all single values and whose
 * format uses only literals, operands, attributes, `type(...)`, `attr-dict` and optional groups
 * of those, the format is compiled once into steps whose spacing is decided by tables: the
 * spacing state (whether a space may come next, whether the last thing printed was
 * punctuation) is a number from 0 to 3, and each literal knows its text with or without its
 * leading space for each state. The output is exactly `printWithFormat`'s.
 */
import { UnitAttr } from './attributes.js';
import { isPresent, type CompiledFormat, type Element, type FormatPrinter } from './format.js';
import type { Operation } from './ir.js';
import type { AttrDecl, OpSpec, ValueDecl } from './op-spec.js';

/** Spacing state bit: a space may be printed before the next element. */
const EMIT_SPACE = 1;
/** Spacing state bit: the last element printed was punctuation. */
const AFTER_PUNCT = 2;

type Step =
  | { k: 'write'; /** by state */ texts: string[]; next: number[] }
  | { k: 'newline' }
  | { k: 'operand'; index: number }
  | { k: 'type'; result: boolean; index: number; decl: ValueDecl | undefined; qualified: boolean }
  | { k: 'attr'; name: string; decl: AttrDecl }
  | { k: 'attrdict'; withKeyword: boolean }
  | { k: 'optional'; anchor: Element; then: Step[]; else: Step[] };

/** A format compiled for printing one op kind. */
export class PrintPlan {
  constructor(
    private readonly spec: OpSpec,
    private readonly steps: Step[],
    private readonly elided: Set<string>,
  ) {}

  /** Prints `op` (after its name). */
  print(p: FormatPrinter, op: Operation): void {
    this.run(p, op, this.steps, EMIT_SPACE);
  }

  private run(p: FormatPrinter, op: Operation, steps: Step[], state: number): number {
    for (let i = 0; i < steps.length; i++) {
      const s = steps[i];
      switch (s.k) {
        case 'write': {
          const text = s.texts[state];
          if (text) p.write(text);
          state = s.next[state];
          break;
        }
        case 'newline':
          p.printNewline();
          state &= ~EMIT_SPACE;
          break;
        case 'operand':
          if (state & EMIT_SPACE) p.write(' ');
          p.printOperand(op.operands[s.index].value);
          state = EMIT_SPACE;
          break;
        case 'type': {
          const t = s.result ? op.results[s.index].type : op.operands[s.index].value.type;
          if (state & EMIT_SPACE) p.write(' ');
          const c = s.decl?.type;
          if (c?.stripped && !s.qualified && c.check(t)) c.stripped.print(p, t);
          else p.printType(t);
          state = EMIT_SPACE;
          break;
        }
        case 'attr': {
          const a = op.getAttr(s.name);
          if (!a || a instanceof UnitAttr) break; // a unit attribute is spelled by its keyword alone
          if (state & EMIT_SPACE) p.write(' ');
          s.decl.kind.print(p, a);
          state = EMIT_SPACE;
          break;
        }
        case 'attrdict':
          p.printOptionalAttrDict(p.attrsToPrint(op, this.elided), undefined, s.withKeyword);
          break;
        case 'optional':
          state = this.run(p, op, isPresent(op, this.spec, s.anchor) ? s.then : s.else, state);
          break;
      }
    }
    return state;
  }
}

/** The print plan of `spec`'s format, or null when the format needs `printWithFormat`. */
export function printPlanFor(spec: OpSpec, format: CompiledFormat): PrintPlan | null {
  if (format.printPlan !== undefined) return format.printPlan as PrintPlan | null;
  const plan = compilePrintPlan(spec, format);
  format.printPlan = plan;
  return plan;
}

function compilePrintPlan(spec: OpSpec, format: CompiledFormat): PrintPlan | null {
  const single = (d: { kind?: string }) => d.kind === undefined || d.kind === 'single';
  if (!spec.operands.every(single) || !spec.results.every(single)) return null;
  if (spec.regionDecls.length || spec.successorDecls.length) return null;
  const compile = (els: Element[]): Step[] | null => {
    const out: Step[] = [];
    for (const e of els) {
      const step = compileElement(e);
      if (!step) return null;
      out.push(step);
    }
    return out;
  };
  const compileElement = (e: Element): Step | null => {
    switch (e.k) {
      case 'lit':
        return literalStep(e);
      case 'operand':
        return e.fixed >= 0 ? { k: 'operand', index: e.fixed } : null;
      case 'attr':
        return { k: 'attr', name: e.name, decl: e.decl };
      case 'type':
        if (e.fixed < 0 || (e.arg.kind !== 'operand' && e.arg.kind !== 'result')) return null;
        return { k: 'type', result: e.arg.kind === 'result', index: e.fixed, decl: e.decl, qualified: e.qualified };
      case 'attrdict':
        return { k: 'attrdict', withKeyword: e.withKeyword };
      case 'optional': {
        const a = e.anchor.k;
        if (a !== 'attr' && a !== 'operand' && a !== 'type' && a !== 'lit') return null;
        const thenSteps = compile(e.then);
        const elseSteps = compile(e.else);
        return thenSteps && elseSteps ? { k: 'optional', anchor: e.anchor, then: thenSteps, else: elseSteps } : null;
      }
      default:
        return null;
    }
  };
  const steps = compile(format.elements);
  return steps ? new PrintPlan(spec, steps, format.elided) : null;
}

/** A literal's text and next spacing state for each spacing state (`printElement`'s rules). */
function literalStep(e: Extract<Element, { k: 'lit' }>): Step {
  if (e.text === '\\n') return { k: 'newline' };
  const texts: string[] = [];
  const next: number[] = [];
  for (let state = 0; state < 4; state++) {
    if (e.text === '' || e.text === ' ') {
      texts.push(e.text);
      next.push(state & ~EMIT_SPACE);
      continue;
    }
    const space = (state & EMIT_SPACE) !== 0 && ((state & AFTER_PUNCT) !== 0 ? e.spaceAfterPunct : e.spaceAfterOther);
    texts.push(space ? ' ' + e.text : e.text);
    next.push((e.spaceAfter ? EMIT_SPACE : 0) | (e.keyword ? 0 : AFTER_PUNCT));
  }
  return { k: 'write', texts, next };
}
