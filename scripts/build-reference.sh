#!/usr/bin/env bash
# Generates the opcode reference site (reference/index.html and reference/data.json) from the
# opcode table and the page data in crate/src/reference/, with `tgsi reference`.
# Usage: scripts/build-reference.sh [--cli PATH]
#   --cli PATH  run that `tgsi` (`npm test` passes target/debug/tgsi, which `cargo test` builds
#               anyway); without it, a debug CLI without the `jit` feature (no wasmtime, no
#               Cranelift: about a minute of one core) is built in target/reference-cli/ for it.
# Skipped when the generated page is newer than every source of the crate.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

cli=""
while [ "$#" -gt 0 ]; do
  case "$1" in
    --cli) cli="${2:-}"; [ -n "$cli" ] || die "--cli needs a path"; shift ;;
    *) die "unknown argument '$1' (usage: scripts/build-reference.sh [--cli PATH])" ;;
  esac
  shift
done

OUT=reference
if [ -f "$OUT/index.html" ] && [ -f "$OUT/data.json" ] &&
   [ -z "$(find crate/src crate/Cargo.toml -newer "$OUT/index.html" -print -quit)" ]; then
  say "$OUT/ is up to date"
  exit 0
fi
if [ -z "$cli" ]; then
  say "cargo build -p tgsi --bin tgsi --no-default-features --features full (target/reference-cli)"
  cargo build --quiet -p tgsi --bin tgsi --no-default-features --features full --target-dir target/reference-cli
  cli=target/reference-cli/debug/tgsi
fi
[ -x "$cli" ] || die "$cli is missing"
say "tgsi reference --out $OUT"
"$cli" reference --out "$OUT"
