/**
 * The built-in prelude: macros every Triton-C kernel may rely on, processed before the
 * command-line `-D` definitions and the kernel itself.
 *
 * Decisions (the parser and IR generation rely on them):
 * - Attributes `__readonly`, `__writeonly`, `__noalias`, `__retune`, `__aligned(N)` and
 *   `__multipleof(N)` are defined as THEMSELVES (identity macros, see `Macro.identity`): the text
 *   survives unchanged, with its own source locations, for the parser (which parses them as
 *   `Attr`s); `#ifdef __multipleof` is true; the argument is macro-expanded like any text
 *   (`__multipleof(ALIGN)` with `-DALIGN=16` gives `__multipleof(16)`).
 * - `F32_INFINITY` / `F16_INFINITY` expand to bit casts of the IEEE-754 patterns, in the syntax of
 *   the original Triton prelude: `bitcast<float>(0x7F800000)` and `bitcast<half>((int16)0x7C00)`
 *   (the parser builds `{ kind: 'bitcast' }` nodes).
 * - `true` / `false` expand to `1` / `0` (the AST has no boolean literal; this also makes them
 *   usable in `#if`). `bool` is NOT a macro: it stays a type name (`ScalarName` has `bool`).
 * - `min`, `max` are NOT macros: they stay identifiers, parsed as calls / reduction operators.
 * - Type names `int8`..`int64`, `uint8`..`uint64`, `half`, `float`, `double`: not touched;
 *   C spellings (`int`, `char`, `unsigned`, `long`) are mapped to `ScalarName`s by the parser.
 * - `__TRITON_C__` is 1, so headers can tell they are compiled as Triton-C.
 */

/** File name the prelude's diagnostics and macro definitions are reported under. */
export const PRELUDE_NAME = '<prelude>';

/** The prelude source text. */
export const PRELUDE = `#define __TRITON_C__ 1
#define __readonly __readonly
#define __writeonly __writeonly
#define __noalias __noalias
#define __retune __retune
#define __aligned(N) __aligned(N)
#define __multipleof(N) __multipleof(N)
#define F32_INFINITY bitcast<float>(0x7F800000)
#define F16_INFINITY bitcast<half>((int16)0x7C00)
#define true 1
#define false 0
`;
