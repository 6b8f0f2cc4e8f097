/**
 * Triton's own pass names that have no equivalent here. Those with an equivalent are aliases
 * of our passes (each `PassDecl`'s `aliases`); these are reported as errors saying so, so that
 * a RUN line written for Triton's triton-opt never runs as a silent no-op.
 */

/** Triton pass names (Triton 3.x `Passes.td`) with no equivalent pass here, and what they do upstream. */
export const UPSTREAM_WITHOUT_EQUIVALENT: Readonly<Record<string, string>> = {
  'triton-combine': "folds dot(a, b, 0) + c into dot(a, b, c), addptr chains and select-of-masked-load",
  'triton-reorder-broadcast': 'moves splat and broadcast after elementwise ops',
  'triton-rewrite-tensor-pointer': 'rewrites tt.make_tensor_ptr / tt.advance loads and stores into pointer tensors',
  'triton-rewrite-tensor-descriptor-to-pointer': 'rewrites tensor-descriptor loads and stores into pointer tensors',
  'triton-licm': "hoists loads out of loops under a guard (use 'licm' for pure ops)",
  'tritongpu-prefetch': 'prefetches dot operands from shared memory one iteration ahead',
  'tritongpu-optimize-dot-operands': 'fuses transposes and conversions into dot operands',
  'tritongpu-F32DotTC': 'splits f32 dots into three tf32 dots (3xTF32)',
  'tritongpu-optimize-thread-locality': 'keeps reductions carried by loops thread-local',
  'tritongpu-reorder-instructions': 'moves ops closer to their users to cut register pressure',
  'tritongpu-reduce-data-duplication': 'sends distributed-to-dot_op conversions through shared memory',
  'tritongpu-combine-tensor-select-and-if': 'folds a select into an scf.if on the same condition',
  'tritongpu-optimize-accumulator-init': 'replaces a zeroed accumulator with the dot use-accumulator flag',
  'tritongpu-loop-scheduling': 'assigns pipeline stages to the ops of a loop (software-pipeline does its own)',
  'tritongpu-assign-latencies': 'assigns latencies to the loads of a loop (software-pipeline does its own)',
  'tritongpu-schedule-loops': 'schedules loops for pipelining (software-pipeline does its own)',
  'tritongpu-fuse-nested-loops': 'fuses nested loops into one for pipelining',
  'tritongpu-coalesce-async-copy': 'clamps the vector width of cp.async copies',
  'tritongpu-automatic-warp-specialization': 'splits a loop into producer and consumer warp groups',
  'triton-nvidia-gpu-plan-cta': 'plans CTA tilings for clusters',
  'triton-nvidia-tma-lowering': 'lowers tensor-descriptor loads and stores to TMA',
  'triton-tensor-memory-allocation': 'allocates Blackwell tensor memory',
  'tritongpu-global-scratch-memory-allocation': 'allocates global scratch memory',
  'convert-triton-gpu-to-llvm': "lowers ttg IR to the LLVM dialect (here: triton-translate --to-ptx)",
};

/**
 * The message for a name that is Triton's but has no equivalent here, or null when `name` is
 * not one of those.
 */
export function upstreamWithoutEquivalent(name: string): string | null {
  const what = UPSTREAM_WITHOUT_EQUIVALENT[name];
  if (what === undefined) return null;
  return `'${name}' is a Triton pass (it ${what}) that has no equivalent in triton-ir; see docs/cli.md for the passes that do`;
}
