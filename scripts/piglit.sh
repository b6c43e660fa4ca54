#!/usr/bin/env bash
# The piglit sample of the shared corpus (../shared/corpus/piglit/, see its README): builds the
# release CLI and runs the corpus's checker, which renders every draw of every case with
# `tgsi render` (custom vertices, per-stage constants) and judges piglit's probes on the result.
#
#   bash scripts/piglit.sh [--jobs N] [-v] [--only NAME...]
#
# Options go to the checker (default --jobs 2). It prints one line per failing case (with -v also
# the unsupported ones) and ends with the summary line
#   piglit: softpipe passes S/N; tgsi passes T/S of those softpipe passes (U unsupported: …)
# Exit status: the checker's (0 only when tgsi passes every case softpipe passes).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

cases="$CORPUS/piglit"
[ -f "$cases/check.py" ] || die "no piglit sample at $cases (set TGSI_CORPUS to the shared corpus)"
command -v python3 >/dev/null || die "python3 is needed to run the checker"

say "building the release CLI"
cargo build --release -p tgsi --bin tgsi >&2
tgsi="${CARGO_TARGET_DIR:-$ROOT/target}/release/tgsi"

args=("$@")
[[ " ${args[*]-} " == *" --jobs "* ]] || args=(--jobs 2 "${args[@]}")
say "checking $cases"
python3 "$cases/check.py" "$tgsi" "$cases" "${args[@]}"
