/** Shared helpers of the interpreter tests: build small kernels around an op and run them. */
import { registerAllDialects } from '../../dialects/index.js';
import { parseText } from '../../ir/parser.js';
import { verify } from '../../ir/verifier.js';
import type { Operation } from '../../ir/ir.js';
import { type ArgValue, interpret, type InterpretResult } from '../../tools/interpreter/interpreter.js';
import { type Buffer, Memory } from '../../tools/interpreter/memory.js';

registerAllDialects();

/** Parses and verifies IR text. */
export function parse(text: string, name = 'test.ttir'): Operation {
  const { module } = parseText(text, {}, name);
  verify(module);
  return module;
}

/** Runs kernel `name` (default the first) of `text` with `args` built from a fresh memory. */
export function run(
  text: string,
  makeArgs: (mem: Memory) => ArgValue[],
  grid: number[] = [1, 1, 1],
  kernel = 'k',
): { mem: Memory; result: InterpretResult } {
  const mem = new Memory();
  const result = interpret(parse(text), kernel, { grid, args: makeArgs(mem), memory: mem });
  return { mem, result };
}

/** The IR for `%name = load a[0..n)` from pointer arg `%ptr` of element type `t`. */
export function loadLines(name: string, ptr: string, t: string, n: number): string {
  return `
    %${name}_r = tt.make_range {end = ${n} : i32, start = 0 : i32} : tensor<${n}xi32>
    %${name}_s = tt.splat %${ptr} : !tt.ptr<${t}> -> tensor<${n}x!tt.ptr<${t}>>
    %${name}_p = tt.addptr %${name}_s, %${name}_r : tensor<${n}x!tt.ptr<${t}>>, tensor<${n}xi32>
    %${name} = tt.load %${name}_p : tensor<${n}x!tt.ptr<${t}>>`;
}

/** The IR storing `%value` (n elements of `t`) to pointer arg `%ptr`. */
export function storeLines(value: string, ptr: string, t: string, n: number): string {
  const p = `st_${value}`;
  return `
    %${p}_r = tt.make_range {end = ${n} : i32, start = 0 : i32} : tensor<${n}xi32>
    %${p}_s = tt.splat %${ptr} : !tt.ptr<${t}> -> tensor<${n}x!tt.ptr<${t}>>
    %${p}_p = tt.addptr %${p}_s, %${p}_r : tensor<${n}x!tt.ptr<${t}>>, tensor<${n}xi32>
    tt.store %${p}_p, %${value} : tensor<${n}x!tt.ptr<${t}>>`;
}

/**
 * A kernel `@k(%a, %b, %o)` computing `%z = <body>` elementwise over n elements, where the body
 * uses `%x` (from a) and `%y` (from b); the result (element type `r`) is stored to o.
 */
export function binaryKernel(body: string, t: string, r: string, n: number): string {
  return `module {
  tt.func @k(%a: !tt.ptr<${t}>, %b: !tt.ptr<${t}>, %o: !tt.ptr<${r}>) {${loadLines('x', 'a', t, n)}${loadLines('y', 'b', t, n)}
    %z = ${body}${storeLines('z', 'o', r, n)}
    tt.return
  }
}`;
}

/** A kernel `@k(%a, %o)` computing `%z = <body>` from `%x` (loaded from a). */
export function unaryKernel(body: string, t: string, r: string, n: number): string {
  return `module {
  tt.func @k(%a: !tt.ptr<${t}>, %o: !tt.ptr<${r}>) {${loadLines('x', 'a', t, n)}
    %z = ${body}${storeLines('z', 'o', r, n)}
    tt.return
  }
}`;
}

/** Runs a binary elementwise kernel on a and b; returns the output buffer's raw values. */
export function runBinary(body: string, t: string, r: string, a0: (number | bigint)[], b0: (number | bigint)[]): (number | bigint)[] {
  const a = padPow2(a0);
  const b = padPow2(b0);
  const n = a.length;
  body = body.replaceAll(`tensor<${a0.length}x`, `tensor<${n}x`);
  let out: Buffer | null = null;
  run(binaryKernel(body, t, r, n), (mem) => {
    const x = mem.alloc(t, n, 'a');
    const y = mem.alloc(t, n, 'b');
    a.forEach((v, k) => x.set(k, v));
    b.forEach((v, k) => y.set(k, v));
    out = mem.alloc(r, n, 'o');
    return [x, y, out];
  });
  return rawValues(out!).slice(0, a0.length);
}

/** Pads to a power-of-two length (tt.make_range requires one) by repeating the first element. */
function padPow2<T>(xs: T[]): T[] {
  let n = 1;
  while (n < xs.length) n *= 2;
  return [...xs, ...Array.from({ length: n - xs.length }, () => xs[0])];
}

/** Runs a unary elementwise kernel on a; returns the output buffer's raw values. */
export function runUnary(body: string, t: string, r: string, a0: (number | bigint)[]): (number | bigint)[] {
  const a = padPow2(a0);
  const n = a.length;
  body = body.replaceAll(`tensor<${a0.length}x`, `tensor<${n}x`);
  let out: Buffer | null = null;
  run(unaryKernel(body, t, r, n), (mem) => {
    const x = mem.alloc(t, n, 'a');
    a.forEach((v, k) => x.set(k, v));
    out = mem.alloc(r, n, 'o');
    return [x, out];
  });
  return rawValues(out!).slice(0, a0.length);
}

/** Element values of a buffer (numbers, or bigints for i64). */
export function rawValues(b: Buffer): (number | bigint)[] {
  return Array.from({ length: b.length }, (_, k) => b.get(k));
}

/** Asserts that `fn` throws an error whose message contains every fragment. */
export function throwsWith(fn: () => unknown, ...fragments: string[]): string {
  try {
    fn();
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    for (const f of fragments) if (!msg.includes(f)) throw new Error(`error message lacks '${f}':\n${msg}`);
    return msg;
  }
  throw new Error('expected an error');
}
