#!/usr/bin/env bash
# Compiles every GPU benchmark case's input (bench/gpu/*.py BUILDS) to PTX + metadata JSON with our
# compiler, into build/gpu/<case>[.<variant>].ptx/.json. Runs on the machine with Node (no GPU needed).
#   bash tools/gpu/build.sh [--arch sm_90a] [--out build/gpu] [CASE...]
# Keeps going after a failure; the log of each compile is in OUT/<stem>.log; exits 1 if any failed.
set -u
cd "$(dirname "$0")/../.."
arch=sm_90a
out=build/gpu
cases=()
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arch=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
    *) cases+=("$1"); shift ;;
  esac
done
translate=${TRITON_TRANSLATE:-dist/bin/triton-translate.mjs}
if [ ! -f "$translate" ]; then
  echo "build.sh: $translate not found (run 'npm run build' first)" >&2
  exit 2
fi
mkdir -p "$out"
ok=0
failed=()
while IFS=$'\t' read -r -a f; do
  stem=${f[0]}
  src=${f[1]}
  flags=("${f[@]:2}")
  cmd=(node "$translate" "$src")
  case "$src" in *.tc) cmd+=(--from-c) ;; esac
  cmd+=("${flags[@]}" --to-ptx --arch "$arch" -o "$out/$stem.ptx" --emit-metadata "$out/$stem.json")
  rm -f "$out/$stem.ptx" "$out/$stem.json"
  if "${cmd[@]}" >"$out/$stem.log" 2>&1 && [ -s "$out/$stem.ptx" ] && [ -s "$out/$stem.json" ]; then
    ok=$((ok + 1))
    echo "ok     $stem"
  else
    failed+=("$stem")
    echo "FAILED $stem: ${cmd[*]}"
    sed 's/^/         /' "$out/$stem.log" | head -20
  fi
done < <(python3 tools/gpu/list_builds.py "${cases[@]}")
echo "built $ok, failed ${#failed[@]}${failed[*]:+: ${failed[*]}} (arch $arch, into $out)"
[ ${#failed[@]} -eq 0 ]
