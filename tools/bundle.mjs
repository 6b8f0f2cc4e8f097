// Bundles each CLI into one file (dist/bin/*.mjs) so that it starts fast: loading the
// unbundled ESM graph (yargs and the project's own modules) costs much more per run.
//
// triton-opt and triton-translate, whose start-up counts in `npm run bench:parse` and
// `npm run bench:compile`, are bundled as CommonJS (dist/bin/NAME.bundle.cjs) behind a small CommonJS launcher (dist/bin/NAME.cjs, from tools/launcher.cjs) that
// compiles the bundle with a V8 code cache (dist/bin/NAME.cache). The cache is written here by a
// training run; it is only valid for the Node that wrote it, and the launcher falls back
// to plain compilation when V8 rejects it.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

// Some bundled CommonJS dependencies (yargs) call require(); give ESM output a require.
const ESM_REQUIRE = "import { createRequire as __tirCreateRequire } from 'node:module'; const require = __tirCreateRequire(import.meta.url);";
// Each bundle ships its source map (dist/bin/NAME.*.map). Under --debug an ESM bundle runs itself
// again with Node's --enable-source-maps, so that stacks name the TypeScript sources (the map is
// read only then: it costs start-up time).
const DEBUG_SOURCE_MAPS =
  "if (process.argv.includes('--debug') && !process.execArgv.includes('--enable-source-maps')) { const r = require('node:child_process').spawnSync(process.execPath, ['--enable-source-maps', ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' }); process.exit(r.status ?? 1); }";

/** yargs' ESM build lays out --help with a wrap that cuts words; its CommonJS build (wrap-ansi) wraps at spaces. */
const wordWrappingHelp = {
  name: 'word-wrapping-help',
  setup(b) {
    b.onResolve({ filter: /^cliui$/ }, () => ({ path: join(process.cwd(), 'node_modules/cliui/build/index.cjs') }));
  },
};

/** The ESM-bundled CLIs with a --debug flag. */
const DEBUGGABLE = new Set(['triton-run']);
const plain = ['triton-run', 'filecheck', 'lit', 'not', 'fuzz', 'difftest'];
// A CommonJS bundle has no import.meta: its URL is the bundle file's (triton-translate's worker
// threads run the bundle itself; the LLVM bindings are resolved from it).
const CJS_IMPORT_META = "var __tirImportMetaUrl = require('node:url').pathToFileURL(__filename).href;";
for (const name of plain) {
  const outfile = `dist/bin/${name}.mjs`;
  await build({
    entryPoints: [`tools/${name}.ts`],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'warning',
    banner: { js: DEBUGGABLE.has(name) ? ESM_REQUIRE + '\n' + DEBUG_SOURCE_MAPS : ESM_REQUIRE },
    sourcemap: true,
    plugins: [wordWrappingHelp],
  });
  chmodSync(outfile, 0o755);
}

/** Training input for triton-opt: arith ops as in `npm run bench:parse`, then a tt kernel. */
function trainingInput() {
  const lines = ['func.func @train(%a: i32, %b: i32, %x: f32, %y: f32) -> (i32, f32) {'];
  const ints = ['%a', '%b'];
  const floats = ['%x', '%y'];
  const intOps = ['addi', 'subi', 'muli', 'andi', 'ori', 'xori', 'maxsi', 'minsi'];
  const floatOps = ['addf', 'subf', 'mulf', 'maximumf'];
  for (let k = 0; k < 400; k++) {
    const a = ints[ints.length - 1 - (k % Math.min(ints.length, 5))];
    const b = ints[ints.length - 1 - ((k * 7) % Math.min(ints.length, 3))];
    const x = floats[floats.length - 1 - (k % Math.min(floats.length, 4))];
    if (k % 10 === 0) lines.push(`  %v${k} = arith.constant ${k} : i32`), ints.push(`%v${k}`);
    else if (k % 10 === 7) {
      lines.push(`  %v${k} = arith.cmpi slt, ${a}, ${b} : i32`, `  %v${k}s = arith.select %v${k}, ${a}, ${b} : i32`);
      ints.push(`%v${k}s`);
    } else if (k % 10 < 7) lines.push(`  %v${k} = arith.${intOps[k % 8]} ${a}, ${b} : i32`), ints.push(`%v${k}`);
    else lines.push(`  %v${k} = arith.${floatOps[k % 4]} ${x}, ${x} : f32`), floats.push(`%v${k}`);
  }
  lines.push(`  return ${ints[ints.length - 1]}, ${floats[floats.length - 1]} : i32, f32`, '}', '// -----');
  return lines.join('\n') + '\n' + readFileSync('examples/ttir/matmul_kernel.ttir', 'utf8');
}

const work = mkdtempSync(join(tmpdir(), 'tir-bundle-'));
try {
  const input = join(work, 'train.mlir');
  writeFileSync(input, trainingInput());
  const launcher = readFileSync('tools/launcher.cjs', 'utf8');
  // The launcher's shebang flags: the training run must use them too, or V8 rejects the cache
  // (V8 flags are part of its check).
  const nodeFlags = launcher.slice(0, launcher.indexOf('\n')).split(' ').slice(3);
  /**
   * Each CLI behind a launcher and the command lines of its training run (ones that return:
   * `--help` exits early), all in one process (the launcher's TRITON_IR_CODE_CACHE_MORE).
   */
  const cached = {
    'triton-opt': [[input, '--split-input-file', '-o', join(work, 'out.mlir')]],
    'triton-translate': [
      // the whole compile path: TTIR through the default pipeline and the sm_90a target to PTX
      ['examples/ttir/matmul_kernel.ttir', '--to-ptx', '--arch', 'sm_90a', '--num-warps', '8', '-o', join(work, 'out.ptx')],
      // and from Triton-C: the preprocessor, the parser and IR generation (a third of a small kernel's compile without them cached)
      ['examples/triton-c/matmul.tc', '--from-c', '-DTYPE=half', '-DTM=64', '-DTN=64', '-DTK=32', '--to-ptx', '--arch', 'sm_90a', '-o', join(work, 'out-c.ptx')],
    ],
  };
  for (const [name, [trainArgs, ...moreArgs]] of Object.entries(cached)) {
    await build({
      entryPoints: [`tools/${name}.ts`],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      outfile: `dist/bin/${name}.bundle.cjs`,
      logLevel: 'warning',
      sourcemap: true,
      banner: { js: CJS_IMPORT_META },
      define: { 'import.meta.url': '__tirImportMetaUrl' },
      plugins: [wordWrappingHelp],
    });
    const bin = `dist/bin/${name}.cjs`;
    rmSync(`dist/bin/${name}.mjs`, { force: true }); // the launcher's name before 2026-11-27
    writeFileSync(bin, launcher.replace('__BUNDLE__', name));
    chmodSync(bin, 0o755);
    const cache = `dist/bin/${name}.cache`;
    rmSync(cache, { force: true });
    try {
      execFileSync(process.execPath, [...nodeFlags, bin, ...trainArgs], {
        env: { ...process.env, TRITON_IR_CODE_CACHE_OUT: cache, TRITON_IR_CODE_CACHE_MORE: JSON.stringify(moreArgs) },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
    } catch (e) {
      // The CLI works without its cache (only its start-up is slower); a broken CLI is for the tests to report.
      process.stderr.write(`bundle: no code cache for ${name}: the training run failed\n${e.stderr ?? e.message}\n`);
      rmSync(cache, { force: true });
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
