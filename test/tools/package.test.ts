/**
 * The package as a user gets it: `npm pack` (which builds), install the tarball into a scratch
 * project, run `examples/api/` there against the installed `triton-ir`, and type-check the
 * examples against the installed `.d.ts`. Slow (the pack runs the whole build): ~30 s.
 *
 * The install is offline: the scratch project gets a lockfile whose entries for triton-ir's
 * dependencies are copied from ours, so `npm ci --offline` takes them from the npm cache by
 * integrity (the cache `npm ci` filled) and needs no registry.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = resolve(import.meta.dirname, '../..');
const dump = (name: string) => join(root, 'examples/ttir', name);

interface Ran {
  stdout: string;
  stderr: string;
  status: number | null;
}

/** Runs a command in `cwd`. */
function exec(cmd: string, args: string[], cwd: string): Ran {
  return spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
}

/** Runs a command that must succeed. */
function run(cmd: string, args: string[], cwd: string): Ran {
  const r = exec(cmd, args, cwd);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** package.json and package-lock.json of a scratch project that depends on the tarball `tgz` only. */
function scratchManifests(dir: string, tgz: string): void {
  const ours = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const ourLock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  manifest.dependencies = { 'triton-ir': `file:${tgz}` };
  delete manifest.devDependencies; // tsc and @types/node come from our tree
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  const packages: Record<string, unknown> = {
    '': { name: manifest.name, dependencies: manifest.dependencies },
    'node_modules/triton-ir': { version: ours.version, resolved: `file:${tgz}`, dependencies: ours.dependencies, bin: ours.bin },
  };
  // Our lock's non-dev entries are exactly triton-ir's dependencies, already laid out as a tree.
  for (const [key, entry] of Object.entries(ourLock.packages as Record<string, { dev?: boolean }>)) if (key && !entry.dev) packages[key] = entry;
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ name: manifest.name, lockfileVersion: 3, requires: true, packages }, null, 2));
}

test('npm pack, install the tarball, run and type-check examples/api against it', () => {
  const t0 = performance.now();
  const tmp = mkdtempSync(join(tmpdir(), 'tir-package-'));
  try {
    const app = join(tmp, 'app');
    cpSync(join(root, 'examples/api'), app, { recursive: true, filter: (src) => !src.includes('node_modules') && !src.endsWith('package-lock.json') });
    run('npm', ['pack', '--pack-destination', app], root);
    const tgz = readdirSync(app).find((f) => f.endsWith('.tgz'));
    assert.ok(tgz, 'npm pack wrote a tarball');
    scratchManifests(app, tgz);
    run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], app);

    // Only what a user needs was packed.
    const installed = join(app, 'node_modules/triton-ir');
    assert.ok(existsSync(join(installed, 'dist/tools/api.d.ts')));
    for (const absent of ['test', 'bench', 'lit', 'dist/bench', 'dist/tools/triton-opt.js', 'tools', 'ir'])
      assert.not.ok(existsSync(join(installed, absent)), `${absent} is not in the package`);

    // The analysis: global loads and stores per kernel.
    const count = exec(process.execPath, ['count-memory-ops.mjs', dump('matmul_kernel.ttir')], app);
    assert.is(count.status, 0, count.stderr);
    assert.match(count.stdout, /^kernel\s+loads\s+stores\nmatmul_kernel\s+2\s+1\n$/);
    const add = exec(process.execPath, ['count-memory-ops.mjs', dump('add_kernel.ttir')], app);
    assert.match(add.stdout, /^add_kernel\s+2\s+1$/m);

    // The rewrite pass: the six scalar multiplications by 8, 128, 256 and 64 become shifts.
    const shift = exec(process.execPath, ['mul-to-shift.mjs', dump('matmul_kernel.ttir')], app);
    assert.is(shift.status, 0, shift.stderr);
    assert.match(shift.stderr, /'mul-to-shift'\n(?:  .*\n)*  \(patterns-applied\) 6\n/);
    assert.is(shift.stdout.match(/arith\.shli/g)?.length, 6);
    assert.match(shift.stdout, /%offs_am = arith\.shli %pid_m_8, %c7_i32 : i32/);
    assert.not.match(shift.stdout, /arith\.muli [^\n]*: i32\n/);
    assert.is(shift.stdout.match(/arith\.muli/g)?.length, 3, 'tensor multiplications by non-constants stay');
    // The installed CLI reads the result back.
    writeFileSync(join(app, 'out.ttir'), shift.stdout);
    const opt = exec(join(app, 'node_modules/.bin/triton-opt'), ['out.ttir'], app);
    assert.is(opt.status, 0, opt.stderr);

    // The examples type-check against the installed declarations (@types/node from our tree).
    run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', '.', '--typeRoots', join(root, 'node_modules/@types')], app);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  process.stderr.write(`  package test: ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
});

test.run();
