#!/usr/bin/env bash
# Compiles the spaces of the tuning runs (here, with Node; no GPU needed) into build/tune/:
#   build/tune/vector_add  examples/triton-c/vector-add-param.tc -DSIZE=[32, ..., 1024] -DTYPE=float (6 variants)
#   build/tune/matmul      examples/triton-c/matmul.tc -DTYPE=half -DTM=[64, 128] -DTN=[64, 128] -DTK=[32, 64], 4 warps (8)
# for sm_90a (H100/H200). Usage: npm run build && bash bench/gpu/tuning/build.sh [OUT_DIR]
# Then run bench/gpu/tuning/run.sh on the GPU machine with build/tune carried (see docs/autotuning.md).
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=${1:-build/tune}
translate=dist/bin/triton-translate.cjs
if [ ! -f "$translate" ]; then
  echo "build.sh: $translate not found (run 'npm run build' first)" >&2
  exit 2
fi
node "$translate" examples/triton-c/vector-add-param.tc --from-c '-DSIZE=[32, 64, 128, 256, 512, 1024]' -DTYPE=float \
  --all-variants "$out/vector_add" --to-ptx --arch sm_90a
node "$translate" examples/triton-c/matmul.tc --from-c -DTYPE=half '-DTM=[64, 128]' '-DTN=[64, 128]' '-DTK=[32, 64]' \
  --all-variants "$out/matmul" --to-ptx --arch sm_90a --num-warps 4
