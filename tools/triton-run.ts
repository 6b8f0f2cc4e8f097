#!/usr/bin/env node
/**
 * `triton-run`: executes a tt/ttg kernel on the CPU interpreter over a grid, with buffers made
 * from `--arg` specs, and prints the buffers (`*` marks those the kernel wrote) and `tt.print` output.
 */
import { runCli } from './interpreter/cli.js';
import { readInput, runTool } from './input-chunks.js';

runTool(
  'triton-run',
  () => {
    const r = runCli(process.argv.slice(2), readInput);
    (r.code === 0 ? process.stdout : process.stderr).write(r.stdout);
    process.exitCode = r.code;
  },
  process.argv.includes('--debug'),
);
