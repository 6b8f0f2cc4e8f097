#!/usr/bin/env bash
# Compiles every GPU benchmark case's input (bench/gpu/*.py BUILDS) to PTX + metadata JSON with our
# compiler, into build/gpu/<case>[.<variant>].ptx/.json. Runs on the machine with Node (no GPU needed).
#   bash tools/gpu/build.sh [--arch sm_90a] [--out build/gpu] [CASE...]
# Keeps going after a failure; each compile's output is in OUT/<stem>.log; exits 1 if any failed.
# A Triton-C source is compiled in one step (X.tc --from-c -D... --to-ptx ...); if that writes no
# metadata, in two: X.tc --from-c -D... -o OUT/<stem>.ttir, then that TTIR --to-ptx as usual.
# A build flag --without-pass=P (e.g. insert-barriers, to show what the pass prevents) compiles in
# three steps: the tt IR (as above), triton-opt with the default pipeline minus P (as
# --dump-pass-pipeline prints it, with the build's --num-warps) into OUT/<stem>.ttgir, then --to-ptx.
# --via-llvm (sm_80 only; needs llc-14, docs/llvm.md) also writes LLVM's PTX of each case next to
# ours, with the same stems, in OUT/llvm/ (<stem>.ptx/.json), from the same input and flags plus
# --via-llvm; tools/gpu/llvm_vs_ours.py runs both.
set -u
cd "$(dirname "$0")/../.."
arch=sm_90a
out=build/gpu
cases=()
via_llvm=""
arch_given=""
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arch=$2; arch_given=1; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --via-llvm) via_llvm=1; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) cases+=("$1"); shift ;;
  esac
done
translate=${TRITON_TRANSLATE:-dist/bin/triton-translate.cjs}
opt=${TRITON_OPT:-dist/bin/triton-opt.cjs}
if [ ! -f "$translate" ]; then
  echo "build.sh: $translate not found (run 'npm run build' first)" >&2
  exit 2
fi
if [ -n "$via_llvm" ]; then
  if [ -z "$arch_given" ]; then arch=sm_80; fi
  if [ "$arch" != sm_80 ]; then
    echo "build.sh: --via-llvm builds for sm_80 (LLVM 14's NVPTX backend stops at sm_86), not --arch $arch" >&2
    exit 2
  fi
  mkdir -p "$out/llvm"
fi
mkdir -p "$out"
ok=0
failed=()

# compile STEM SRC FLAGS...: runs the compiler, appending to OUT/STEM.log; true if both files were written
compile() {
  local stem=$1 src=$2
  shift 2
  local cmd=(node "$translate" "$src" "$@" --to-ptx --arch "$arch" -o "$out/$stem.ptx" --emit-metadata "$out/$stem.json")
  echo "\$ ${cmd[*]}" >>"$out/$stem.log"
  "${cmd[@]}" >>"$out/$stem.log" 2>&1 && [ -s "$out/$stem.ptx" ] && [ -s "$out/$stem.json" ] || return 1
  [ -z "$via_llvm" ] && return 0
  local llvm=(node "$translate" "$src" "$@" --to-ptx --via-llvm --arch "$arch" -o "$out/llvm/$stem.ptx" --emit-metadata "$out/llvm/$stem.json")
  echo "\$ ${llvm[*]}" >>"$out/$stem.log"
  "${llvm[@]}" >>"$out/$stem.log" 2>&1 && [ -s "$out/llvm/$stem.ptx" ] && [ -s "$out/llvm/$stem.json" ]
}

# without_pass STEM SRC PASS WARPS DEFINES...: tt IR, the default pipeline minus PASS, then --to-ptx
without_pass() {
  local stem=$1 src=$2 pass=$3 warps=$4
  shift 4
  local ttir="$out/$stem.ttir" ttg="$out/$stem.ttgir" pipeline
  if [[ "$src" == *.tc ]]; then
    echo "\$ node $translate $src --from-c $* -o $ttir" >>"$out/$stem.log"
    node "$translate" "$src" --from-c "$@" -o "$ttir" >>"$out/$stem.log" 2>&1 || return 1
  else
    cp "$src" "$ttir"
  fi
  pipeline=$(node "$opt" "$ttir" --pass-pipeline="default{arch=$arch}" --dump-pass-pipeline -o /dev/null 2>&1 | grep '^builtin.module(') || return 1
  pipeline=$(echo "$pipeline" | sed -e "s/num-warps=[0-9]*/num-warps=$warps/g" -e "s/,$pass\([,)]\)/\1/" -e "s/($pass,/(/")
  echo "\$ node $opt $ttir --pass-pipeline='$pipeline' -o $ttg" >>"$out/$stem.log"
  node "$opt" "$ttir" --pass-pipeline="$pipeline" -o "$ttg" >>"$out/$stem.log" 2>&1 || return 1
  compile "$stem" "$ttg"
}

while IFS=$'\t' read -r -a f; do
  stem=${f[0]}
  src=${f[1]}
  defines=()
  others=()
  without=""
  warps=4
  prev=""
  for flag in "${f[@]:2}"; do
    case "$flag" in
      -D*) defines+=("$flag") ;;
      --without-pass=*) without=${flag#--without-pass=} ;;
      *) others+=("$flag"); [ "$prev" = --num-warps ] && warps=$flag ;;
    esac
    prev=$flag
  done
  rm -f "$out/$stem.ptx" "$out/$stem.json" "$out/$stem.ttir" "$out/$stem.ttgir" "$out/$stem.log" "$out/llvm/$stem.ptx" "$out/llvm/$stem.json"
  how=""
  if [ -n "$without" ]; then
    if without_pass "$stem" "$src" "$without" "$warps" "${defines[@]}"; then
      how=" (without $without, through $out/$stem.ttgir)"
    else
      how=FAILED
    fi
  elif [[ "$src" == *.tc ]]; then
    if compile "$stem" "$src" --from-c "${defines[@]}" "${others[@]}"; then
      how=""
    else
      rm -f "$out/$stem.ptx" "$out/$stem.json" "$out/llvm/$stem.ptx" "$out/llvm/$stem.json"
      cmd=(node "$translate" "$src" --from-c "${defines[@]}" -o "$out/$stem.ttir")
      echo "\$ ${cmd[*]}" >>"$out/$stem.log"
      if "${cmd[@]}" >>"$out/$stem.log" 2>&1 && compile "$stem" "$out/$stem.ttir" "${others[@]}"; then
        how=" (two steps, through $out/$stem.ttir)"
      else
        how=FAILED
      fi
    fi
  elif ! compile "$stem" "$src" "${defines[@]}" "${others[@]}"; then
    how=FAILED
  fi
  if [ "$how" = FAILED ]; then
    failed+=("$stem")
    echo "FAILED $stem"
    sed 's/^/         /' "$out/$stem.log" | head -20
  else
    ok=$((ok + 1))
    echo "ok     $stem$how"
  fi
done < <(python3 tools/gpu/list_builds.py "${cases[@]}")
echo "built $ok, failed ${#failed[@]}${failed[*]:+: ${failed[*]}} (arch $arch, into $out${via_llvm:+, LLVM PTX into $out/llvm})"
[ ${#failed[@]} -eq 0 ]
