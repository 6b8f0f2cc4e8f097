/**
 * Readers of the builtin attributes in `ir/builtin-attrs.ts`, written against the `AsmParser`
 * interface. Each is called with the cursor on its keyword (`affine_map`, `strided`, ...).
 * Error messages are MLIR's where it has one.
 */
import type { AsmParser } from './asm.js';
import type { SourcePos } from './diagnostics.js';
import {
  type AffineBinaryKind, type AffineExpr, applyBinary, constant, dim, isSymbolicOrConstant, neg, sub, symbol,
} from './affine-expr.js';
import { UnitAttr, type Attribute } from './attributes.js';
import {
  AffineMapAttr, AffineSetAttr, type AffineConstraint, DenseResourceAttr, DistinctAttr, StridedLayoutAttr,
} from './builtin-attrs.js';
import { DYNAMIC, ShapedType, type Type } from './types.js';

/** The names a map or set declares: dimension and symbol identifiers to expressions. */
type AffineScope = Map<string, AffineExpr>;

/** `(d0, d1)[s0]`: declares the identifiers; returns the scope and the counts. */
function parseDimsAndSymbols(p: AsmParser): { scope: AffineScope; numDims: number; numSymbols: number } {
  const scope: AffineScope = new Map();
  const declare = (make: (k: number) => AffineExpr, k: number): void => {
    const at = p.pos();
    const name = p.parseOptionalKeyword();
    if (name === undefined) p.error('expected bare identifier');
    if (scope.has(name)) p.error(`redefinition of identifier '${name}'`, at);
    scope.set(name, make(k));
  };
  let numDims = 0;
  p.parseCommaList('(', ')', () => declare(dim, numDims++));
  let numSymbols = 0;
  if (p.peekToken()?.image === '[') p.parseCommaList('[', ']', () => declare(symbol, numSymbols++));
  return { scope, numDims, numSymbols };
}

const HIGH_PRECEDENCE: readonly AffineBinaryKind[] = ['floordiv', 'ceildiv', 'mod'];

/** An affine expression: `+`/`-` over `*`/`floordiv`/`ceildiv`/`mod` over operands, all left-associative. */
function parseAffineExpr(p: AsmParser, scope: AffineScope): AffineExpr {
  let lhs = parseHighPrecedence(p, scope);
  for (;;) {
    if (p.parseOptionalPunct('+')) lhs = applyBinary('add', lhs, parseHighPrecedence(p, scope));
    else if (p.parseOptionalPunct('-')) lhs = sub(lhs, parseHighPrecedence(p, scope));
    else return lhs;
  }
}

function parseHighPrecedence(p: AsmParser, scope: AffineScope): AffineExpr {
  let lhs = parseOperand(p, scope);
  for (;;) {
    const at = p.pos();
    let kind: AffineBinaryKind | undefined;
    if (p.parseOptionalPunct('*')) kind = 'mul';
    else kind = HIGH_PRECEDENCE.find((k) => p.parseOptionalKeyword(k) !== undefined);
    if (!kind) return lhs;
    const rhs = parseOperand(p, scope);
    if (kind === 'mul' && !isSymbolicOrConstant(lhs) && !isSymbolicOrConstant(rhs))
      p.error('non-affine expression: at least one of the multiply operands has to be either a constant or symbolic', at);
    if (kind !== 'mul' && !isSymbolicOrConstant(rhs))
      p.error(`non-affine expression: right operand of ${kind} has to be either a constant or symbolic`, at);
    lhs = applyBinary(kind, lhs, rhs);
  }
}

function parseOperand(p: AsmParser, scope: AffineScope): AffineExpr {
  const at = p.pos();
  const n = p.parseOptionalInteger();
  if (n !== undefined) return constant(safeInteger(p, n, at, 'constant too large for index (affine constants are limited to 2^53-1)'));
  if (p.parseOptionalPunct('(')) {
    const e = p.nested(() => parseAffineExpr(p, scope));
    p.parsePunct(')');
    return e;
  }
  if (p.parseOptionalPunct('-')) return neg(p.nested(() => parseOperand(p, scope)));
  const name = p.parseOptionalKeyword();
  if (name === undefined) p.error('expected affine expression');
  const e = scope.get(name);
  if (!e) p.error('use of undeclared identifier', at);
  return e;
}

/** `affine_map<(dims)[symbols] -> (results)>`. */
export function parseAffineMapAttr(p: AsmParser): AffineMapAttr {
  p.parseKeyword('affine_map');
  p.parsePunct('<');
  const { scope, numDims, numSymbols } = parseDimsAndSymbols(p);
  p.parsePunct('->');
  const results = p.parseCommaList('(', ')', () => parseAffineExpr(p, scope));
  p.parsePunct('>');
  return AffineMapAttr.get(numDims, numSymbols, results);
}

/** `affine_set<(dims)[symbols] : (e >= 0, e == 0, a <= b)>`; `a >= b` is kept as `a - b >= 0`, as MLIR does. */
export function parseAffineSetAttr(p: AsmParser): AffineSetAttr {
  p.parseKeyword('affine_set');
  p.parsePunct('<');
  const { scope, numDims, numSymbols } = parseDimsAndSymbols(p);
  p.parsePunct(':');
  const constraints = p.parseCommaList('(', ')', (): AffineConstraint => {
    const lhs = parseAffineExpr(p, scope);
    const at = p.pos();
    let op = '';
    if (p.parseOptionalPunct('>')) op = '>=';
    else if (p.parseOptionalPunct('<')) op = '<=';
    else if (p.parseOptionalPunct('=')) op = '==';
    if (!op || !p.parseOptionalPunct('='))
      p.error("expected '== affine-expr' or '>= affine-expr' or '<= affine-expr' at end of affine constraint", at);
    const rhs = parseAffineExpr(p, scope);
    if (op === '<=') return { expr: sub(rhs, lhs), isEquality: false };
    return { expr: sub(lhs, rhs), isEquality: op === '==' };
  });
  p.parsePunct('>');
  return AffineSetAttr.get(numDims, numSymbols, constraints);
}

/** An integer or `?` (dynamic). */
function parseStaticOrDynamic(p: AsmParser): number {
  if (p.parseOptionalPunct('?')) return DYNAMIC;
  const at = p.pos();
  return safeInteger(p, p.parseInteger(), at, 'stride or offset out of range (limited to 2^53-1 in magnitude)');
}

/** `n` as a JS number, or a located error where it would not be exact (beyond 2^53 it would print back as another number). */
function safeInteger(p: AsmParser, n: bigint, at: SourcePos, message: string): number {
  const v = Number(n);
  if (!Number.isSafeInteger(v)) p.error(message, at);
  return v;
}

/** `strided<[4, ?], offset: ?>`. */
export function parseStridedLayoutAttr(p: AsmParser): StridedLayoutAttr {
  const at = p.pos();
  p.parseKeyword('strided');
  p.parsePunct('<');
  const strides = p.parseCommaList('[', ']', () => parseStaticOrDynamic(p));
  if (strides.includes(0)) p.error('strides must not be zero', at);
  let offset = 0;
  if (p.parseOptionalPunct(',')) {
    p.parseKeyword('offset');
    p.parsePunct(':');
    offset = parseStaticOrDynamic(p);
  }
  p.parsePunct('>');
  return StridedLayoutAttr.get(strides, offset);
}

/** `distinct[N]<attr>` or `distinct[N]<>`; `ids` maps the file's ids to their attributes (one id, one attribute). */
export function parseDistinctAttr(p: AsmParser, ids: Map<bigint, DistinctAttr>): DistinctAttr {
  p.parseKeyword('distinct');
  p.parsePunct('[');
  const idAt = p.pos();
  const id = p.parseInteger();
  if (id < 0n || id >= 1n << 64n) p.error('expected an unsigned 64-bit integer', idAt);
  p.parsePunct(']');
  p.parsePunct('<');
  const referenced: Attribute = p.parseOptionalPunct('>') ? UnitAttr.get() : parseThen(p, () => p.parseAttribute(), '>');
  const known = ids.get(id);
  if (known) {
    if (known.referenced !== referenced) p.error('referenced attribute does not match previous definition: ' + known.referenced, idAt);
    return known;
  }
  const made = new DistinctAttr(referenced, id);
  ids.set(id, made);
  return made;
}

function parseThen<R>(p: AsmParser, body: () => R, close: string): R {
  const r = body();
  p.parsePunct(close);
  return r;
}

/** `dense_resource<handle>` then `: type` unless the type is known from the context. */
export function parseDenseResourceAttr(p: AsmParser, type?: Type): DenseResourceAttr {
  const start = p.pos();
  p.parseKeyword('dense_resource');
  p.parsePunct('<');
  const handle = p.parseOptionalKeyword();
  if (handle === undefined) p.error('expected identifier key for dense_resource');
  p.parsePunct('>');
  let ty = type;
  if (!ty) {
    p.parsePunct(':');
    ty = p.parseType();
  }
  if (!(ty instanceof ShapedType)) p.error(`expected a shaped type for dense_resource, got ${ty}`, start);
  return DenseResourceAttr.get(handle, ty);
}
