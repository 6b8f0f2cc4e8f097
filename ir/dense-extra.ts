/**
 * `dense<...>` literals whose elements are not plain numbers: complex pairs
 * (`dense<(1.0, 2.0)> : tensor<complex<f32>>`) and strings (`dense<["a", "b"]> : tensor<2x!x.str>`).
 */
import type { Attribute } from './attributes.js';
import { DenseComplexElementsAttr, DenseStringElementsAttr } from './builtin-attrs.js';
import type { SourcePos } from './diagnostics.js';
import type { ParserBase } from './parser-base.js';
import { type RawElement, elementValue, flattenDense } from './parse-literals.js';
import { ComplexType, FloatType, IndexType, IntegerType, type ShapedType } from './types.js';

/**
 * The attribute for literal `lit` (a string for `dense<"...">`, else the nested raw elements) when
 * `type`'s elements are complex or not numeric; undefined for the plain numeric cases.
 */
export function denseComplexOrString(p: ParserBase, lit: unknown, type: ShapedType, pos: SourcePos): Attribute | undefined {
  const elt = type.elementType;
  if (elt instanceof ComplexType) {
    if (typeof lit === 'string') return undefined; // hex bytes, kept as they are
    const values = flattenDense(p, lit, type, pos, (e: RawElement) => {
      if (!e.complex) p.error(`expected complex element of type ${elt}, found a scalar`, e.pos);
      const [re, im] = e.complex as [RawElement, RawElement];
      return [elementValue(p, re, elt.elementType), elementValue(p, im, elt.elementType)] as const;
    });
    return DenseComplexElementsAttr.get(type, elt.elementType, values);
  }
  if (elt instanceof IntegerType || elt instanceof IndexType || elt instanceof FloatType) return undefined;
  if (typeof lit === 'string') return DenseStringElementsAttr.get(type, [lit]);
  const values = flattenDense(p, lit, type, pos, (e: RawElement) => {
    if (e.str === undefined) p.error(`expected string elements for element type ${elt}`, e.pos);
    return e.str;
  });
  return DenseStringElementsAttr.get(type, values);
}
