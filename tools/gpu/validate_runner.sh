#!/usr/bin/env bash
# Device-side check of the runner without our compiler (see README.md): dumps Triton's TTIR/PTX for every
# case and size, compares the TTIR with bench/gpu/kernels, then runs Triton's PTX through run_all.py
# (check, time, sanitize on a few cases), plus a PTX that fails to JIT and a >48 KB dynamic shared launch.
#   bash tools/gpu/validate_runner.sh OUTDIR      (OUTDIR gets log.txt, results JSON, triton_dump.tgz)
set -u
out=${1:-/tmp/validate}
mkdir -p "$out"
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
td=/tmp/triton_dump
{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  python3 -c "import torch, triton, cupy, numpy; print('torch', torch.__version__, 'triton', triton.__version__, 'cupy', cupy.__version__, 'numpy', numpy.__version__)"
  compute-sanitizer --version | tail -1
  compute-sanitizer --help | grep -i -A4 -- '--kernel-name ' | head -12
  echo "== dump_triton"
  timeout 80 python3 tools/gpu/dump_triton.py --out $td --compare bench/gpu/kernels --cupy-smoke --tune
  tar czf "$out/triton_dump.tgz" -C $td .
  echo "== runner CLI, a good kernel and a PTX that does not JIT"
  python3 tools/gpu/runner.py $td/ptx/softmax.b4096.ptx
  sed 's/ld\.param\.b64/ld.param.bogus/' $td/ptx/vector_add_f32.odd.ptx > /tmp/bad.ptx
  cp $td/ptx/vector_add_f32.odd.json /tmp/bad.json
  python3 tools/gpu/runner.py /tmp/bad.ptx 2>&1 | tail -4
  echo "== >48 KB dynamic shared memory"
  mkdir -p /tmp/bigsmem
  python3 - <<'PY'
import json, shutil
for v in ('b1024', 'b4096'):
    shutil.copy(f'/tmp/triton_dump/ptx/softmax.{v}.ptx', '/tmp/bigsmem/')
    m = json.load(open(f'/tmp/triton_dump/ptx/softmax.{v}.json'))
    m['shared_bytes'] = 100_000
    json.dump(m, open(f'/tmp/bigsmem/softmax.{v}.json', 'w'))
PY
  timeout 40 python3 tools/gpu/run_all.py --build /tmp/bigsmem --case softmax --check --no-triton
  echo "== check + time, Triton's PTX through the runner"
  timeout 110 python3 tools/gpu/run_all.py --build $td/ptx --check --time --json "$out/validate.json"
  echo "== sanitize"
  timeout 90 python3 tools/gpu/run_all.py --build $td/ptx --sanitize --case softmax,cumsum,vector_add_f32 \
    --sanitize-timeout 40 --json "$out/sanitize.json"
} 2>&1 | tee "$out/log.txt"
