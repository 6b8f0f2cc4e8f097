/**
 * The common `triton-opt` command lines (`triton-opt [FILE] [-o OUT]`) read without yargs and the
 * pass registry, which cost ~30 ms of start-up. Anything else (flags, numbers, two inputs) goes to
 * the full parser in `opt-flags.ts`, which gives the same options for these command lines
 * (test/tools/opt-args.test.ts checks that).
 */
import type { OptOptions } from './opt-flags.js';

/** Whether yargs would keep `arg` as it is: not an option, and not a number (yargs turns `010` into `10`). */
function plainWord(arg: string | undefined): arg is string {
  return arg !== undefined && !arg.startsWith('-') && Number.isNaN(Number(arg));
}

/**
 * The options of a command line made only of at most one input file and one `-o FILE`, in any
 * order; null for any other command line.
 */
export function simpleOptArgs(args: readonly string[]): OptOptions | null {
  let input: string | undefined;
  let output: string | undefined;
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (a === '-o' && output === undefined && plainWord(args[k + 1])) output = args[++k];
    else if (input === undefined && plainWord(a)) input = a;
    else return null;
  }
  return {
    input: input ?? '-',
    output,
    force: false,
    printOpGeneric: false,
    printDebuginfo: false,
    printLocalScope: false,
    elideElementsAttrsIfLarger: undefined,
    printValueUsers: false,
    printSkipRegions: false,
    printIrModuleScope: false,
    allowUnregisteredDialect: false,
    splitInputFile: null,
    outputSplitMarker: '// -----',
    noImplicitModule: false,
    showDialects: false,
    verifyRoundtrip: false,
    printOpOnDiagnostic: false,
    verifyDiagnostics: false,
    verifyEach: true,
    pipeline: '',
    printBefore: null,
    printAfter: null,
    printAfterChange: false,
    printAfterFailure: false,
    printTreeDir: undefined,
    timing: false,
    timingDisplay: 'list',
    passStatistics: false,
    listPasses: false,
    listOps: undefined,
    dumpPassPipeline: false,
    viewOpGraph: undefined,
    viewOpGraphDepth: undefined,
    viewOpGraphFunc: undefined,
    viewOpGraphMaxLabel: undefined,
    viewLayout: undefined,
    debugPatterns: false,
    debugOnly: null,
    debug: false,
    runReproducer: false,
    crashReproducer: undefined,
  };
}
