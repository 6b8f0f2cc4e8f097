#!/usr/bin/env -S node --max-semi-space-size=64
/**
 * `triton-translate`: translations out of Triton IR. Available now: `--to-mlir` (upstream MLIR
 * generic syntax for builtin/func/arith/math/scf/cf, for `mlir-opt`). The PTX target arrives
 * with the NVPTX issue and is registered in `TRANSLATIONS` like the others.
 */
import { writeFileSync } from 'node:fs';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import '../dialects/index.js';
import { Diagnostic, DiagnosticError, SourceFile } from '../ir/diagnostics.js';
import type { Operation } from '../ir/ir.js';
import { parseSourceFile } from '../ir/parser.js';
import { printModule } from '../ir/printer.js';
import { opError, verifyDiagnostic } from '../ir/verifier.js';
import { readInput, runTool, UserError } from './input-chunks.js';

/** A translation from a verified module to text. */
interface Translation {
  flag: string;
  summary: string;
  run(module: Operation): string;
}

const UPSTREAM = new Set(['builtin', 'func', 'arith', 'math', 'scf', 'cf']);

/** Every translation this tool offers, one entry per output format. */
const TRANSLATIONS: Translation[] = [
  {
    flag: 'to-mlir',
    summary: 'upstream MLIR generic syntax (builtin, func, arith, math, scf, cf only), readable by mlir-opt',
    run(module) {
      module.walk((op) => {
        if (!UPSTREAM.has(op.dialect)) throw new DiagnosticError(opError(op, `is not in an upstream MLIR dialect; --to-mlir accepts ${[...UPSTREAM].join(', ')}`));
      }, 'pre');
      return printModule(module, { generic: true });
    },
  },
];

function main(): void {
  let y = yargs(hideBin(process.argv))
    .scriptName('triton-translate')
    .usage('$0 [file|-] --<translation> [-o out]\n\nTranslates Triton IR to other formats.')
    .option('o', { type: 'string', describe: 'output file (default: stdout)', requiresArg: true })
    .option('allow-unregistered-dialect', { type: 'boolean', default: false, describe: 'accept ops of unknown dialects' })
    .option('list-translations', { type: 'boolean', default: false, describe: 'list the available translations' });
  for (const t of TRANSLATIONS) y = y.option(t.flag, { type: 'boolean', default: false, describe: t.summary });
  const argv = y
    .strictOptions()
    .version('0.1.0')
    .help()
    .fail((msg, err) => {
      throw new UserError(err?.message ?? msg);
    })
    .parseSync();
  if (argv['list-translations']) {
    for (const t of TRANSLATIONS) process.stdout.write(`--${t.flag}\t${t.summary}\n`);
    return;
  }
  const chosen = TRANSLATIONS.filter((t) => argv[t.flag]);
  if (chosen.length !== 1)
    throw new UserError(`choose exactly one translation (${TRANSLATIONS.map((t) => '--' + t.flag).join(', ')}); see --list-translations`);
  const inputs = argv._.map(String);
  if (inputs.length > 1) throw new UserError(`expected at most one input file, got ${inputs.length}`);
  const input = inputs[0] ?? '-';
  const source = new SourceFile(input === '-' ? '<stdin>' : input, readInput(input));
  const allow = argv['allow-unregistered-dialect'];
  const diag = (d: Diagnostic) => {
    process.stderr.write(d.format() + '\n');
    process.exitCode = 1;
  };
  try {
    const parsed = parseSourceFile(source, { allowUnregisteredDialect: allow });
    const d = verifyDiagnostic(parsed.module, { allowUnregistered: allow });
    if (d) return diag(d);
    const out = chosen[0].run(parsed.module);
    if (argv.o) writeFileSync(argv.o, out);
    else process.stdout.write(out);
  } catch (e) {
    if (e instanceof DiagnosticError) return diag(e.diagnostic);
    throw e;
  }
}

runTool('triton-translate', main);
