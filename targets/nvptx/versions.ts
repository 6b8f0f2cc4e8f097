/**
 * A kernel for the launches that take the original copy. version-alignment gives a kernel two copies
 * of its body,
 *
 *   %ok = ((%K & 3) == 0) and ((%N & 3) == 0) and ...
 *   scf.if %ok { specialized copy } else { original copy } {tir.versions}
 *
 * and the kernel as a whole holds the resources of both: the registers ptxas gives the larger copy,
 * and the shared memory of the specialized copy's pipeline stages, which the SM keeps out of its L1.
 * A launch that takes the original copy pays for the other (measured on an H200, 2026-11-27:
 * Triton's matmul at 999x3001x701 ran 1.11x faster launched with its original copy's 65,536 bytes
 * of shared memory than with the kernel's 147,456). So the target also emits the original copy alone
 * as a second kernel, `<name>__unaligned`, with its own shared memory, registers and residency hint,
 * and the launch metadata says which launches may use it: those where some listed parameter is not
 * a multiple of the divisor. The first kernel stays correct for every launch, so a launcher may
 * ignore the second.
 *
 * The condition is read back from the IR (the `arith` ops above, in any operand order). A kernel
 * whose condition has another shape gets no second kernel.
 */
import { IntegerAttr } from '../../ir/attributes.js';
import { BlockArgument, type Block, type Operation, type Region, type Value } from '../../ir/ir.js';
import { constantInt } from '../../ir/patterns.js';
import { IntegerType } from '../../ir/types.js';
import * as arith from '../../dialects/arith.js';
import * as scf from '../../dialects/scf.js';
import { explicitSize, isSharedAlloc } from '../../passes/support/alloc-shared-core.js';
import { scratchBytes } from '../../passes/support/alloc-shared-scratch.js';
import { isVersions } from '../../passes/support/versioned-if.js';

/** Which copy of a versioned kernel a launch takes, and the original copy's shared memory. */
export interface KernelVersions {
  /** The `scf.if` holding the two copies (the specialized one in its then region). */
  ifOp: Operation;
  /** The specialized copy runs when every parameter in `params` is a multiple of this. */
  divisor: number;
  /** Indices of the kernel parameters the condition tests. */
  params: number[];
  /** Bytes of shared memory the original copy needs (alloc-shared's offsets). */
  originalSharedBytes: number;
}

/** `(%p & (d - 1)) == 0` with %p an argument of `entry`: [p, d], else null. */
function alignmentTest(v: Value, entry: Block): [BlockArgument, number] | null {
  const cmp = v.definingOp;
  if (!cmp || !arith.CmpIOp.is(cmp) || arith.CmpIPredicate.nameOf(cmp.getAttr('predicate') as IntegerAttr) !== 'eq') return null;
  const [x, y] = [cmp.operand(0), cmp.operand(1)];
  const masked = constantInt(y) === 0 ? x : constantInt(x) === 0 ? y : null;
  const and = masked?.definingOp;
  if (!and || !arith.AndIOp.is(and)) return null;
  const [a, b] = [and.operand(0), and.operand(1)];
  const [p, mask] = constantInt(b) !== null ? [a, constantInt(b)!] : [b, constantInt(a)];
  if (mask === null || mask < 1 || (mask & (mask + 1)) !== 0) return null;
  if (!(p instanceof BlockArgument) || p.owner !== entry || !(p.type instanceof IntegerType)) return null;
  return [p, mask + 1];
}

/** The tests `cond` is the conjunction of (an `arith.andi` tree over i1), or null if one is not an alignment test. */
function alignmentTests(cond: Value, entry: Block, out: [BlockArgument, number][]): boolean {
  const op = cond.definingOp;
  if (op && arith.AndIOp.is(op) && cond.type === IntegerType.get(1)) return alignmentTests(op.operand(0), entry, out) && alignmentTests(op.operand(1), entry, out);
  const test = alignmentTest(cond, entry);
  if (!test) return false;
  out.push(test);
  return true;
}

/** The end of the last shared-memory buffer (alloc-shared's offsets) placed by an op in `ops`, nested regions included. */
function sharedEnd(ops: Iterable<Operation>): number {
  let end = 0;
  for (const op of ops) {
    op.walk((o) => {
      const off = o.getAttr('allocation.offset');
      if (!(off instanceof IntegerAttr)) return;
      const bytes = isSharedAlloc(o) ? explicitSize(o).size : scratchBytes(o);
      end = Math.max(end, Number(off.value) + bytes);
    }, 'pre');
  }
  return end;
}

/** The ops of `region`'s blocks. */
function* opsOf(region: Region): Iterable<Operation> {
  for (const block of region.blocks) yield* block;
}

/**
 * The two copies of kernel `fn` (a ttg-level `tt.func` after alloc-shared), or null: no versioned
 * `scf.if` in its entry block, or a condition of another shape.
 */
export function kernelVersions(fn: Operation): KernelVersions | null {
  const entry = fn.regions[0]?.entry;
  if (!entry) return null;
  const ifs = [...entry].filter((op) => scf.IfOp.is(op) && isVersions(op));
  if (ifs.length !== 1 || ifs[0].regions[1].empty) return null;
  const ifOp = ifs[0];
  const tests: [BlockArgument, number][] = [];
  if (!alignmentTests(ifOp.operand(0), entry, tests)) return null;
  const divisor = tests[0][1];
  if (tests.some(([, d]) => d !== divisor)) return null;
  const outside = sharedEnd([...entry].filter((op) => op !== ifOp));
  const originalSharedBytes = Math.max(outside, sharedEnd(opsOf(ifOp.regions[1])));
  const params = [...new Set(tests.map(([p]) => p.index))].sort((a, b) => a - b);
  return { ifOp, divisor, params, originalSharedBytes };
}
