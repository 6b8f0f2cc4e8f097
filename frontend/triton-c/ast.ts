/**
 * The Triton-C abstract syntax tree: the contract between the parser (which builds it) and the
 * semantic checks and IR generation (which read it). Every node carries `pos`, an offset into
 * the preprocessed text; `SourceMap` (preprocessor) turns it back into file, line, column and
 * macro expansion chain for diagnostics.
 */

/** Offset of a node's first character in the preprocessed text. */
export type Pos = number;

/** Optional extra position of an infix node: its operator token (`+`, `...`, `=`, `?`), for diagnostics. */
export interface OpPos {
  opPos?: Pos;
}

/** Scalar element types of Triton-C (after the prelude: `int32` is `int`, ...). */
export type ScalarName =
  | 'void' | 'bool'
  | 'int8' | 'int16' | 'int32' | 'int64'
  | 'uint8' | 'uint16' | 'uint32' | 'uint64'
  | 'half' | 'bfloat16' | 'float' | 'double';

/** A type as written: scalar, with pointer levels (`TYPE*`), before any tile shape. */
export interface TypeSpec {
  scalar: ScalarName;
  pointers: number;
  /** `const`, `restrict`, `volatile` as written. */
  qualifiers: string[];
  pos: Pos;
}

/** `__multipleof(8)`, `__aligned(16)`, `__readonly`, `__writeonly`, `__noalias`, `__retune`. */
export interface Attr {
  name: 'multipleof' | 'aligned' | 'readonly' | 'writeonly' | 'noalias' | 'retune';
  arg: number | null;
  pos: Pos;
}

// ---- expressions -------------------------------------------------------------------------

/** One entry of a subscript: `newaxis`, `:`, a reduction (`+`, `max`, `min`), or an index expression. */
export type SubscriptItem =
  | { kind: 'newaxis'; pos: Pos }
  | { kind: 'all'; pos: Pos }
  | { kind: 'reduce'; op: '+' | 'max' | 'min'; pos: Pos }
  | { kind: 'index'; expr: Expr; pos: Pos };

/** Binary operators, including Triton's matrix product `@`. */
export type BinaryOp =
  | '+' | '-' | '*' | '/' | '%' | '<<' | '>>' | '&' | '|' | '^'
  | '<' | '>' | '<=' | '>=' | '==' | '!='
  | '&&' | '||' | '@';

/** Assignment operators. */
export type AssignOp = '=' | '+=' | '-=' | '*=' | '/=' | '%=' | '<<=' | '>>=' | '&=' | '|=' | '^=';

/** An expression. `'transpose'` is Triton's prefix `^x`; `'deref'` is `*p` (a load, or a store target). */
export type Expr =
  | { kind: 'ident'; name: string; pos: Pos }
  | { kind: 'int'; value: bigint; /** `u`, `l`, `ul` ... as written */ suffix: string; pos: Pos }
  | { kind: 'float'; value: number; /** `f` for float literals, '' for double */ suffix: string; pos: Pos }
  | ({ kind: 'range'; lo: Expr; hi: Expr; pos: Pos } & OpPos)
  | ({ kind: 'binary'; op: BinaryOp; lhs: Expr; rhs: Expr; pos: Pos } & OpPos)
  | { kind: 'unary'; op: '-' | '+' | '!' | '~' | 'transpose' | 'deref' | 'addr'; operand: Expr; pos: Pos }
  | { kind: 'masked-deref'; mask: Expr; ptr: Expr; pos: Pos }
  | { kind: 'incdec'; op: '++' | '--'; prefix: boolean; target: Expr; pos: Pos }
  | ({ kind: 'assign'; op: AssignOp; target: Expr; value: Expr; pos: Pos } & OpPos)
  | ({ kind: 'conditional'; cond: Expr; then: Expr; else: Expr; pos: Pos } & OpPos)
  | { kind: 'call'; callee: string; args: Expr[]; pos: Pos }
  | { kind: 'subscript'; base: Expr; items: SubscriptItem[]; pos: Pos }
  | { kind: 'cast'; type: TypeSpec; /** `(float[TN]) x`: the tile shape, when given */ shape: Expr[] | null; operand: Expr; pos: Pos }
  | { kind: 'bitcast'; type: TypeSpec; /** `bitcast<uint32[TM, TN]>(x)`: the tile shape, when given */ shape: Expr[] | null; operand: Expr; pos: Pos }
  /** `a, b, c`: evaluates each in order; the value is the last one's. */
  | { kind: 'comma'; exprs: Expr[]; pos: Pos };

// ---- statements --------------------------------------------------------------------------

/** One declared name: `pa[TM, TK] = A + ...` (shape null for scalars). */
export interface Declarator {
  name: string;
  shape: Expr[] | null;
  init: Expr | null;
  attrs: Attr[];
  pos: Pos;
}

/** A statement. */
export type Stmt =
  | { kind: 'block'; stmts: Stmt[]; pos: Pos }
  | { kind: 'decl'; type: TypeSpec; declarators: Declarator[]; pos: Pos }
  | { kind: 'expr'; expr: Expr; pos: Pos }
  | { kind: 'if'; cond: Expr; then: Stmt; else: Stmt | null; pos: Pos }
  | { kind: 'for'; init: Stmt | null; cond: Expr | null; step: Expr | null; body: Stmt; pos: Pos }
  | { kind: 'while'; cond: Expr; body: Stmt; pos: Pos }
  | { kind: 'do'; body: Stmt; cond: Expr; pos: Pos }
  | { kind: 'break'; pos: Pos }
  | { kind: 'continue'; pos: Pos }
  | { kind: 'return'; value: Expr | null; pos: Pos }
  | { kind: 'empty'; pos: Pos };

// ---- top level ---------------------------------------------------------------------------

/** A function parameter: `int lda __multipleof(8)`, `TYPE * A`, `float* __restrict__ X`. */
export interface Param {
  name: string;
  type: TypeSpec;
  attrs: Attr[];
  pos: Pos;
}

/** A function definition; kernels are `__global__`. */
export interface FunctionDef {
  kind: 'function';
  name: string;
  returnType: TypeSpec;
  params: Param[];
  body: Extract<Stmt, { kind: 'block' }>;
  global: boolean;
  pos: Pos;
}

/** A translation unit: the functions of one (preprocessed) file. */
export interface Program {
  functions: FunctionDef[];
}
