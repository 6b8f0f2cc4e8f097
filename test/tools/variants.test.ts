/**
 * `triton-translate --from-c ... --all-variants DIR [--to-*]` (tools/variants.ts): the files of each
 * variant, DIR/space.json (defines, parameters, key, hash, failed variants with their diagnostic),
 * and the options it refuses. Runs the built tool in dist/ (the npm test script builds first).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const tool = join(root, 'dist/bin/triton-translate.cjs');
const vectorAdd = join(root, 'examples/triton-c/vector-add-param.tc');

/** Runs the tool in a fresh folder; returns its exit status, stderr and the folder. */
function translate(args: string[], env: NodeJS.ProcessEnv = process.env): { status: number | null; stderr: string; dir: string; out: string } {
  const work = mkdtempSync(join(tmpdir(), 'variants-test-'));
  const dir = join(work, 'space');
  const r = spawnSync('node', [tool, ...args.map((a) => a.replace('DIR', dir))], { encoding: 'utf8', env });
  return { status: r.status, stderr: r.stderr, dir, out: r.stdout };
}

interface SpaceJson {
  format: number;
  translation: string;
  arch: string;
  kernel: string;
  fixed: Record<string, string>;
  lists: { name: string; values: string[] }[];
  params: { name: string; kind: string; type: string }[];
  key: string[];
  hash: string;
  ptxas: boolean;
  variants: {
    index: number;
    status: string;
    description: string;
    choice: Record<string, string>;
    defines: Record<string, string>;
    files?: Record<string, string>;
    shared_bytes?: number;
    num_warps?: number;
    ptxas?: { registers: number };
    diagnostic?: string;
  }[];
}

const readSpace = (dir: string): SpaceJson => JSON.parse(readFileSync(join(dir, 'space.json'), 'utf8')) as SpaceJson;
const cleanup = (dir: string): void => rmSync(dirname(dir), { recursive: true, force: true });

test('--to-ptx writes PTX and metadata per variant, and space.json; a failing variant is listed, the rest go on', () => {
  const r = translate([vectorAdd, '--from-c', '-DSIZE=[32, 48, 256]', '-DTYPE=float', '--all-variants', 'DIR', '--to-ptx', '--arch', 'sm_90a']);
  try {
    assert.is(r.status, 0, r.stderr);
    assert.is(r.out, '');
    assert.match(r.stderr, /\[\d\/3\] 1: SIZE=48: FAILED: .*vector-add-param\.tc:9:11: error: tile size must be a power of two, got 48/);
    assert.match(r.stderr, /wrote 2 of 3 variants and space.json to .* \(1 failed, listed in space.json\)/);
    const space = readSpace(r.dir);
    assert.is(space.format, 1);
    assert.is(space.translation, 'to-ptx');
    assert.is(space.arch, 'sm_90a');
    assert.is(space.kernel, 'add');
    assert.equal(space.fixed, { TYPE: 'float' });
    assert.equal(space.lists, [{ name: 'SIZE', values: ['32', '48', '256'] }]);
    assert.equal(space.params.map((p) => `${p.kind} ${p.type} ${p.name}`), ['scalar i32 N', 'pointer f32 a', 'pointer f32 b', 'pointer f32 c']);
    assert.equal(space.key, ['N']);
    assert.match(space.hash, /^[0-9a-f]{64}$/);
    assert.equal(space.variants.map((v) => [v.index, v.status, v.description]), [[0, 'ok', 'SIZE=32'], [1, 'failed', 'SIZE=48'], [2, 'ok', 'SIZE=256']]);
    assert.equal(space.variants[2].defines, { SIZE: '256', TYPE: 'float' });
    assert.equal(space.variants[2].choice, { SIZE: '256' });
    assert.match(space.variants[1].diagnostic ?? '', /^.*vector-add-param\.tc:9:11: error: tile size must be a power of two, got 48[^]*\n\s*\^/);
    assert.is(space.variants[1].files, undefined);
    for (const k of [0, 2]) {
      const v = space.variants[k];
      assert.equal(v.files, { ptx: `vector-add-param.${k}.ptx`, metadata: `vector-add-param.${k}.json` });
      const ptx = readFileSync(join(r.dir, v.files!.ptx), 'utf8');
      assert.match(ptx, /\.target sm_90a/);
      assert.match(ptx, /\.entry add\(/);
      assert.not.match(ptx, /tt\.func/);
      const meta = JSON.parse(readFileSync(join(r.dir, v.files!.metadata), 'utf8'));
      assert.is(meta.name, 'add');
      assert.is(meta.variant, k);
      assert.equal(meta.defines, v.defines);
      assert.is(meta.shared_bytes, v.shared_bytes);
      assert.is(meta.num_warps, v.num_warps);
      if (space.ptxas) assert.ok(meta.ptxas.registers > 0 && meta.ptxas.registers === v.ptxas!.registers);
    }
    assert.equal(readdirSync(r.dir).sort(), ['space.json', 'vector-add-param.0.json', 'vector-add-param.0.ptx', 'vector-add-param.2.json', 'vector-add-param.2.ptx']);
  } finally {
    cleanup(r.dir);
  }
});

test('the hash depends on the code: same space twice is the same hash, another -D value another', () => {
  const args = (size: string) => [vectorAdd, '--from-c', `-DSIZE=[${size}]`, '-DTYPE=float', '--all-variants', 'DIR', '--to-ptx'];
  const [a, b, c] = [translate(args('64')), translate(args('64')), translate(args('128'))];
  try {
    assert.is(readSpace(a.dir).hash, readSpace(b.dir).hash);
    assert.is.not(readSpace(a.dir).hash, readSpace(c.dir).hash);
  } finally {
    [a, b, c].forEach((r) => cleanup(r.dir));
  }
});

test('without a translation each variant is tt IR; other translations write their own format', () => {
  const ir = translate([vectorAdd, '--from-c', '-DSIZE=[32, 64]', '-DTYPE=float', '--all-variants', 'DIR']);
  const nv = translate([vectorAdd, '--from-c', '-DSIZE=[32, 64]', '-DTYPE=float', '--all-variants', 'DIR', '--to-nvptx-ir']);
  try {
    assert.is(ir.status, 0, ir.stderr);
    const tir = readFileSync(join(ir.dir, 'vector-add-param.1.tir'), 'utf8');
    assert.match(tir, /^\/\/ SIZE=64\n/);
    assert.match(tir, /tt\.func/);
    const space = readSpace(ir.dir);
    assert.is(space.translation, 'tt-ir');
    assert.is(space.params, null);
    assert.equal(space.variants[1].files, { output: 'vector-add-param.1.tir' });
    assert.is(nv.status, 0, nv.stderr);
    assert.match(readFileSync(join(nv.dir, 'vector-add-param.0.nvptx-ir'), 'utf8'), /nvptx\./);
  } finally {
    cleanup(ir.dir);
    cleanup(nv.dir);
  }
});

test('every variant failing exits 1 with space.json listing them', () => {
  const r = translate([vectorAdd, '--from-c', '-DSIZE=[48, 96]', '-DTYPE=float', '--all-variants', 'DIR', '--to-ptx']);
  try {
    assert.is(r.status, 1);
    assert.not.match(r.stderr, /internal error|at .*\.js:/);
    assert.equal(readSpace(r.dir).variants.map((v) => v.status), ['failed', 'failed']);
  } finally {
    cleanup(r.dir);
  }
});

test('options that name one output file are refused with --all-variants, and nothing is written', () => {
  for (const [flag, message] of [
    [['-o', 'x.ptx'], '-o cannot be used with --all-variants'],
    [['--emit-metadata', 'x.json'], '--emit-metadata cannot be used with --all-variants'],
    [['--variant', '1'], '--variant cannot be used with --all-variants'],
  ] as const) {
    const r = translate([vectorAdd, '--from-c', '-DSIZE=[32, 64]', '-DTYPE=float', '--all-variants', 'DIR', '--to-ptx', ...flag]);
    try {
      assert.is(r.status, 1);
      assert.is(r.stderr, `triton-translate: error: ${message}${message.startsWith('--emit') ? ": each variant's metadata is written beside its PTX in DIR" : message.startsWith('-o') ? ': the outputs go into DIR' : ''}\n`);
      assert.not.ok(existsSync(r.dir));
    } finally {
      cleanup(r.dir);
    }
  }
});

/** A folder holding a `ptxas` that answers --version and otherwise prints `log` and exits with `status`. */
function fakePtxas(log: string, status: number): string {
  const bin = mkdtempSync(join(tmpdir(), 'fake-ptxas-'));
  const script = `#!/bin/sh\n[ "$1" = --version ] && exit 0\ncat <<'EOF' >&2\n${log}\nEOF\nexit ${status}\n`;
  writeFileSync(join(bin, 'ptxas'), script);
  chmodSync(join(bin, 'ptxas'), 0o755);
  return bin;
}

test('ptxas statistics, a ptxas rejection (a failed variant) and a ptxas too old for the arch (no statistics)', () => {
  const args = [vectorAdd, '--from-c', '-DSIZE=[64]', '-DTYPE=float', '--all-variants', 'DIR', '--to-ptx', '--arch', 'sm_90a'];
  const cases = [
    ['ptxas info    : Used 42 registers, used 1 barriers, 8 bytes spill stores, 12 bytes spill loads', 0],
    ['ptxas /tmp/x.ptx, line 7; error   : Arguments mismatch for instruction', 255],
    ["ptxas fatal   : Value 'sm_90a' is not defined for option 'gpu-name'", 255],
  ] as const;
  const runs = cases.map(([log, status]) => {
    const bin = fakePtxas(log, status);
    const r = translate(args, { ...process.env, PATH: `${bin}:${process.env.PATH}` });
    rmSync(bin, { recursive: true, force: true });
    return r;
  });
  try {
    const [stats, rejected, old] = runs.map((r) => readSpace(r.dir));
    assert.equal(stats.variants[0].ptxas, { registers: 42, spill_stores: 8, spill_loads: 12 });
    assert.is(stats.variants[0].status, 'ok');
    assert.is(rejected.variants[0].status, 'failed');
    assert.match(rejected.variants[0].diagnostic ?? '', /^error: ptxas rejected the PTX: .*Arguments mismatch/);
    assert.is(runs[1].status, 1);
    assert.is(old.variants[0].status, 'ok');
    assert.is(old.variants[0].ptxas, undefined);
    assert.match((old.variants[0] as { ptxas_unavailable?: string }).ptxas_unavailable ?? '', /not defined for option 'gpu-name'/);
  } finally {
    runs.forEach((r) => cleanup(r.dir));
  }
});

test('a DIR that cannot be created is a user error', () => {
  const work = mkdtempSync(join(tmpdir(), 'variants-test-'));
  const file = join(work, 'file');
  writeFileSync(file, 'x');
  try {
    const r = spawnSync('node', [tool, vectorAdd, '--from-c', '-DSIZE=[64]', '-DTYPE=float', '--all-variants', join(file, 'sub'), '--to-ptx'], { encoding: 'utf8' });
    assert.is(r.status, 1);
    assert.match(r.stderr, /^triton-translate: error: --all-variants .*file\/sub: cannot create the folder \(ENOTDIR\)\n$/);
    assert.is(readFileSync(file, 'utf8'), 'x');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test.run();
