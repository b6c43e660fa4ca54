#!/usr/bin/env bash
# Side-by-side speed table: `tgsi bench --engine both` (interpreter and JIT) against Mesa's
# softpipe and llvmpipe with one thread (LP_NUM_THREADS=1) on corpus shaders at 512x512 (ours with
# `--threads 1`; the last three columns are the JIT and llvmpipe on every core, by the wall
# clock, and their ratio), all as
# CPU time (user + system), so that waiting for a core on a busy machine is not counted.
#
#   bash scripts/bench-native.sh [--seconds S] [--softpipe DIR --glsl GLSL_DIR] [--pairs N] [SHADER ...]
#
# SHADER names are basenames of tests/corpus/softpipe/ (default: 01_arith 03_trig 08_if_else
# 09_for_loop 26_mandelbrot). DIR is a folder holding `glrun`, the GLSL renderer of the softpipe
# oracle that made that corpus (tests/corpus/README.md; it is not part of this repository), and
# GLSL_DIR the folder of the corpus shaders' GLSL sources (NAME.glsl, also kept outside); without
# them only our figures are printed. Mesa's CPU time per frame is the difference of
# two runs with different frame counts, which removes start-up and shader compilation. With
# --pairs N (N > 1) the JIT and llvmpipe are measured alternately N times and the last two
# columns give llvmpipe's median (range) and the median (range) of the N pairs' ratios: on a
# shared machine whose speed drifts, a ratio of figures taken moments apart is the steadier one.
# TGSI_BIN=PATH measures that binary instead of building the release one.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=3
oracle=""
glsl_dir=""
pairs=1
shaders=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --softpipe) oracle="$(cd "$2" && pwd)"; shift 2 ;;
    --glsl) glsl_dir="$(cd "$2" && pwd)"; shift 2 ;;
    --pairs) pairs="$2"; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) shaders+=("$1"); shift ;;
  esac
done
[ ${#shaders[@]} -gt 0 ] || shaders=(01_arith 03_trig 08_if_else 09_for_loop 26_mandelbrot)
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
corpus="$CORPUS/softpipe"
if [ -n "$oracle" ] && [ -z "$glsl_dir" ]; then
  die "--softpipe needs --glsl GLSL_DIR: the folder of the softpipe corpus's GLSL sources (kept outside this repository)"
fi

# TGSI_BIN: a `tgsi` binary to measure instead of building the release one.
if [ -n "${TGSI_BIN:-}" ]; then
  tgsi="$TGSI_BIN"
else
  cargo build -j2 --release --bin tgsi >&2
  tgsi="$(pwd)/target/release/tgsi"
fi

# CPU Mpix/s of a Mesa driver (softpipe, or llvmpipe on one thread) for one GLSL shader: runs of
# n1 and n2 timed frames.
mesa_mpix() {
  local driver="$1" glsl="$2" n1="$3" n2="$4" a b
  run() {
    (cd "$oracle" && GALLIUM_DRIVER="$driver" LP_NUM_THREADS=1 EGL_PLATFORM=surfaceless LIBGL_ALWAYS_SOFTWARE=1 \
      /usr/bin/time -f "%U %S" ./glrun --info --frag "$glsl" --size 512x512 --frames "$1" --min-time 0 2>&1 >/dev/null | tail -1)
  }
  a=$(run "$n1"); b=$(run "$n2")
  python3 -c "
a=sum(map(float,'$a'.split())); b=sum(map(float,'$b'.split()))
per=(b-a)/($n2-$n1)
print('%.3f' % (512*512/per/1e6) if per > 0 else 'n/a')"
}

# Wall-clock Mpix/s of llvmpipe at its default thread count (one per core): runs of n1 and n2
# frames, as mesa_mpix.
llvmpipe_all_mpix() {
  local glsl="$1" n1="$2" n2="$3" a b
  run() {
    (cd "$oracle" && GALLIUM_DRIVER=llvmpipe EGL_PLATFORM=surfaceless LIBGL_ALWAYS_SOFTWARE=1 \
      /usr/bin/time -f "%e" ./glrun --info --frag "$glsl" --size 512x512 --frames "$1" --min-time 0 2>&1 >/dev/null | tail -1)
  }
  a=$(run "$n1"); b=$(run "$n2")
  python3 -c "
per=(float('$b')-float('$a'))/($n2-$n1)
print('%.3f' % (512*512/per/1e6) if per > 0 else 'n/a')"
}

echo "| shader | interpreter | JIT | JIT / interpreter | softpipe | llvmpipe 1 thread | JIT / llvmpipe | JIT, all cores (wall) | llvmpipe, all cores (wall) | ratio |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for s in "${shaders[@]}"; do
  figures=$("$tgsi" bench "$corpus/$s.tgsi" --vs "$corpus/$s.vs.tgsi" --size 512x512 --seconds "$seconds" \
    --threads 1 --engine both | awk '/^cpu Mpix\/s:/ {print $3}')
  # Every core (`--threads`' default), by the wall clock: CPU time adds up the threads.
  all=$("$tgsi" bench "$corpus/$s.tgsi" --vs "$corpus/$s.vs.tgsi" --size 512x512 --seconds "$seconds" \
    --engine jit | awk '/^Mpix\/s:/ {print $2}')
  interp=$(echo "$figures" | sed -n 1p); jit=$(echo "$figures" | sed -n 2p)
  speedup=$(python3 -c "print('%.2fx' % ($jit / $interp))" 2>/dev/null || echo "—")
  soft="—"; llvm="—"; ratio="—"; llvm_all="—"; ratio_all="—"
  if [ -n "$oracle" ]; then
    # Slow shaders get fewer frames (one to two seconds of CPU time per run).
    case "$s" in 26_*|03_*|09_*) n1=1; n2=6; l1=10; l2=110 ;; *) n1=10; n2=110; l1=20; l2=420 ;; esac
    soft=$(mesa_mpix softpipe "$glsl_dir/$s.glsl" "$n1" "$n2")
    llvm_all=$(llvmpipe_all_mpix "$glsl_dir/$s.glsl" "$l1" "$((3 * l2))")
    ratio_all=$(python3 -c "print('%.2fx' % ($all / $llvm_all))" 2>/dev/null || echo "—")
    if [ "$pairs" -le 1 ]; then
      llvm=$(mesa_mpix llvmpipe "$glsl_dir/$s.glsl" "$l1" "$l2")
      ratio=$(python3 -c "print('%.2fx' % ($jit / $llvm))" 2>/dev/null || echo "—")
    else
      # JIT, then llvmpipe, N times; median and range of llvmpipe and of the ratios.
      measured=""
      for _ in $(seq "$pairs"); do
        j=$("$tgsi" bench "$corpus/$s.tgsi" --vs "$corpus/$s.vs.tgsi" --size 512x512 \
          --seconds "$seconds" --threads 1 --engine jit | awk '/^cpu Mpix\/s:/ {print $3}')
        measured="$measured $j/$(mesa_mpix llvmpipe "$glsl_dir/$s.glsl" "$l1" "$l2")"
      done
      summary=$(python3 -c "
import statistics as st
pairs = [tuple(map(float, p.split('/'))) for p in '$measured'.split()]
l = [b for _, b in pairs]; r = [a / b for a, b in pairs]
print('%.1f (%.1f–%.1f)' % (st.median(l), min(l), max(l)))
print('%.2fx (%.2f–%.2f, %d pairs)' % (st.median(r), min(r), max(r), len(r)))")
      llvm=$(echo "$summary" | sed -n 1p); ratio=$(echo "$summary" | sed -n 2p)
    fi
  fi
  echo "| $s | $interp | $jit | $speedup | $soft | $llvm | $ratio | $all | $llvm_all | $ratio_all |"
done
