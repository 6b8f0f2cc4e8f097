#!/usr/bin/env bash
# The tuning runs on the GPU machine (python3, torch, triton; no Node), from the spaces that
# build.sh compiled into build/tune (carried there). Logs go to $OUT (default /tmp/tune-out):
#   vector_add.log, matmul.log          first process: tune each key (retune), compare, then the same
#                                       keys with a new tuner from the cache
#   vector_add.cached.log, matmul.cached.log   second process: every key from the cache, same picks
#   cache.txt, tune-cache.json          the cache's entries; gpu.txt the GPU and driver; show.txt
#                                       each variant's registers, shared memory and CTAs/SM here
# 8 files, the most the device tool brings back. Exit status 1 if any check failed. The timeouts
# add up to 7 minutes; the runs are expected to take well under 5 (not yet measured).
set -uo pipefail
cd "$(dirname "$0")/../../.."
out=${OUT:-/tmp/tune-out}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
cache="$out/tune-cache.json"
picks=$(mktemp -d)  # the first process's picks, compared by the second (not brought back)
trap 'rm -rf "$picks"' EXIT
rm -f "$cache"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpu.txt" 2>&1
rc=0
for space in vector_add matmul; do  # each variant's registers, shared memory and CTAs/SM on this GPU
  python3 tools/gpu/tune.py show "build/tune/$space" >>"$out/show.txt" 2>&1 || rc=1
done
run() {  # run LOG TIMEOUT SCRIPT ARGS...
  local log=$1 limit=$2
  shift 2
  timeout "$limit" python3 "$@" 2>&1 | tee "$out/$log" || rc=1
}
run vector_add.log 100 bench/gpu/tuning/tune_vector_add.py --cache "$cache" --picks "$picks/vector_add.json"
run vector_add.cached.log 60 bench/gpu/tuning/tune_vector_add.py --cache "$cache" --picks "$picks/vector_add.json" --expect-cached
run matmul.log 170 bench/gpu/tuning/tune_matmul.py --cache "$cache" --picks "$picks/matmul.json"
run matmul.cached.log 90 bench/gpu/tuning/tune_matmul.py --cache "$cache" --picks "$picks/matmul.json" --expect-cached
python3 tools/gpu/tune.py cache --cache "$cache" 2>&1 | tee "$out/cache.txt" || rc=1
echo "run.sh: exit $rc"
exit $rc
