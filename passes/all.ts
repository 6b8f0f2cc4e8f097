/**
 * Every pass of the project, one line each, and the call that registers them. Importing this
 * module registers nothing.
 */
import { allocShared } from './alloc-shared.js';
import { canonicalize } from './canonicalize.js';
import { coalesce } from './coalesce.js';
import { convertToGpu } from './convert-to-gpu.js';
import { cse } from './cse.js';
import { dce } from './dce.js';
import { fenceAsyncShared } from './fence-async-shared.js';
import { inline } from './inline.js';
import { insertBarriers } from './insert-barriers.js';
import { licm } from './licm.js';
import { mmaLowering } from './mma-lowering.js';
import { padShared } from './pad-shared.js';
import { sinkPastLoops } from './sink-past-loops.js';
import { versionAlignment } from './version-alignment.js';
import { pointerToTma } from './pointer-to-tma.js';
import { softwarePipeline } from './software-pipeline.js';
import { defaultPassRegistry, type PassRegistry } from './registry.js';
import type { PassDecl } from './pass.js';
import { removeLayoutConversions } from './remove-layout-conversions.js';
import { symbolDce } from './symbol-dce.js';
import { testCrash } from './test-crash.js';
import { testInvalidIr } from './test-invalid-ir.js';
import { testPrintAllocation } from './test-print-allocation.js';
import { testPrintAxisInfo } from './test-print-axis-info.js';
import { testPrintBankConflicts } from './test-print-bank-conflicts.js';
import { tmaLowering } from './tma-lowering.js';
import { vectorize } from './vectorize.js';
import { unrollLoops } from './unroll-loops.js';
import { heavyProgramsFirst } from './heavy-programs-first.js';

/** Every pass, by name. */
export const allPassDecls: readonly PassDecl[] = [
  allocShared,
  canonicalize,
  coalesce,
  convertToGpu,
  cse,
  dce,
  fenceAsyncShared,
  heavyProgramsFirst,
  inline,
  insertBarriers,
  licm,
  mmaLowering,
  padShared,
  sinkPastLoops,
  versionAlignment,
  pointerToTma,
  softwarePipeline,
  removeLayoutConversions,
  symbolDce,
  testCrash,
  testInvalidIr,
  testPrintAllocation,
  testPrintAxisInfo,
  testPrintBankConflicts,
  tmaLowering,
  vectorize,
  unrollLoops,
];

/** Registers every pass into `registry` (the default one unless given). */
export function registerAllPasses(registry: PassRegistry = defaultPassRegistry): PassRegistry {
  for (const pass of allPassDecls) registry.register(pass);
  return registry;
}
