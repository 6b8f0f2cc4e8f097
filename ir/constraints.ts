/**
 * Reusable type and attribute constraints for op declarations (the `AnyType`, `I32Attr`, ...
 * of ODS). Dialects combine these; a constraint knows how to check, describe, parse and print.
 */
import { DenseComplexElementsAttr, DenseResourceAttr, DenseStringElementsAttr } from './builtin-attrs.js';
import type { AsmParser, AsmPrinter } from './asm.js';
import {
  ArrayAttr, Attribute, DenseArrayAttr, DenseElementsAttr, DictionaryAttr, FloatAttr, IntegerAttr, StringAttr,
  SymbolRefAttr, TypeAttr, UnitAttr, isBoolAttr, boolAttr,
} from './attributes.js';
import type { AttrConstraint, TypeConstraint } from './op-spec.js';
import {
  FloatType, FunctionType, IndexType, IntegerType, RankedTensorType, ShapedType, Type, VectorType, elementTypeOf, i,
} from './types.js';

// ---- types -------------------------------------------------------------------------------

/** Builds a type constraint from a predicate. */
export function typeIs(description: string, check: (t: Type) => boolean): TypeConstraint {
  return { description, check };
}

export const AnyType = typeIs('any type', () => true);
export const AnySignlessInteger = typeIs('signless integer', (t) => t instanceof IntegerType && t.signedness === 'signless');
export const I1: TypeConstraint = { ...typeIs('1-bit signless integer', (t) => t === i(1)), buildable: i(1) };
export const I32: TypeConstraint = { ...typeIs('32-bit signless integer', (t) => t === i(32)), buildable: i(32) };
export const I64: TypeConstraint = { ...typeIs('64-bit signless integer', (t) => t === i(64)), buildable: i(64) };
export const Index: TypeConstraint = { ...typeIs('index', (t) => t instanceof IndexType), buildable: IndexType.get() };
export const AnyFloat = typeIs('floating-point', (t) => t instanceof FloatType);
export const AnyTensor = typeIs('ranked tensor of any type values', (t) => t instanceof RankedTensorType);

/** A scalar satisfying `elt`, or a tensor/vector of such. */
export function likeOf(elt: TypeConstraint, what: string): TypeConstraint {
  return typeIs(`${what}-like`, (t) => {
    if (t instanceof RankedTensorType || t instanceof VectorType) return elt.check(t.elementType);
    return elt.check(t);
  });
}

/** A ranked tensor whose elements satisfy `elt`. */
export function tensorOf(elt: TypeConstraint): TypeConstraint {
  return typeIs(`ranked tensor of ${elt.description} values`, (t) => t instanceof RankedTensorType && elt.check(t.elementType));
}

/** Either of two constraints. */
export function anyOf(...cs: TypeConstraint[]): TypeConstraint {
  return typeIs(cs.map((c) => c.description).join(' or '), (t) => cs.some((c) => c.check(t)));
}

export const SignlessIntegerOrIndexLike = typeIs('signless-integer-like', likeOf(typeIs('signless integer or index', (t) => (t instanceof IntegerType && t.signedness === 'signless') || t instanceof IndexType), 'x').check);
export const SignlessIntegerLike = likeOf(AnySignlessInteger, 'signless-integer');
export const FloatLike = likeOf(AnyFloat, 'floating-point');
export const BoolLike = likeOf(I1, 'bool');
export const AnyShaped = typeIs('shaped type', (t) => t instanceof ShapedType);

/** The i1 type with the shape of `t` (for comparisons). */
export function boolLike(t: Type): Type {
  if (t instanceof RankedTensorType) return t.withElementType(i(1));
  if (t instanceof VectorType) return VectorType.get(t.shape, i(1), t.scalable);
  return i(1);
}

export { elementTypeOf };

// ---- attributes --------------------------------------------------------------------------

/** Builds an attribute constraint printed/parsed as a full attribute. */
export function attrIs(description: string, check: (a: Attribute) => boolean): AttrConstraint {
  return {
    description,
    check,
    parse: (p) => p.parseAttribute(),
    print: (p, a) => p.printAttribute(a),
  };
}

/** An integer attribute of a given type; in formats it prints bare (`16`), reading back with that type. */
export function intAttrOf(t: Type, description: string): AttrConstraint<IntegerAttr, number> {
  return {
    description,
    check: (a) => a instanceof IntegerAttr && a.type === t,
    value: (a) => a.num,
    fromValue: (v) => IntegerAttr.get(v, t),
    parse: (p) => IntegerAttr.get(p.parseInteger(), t),
    print: (p, a) => a.printWithoutType(p),
    canStart: (p) => {
      const k = p.peekToken()?.kind;
      return k === 'Integer' || k === 'HexInt' || (k === 'Minus' && p.peekToken(1)?.kind === 'Integer');
    },
  };
}

export const I32Attr = intAttrOf(i(32), '32-bit signless integer attribute');
export const I64Attr = intAttrOf(i(64), '64-bit signless integer attribute');
export const IndexAttr = intAttrOf(IndexType.get(), 'index attribute');
export const AnyIntegerAttr = attrIs('integer attribute', (a) => a instanceof IntegerAttr);
export const BoolAttr: AttrConstraint<IntegerAttr, boolean> = {
  description: 'bool attribute',
  check: (a) => isBoolAttr(a),
  value: (a) => a.value !== 0n,
  fromValue: (v) => boolAttr(v),
  parse: (p) => boolAttr(p.parseKeyword() === 'true'),
  print: (p, a) => a.printWithoutType(p),
};
export const UnitAttrC: AttrConstraint<UnitAttr, boolean> = {
  description: 'unit attribute',
  check: (a) => a instanceof UnitAttr,
  value: () => true,
  fromValue: (v) => (v ? UnitAttr.get() : undefined),
  absent: false,
  parse: () => UnitAttr.get(),
  print: () => {},
};
export const StrAttr: AttrConstraint<StringAttr, string> = {
  description: 'string attribute',
  check: (a) => a instanceof StringAttr,
  value: (a) => a.value,
  fromValue: (v) => StringAttr.get(v),
  parse: (p) => StringAttr.get(p.parseString()),
  print: (p, a) => p.printAttribute(a),
  canStart: (p) => p.peekToken()?.kind === 'String',
};
/** `sym_visibility`: a string attribute that is `public`, `private` or `nested` (what the custom form can print). */
export const SymVisibilityAttr: AttrConstraint<StringAttr, string> = {
  ...StrAttr,
  description: "string attribute 'public', 'private' or 'nested'",
  check: (a) => a instanceof StringAttr && ['public', 'private', 'nested'].includes(a.value),
};
export const FloatAttrC = attrIs('floating-point attribute', (a) => a instanceof FloatAttr);
export const TypedAttr = attrIs('typed attribute', (a) =>
  a instanceof IntegerAttr || a instanceof FloatAttr || a instanceof DenseElementsAttr ||
  a instanceof DenseResourceAttr || a instanceof DenseComplexElementsAttr || a instanceof DenseStringElementsAttr);
export const ArrayAttrC = attrIs('array attribute', (a) => a instanceof ArrayAttr);
export const DictAttrC = attrIs('dictionary attribute', (a) => a instanceof DictionaryAttr);
export const DictArrayAttr = attrIs('array of dictionary attributes', (a) => a instanceof ArrayAttr && a.value.every((x) => x instanceof DictionaryAttr));
export const AnyAttr = attrIs('any attribute', () => true);
export const SymbolNameAttr: AttrConstraint = {
  description: 'string attribute',
  check: (a) => a instanceof StringAttr,
  parse: (p) => StringAttr.get(parseSymbolName(p)),
  print: (p, a) => p.write(symbolText((a as StringAttr).value)),
};
export const FlatSymbolRefAttr: AttrConstraint = {
  description: 'flat symbol reference attribute',
  check: (a) => a instanceof SymbolRefAttr && a.nested.length === 0,
  parse: (p) => SymbolRefAttr.get(parseSymbolName(p)),
  print: (p, a) => p.printAttribute(a),
};

function parseSymbolName(p: AsmParser): string {
  const a = p.parseAttribute();
  if (!(a instanceof SymbolRefAttr)) p.error('expected symbol name');
  return a.root;
}

function symbolText(name: string): string {
  return SymbolRefAttr.get(name).toString();
}

/** `type` attribute holding a function type. */
export const FunctionTypeAttr = attrIs('type attribute of function type', (a) => a instanceof TypeAttr && a.value instanceof FunctionType);
/** `type` attribute of any type. */
export const TypeAttrC: AttrConstraint = {
  description: 'any type attribute',
  check: (a) => a instanceof TypeAttr,
  parse: (p) => TypeAttr.get(p.parseType()),
  print: (p, a) => p.printType((a as TypeAttr).value),
};

/** `array<i32: ...>`; in formats it prints as `[1, 2]`, as ODS's DenseI32ArrayAttr does. */
export function denseArrayOf(t: Type, description: string): AttrConstraint<DenseArrayAttr, readonly number[]> {
  return {
    description,
    check: (a) => a instanceof DenseArrayAttr && a.elementType === t,
    value: (a) => a.values,
    fromValue: (v) => DenseArrayAttr.get(t, v),
    parse: (p) => {
      const vals = p.parseCommaList('[', ']', () => p.parseDenseArrayElement(t));
      return DenseArrayAttr.get(t, vals);
    },
    print: (p, a) => p.write(`[${(a as DenseArrayAttr).values.join(', ')}]`),
    canStart: (p) => p.peekToken()?.kind === 'LSquare',
  };
}
export const DenseI32ArrayAttr = denseArrayOf(i(32), 'i32 dense array attribute');
export const DenseI64ArrayAttr = denseArrayOf(i(64), 'i64 dense array attribute');

/**
 * An enum stored as an integer attribute (ODS `I32EnumAttr`/`I64EnumAttr`) and written as a
 * keyword in formats (`slt`, `x`). `cases[k]` is the keyword of value k unless `values` is given.
 */
export function intEnum<const C extends readonly string[]>(name: string, width: number, cases: C, values?: readonly number[]): AttrConstraint<IntegerAttr, C[number]> & {
  byName(s: C[number]): IntegerAttr;
  nameOf(a: Attribute): C[number];
} {
  const t = i(width);
  const vals = values ?? cases.map((_, k) => k);
  const byName = (s: string) => IntegerAttr.get(vals[cases.indexOf(s)], t);
  const nameOf = (a: Attribute) => {
    const k = vals.indexOf((a as IntegerAttr).num);
    return k < 0 ? '?' : cases[k];
  };
  return {
    description: `${name}: one of ${cases.join(', ')}`,
    check: (a) => a instanceof IntegerAttr && a.type === t && vals.includes(a.num),
    parse: (p) => {
      const pos = p.pos();
      const kw = p.parseOptionalKeyword() ?? p.parseOptionalString();
      if (kw === undefined || !cases.includes(kw)) return p.error(`expected ${name} to be one of: ${cases.join(', ')}`, pos);
      return byName(kw);
    },
    print: (p, a) => p.write(nameOf(a)),
    value: nameOf,
    fromValue: byName,
    canStart: (p) => cases.includes(p.peekToken()?.image ?? ''),
    byName,
    nameOf,
  };
}

/** A constraint satisfied by attributes of a given class (dialect attributes). */
export function attrOfClass(description: string, cls: Function & { prototype: Attribute }): AttrConstraint {
  return attrIs(description, (a) => a instanceof cls);
}

/** A type constraint for a dialect type class, printed stripped in formats (`<...>`). */
export function strippedTypeOf(description: string, isType: (t: Type) => boolean, parseBody: (p: AsmParser) => Type): TypeConstraint {
  return {
    description,
    check: isType,
    stripped: {
      print: (p: AsmPrinter, t: Type) => p.printStrippedType(t),
      parse: parseBody,
    },
  };
}
