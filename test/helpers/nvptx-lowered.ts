/**
 * Parses a ttg-level kernel, runs `passes` on it and lowers it to the nvptx dialect, for tests
 * that emulate the lowered kernel (nvptx-emulator.ts).
 */
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { StringAttr } from '../../ir/attributes.js';
import type { Operation } from '../../ir/ir.js';
import { parseText } from '../../ir/parser.js';
import { printModule } from '../../ir/printer.js';
import { registerAllPasses } from '../../passes/all.js';
import { runPipeline } from '../../passes/manager.js';
import { lowerToNvptx, type Arch } from '../../targets/nvptx/index.js';

registerAllDialects();
registerAllPasses();

/** A lowered kernel: the ttg module (after the passes), its text, the kernel function and the `ptx` suffixes of the ops named as asked. */
export interface LoweredKernel {
  module: Operation;
  ir: string;
  fn: Operation;
  ptx: string[];
}

/**
 * Runs `passes` on `text`, lowers it for `arch` (sm_80 unless given), collects the `ptx` attribute
 * of every `opName` op, then applies `tamper` to every op of the kernel.
 */
export function lowerForEmulation(text: string, passes: string, opName: string, tamper?: (op: Operation) => void, arch: Arch = 'sm_80'): LoweredKernel {
  const { module } = parseText(text);
  const r = runPipeline(module, passes);
  assert.ok(r.ok, r.diagnostics.map((d) => d.format()).join('\n'));
  const ir = printModule(module);
  const lowered = lowerToNvptx(module, { arch }).module;
  let fn: Operation | null = null;
  lowered.walk((op) => void (op.name === 'func.func' && (fn ??= op)));
  assert.ok(fn, 'the lowered module has a kernel');
  const kernel = fn as Operation;
  const ptx: string[] = [];
  kernel.walk((op) => void (op.name === opName && ptx.push((op.getAttr('ptx') as StringAttr).value)));
  if (tamper) kernel.walk(tamper);
  return { module, ir, fn: kernel, ptx };
}
