/**
 * Affine expressions (`d0 * 4 + s0 floordiv 2`), the bodies of `affine_map` and `affine_set`.
 * Expressions are uniqued, so `a === b` is structural equality, and built through `add`, `mul`,
 * `floorDiv`, `ceilDiv` and `mod`, which apply MLIR's construction-time simplifications (constants
 * to the right, `d0 + 0` is `d0`, `(d0 * 4) floordiv 2` is `d0 * 2`, ...). That makes the printed
 * form the one mlir-opt prints for the same input.
 */

/** The five binary operators of affine expressions. */
export type AffineBinaryKind = 'add' | 'mul' | 'mod' | 'floordiv' | 'ceildiv';

/** A node of an affine expression: a dimension, a symbol, a constant or a binary operation. */
export type AffineExpr = AffineDim | AffineSymbol | AffineConst | AffineBinary;

/** `d<position>`. */
export interface AffineDim {
  readonly kind: 'dim';
  readonly position: number;
}
/** `s<position>`. */
export interface AffineSymbol {
  readonly kind: 'symbol';
  readonly position: number;
}
/** An integer constant (64-bit in MLIR; kept as a JS number, exact below 2^53). */
export interface AffineConst {
  readonly kind: 'const';
  readonly value: number;
}
/** `lhs op rhs`. */
export interface AffineBinary {
  readonly kind: AffineBinaryKind;
  readonly lhs: AffineExpr;
  readonly rhs: AffineExpr;
}

const interned = new Map<string, AffineExpr>();
const keys = new WeakMap<AffineExpr, string>();

function intern(key: string, make: () => AffineExpr): AffineExpr {
  let e = interned.get(key);
  if (!e) {
    e = make();
    interned.set(key, e);
    keys.set(e, key);
  }
  return e;
}

/** A key identifying `e` (equal expressions have equal keys). */
export function affineKey(e: AffineExpr): string {
  return keys.get(e)!;
}

/** `d<position>`. */
export function dim(position: number): AffineExpr {
  return intern(`d${position}`, () => ({ kind: 'dim', position }));
}
/** `s<position>`. */
export function symbol(position: number): AffineExpr {
  return intern(`s${position}`, () => ({ kind: 'symbol', position }));
}
/** An integer constant. */
export function constant(value: number): AffineExpr {
  return intern(`${value}`, () => ({ kind: 'const', value }));
}
/** The binary expression as given, without simplification (MLIR's `getAffineBinaryOpExpr`). */
function binary(kind: AffineBinaryKind, lhs: AffineExpr, rhs: AffineExpr): AffineExpr {
  return intern(`(${affineKey(lhs)} ${kind} ${affineKey(rhs)})`, () => ({ kind, lhs, rhs }));
}

function constOf(e: AffineExpr): number | null {
  return e.kind === 'const' ? e.value : null;
}

/** Whether `e` uses no dimension (only symbols and constants). */
export function isSymbolicOrConstant(e: AffineExpr): boolean {
  switch (e.kind) {
    case 'dim':
      return false;
    case 'symbol':
    case 'const':
      return true;
    default:
      return isSymbolicOrConstant(e.lhs) && isSymbolicOrConstant(e.rhs);
  }
}

/** Whether `e` is affine: multiplications and divisions have a symbolic or constant right side. */
export function isPureAffine(e: AffineExpr): boolean {
  switch (e.kind) {
    case 'dim':
    case 'symbol':
    case 'const':
      return true;
    case 'add':
      return isPureAffine(e.lhs) && isPureAffine(e.rhs);
    case 'mul':
      return isPureAffine(e.lhs) && isPureAffine(e.rhs) && (isSymbolicOrConstant(e.lhs) || isSymbolicOrConstant(e.rhs));
    default:
      return isPureAffine(e.lhs) && e.rhs.kind === 'const';
  }
}

function gcd(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}

/** The largest integer known to divide `e` (MLIR's `getLargestKnownDivisor`). */
export function largestKnownDivisor(e: AffineExpr): number {
  switch (e.kind) {
    case 'dim':
    case 'symbol':
      return 1;
    case 'const':
      return Math.abs(e.value);
    case 'mul':
      return largestKnownDivisor(e.lhs) * largestKnownDivisor(e.rhs);
    case 'add':
    case 'mod':
      return gcd(largestKnownDivisor(e.lhs), largestKnownDivisor(e.rhs));
    default: {
      const c = constOf(e.rhs);
      if (c === null || c === 0) return 1;
      const l = largestKnownDivisor(e.lhs);
      return l % c === 0 ? Math.abs(l / c) : 1;
    }
  }
}

const floorDivInt = (a: number, b: number): number => Math.floor(a / b);
const ceilDivInt = (a: number, b: number): number => Math.ceil(a / b);
const modInt = (a: number, b: number): number => ((a % b) + b) % b;

/** `lhs + rhs`, simplified as MLIR does. */
export function add(lhs: AffineExpr, rhs: AffineExpr): AffineExpr {
  const lc = constOf(lhs);
  const rc = constOf(rhs);
  if (lc !== null && rc !== null) return constant(lc + rc);
  // Constants go right; a symbolic operand goes right of a non-symbolic one.
  if (lc !== null || (isSymbolicOrConstant(lhs) && !isSymbolicOrConstant(rhs))) return add(rhs, lhs);
  if (rc === 0) return lhs;
  // (d0 + 2) + 3 is d0 + 5.
  if (lhs.kind === 'add' && rc !== null) {
    const lrc = constOf(lhs.rhs);
    if (lrc !== null) return add(lhs.lhs, constant(lrc + rc));
  }
  // c1 * e + c2 * e is (c1 + c2) * e.
  const [c1, e1] = lhs.kind === 'mul' && lhs.rhs.kind === 'const' ? [lhs.rhs.value, lhs.lhs] : [1, lhs];
  const [c2, e2] = rhs.kind === 'mul' && rhs.rhs.kind === 'const' ? [rhs.rhs.value, rhs.lhs] : [1, rhs];
  if (e1 === e2) return binary('mul', e1, constant(c1 + c2));
  // (d0 + 2) + d1 is (d0 + d1) + 2.
  if (lhs.kind === 'add') {
    const lrc = constOf(lhs.rhs);
    if (lrc !== null) return add(add(lhs.lhs, rhs), lhs.rhs);
  }
  // e + (e floordiv c) * -c is e mod c.
  if (rhs.kind === 'mul' && rhs.lhs.kind === 'floordiv') {
    const q = constOf(rhs.lhs.rhs);
    const r = constOf(rhs.rhs);
    if (q !== null && q > 0 && r === -q && rhs.lhs.lhs === lhs) return mod(lhs, rhs.lhs.rhs);
  }
  return binary('add', lhs, rhs);
}

/** `lhs * rhs`, simplified as MLIR does. */
export function mul(lhs: AffineExpr, rhs: AffineExpr): AffineExpr {
  const lc = constOf(lhs);
  const rc = constOf(rhs);
  if (lc !== null && rc !== null) return constant(lc * rc);
  if (!isSymbolicOrConstant(lhs) && !isSymbolicOrConstant(rhs)) return binary('mul', lhs, rhs);
  if (!isSymbolicOrConstant(rhs) || lc !== null) return mul(rhs, lhs);
  if (rc === 1) return lhs;
  if (rc === 0) return rhs;
  if (lhs.kind === 'mul') {
    const lrc = constOf(lhs.rhs);
    // (d0 * 2) * 3 is d0 * 6.
    if (lrc !== null && rc !== null) return mul(lhs.lhs, constant(lrc * rc));
    // (d0 * 2) * d1 is (d0 * d1) * 2.
    if (lrc !== null) return mul(mul(lhs.lhs, rhs), lhs.rhs);
  }
  return binary('mul', lhs, rhs);
}

/** `-e` (that is, `e * -1`). */
export function neg(e: AffineExpr): AffineExpr {
  return mul(e, constant(-1));
}

/** `lhs - rhs` (that is, `lhs + rhs * -1`). */
export function sub(lhs: AffineExpr, rhs: AffineExpr): AffineExpr {
  return add(lhs, neg(rhs));
}

/** `lhs floordiv rhs`, simplified as MLIR does. */
export function floorDiv(lhs: AffineExpr, rhs: AffineExpr): AffineExpr {
  const lc = constOf(lhs);
  const rc = constOf(rhs);
  if (rc === null || rc < 1) return binary('floordiv', lhs, rhs);
  if (lc !== null) return constant(floorDivInt(lc, rc));
  if (rc === 1) return lhs;
  if (lhs.kind === 'mul') {
    const lrc = constOf(lhs.rhs);
    if (lrc !== null && lrc % rc === 0) return mul(lhs.lhs, constant(lrc / rc));
  }
  if (lhs.kind === 'add' && (largestKnownDivisor(lhs.lhs) % rc === 0 || largestKnownDivisor(lhs.rhs) % rc === 0))
    return add(floorDiv(lhs.lhs, rhs), floorDiv(lhs.rhs, rhs));
  return binary('floordiv', lhs, rhs);
}

/** `lhs ceildiv rhs`, simplified as MLIR does. */
export function ceilDiv(lhs: AffineExpr, rhs: AffineExpr): AffineExpr {
  const lc = constOf(lhs);
  const rc = constOf(rhs);
  if (rc === null || rc < 1) return binary('ceildiv', lhs, rhs);
  if (lc !== null) return constant(ceilDivInt(lc, rc));
  if (rc === 1) return lhs;
  if (lhs.kind === 'mul') {
    const lrc = constOf(lhs.rhs);
    if (lrc !== null && lrc % rc === 0) return mul(lhs.lhs, constant(lrc / rc));
  }
  return binary('ceildiv', lhs, rhs);
}

/** `lhs mod rhs`, simplified as MLIR does. */
export function mod(lhs: AffineExpr, rhs: AffineExpr): AffineExpr {
  const lc = constOf(lhs);
  const rc = constOf(rhs);
  if (rc === null || rc < 1) return binary('mod', lhs, rhs);
  if (lc !== null) return constant(modInt(lc, rc));
  if (largestKnownDivisor(lhs) % rc === 0) return constant(0);
  if (lhs.kind === 'add') {
    if (largestKnownDivisor(lhs.lhs) % rc === 0) return mod(lhs.rhs, rhs);
    if (largestKnownDivisor(lhs.rhs) % rc === 0) return mod(lhs.lhs, rhs);
  }
  if (lhs.kind === 'mod') {
    const inner = constOf(lhs.rhs);
    if (inner !== null && inner >= 1 && modInt(inner, rc) === 0) return mod(lhs.lhs, rhs);
  }
  return binary('mod', lhs, rhs);
}

/** Builds `lhs op rhs` through the simplifying constructor of `op`. */
export function applyBinary(kind: AffineBinaryKind, lhs: AffineExpr, rhs: AffineExpr): AffineExpr {
  switch (kind) {
    case 'add':
      return add(lhs, rhs);
    case 'mul':
      return mul(lhs, rhs);
    case 'floordiv':
      return floorDiv(lhs, rhs);
    case 'ceildiv':
      return ceilDiv(lhs, rhs);
    case 'mod':
      return mod(lhs, rhs);
  }
}

const SPELLING: Record<string, string> = { mul: ' * ', floordiv: ' floordiv ', ceildiv: ' ceildiv ', mod: ' mod ' };

/** The text of `e` as MLIR's printer writes it (`d0 - d1`, `-d0`, `(d0 + 1) * 2`). */
export function affineToString(e: AffineExpr, strong = false): string {
  switch (e.kind) {
    case 'dim':
      return `d${e.position}`;
    case 'symbol':
      return `s${e.position}`;
    case 'const':
      return `${e.value}`;
  }
  const open = strong ? '(' : '';
  const close = strong ? ')' : '';
  const rc = constOf(e.rhs);
  if (e.kind !== 'add') {
    if (e.kind === 'mul' && rc === -1) return `${open}-${affineToString(e.lhs, true)}${close}`;
    return `${open}${affineToString(e.lhs, true)}${SPELLING[e.kind]}${affineToString(e.rhs, true)}${close}`;
  }
  const r = e.rhs;
  if (r.kind === 'mul' && r.rhs.kind === 'const') {
    const c = r.rhs.value;
    if (c === -1) return `${open}${affineToString(e.lhs)} - ${affineToString(r.lhs, r.lhs.kind === 'add')}${close}`;
    if (c < -1) return `${open}${affineToString(e.lhs)} - ${affineToString(r.lhs, true)} * ${-c}${close}`;
  }
  if (rc !== null && rc < 0) return `${open}${affineToString(e.lhs)} - ${-rc}${close}`;
  return `${open}${affineToString(e.lhs)} + ${affineToString(e.rhs)}${close}`;
}
