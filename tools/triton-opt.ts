#!/usr/bin/env -S node --max-semi-space-size=64
/**
 * `triton-opt`: parses, verifies and prints Triton IR (and, as passes land, runs pipelines on it),
 * with mlir-opt's flags.
 */
import { writeFileSync } from 'node:fs';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import '../dialects/index.js';
import { DiagnosticError, type Diagnostic, type SourceFile } from '../ir/diagnostics.js';
import { parseSourceFile } from '../ir/parser.js';
import { printModule } from '../ir/printer.js';
import { verifyDiagnostic } from '../ir/verifier.js';
import { readInput, runTool, splitInput, UserError } from './input-chunks.js';
import { checkDiagnostics } from './verify-diagnostics.js';

interface OptOptions {
  input: string;
  output?: string;
  printOpGeneric: boolean;
  printDebuginfo: boolean;
  allowUnregisteredDialect: boolean;
  splitInputFile: boolean;
  verifyDiagnostics: boolean;
  verify: boolean;
}

/** Result of processing one chunk: printed text or the diagnostics it raised. */
interface ChunkResult {
  text: string | null;
  diagnostics: Diagnostic[];
}

function processChunk(src: SourceFile, o: OptOptions): ChunkResult {
  try {
    const parsed = parseSourceFile(src, { allowUnregisteredDialect: o.allowUnregisteredDialect });
    if (o.verify) {
      const d = verifyDiagnostic(parsed.module, { allowUnregistered: o.allowUnregisteredDialect });
      if (d) return { text: null, diagnostics: [d] };
    }
    const text = printModule(parsed.module, {
      generic: o.printOpGeneric,
      debugInfo: o.printDebuginfo,
      aliasNames: parsed.aliasNames,
      resources: parsed.resources,
    });
    return { text, diagnostics: [] };
  } catch (e) {
    if (e instanceof DiagnosticError) return { text: null, diagnostics: [e.diagnostic] };
    throw e;
  }
}

function run(o: OptOptions): number {
  const text = readInput(o.input);
  const name = o.input === '-' ? '<stdin>' : o.input;
  const chunks = splitInput(name, text, o.splitInputFile);
  const outputs: string[] = [];
  let failed = false;
  for (const src of chunks) {
    const r = processChunk(src, o);
    if (o.verifyDiagnostics) {
      const problems = checkDiagnostics(src, r.diagnostics);
      for (const p of problems) process.stderr.write(p + '\n');
      if (problems.length) failed = true;
    } else if (r.diagnostics.length) {
      for (const d of r.diagnostics) process.stderr.write(d.format() + '\n');
      failed = true;
    }
    if (r.text !== null) outputs.push(r.text);
  }
  const joined = outputs.join('// -----\n');
  if (!failed || o.verifyDiagnostics) {
    if (o.output) writeFileSync(o.output, joined);
    else process.stdout.write(joined);
  }
  return failed ? 1 : 0;
}

function main(): void {
  const argv = yargs(hideBin(process.argv))
    .scriptName('triton-opt')
    .usage('$0 [file|-] [options]\n\nParses, verifies and prints Triton IR in MLIR syntax.')
    .option('o', { type: 'string', describe: 'output file (default: stdout)', requiresArg: true })
    .option('print-op-generic', { type: 'boolean', default: false, describe: 'print every op in generic form' })
    .option('mlir-print-op-generic', { type: 'boolean', default: false, hidden: true })
    .option('print-debuginfo', { type: 'boolean', default: false, describe: 'print locations (loc(...))' })
    .option('mlir-print-debuginfo', { type: 'boolean', default: false, hidden: true })
    .option('allow-unregistered-dialect', { type: 'boolean', default: false, describe: 'accept ops, types and attributes of unknown dialects' })
    .option('split-input-file', { type: 'boolean', default: false, describe: "process each '// -----' chunk separately" })
    .option('verify-diagnostics', { type: 'boolean', default: false, describe: "check diagnostics against '// expected-error {{...}}' annotations" })
    .option('verify-each', { type: 'boolean', default: true, describe: 'verify the IR (use --no-verify-each to skip)' })
    .strictOptions()
    .version('0.1.0')
    .help()
    .fail((msg, err) => {
      throw new UserError(err?.message ?? msg);
    })
    .parseSync();
  const inputs = argv._.map(String);
  if (inputs.length > 1) throw new UserError(`expected at most one input file, got ${inputs.length}`);
  process.exitCode = run({
    input: inputs[0] ?? '-',
    output: argv.o,
    printOpGeneric: argv['print-op-generic'] || argv['mlir-print-op-generic'],
    printDebuginfo: argv['print-debuginfo'] || argv['mlir-print-debuginfo'],
    allowUnregisteredDialect: argv['allow-unregistered-dialect'],
    splitInputFile: argv['split-input-file'],
    verifyDiagnostics: argv['verify-diagnostics'],
    verify: argv['verify-each'],
  });
}

runTool('triton-opt', main);
