/**
 * Runs one pass in process, for pass unit tests: on a parsed module (verifying before and after),
 * and over a pass's lit file as its RUN line would (`// -----` chunks, then our FileCheck).
 */
import { readFileSync } from 'node:fs';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { parseText } from '../../ir/parser.js';
import { printModule } from '../../ir/printer.js';
import { verify } from '../../ir/verifier.js';
import { AnalysisCache, PassContext, type PassDecl, type PassOptions } from '../../passes/pass.js';
import { runFileCheck } from '../../tools/filecheck.js';
import { FunctionLike } from '../../ir/traits.js';

registerAllDialects();

/** Parses `text`, runs `pass` on each anchor op, verifies, and returns the print and statistics. */
export function runPass(pass: PassDecl, text: string, options: PassOptions = {}): { out: string; stats: Map<string, number> } {
  const { module } = parseText(text);
  verify(module);
  const defaults = Object.fromEntries(Object.entries(pass.options ?? {}).map(([k, d]) => [k, d.default]));
  const ctx = new PassContext(pass, { ...defaults, ...options }, new AnalysisCache());
  if (pass.anchor === 'module') pass.run(module, ctx);
  else for (const op of module.regions[0].blocks[0].ops) if (op.hasTrait(FunctionLike)) pass.run(op, ctx);
  verify(module);
  return { out: printModule(module), stats: ctx.statistics };
}

/** Runs the lit file `lit/passes/<name>.tir` as its RUN line would and FileChecks the output. */
export function litCheck(pass: PassDecl, options: PassOptions = {}): void {
  const path = new URL(`../../lit/passes/${pass.name}.tir`, import.meta.url);
  const text = readFileSync(path, 'utf8');
  const out = text.split(/^\/\/ -----$/m).map((chunk) => runPass(pass, chunk, options).out).join('// -----\n');
  const r = runFileCheck(text, out, { checkFileName: `${pass.name}.tir` });
  assert.ok(r.ok, r.message + '\n--- output ---\n' + out);
}
