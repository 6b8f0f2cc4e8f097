/**
 * `npm run bench:compile`: compile latency of every GPU benchmark kernel (bench/gpu, the builds
 * `tools/gpu/list_builds.py` lists, those without `--without-pass`), TTIR or Triton-C to PTX with
 * `triton-translate --to-ptx --arch sm_90a` as a whole process, next to `ptxas -arch=sm_90a` on the
 * PTX it produced (when ptxas is installed). Each time is the minimum of `--runs` runs (3), the two
 * tools alternating. Prints a table and the ratio ours / ptxas; a script that prints figures, not a
 * pass/fail test. Leaves no files behind.
 *
 * Usage: node dist/bench/compile.js [--runs R] [--only SUBSTRING]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { TOOL_ENV, toolEnvNote } from './tool-env.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TRANSLATE = join(ROOT, 'dist', 'bin', 'triton-translate.cjs');

/** One build of the GPU benchmark: output stem, source file, compiler flags. */
interface Build {
  stem: string;
  src: string;
  flags: string[];
}

/** The benchmark's builds, from tools/gpu/list_builds.py (tab-separated: stem, source, flags...). */
function builds(): Build[] {
  const text = execFileSync('python3', [join(ROOT, 'tools', 'gpu', 'list_builds.py')], { cwd: ROOT, encoding: 'utf8' });
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => l.split('\t'))
    .map(([stem, src, ...flags]) => ({ stem, src, flags }))
    .filter((b) => !b.flags.some((f) => f.startsWith('--without-pass')));
}

/** Seconds `cmd args` takes as a process; throws with its stderr when it fails. */
function timeRun(cmd: string, args: string[]): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', env: TOOL_ENV });
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stderr}`);
  return s;
}

function hasPtxas(): boolean {
  return spawnSync('ptxas', ['--version'], { encoding: 'utf8' }).status === 0;
}

function main(): void {
  const argv = process.argv.slice(2);
  const opt = (name: string) => {
    const k = argv.indexOf(name);
    return k >= 0 ? argv[k + 1] : undefined;
  };
  const runs = Number(opt('--runs') ?? 3);
  const only = opt('--only');
  const ptxas = hasPtxas();
  const envNote = toolEnvNote();
  if (envNote) console.log(envNote);
  const dir = mkdtempSync(join(tmpdir(), 'bench-compile-'));
  const rows: { stem: string; ours: number; ptxas: number | null }[] = [];
  try {
    for (const b of builds()) {
      if (only && !b.stem.includes(only)) continue;
      const ptx = join(dir, `${b.stem}.ptx`);
      const cubin = join(dir, `${b.stem}.cubin`);
      const fromC = b.src.endsWith('.tc') ? ['--from-c'] : [];
      // run as a user's `triton-translate` runs: the bin itself, with its shebang's Node flags (the
      // code cache written by the build is only valid under them)
      const args = [b.src, ...fromC, ...b.flags, '--to-ptx', '--arch', 'sm_90a', '-o', ptx];
      let ours = Infinity;
      let theirs = Infinity;
      for (let r = 0; r < runs; r++) {
        ours = Math.min(ours, timeRun(TRANSLATE, args));
        if (ptxas) theirs = Math.min(theirs, timeRun('ptxas', ['-arch=sm_90a', ptx, '-o', cubin]));
      }
      rows.push({ stem: b.stem, ours, ptxas: ptxas ? theirs : null });
      const ratio = ptxas ? (ours / theirs).toFixed(2) : '-';
      console.log(`${b.stem.padEnd(28)} ours ${ours.toFixed(3)} s   ptxas ${ptxas ? theirs.toFixed(3) + ' s' : '-'}   ratio ${ratio}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (ptxas && rows.length) {
    const geo = Math.exp(rows.reduce((s, r) => s + Math.log(r.ours / r.ptxas!), 0) / rows.length);
    const worst = rows.reduce((w, r) => (r.ours / r.ptxas! > w.ours / w.ptxas! ? r : w));
    console.log(`\n${rows.length} kernels: geometric mean ratio ${geo.toFixed(2)}, worst ${worst.stem} ${(worst.ours / worst.ptxas!).toFixed(2)}`);
  }
}

main();
