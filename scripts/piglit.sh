#!/usr/bin/env bash
# The piglit check: builds the release CLI and runs the piglit cases' checker, which renders every
# draw of every case with `tgsi render` (custom vertices, per-stage constants) and judges piglit's
# probes on the result.
#
#   TGSI_PIGLIT=DIR bash scripts/piglit.sh [--jobs N] [-v] [--only NAME...]
#
# DIR is a complete folder of piglit cases with their checker (`check.py`, and per case the
# `.shader_test`, TGSI, constants, vertices, probes and softpipe's image), made by running piglit's
# execution tests through Mesa 22.3.6 softpipe. It is source material kept outside this
# repository: tests/corpus/piglit/ keeps only the parts the native tests read (its README says
# what a case holds), which is not enough for this check.
#
# Options go to the checker (default --jobs 2). It prints one line per failing case (with -v also
# the unsupported ones) and ends with the summary line
#   piglit: softpipe passes S/N; tgsi passes T/S of those softpipe passes (U unsupported: …)
# Exit status: the checker's (0 only when tgsi passes every case softpipe passes).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

[ -n "${TGSI_PIGLIT:-}" ] || die "set TGSI_PIGLIT to a folder of piglit cases with check.py (piglit's execution tests run through Mesa 22.3.6 softpipe; not part of this repository, see the top of this script)"
cases="$(cd "$TGSI_PIGLIT" && pwd)" || die "no folder $TGSI_PIGLIT"
[ -f "$cases/check.py" ] || die "no piglit checker at $cases/check.py (TGSI_PIGLIT must hold the cases and check.py)"
command -v python3 >/dev/null || die "python3 is needed to run the checker"

say "building the release CLI"
cargo build --release -p tgsi --bin tgsi >&2
tgsi="${CARGO_TARGET_DIR:-$ROOT/target}/release/tgsi"

args=("$@")
[[ " ${args[*]-} " == *" --jobs "* ]] || args=(--jobs 2 "${args[@]}")
say "checking $cases"
python3 "$cases/check.py" "$tgsi" "$cases" "${args[@]}"
