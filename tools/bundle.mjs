// Bundles each CLI into one file (dist/bin/*.mjs) so that it starts fast: loading the
// unbundled ESM graph (chevrotain pulls in hundreds of lodash-es modules) costs ~0.3 s per run.
import { build } from 'esbuild';
import { chmodSync } from 'node:fs';

const tools = ['triton-opt', 'triton-translate', 'triton-run', 'filecheck', 'lit', 'not'];
for (const name of tools) {
  const outfile = `dist/bin/${name}.mjs`;
  await build({
    entryPoints: [`tools/${name}.ts`],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'warning',
    // Some bundled CommonJS dependencies (yargs) call require(); give ESM output a require.
    banner: { js: "import { createRequire as __tirCreateRequire } from 'node:module'; const require = __tirCreateRequire(import.meta.url);" },
  });
  chmodSync(outfile, 0o755);
}
