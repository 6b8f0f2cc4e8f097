/**
 * Pure helpers of the Triton-C parser: C type-specifier combinations to `ScalarName`, and
 * integer / floating literal decoding with suffix validation. Each returns either a value or
 * an error message (the caller knows the position).
 */
import type { ScalarName } from './ast.js';

/** Either a value or a C-style error message. */
export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

const SIZED: Record<string, ScalarName> = {
  int8: 'int8', int16: 'int16', int32: 'int32', int64: 'int64',
  uint8: 'uint8', uint16: 'uint16', uint32: 'uint32', uint64: 'uint64',
  bool: 'bool', void: 'void', half: 'half', bfloat16: 'bfloat16', float: 'float', double: 'double',
};

const TWO_TYPES = 'two or more data types in declaration specifiers';

/**
 * Maps the type keywords of one declaration (in order) to a scalar, as C does:
 * `int`→int32, `long`/`long long`/`long int`→int64, `unsigned`→uint32, `char`→int8,
 * `short`→int16, `unsigned char`→uint8 ... The Triton names (`int8`, `uint64`, `half`,
 * `bfloat16`, `float`, `double`, `bool`, `void`) stand alone (`long double` is `double`).
 */
export function scalarFromKeywords(words: string[]): Checked<ScalarName> {
  if (!words.length) return { ok: false, message: 'expected type specifier' };
  const count = (w: string): number => words.filter((x) => x === w).length;
  const sign = count('signed') + count('unsigned');
  const longs = count('long');
  for (const w of words) if (w !== 'long' && count(w) > 1) return { ok: false, message: `duplicate '${w}' declaration specifier` };
  if (sign > 1 || longs > 2) return { ok: false, message: TWO_TYPES };
  const standalone = words.filter((w) => w in SIZED);
  if (standalone.length > 1) return { ok: false, message: TWO_TYPES };
  if (standalone.length === 1) {
    const s = standalone[0];
    if (s === 'double' && longs === 1 && words.length === 2) return { ok: true, value: 'double' };
    if (words.length > 1) return { ok: false, message: TWO_TYPES };
    return { ok: true, value: SIZED[s] };
  }
  const unsigned = count('unsigned') === 1;
  const chars = count('char');
  const shorts = count('short');
  if (chars + shorts + (longs ? 1 : 0) > 1) return { ok: false, message: TWO_TYPES };
  if (chars && count('int')) return { ok: false, message: TWO_TYPES };
  if (chars) return { ok: true, value: unsigned ? 'uint8' : 'int8' };
  if (shorts) return { ok: true, value: unsigned ? 'uint16' : 'int16' };
  if (longs) return { ok: true, value: unsigned ? 'uint64' : 'int64' };
  return { ok: true, value: unsigned ? 'uint32' : 'int32' };
}

/** Decodes an integer literal (decimal, octal `017`, hex `0x1F`) and validates its suffix. */
export function decodeInt(image: string): Checked<{ value: bigint; suffix: string }> {
  const m = /^(0[xX][0-9a-fA-F]+|\d+)(\w*)$/.exec(image);
  if (!m) return { ok: false, message: `invalid integer constant '${image}'` };
  const [, digits, suffix] = m;
  if (!/^(?:[uU]?(?:l|L|ll|LL)?|(?:l|L|ll|LL)[uU])$/.test(suffix)) {
    return { ok: false, message: `invalid suffix '${suffix}' on integer constant` };
  }
  const isOctal = digits.length > 1 && digits[0] === '0' && !/^0[xX]/.test(digits);
  if (isOctal && /[89]/.test(digits)) return { ok: false, message: "invalid digit in octal constant" };
  const value = isOctal ? BigInt('0o' + digits.slice(1)) : BigInt(digits);
  return { ok: true, value: { value, suffix } };
}

/** Decodes a floating literal; the suffix is `'f'` for `f`/`F`, `''` for double (and `l`/`L`). */
export function decodeFloat(image: string): Checked<{ value: number; suffix: string }> {
  const m = /^((?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+)(\w*)$/.exec(image);
  if (!m) return { ok: false, message: `invalid floating constant '${image}'` };
  const [, body, suffix] = m;
  if (!/^[fFlL]?$/.test(suffix)) return { ok: false, message: `invalid suffix '${suffix}' on floating constant` };
  return { ok: true, value: { value: Number(body), suffix: suffix === 'f' || suffix === 'F' ? 'f' : '' } };
}

/** Decodes a character constant (`'a'`, `'\n'`, `'\0'`) to its code. */
export function decodeChar(image: string): Checked<bigint> {
  const body = image.slice(1, -1);
  const esc: Record<string, number> = { n: 10, t: 9, r: 13, '0': 0, '\\': 92, "'": 39, '"': 34, a: 7, b: 8, f: 12, v: 11 };
  if (body.length === 1) return { ok: true, value: BigInt(body.charCodeAt(0)) };
  if (body.length === 2 && body[0] === '\\' && body[1] in esc) return { ok: true, value: BigInt(esc[body[1]]) };
  return { ok: false, message: 'multi-character character constants are not supported' };
}
