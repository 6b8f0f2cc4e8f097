import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { registerAllDialects } from '../../dialects/index.js';
import type { Attribute } from '../../ir/attributes.js';
import { parseText } from '../../ir/parser.js';
import { DOT_OP, NVIDIA_MMA, StructAttr, blocked, slice } from '../../dialects/ttg/index.js';
import {
  elementsOf,
  elemsPerThread,
  layoutOrder,
  dstOwnersWithinSrc,
  layoutsEquivalent,
  numThreadsPerWarp,
  numWarps,
  ownersOf,
  sameLinearLayout,
  shapePerTile,
  threadsPerWarp,
  toLinearLayout,
  totalElemsPerThread,
  warpsPerCTA,
  type Owner,
} from '../../dialects/ttg/layout-lib.js';
import { contigPerThread, conversionScratchBytes, cvtNeedsSharedMemory, repShapeForCvt, scratchConfigForCvt, swizzledScratch } from '../../dialects/ttg/layout-scratch.js';
import { collectLayoutUses, layoutSvg, MAX_CELLS } from '../../tools/view-layout.js';

registerAllDialects();

const mma = (w: number[]) => StructAttr.get(NVIDIA_MMA, { versionMajor: 2, versionMinor: 0, warpsPerCTA: w, instrShape: [16, 8] });
const dot = (opIdx: number, parent: Attribute, kWidth = 2) => StructAttr.get(DOT_OP, { opIdx, parent, kWidth });
const B16x32 = blocked([1, 4], [8, 4], [2, 2], [1, 0]);
/** The examples' #blocked and #blocked1 (matmul_kernel.sm80.ttgir). */
const EX_BLOCKED = blocked([1, 8], [1, 32], [8, 1], [1, 0]);
const EX_BLOCKED1 = blocked([1, 8], [4, 8], [8, 1], [1, 0]);

const key = (o: Owner) => `${o.warp}/${o.lane}/${o.register}`;
const sorted = (os: Owner[]) => os.map(key).sort();

/** Checks that every element of a 2-D `shape` has exactly the owners `expect(i, j)` gives. */
function checkOwners(layout: Attribute, shape: [number, number], expect: (i: number, j: number) => string[]) {
  const owners = ownersOf(layout, shape);
  assert.is(owners.length, shape[0] * shape[1]);
  for (let i = 0; i < shape[0]; i++)
    for (let j = 0; j < shape[1]; j++) assert.equal(sorted(owners[i * shape[1] + j]), [...expect(i, j)].sort(), `element (${i}, ${j})`);
}

test('blocked [1,4]/[8,4]/[2,2] on its exact 16x32 tile', () => {
  checkOwners(B16x32, [16, 32], (i, j) => [`${((j >> 4) & 1) + 2 * (i >> 3)}/${((j >> 2) & 3) + 4 * (i & 7)}/${j & 3}`]);
  assert.equal(elemsPerThread(B16x32, [16, 32]), [1, 4]);
  assert.is(totalElemsPerThread(B16x32, [16, 32]), 4);
  // warp 3 = (row block 1, col block 1); lane 5 = (row 1, col group 1): row 9, cols 20..23
  assert.equal(elementsOf(B16x32, [16, 32], 3, 5), [308, 309, 310, 311]);
  assert.equal(threadsPerWarp(B16x32), [8, 4]);
  assert.equal(warpsPerCTA(B16x32), [2, 2]);
  assert.is(numThreadsPerWarp(B16x32), 32);
  assert.is(numWarps(B16x32), 4);
  assert.equal(layoutOrder(B16x32), [1, 0]);
  assert.equal(shapePerTile(B16x32), [16, 32]);
});

test('blocked larger than the tile repeats along registers, minor dim first', () => {
  // 64x64: 2 repetitions along dim1 (register bit 2), then 4 along dim0 (bits 3, 4)
  checkOwners(B16x32, [64, 64], (i, j) => [
    `${((j >> 4) & 1) + 2 * ((i >> 3) & 1)}/${((j >> 2) & 3) + 4 * (i & 7)}/${(j & 3) + 4 * (j >> 5) + 8 * (i >> 4)}`,
  ]);
  assert.equal(elemsPerThread(B16x32, [64, 64]), [4, 8]);
  assert.is(totalElemsPerThread(B16x32, [64, 64]), 32);
});

test('blocked smaller than the tile is replicated (broadcast lanes and warps)', () => {
  // 4x8: lane bits 1 (col 8) and 4 (row 4) and both warp bits fall outside -> 16 copies
  const owners = ownersOf(B16x32, [4, 8]);
  assert.ok(owners.every((os) => os.length === 16));
  const lanes = [...new Set(owners[0].map((o) => o.lane))].sort((a, b) => a - b);
  assert.equal(lanes, [0, 2, 16, 18]);
  assert.equal([...new Set(owners[0].map((o) => o.warp))].sort(), [0, 1, 2, 3]);
  assert.is(totalElemsPerThread(B16x32, [4, 8]), 4);
  // 16x2: sizePerThread 4 > 2 columns: registers 0 and 2 hold the same element
  const narrow = ownersOf(B16x32, [16, 2]);
  assert.equal([...new Set(narrow[0].map((o) => o.register))].sort(), [0, 2]);
  assert.is(narrow[0].length, 16);
  assert.is(totalElemsPerThread(B16x32, [16, 2]), 4);
  assert.equal(elementsOf(B16x32, [16, 2], 0, 0), [0, 1, 0, 1]);
});

test('slice of a blocked layout', () => {
  const s0 = slice(0, B16x32);
  const o0 = ownersOf(s0, [32]);
  assert.ok(o0.every((os) => os.length === 16));
  for (let j = 0; j < 32; j++) {
    const lanes = new Set(o0[j].map((o) => o.lane % 4));
    const warps = new Set(o0[j].map((o) => o.warp % 2));
    assert.equal([...lanes], [(j >> 2) & 3]);
    assert.equal([...warps], [(j >> 4) & 1]);
    assert.ok(o0[j].every((o) => o.register === (j & 3)));
  }
  assert.equal(elementsOf(s0, [32], 0, 0), [0, 1, 2, 3]);
  assert.is(totalElemsPerThread(s0, [32]), 4);
  assert.equal(layoutOrder(s0), [0]);
  const s1 = slice(1, B16x32);
  const o1 = ownersOf(s1, [16]);
  for (let i = 0; i < 16; i++) {
    assert.equal(sorted(o1[i]), [0, 1, 2, 3].flatMap((c) => [0, 1].map((w) => `${2 * (i >> 3) + w}/${4 * (i & 7) + c}/0`)).sort());
  }
  assert.is(totalElemsPerThread(s1, [16]), 1);
  assert.equal(shapePerTile(s1), [16]);
});

test("the examples' #blocked and #blocked1", () => {
  checkOwners(EX_BLOCKED, [64, 256], (i, j) => [`${i & 7}/${j >> 3}/${(j & 7) + 8 * (i >> 3)}`]);
  assert.equal(elemsPerThread(EX_BLOCKED, [64, 256]), [8, 8]);
  checkOwners(EX_BLOCKED1, [128, 64], (i, j) => [`${(i >> 2) & 7}/${(j >> 3) + 8 * (i & 3)}/${(j & 7) + 8 * (i >> 5)}`]);
  assert.is(totalElemsPerThread(EX_BLOCKED1, [128, 64]), 32);
  assert.equal(threadsPerWarp(EX_BLOCKED1), [4, 8]);
});

test('nvidia_mma v2 warps [2,2] on 32x32 (mma.sync m16n8 C fragment)', () => {
  const m = mma([2, 2]);
  checkOwners(m, [32, 32], (i, j) => [`${2 * (i >> 4) + ((j >> 3) & 1)}/${4 * (i & 7) + ((j & 7) >> 1)}/${(j & 1) + 2 * ((i >> 3) & 1) + 4 * (j >> 4)}`]);
  assert.is(totalElemsPerThread(m, [32, 32]), 8);
  assert.equal(elemsPerThread(m, [32, 32]), [2, 4]);
  assert.equal(shapePerTile(m), [32, 16]);
  assert.equal(layoutOrder(m), [1, 0]);
  assert.equal(contigPerThread(m, [32, 32]), [1, 2]);
});

test('dot_op kWidth 2 of mma v2: A on 32x16, B on 16x32 (m16n8k16 fragments, broadcast along K warps)', () => {
  const m = mma([2, 2]);
  const a = dot(0, m);
  checkOwners(a, [32, 16], (i, j) =>
    [0, 1].map((w) => `${2 * (i >> 4) + w}/${4 * (i & 7) + ((j & 7) >> 1)}/${(j & 1) + 2 * ((i >> 3) & 1) + 4 * (j >> 3)}`),
  );
  assert.is(totalElemsPerThread(a, [32, 16]), 8);
  const b = dot(1, m);
  checkOwners(b, [16, 32], (k, n) => [0, 2].map((w) => `${((n >> 3) & 1) + w}/${4 * (n & 7) + ((k & 7) >> 1)}/${(k & 1) + 2 * (k >> 3) + 4 * (n >> 4)}`));
  assert.equal(layoutOrder(a), [1, 0]);
  assert.equal(layoutOrder(b), [0, 1]);
  assert.equal(shapePerTile(a), [32, 16]);
  assert.equal(shapePerTile(b), [16, 16]);
});

test('dot_op of a blocked parent (FMA operands): K held whole by each thread, lanes and warps broadcast along K', () => {
  const P = blocked([2, 1], [4, 8], [2, 2], [1, 0]);
  const a = dot(0, P);
  const b = dot(1, P);
  // A on 16x4: registers = sizePerThread [2, K=4] in order [1, 0]; the 8 lanes and the first warp bit
  // along dim1 (= K) broadcast; 4 lanes then 1 warp bit along dim0.
  assert.equal(toLinearLayout(a, [16, 4]).toString(), 'register=[[0,1],[0,2],[1,0]] lane=[[0,0],[0,0],[0,0],[2,0],[4,0]] warp=[[0,0],[8,0]] block=[] -> dim0:16 dim1:4');
  // thread (warp w, lane l) holds rows 2 (l >> 3) + 8 (w >> 1) + {0, 1}, all 4 K
  checkOwners(a, [16, 4], (i, j) => {
    const out: string[] = [];
    for (let w = 0; w < 4; w++)
      for (let l = 0; l < 32; l++) if (2 * (l >> 3) + 8 * (w >> 1) === (i & ~1)) out.push(`${w}/${l}/${j + 4 * (i & 1)}`);
    return out;
  });
  // warp 3, lane 13: rows 10, 11 -> linear indices 40..47
  assert.equal(elementsOf(a, [16, 4], 3, 13), [40, 41, 42, 43, 44, 45, 46, 47]);
  assert.equal(elemsPerThread(a, [16, 4]), [2, 4]);
  // B on 4x32: K = dim0 in registers, 8 lanes and 1 warp bit along dim1 (16 columns), repeated once in registers
  assert.equal(toLinearLayout(b, [4, 32]).toString(), 'register=[[1,0],[2,0],[0,16]] lane=[[0,1],[0,2],[0,4],[0,0],[0,0]] warp=[[0,8],[0,0]] block=[] -> dim0:4 dim1:32');
  assert.equal(elementsOf(b, [4, 32], 1, 3), [11, 43, 75, 107, 27, 59, 91, 123]);
});

test('equivalence', () => {
  const lin = parseText(
    `#L = #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], warp = [[0, 16], [8, 0]], block = []}>
     tt.func @f(%x: tensor<16x32xf32, #L>) { tt.return }`,
  ).module;
  const L = collectLayoutUses(lin)[0].layout;
  assert.ok(layoutsEquivalent(B16x32, L, [16, 32]));
  assert.ok(sameLinearLayout(B16x32, L, [16, 32]));
  assert.not.ok(layoutsEquivalent(B16x32, blocked([1, 4], [8, 4], [2, 2], [0, 1]), [16, 32]));
  assert.not.ok(layoutsEquivalent(EX_BLOCKED, EX_BLOCKED1, [128, 64]));
  // Same threads, registers numbered differently: equivalent but not the same linear layout.
  const r10 = blocked([2, 2], [32, 1], [4, 1], [1, 0]);
  const r01 = blocked([2, 2], [32, 1], [4, 1], [0, 1]);
  assert.ok(layoutsEquivalent(r10, r01, [256, 2]));
  assert.not.ok(sameLinearLayout(r10, r01, [256, 2]));
  // Shape matters: two layouts that differ only where a tiny tensor broadcasts.
  const w41 = blocked([1, 1], [32, 1], [4, 1], [1, 0]);
  const w22 = blocked([1, 1], [32, 1], [2, 2], [1, 0]);
  assert.not.ok(layoutsEquivalent(w41, w22, [128, 2]));
  assert.ok(layoutsEquivalent(w41, w22, [32, 1]));
});

test('conversion scratch bytes', () => {
  assert.is(conversionScratchBytes(B16x32, B16x32, [16, 32], 4), 0);
  // The legacy (Triton <= 3.3) padded rep-shape rule, still available as scratchConfigForCvt:
  // #blocked1 -> #blocked on 128x64 f16: rep [32, 64], vec 8 -> padded [32, 72]
  assert.equal(repShapeForCvt(EX_BLOCKED1, EX_BLOCKED, [128, 64]), [32, 64]);
  const cfg = scratchConfigForCvt(EX_BLOCKED1, EX_BLOCKED, [128, 64])!;
  assert.equal([cfg.inVec, cfg.outVec, cfg.paddedRepShape], [8, 8, [32, 72]]);
  // Triton 3.4+ (getNumScratchElemsSwizzledCvt). Flattened index: dim0 minor (bits 0-6 = row), bits 7-12 = column.
  // Both layouts hold 8 consecutive columns (vbasis 128, 256, 512: one 128-bit access); rows 32 and 64 are
  // register bits of both (src: 32 rows per CTA tile; dst: 8) and land in the segment -> 2 rep bits:
  // 8192 / 4 = 2048 elements (a 32x64 tile, unpadded) x 2 bytes.
  const sw = swizzledScratch(EX_BLOCKED1, EX_BLOCKED, [128, 64], 16);
  assert.equal([sw.dim, sw.vbasis, sw.reps], [13, [128, 256, 512], [32, 64]]);
  assert.is(conversionScratchBytes(EX_BLOCKED1, EX_BLOCKED, [128, 64], 2), 2048 * 2);
  // mma [2,2] -> blocked on 32x32 f32: only column bit 0 (32) is a register of both; no reps -> whole tensor
  const m = mma([2, 2]);
  assert.equal(swizzledScratch(m, B16x32, [32, 32], 32).reps, []);
  assert.is(conversionScratchBytes(m, B16x32, [32, 32], 4), 32 * 32 * 4);
  // 1-D [4]/[32]/[4] -> [1]/[32]/[4] on 1024 f32. src registers: 1, 2, 512; dst registers: 128, 256, 512;
  // dst lanes 1..16. vbasis = [512] (common), 2 x 32 bits >= a bank, then src registers 1, 2 that are dst
  // lanes -> [512, 1, 2]; bank bases: log2(1024 / (8 x 32)) = 2; segment needs 10 - 2 - 3 = 5 bases, the free
  // unit bits are 128, 256 (not in either tile) -> segment [128, 256], neither a src register -> no reps.
  const sw1 = swizzledScratch(blocked([4], [32], [4], [0]), blocked([1], [32], [4], [0]), [1024], 32);
  assert.equal([sw1.vbasis, sw1.segment, sw1.reps], [[512, 1, 2], [128, 256], []]);
  assert.is(conversionScratchBytes(blocked([4], [32], [4], [0]), blocked([1], [32], [4], [0]), [1024], 4), 1024 * 4);
  // blocked -> FMA dot operand A (convert-to-gpu's #blocked1 -> dot_op<opIdx 0, #blocked8> of matmul_kernel):
  // rows 32 and 64 are registers of both -> a quarter of 128x64
  const fmaParent = blocked([4, 4], [1, 32], [2, 2], [1, 0]);
  assert.is(conversionScratchBytes(blocked([1, 1], [1, 32], [2, 2], [1, 0]), dot(0, fmaParent), [128, 64], 2), 2048 * 2);
  // mma [4,1] -> dot A: every thread already holds its elements (Triton's mma -> dot shortcut)
  assert.not.ok(cvtNeedsSharedMemory(mma([4, 1]), dot(0, mma([4, 1])), [64, 16]));
  assert.is(conversionScratchBytes(mma([4, 1]), dot(0, mma([4, 1])), [64, 16], 2), 0);
  // mma [2,2] -> dot A needs data from the other N warp
  assert.ok(cvtNeedsSharedMemory(m, dot(0, m), [32, 16]));
  // within one warp (lane shuffles): no shared memory
  assert.is(conversionScratchBytes(blocked([1, 4], [8, 4], [1, 1], [1, 0]), blocked([1, 4], [4, 8], [1, 1], [1, 0]), [8, 32], 4), 0);
});

// ---- --view-layout -----------------------------------------------------------------------

/** A minimal XML well-formedness check: balanced tags, quoted attributes, escaped text. */
function wellFormed(xml: string): string | null {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  const re = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<&]*(?:&(?:amp|lt|gt|quot);[^"<&]*)*")*)\s*(\/?)>|([^<]+)|(<)/g;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    if (m[6]) return `stray '<' at ${m.index}`;
    if (m[5] !== undefined) {
      if (/&(?!(amp|lt|gt|quot|#\d+);)/.test(m[5])) return `bad '&' at ${m.index}`;
      if (m[5].includes('>')) return `raw '>' in text at ${m.index}`;
      continue;
    }
    if (m[1]) {
      if (stack.pop() !== m[2]) return `mismatched </${m[2]}> at ${m.index}`;
    } else if (!m[4]) stack.push(m[2]);
  }
  return stack.length ? `unclosed <${stack.join('> <')}>` : null;
}

const SMALL = `module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%a: tensor<16x32xf32, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>>,
             %b: tensor<32xf32, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>}>>) {
    %c = arith.addf %a, %a : tensor<16x32xf32, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>>
    tt.return
  }
}`;

test('layoutSvg: one panel per distinct (layout, shape), one box per run of a thread\'s registers, well-formed', () => {
  const svg = layoutSvg(parseText(SMALL).module);
  assert.is(wellFormed(svg), null);
  assert.is((svg.match(/<g class="layout"/g) ?? []).length, 2);
  // sizePerThread [1, 4]: each thread holds 4 consecutive elements of a row in registers r..r+3.
  assert.is((svg.match(/<g class="cell" data-run="4">/g) ?? []).length, (16 * 32) / 4 + 32 / 4);
  assert.is((svg.match(/<g class="cell"/g) ?? []).length, (16 * 32) / 4 + 32 / 4);
  assert.ok(svg.includes('16x32  #ttg.blocked&lt;{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}&gt;'));
  // (9, 20): lane = (9 % 8) * 4 + (20 / 4) % 4 = 5, warp = (9 / 8) * 2 + (20 / 16) % 2 = 3, registers 0..3.
  assert.ok(svg.includes('<title>[9, 20..23]: warp 3 lane 5 reg 0 (to reg 3)</title>'));
  assert.ok(svg.includes('>warp 3</text>'));
  assert.ok(svg.includes('×16</text>'));
});

test('layoutSvg draws one repetition of large tensors and handles the real examples', () => {
  const m = parseText(readFileSync(new URL('../../examples/ttir/matmul_kernel.sm80.ttgir', import.meta.url), 'utf8')).module;
  const uses = collectLayoutUses(m);
  assert.is(uses.length, 16);
  const svg = layoutSvg(m);
  assert.is(wellFormed(svg), null);
  // 128x256 blocked [1, 8] x [1, 32] x [8, 1]: one repetition is 8 rows of 256, drawn 64 wide.
  assert.ok(svg.includes(`one repetition of 8x256, repeated 16x1 times (the next starts at register 8) · showing its first 8x${MAX_CELLS} elements`));
  assert.is(wellFormed(layoutSvg(parseText('tt.func @f() { tt.return }').module)), null);
});

/** The owner sets by definition: for each element, the sorted (block.warp[.lane]) ids of every copy. */
function ownerSets(layout: Attribute, shape: number[], level: 'thread' | 'warp'): Set<string>[] {
  return ownersOf(layout, shape).map((os) => new Set(os.map((o) => (level === 'thread' ? `${o.block}.${o.warp}.${o.lane}` : `${o.block}.${o.warp}`))));
}

test('layoutsEquivalent and dstOwnersWithinSrc (bases over GF(2)) agree with the owner sets element by element', () => {
  const mma = (v: number, warps: number[], instr: number[]) => StructAttr.get(NVIDIA_MMA, { versionMajor: v, versionMinor: 0, warpsPerCTA: warps, instrShape: instr });
  const shape = [64, 64];
  const layouts: Attribute[] = [
    blocked([1, 4], [8, 4], [4, 1], [1, 0]),
    blocked([1, 4], [4, 8], [4, 1], [1, 0]),
    blocked([4, 1], [8, 4], [1, 4], [0, 1]),
    blocked([1, 1], [1, 32], [4, 1], [1, 0]),
    blocked([2, 2], [4, 8], [2, 2], [1, 0]),
    blocked([1, 8], [8, 4], [4, 1], [1, 0]),
    mma(2, [2, 2], [16, 8]),
    mma(2, [4, 1], [16, 8]),
    mma(3, [4, 1], [16, 64, 16]),
    mma(3, [4, 1], [16, 32, 16]),
    StructAttr.get(DOT_OP, { opIdx: 0, parent: mma(2, [4, 1], [16, 8]), kWidth: 2 }),
    StructAttr.get(DOT_OP, { opIdx: 0, parent: mma(3, [4, 1], [16, 64, 16]), kWidth: 2 }),
    StructAttr.get(DOT_OP, { opIdx: 1, parent: mma(2, [2, 2], [16, 8]), kWidth: 2 }),
  ];
  let equal = 0;
  let within = 0;
  for (const a of layouts) {
    for (const b of layouts) {
      const [ta, tb] = [ownerSets(a, shape, 'thread'), ownerSets(b, shape, 'thread')];
      const same = ta.every((s, k) => s.size === tb[k].size && [...s].every((x) => tb[k].has(x)));
      assert.is(layoutsEquivalent(a, b, shape), same, `layoutsEquivalent(${a}, ${b})`);
      equal += +same;
      for (const level of ['thread', 'warp'] as const) {
        const [sa, sb] = [ownerSets(a, shape, level), ownerSets(b, shape, level)];
        const inside = sb.every((s, k) => [...s].every((x) => sa[k].has(x)));
        assert.is(dstOwnersWithinSrc(a, b, shape, level), inside, `dstOwnersWithinSrc(${a}, ${b}, ${level})`);
        within += +inside;
      }
    }
  }
  // The cases include both answers, beyond the trivial a == b.
  assert.ok(equal > layouts.length && within > 2 * layouts.length, `${equal} equivalent pairs, ${within} within`);
});

test.run();
