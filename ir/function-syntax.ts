/**
 * The custom syntax shared by function-like ops (`func.func`, `tt.func`):
 * `[visibility] @name(%arg: type {attrs} loc(...), ...) [-> results] [attributes {...}] [{body}]`.
 */
import { ArrayAttr, type Attribute, DictionaryAttr, StringAttr, SymbolRefAttr, symbolName, TypeAttr } from './attributes.js';
import type { FormatParser, FormatPrinter, RegionArg } from './format.js';
import type { AttrDecl, CustomSyntax } from './op-spec.js';
import { DictArrayAttr, FunctionTypeAttr, SymbolNameAttr, SymVisibilityAttr } from './constraints.js';
import { Region, type Operation } from './ir.js';
import { FunctionType, type Type } from './types.js';

const ELIDED = new Set(['sym_name', 'function_type', 'sym_visibility', 'arg_attrs', 'res_attrs']);

/** The inherent attributes every function-like op declares (MLIR's FunctionOpInterface storage). */
export const FUNCTION_ATTRS = [
  { name: 'sym_name', kind: SymbolNameAttr },
  { name: 'function_type', kind: FunctionTypeAttr },
  { name: 'sym_visibility', kind: SymVisibilityAttr, optional: true },
  { name: 'arg_attrs', kind: DictArrayAttr, optional: true },
  { name: 'res_attrs', kind: DictArrayAttr, optional: true },
] as const satisfies readonly AttrDecl[];

/** The function type of a function-like op. */
export function functionTypeOf(op: Operation): FunctionType {
  const t = op.getAttr('function_type');
  if (t instanceof TypeAttr && t.value instanceof FunctionType) return t.value;
  return FunctionType.get([], []);
}

/** The symbol name of a symbol op (`sym_name`). */
export function symbolNameOf(op: Operation): string | undefined {
  const n = op.getAttr('sym_name');
  return n instanceof StringAttr ? n.value : undefined;
}

/** Argument attributes of argument `k` of a function-like op. */
export function argAttrsOf(op: Operation, k: number): [string, Attribute][] {
  const all = op.getAttr('arg_attrs');
  if (!(all instanceof ArrayAttr)) return [];
  const d = all.value[k];
  return d instanceof DictionaryAttr ? d.entries.map(([a, b]) => [a, b]) : [];
}

function parseFunction(p: FormatParser): void {
  const vis = p.parseOptionalKeyword();
  if (vis !== undefined) {
    if (vis !== 'public' && vis !== 'private' && vis !== 'nested') p.error(`expected symbol visibility ('public', 'private' or 'nested'), found '${vis}'`);
    p.setProperty('sym_visibility', StringAttr.get(vis));
  }
  const nameAttr = p.parseAttribute();
  if (!(nameAttr instanceof SymbolRefAttr)) p.error('expected function name (@name)');
  p.setProperty('sym_name', StringAttr.get(nameAttr.root));
  const args: RegionArg[] = [];
  const argTypes: Type[] = [];
  const argAttrs: DictionaryAttr[] = [];
  let named: boolean | undefined;
  p.parseCommaList('(', ')', () => {
    const ref = p.parseOptionalOperandRef();
    if (named !== undefined && named !== (ref !== undefined)) p.error('expected SSA identifier for every argument, or for none');
    named = ref !== undefined;
    if (ref) p.parsePunct(':');
    const type = p.parseType();
    argTypes.push(type);
    argAttrs.push(p.peekToken()?.kind === 'LBrace' ? DictionaryAttr.get(p.parseDictionaryBody()) : DictionaryAttr.get([]));
    const loc = p.parseOptionalLocation();
    if (ref) args.push({ ref, type, loc });
  });
  const results: Type[] = [];
  const resAttrs: DictionaryAttr[] = [];
  if (p.parseOptionalPunct('->')) {
    // Result attributes are only allowed in the parenthesized form: `-> i32 {` starts the body.
    const one = (withAttrs: boolean) => {
      results.push(p.parseType());
      const attrs = withAttrs && p.peekToken()?.kind === 'LBrace';
      resAttrs.push(attrs ? DictionaryAttr.get(p.parseDictionaryBody()) : DictionaryAttr.get([]));
    };
    if (p.peekToken()?.kind === 'LParen' && !isFunctionTypeAhead(p)) p.parseCommaList('(', ')', () => one(true));
    else one(false);
  }
  p.setProperty('function_type', TypeAttr.get(FunctionType.get(argTypes, results)));
  if (argAttrs.some((d) => d.entries.length)) p.setProperty('arg_attrs', ArrayAttr.get(argAttrs));
  if (resAttrs.some((d) => d.entries.length)) p.setProperty('res_attrs', ArrayAttr.get(resAttrs));
  p.parseOptionalAttrDictWithKeyword();
  if (p.isRegionStart()) {
    if (named === false && argTypes.length) p.error('expected named arguments (%name: type) for a function with a body');
    const bodyPos = p.pos();
    const body = p.parseRegion(args, p.state.spec);
    if (body.empty) p.error('expected non-empty function body', bodyPos);
    p.state.regions.push(body);
  } else {
    if (named) p.error('expected a function body after named arguments');
    p.state.regions.push(new Region(null));
  }
}

/** Whether `(` starts a function type used as a single result (`-> (i32) -> i32`). */
function isFunctionTypeAhead(p: FormatParser): boolean {
  let depth = 0;
  for (let k = 0; ; k++) {
    const t = p.peekToken(k);
    if (!t) return false;
    if (t.kind === 'LParen') depth++;
    else if (t.kind === 'RParen' && --depth === 0) return p.peekToken(k + 1)?.kind === 'Arrow';
  }
}

function printFunction(p: FormatPrinter, op: Operation): void {
  const vis = op.getAttr('sym_visibility');
  if (vis instanceof StringAttr) p.write(' ' + vis.value);
  p.write(' ');
  p.write(symbolName(symbolNameOf(op) ?? ''));
  const ft = functionTypeOf(op);
  const body = op.regions[0];
  const entry = body && !body.empty ? body.blocks[0] : null;
  p.write('(');
  ft.inputs.forEach((t, k) => {
    if (k) p.write(', ');
    const attrs = argAttrsOf(op, k);
    if (entry) {
      p.printRegionArgument(entry.args[k], attrs);
      return;
    }
    p.printType(t);
    if (attrs.length) p.printOptionalAttrDict(attrs);
  });
  p.write(')');
  if (ft.results.length) {
    p.write(' -> ');
    const resAttrs = op.getAttr('res_attrs');
    const withAttrs = resAttrs instanceof ArrayAttr && resAttrs.value.some((d) => d instanceof DictionaryAttr && d.entries.length);
    const paren = ft.results.length > 1 || withAttrs || ft.results[0] instanceof FunctionType;
    if (paren) p.write('(');
    ft.results.forEach((t, k) => {
      if (k) p.write(', ');
      p.printType(t);
      const d = withAttrs ? (resAttrs as ArrayAttr).value[k] : null;
      if (d instanceof DictionaryAttr && d.entries.length) p.printOptionalAttrDict(d.entries.map(([a, b]) => [a, b]));
    });
    if (paren) p.write(')');
  }
  p.printOptionalAttrDict(p.attrsToPrint(op, ELIDED), undefined, true);
  if (entry) {
    p.write(' ');
    p.printRegion(body, { printEntryBlockArgs: false });
  }
}

/** Custom syntax for function-like ops. */
export const functionSyntax: CustomSyntax = { parse: parseFunction, print: printFunction };
