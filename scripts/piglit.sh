#!/usr/bin/env bash
# The piglit check: builds the release CLI and runs the piglit cases' checker, which renders every
# draw of every case with `tgsi render` (custom vertices, per-stage constants) and judges piglit's
# probes on the result, once per engine.
#
#   TGSI_PIGLIT=DIR[:DIR...] bash scripts/piglit.sh [--engine interp|jit|both] [--jobs N] [-v]
#                                                   [--only NAME...]
#
# Each DIR is a complete folder of piglit cases (per case the `.shader_test`, TGSI, constants,
# vertices, probes and softpipe's image), made by running piglit's execution tests through Mesa
# 22.3.6 softpipe: for example the GLSL set and the 64-bit (fp64 / int64) set side by side. The
# checker is the `check.py` of the first DIR that has one (a 64-bit set uses the GLSL set's).
# This is source material kept outside this repository: tests/corpus/piglit/ and piglit-64/
# keep only the parts the native tests read (tests/corpus/README.md says what a case holds),
# which is not enough for this check.
#
# --engine picks the engine of the fragment shaders: `interp`, `jit` or `both` (the default: the
# interpreter, then the compiling tier). Other options go to the checker (default --jobs 2). It
# prints one line per failing case (with -v also the unsupported ones) and, per folder and
# engine, the summary line
#   piglit: softpipe passes S/N; tgsi passes T/S of those softpipe passes (U unsupported: …)
# Exit status: 0 only when tgsi passes every case softpipe passes, in every folder and engine.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

[ -n "${TGSI_PIGLIT:-}" ] || die "set TGSI_PIGLIT to one or more folders of piglit cases, separated by ':' (piglit's execution tests run through Mesa 22.3.6 softpipe; not part of this repository, see the top of this script)"
command -v python3 >/dev/null || die "python3 is needed to run the checker"

engines=(interp jit)
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --engine)
      case "${2:-}" in
        interp|jit) engines=("$2") ;;
        both) engines=(interp jit) ;;
        *) die "--engine takes interp, jit or both" ;;
      esac
      shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
[[ " ${args[*]-} " == *" --jobs "* ]] || args=(--jobs 2 "${args[@]+"${args[@]}"}")

folders=()
checker=""
IFS=: read -r -a given <<< "$TGSI_PIGLIT"
for dir in "${given[@]}"; do
  [ -n "$dir" ] || continue
  abs="$(cd "$dir" 2>/dev/null && pwd)" || die "no folder $dir"
  folders+=("$abs")
  [ -z "$checker" ] && [ -f "$abs/check.py" ] && checker="$abs/check.py"
done
[ "${#folders[@]}" -gt 0 ] || die "TGSI_PIGLIT names no folder"
[ -n "$checker" ] || die "none of the folders in TGSI_PIGLIT holds the checker (check.py)"

say "building the release CLI"
cargo build --release -p tgsi --bin tgsi >&2
tgsi="${CARGO_TARGET_DIR:-$ROOT/target}/release/tgsi"

# The checker runs `CLI render ...`: a wrapper adds the engine to every render.
wrappers="$(mktemp -d)"
trap 'rm -rf "$wrappers"' EXIT
status=0
for engine in "${engines[@]}"; do
  cli="$wrappers/tgsi-$engine"
  printf '#!/usr/bin/env bash\nif [ "${1:-}" = render ]; then exec "%s" "$@" --engine %s; fi\nexec "%s" "$@"\n' \
    "$tgsi" "$engine" "$tgsi" > "$cli"
  chmod +x "$cli"
  for dir in "${folders[@]}"; do
    say "checking $dir with the $engine engine"
    python3 "$checker" "$cli" "$dir" "${args[@]}" || status=1
  done
done
exit "$status"
