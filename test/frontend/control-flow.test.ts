/**
 * Triton-C control flow the original language did not have, run in the interpreter on fresh
 * random inputs against plain-TS references: `break`, `continue` and early `return` (structured
 * lowering, lower-jumps.ts), the comma operator, and `&&` / `||` that short-circuit (the right
 * side, which would trap or write memory, must not run). Reproduce a failure with the
 * TC_KERNEL_SEED its message prints.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileTritonC } from '../../frontend/triton-c/index.js';
import type { Operation } from '../../ir/ir.js';
import { verify } from '../../ir/verifier.js';
import { type ArgValue, interpret } from '../../tools/interpreter/interpreter.js';
import { Memory } from '../../tools/interpreter/memory.js';
import { type Random, at, checkMatrix, compileExample, launch, matmulTolerance, outputMatrix, randomMatrix, withSeed } from '../helpers/tc-kernels.js';

const SENTINEL = -7;

function compile(src: string, defines: Record<string, string> = {}): Operation {
  const m = compileTritonC(src, 'test.tc', defines);
  verify(m);
  return m;
}

function run(module: Operation, kernel: string, grid: number[], args: ArgValue[], memory: Memory): void {
  interpret(module, kernel, { grid, args, memory });
}

/** Random integers in [lo, hi). */
function ints(random: Random, n: number, lo: number, hi: number): number[] {
  return Array.from({ length: n }, () => lo + Math.floor(random() * (hi - lo)));
}

// ---- break ------------------------------------------------------------------------------------

/**
 * matmul-early-exit.tc: each program sums the K tiles before its first flag 1 (`break`) except
 * those flagged 2 (`continue`); the grid has an extra row of programs, which must `return` before
 * touching memory (C has no room for them: a store would be out of bounds).
 */
function checkEarlyExit(type: 'float' | 'half', random: Random): void {
  const [M, N, K, TM, TN, TK] = [32, 48, 64, 16, 16, 8];
  const elt = type === 'float' ? 'f32' : 'f16';
  const label = `matmul-early-exit TYPE=${type}`;
  const module = compileExample('matmul-early-exit.tc', { TYPE: type, TM: String(TM), TN: String(TN), TK: String(TK) });
  const mem = new Memory();
  const a = randomMatrix(mem, elt, M, K, K + 8, 0, random, 'A');
  const b = randomMatrix(mem, elt, K, N, N + 8, 0, random, 'B');
  const c = outputMatrix(mem, elt, M, N, N + 8, SENTINEL, 'C');
  const gm = M / TM;
  const gn = N / TN;
  const nk = K / TK;
  // About a third of the programs never stop; the others stop at a random K tile (0 included).
  // Before its stop, a tile is skipped (flag 2) with probability 1/4; after it, flags are random.
  // Whatever the seed, program 0 runs to the end with its tile 1 skipped, and program 1 stops
  // before the end, so every run takes each path.
  const flags = new Array<number>(gm * gn * nk).fill(0);
  const stops: number[] = [];
  for (let p = 0; p < gm * gn; p++) {
    let stop = random() < 0.35 ? nk : Math.floor(random() * nk);
    if (p === 0) stop = nk;
    if (p === 1) stop = Math.floor(random() * nk);
    stops.push(stop);
    for (let kt = 0; kt < nk; kt++) {
      if (kt < stop) flags[p * nk + kt] = random() < 0.25 || (p === 0 && kt === 1) ? 2 : 0;
      else flags[p * nk + kt] = kt === stop ? 1 : Math.floor(random() * 3);
    }
  }
  assert.ok(stops.some((s) => s === nk) && stops.some((s) => s < nk), `${label}: some programs exit early, some do not`);
  assert.ok(flags.includes(2), `${label}: some tiles are skipped`);
  const f = mem.alloc('i32', flags.length, 'F').fill(flags);
  launch(label, module, 'dot', [gm + 1, gn], [a.buffer, b.buffer, c.buffer, f, M, N, K, a.ld, b.ld, c.ld], mem);
  // The reference of each entry sums the tiles its program accumulates.
  const ref: number[] = [];
  const mag: number[] = [];
  for (let i = 0; i < M; i++)
    for (let j = 0; j < N; j++) {
      const p = Math.floor(i / TM) * gn + Math.floor(j / TN);
      let s = 0;
      let m = 0;
      for (let k = 0; k < stops[p] * TK; k++) {
        if (flags[p * nk + Math.floor(k / TK)] === 2) continue;
        s += at(a, i, k) * at(b, k, j);
        m += Math.abs(at(a, i, k) * at(b, k, j));
      }
      ref.push(s);
      mag.push(m);
    }
  checkMatrix(label, c, ref, (k) => matmulTolerance(elt, K, ref[k], mag[k]), SENTINEL);
}

test('break, continue, return: matmul-early-exit.tc, flags read from memory (f32, f16)', () => {
  withSeed('matmul-early-exit', (random) => {
    checkEarlyExit('float', random);
    checkEarlyExit('half', random);
  });
});

test('break in while, do and nested loops; the step and condition do not run after a break', () => {
  const module = compile(`
    __global__ void k(int* X, int* Out, int n, int t) {
      // while: the first index whose value exceeds t (n if none); i++ in the condition
      int i = 0;
      while (i++ < n) {
        if (*(X + i - 1) > t) break;
      }
      *(Out + 0) = i;
      // for with a step: the step must not run after the break
      int j = 0;
      for (j = 0; j < n; j += 1) {
        if (*(X + j) > t) break;
      }
      *(Out + 1) = j;
      // do/while: counts down until a value below -t
      int d = n;
      do {
        d = d - 1;
        if (*(X + d) < -t) break;
      } while (d > 0);
      *(Out + 2) = d;
      // nested: the inner break leaves only the inner loop
      int pairs = 0;
      for (int a = 0; a < 4; a++) {
        for (int b = 0; b < n; b++) {
          if (b > a) break;
          pairs += *(X + b) > 0;
        }
      }
      *(Out + 3) = pairs;
    }`);
  withSeed('break-loops', (random) => {
    for (let trial = 0; trial < 6; trial++) {
      const n = 8 + Math.floor(random() * 8);
      const x = ints(random, n, -20, 20);
      const t = Math.floor(random() * 25);
      const mem = new Memory();
      const xb = mem.alloc('i32', n, 'X').fill(x);
      const out = mem.alloc('i32', 4, 'Out').fill(() => SENTINEL);
      run(module, 'k', [1], [xb, out, n, t], mem);
      // Reference: the same C, by hand.
      let i = 0;
      while (i++ < n) if (x[i - 1] > t) break;
      let j = 0;
      for (j = 0; j < n; j += 1) if (x[j] > t) break;
      let d = n;
      do {
        d -= 1;
        if (x[d] < -t) break;
      } while (d > 0);
      let pairs = 0;
      for (let a = 0; a < 4; a++)
        for (let b = 0; b < n; b++) {
          if (b > a) break;
          pairs += x[b] > 0 ? 1 : 0;
        }
      assert.equal(out.toNumbers(), [i, j, d, pairs], `x = [${x}], t = ${t}`);
    }
  });
});

// ---- continue -------------------------------------------------------------------------------

test('continue: skips the rest of the body, the step still runs (counted loop stays scf.for)', () => {
  const module = compile(`
    __global__ void k(float* X, int* S, float* Y, int n) {
      int r[16] = 0 ... 16;
      float acc[16] = 0;
      int used = 0;
      for (int i = 0; i < n; i++) {
        if (*(S + i) == 0)
          continue;
        acc += *(X + i * 16 + r);
        used++;
      }
      *(Y + r) = acc;
      *(Y + 16) = used;
    }`);
  withSeed('continue', (random) => {
    const n = 12;
    const mem = new Memory();
    const x = Array.from({ length: n * 16 }, () => Math.fround(random() * 2 - 1));
    const s = ints(random, n, 0, 2);
    const xb = mem.alloc('f32', x.length, 'X').fill(x);
    const sb = mem.alloc('i32', n, 'S').fill(s);
    const y = mem.alloc('f32', 17, 'Y').fill(() => SENTINEL);
    run(module, 'k', [1], [xb, sb, y, n], mem);
    const out = y.toNumbers();
    for (let l = 0; l < 16; l++) {
      let ref = 0;
      for (let i = 0; i < n; i++) if (s[i]) ref += x[i * 16 + l];
      assert.ok(Math.abs(out[l] - ref) <= 1e-5 * n, `lane ${l}: ${out[l]} vs ${ref}`);
    }
    assert.is(out[16], s.filter((v) => v).length);
  });
});

// ---- return ---------------------------------------------------------------------------------

test('early return: from a kernel (before anything, inside a loop) and from a non-void function', () => {
  const module = compile(`
    int first_above(float* X, int n, float t) {
      for (int i = 0; i < n; i++)
        if (*(X + i) > t) return i;
      return -1;
    }
    int sign(int v) {
      if (v > 0) return 1;
      else if (v < 0) return -1;
      else return 0;
    }
    __global__ void find(float* X, int* Out, int* Sg, int n, float t) {
      int pid = get_program_id(0);
      if (pid >= 3)
        return;
      *(Sg + pid) = sign(first_above(X + pid * n, n, t));
      for (int i = 0; i < n; i++) {
        if (*(X + pid * n + i) > t) {
          *(Out + pid) = i;
          return;
        }
      }
      *(Out + pid) = -1;
    }`);
  withSeed('early-return', (random) => {
    const n = 10;
    const mem = new Memory();
    const x = Array.from({ length: 3 * n }, () => Math.fround(random()));
    // Row 1 never exceeds t; the others may.
    const t = 0.8;
    for (let i = 0; i < n; i++) x[n + i] = Math.fround(x[n + i] * 0.5);
    const xb = mem.alloc('f32', x.length, 'X').fill(x);
    const out = mem.alloc('i32', 5, 'Out').fill(() => SENTINEL);
    const sg = mem.alloc('i32', 5, 'Sg').fill(() => SENTINEL);
    run(module, 'find', [5], [xb, out, sg, n, t], mem);
    const ref = [0, 1, 2].map((p) => x.slice(p * n, p * n + n).findIndex((v) => v > t));
    assert.equal(out.toNumbers(), [...ref, SENTINEL, SENTINEL]);
    assert.equal(sg.toNumbers(), [...ref.map((v) => Math.sign(v)), SENTINEL, SENTINEL]);
  });
});

// ---- comma, && and || -------------------------------------------------------------------------

test('comma operator: for (i = 0, j = n - 1; i < j; i++, j--) reverses a buffer in place', () => {
  const module = compile(`
    __global__ void rev(int* X, int n) {
      int i;
      int j;
      int t;
      for (i = 0, j = n - 1; i < j; i++, j--) {
        t = *(X + i), *(X + i) = *(X + j), *(X + j) = t;
      }
    }`);
  withSeed('comma', (random) => {
    for (const n of [1, 6, 9]) {
      const x = ints(random, n, -100, 100);
      const mem = new Memory();
      const xb = mem.alloc('i32', n, 'X').fill(x);
      run(module, 'rev', [1], [xb, n], mem);
      assert.equal(xb.toNumbers(), [...x].reverse());
    }
  });
});

test('&& and || on scalars short-circuit: no out-of-bounds load, no division by zero, no store', () => {
  const module = compile(`
    bool mark(int* P) {
      *P = 1;
      return 1;
    }
    __global__ void k(int* X, int* Out, int* Marks, int n, int d) {
      int pid = get_program_id(0);
      // pid may be past X: the load must not run then
      int ok = pid < n && *(X + pid) > 0;
      // d may be 0: the division must not run then
      int big = d != 0 && 100 / d > 10;
      // mark writes memory: only when pid is odd (|| evaluates it when the left side is false)
      int odd = pid % 2 == 0 || mark(Marks + pid);
      *(Out + pid * 3 + 0) = ok;
      *(Out + pid * 3 + 1) = big;
      *(Out + pid * 3 + 2) = odd;
    }`);
  withSeed('short-circuit', (random) => {
    const n = 5;
    const grid = 8;
    for (const d of [0, 3, 20]) {
      const x = ints(random, n, -5, 5);
      const mem = new Memory();
      const xb = mem.alloc('i32', n, 'X').fill(x);
      const out = mem.alloc('i32', grid * 3, 'Out').fill(() => SENTINEL);
      const marks = mem.alloc('i32', grid, 'Marks').fill(() => 0);
      run(module, 'k', [grid], [xb, out, marks, n, d], mem);
      const ref: number[] = [];
      for (let p = 0; p < grid; p++) ref.push(p < n && x[p] > 0 ? 1 : 0, d !== 0 && Math.trunc(100 / d) > 10 ? 1 : 0, 1);
      assert.equal(out.toNumbers(), ref, `d = ${d}, x = [${x}]`);
      assert.equal(marks.toNumbers(), Array.from({ length: grid }, (_, p) => p % 2));
    }
  });
});

test('&& and || on tiles: the right side loads and stores only in the lanes that decide', () => {
  const module = compile(`
    __global__ void k(float* X, int* Y, int* Z, int n) {
      int r[16] = 0 ... 16;
      // X has n < 16 elements: the load of the right side is masked by r < n
      bool pos[16] = r < n && *(X + r) > 0;
      // the right side stores only where the left side is false
      bool either[16] = r % 3 == 0 || (*(Z + r) = 1) != 0;
      *(Y + r) = pos + 2 * either;
    }`);
  withSeed('tile-logical', (random) => {
    const n = 11;
    const x = Array.from({ length: n }, () => Math.fround(random() * 2 - 1));
    const mem = new Memory();
    const xb = mem.alloc('f32', n, 'X').fill(x);
    const y = mem.alloc('i32', 16, 'Y').fill(() => SENTINEL);
    const z = mem.alloc('i32', 16, 'Z').fill(() => 0);
    run(module, 'k', [1], [xb, y, z, n], mem);
    const ref = Array.from({ length: 16 }, (_, l) => (l < n && x[l] > 0 ? 1 : 0) + 2);
    assert.equal(y.toNumbers(), ref);
    assert.equal(z.toNumbers(), Array.from({ length: 16 }, (_, l) => (l % 3 === 0 ? 0 : 1)));
  });
});

test.run();
