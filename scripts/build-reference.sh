#!/usr/bin/env bash
# Generates the opcode reference site (reference/index.html and reference/data.json) from the
# opcode table and the page data in crate/src/reference/, with the native `tgsi reference`.
# Skipped when the generated page is newer than every source of the crate.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

OUT=reference
if [ -f "$OUT/index.html" ] && [ -f "$OUT/data.json" ] &&
   [ -z "$(find crate/src -name '*.rs' -newer "$OUT/index.html" -print -quit)" ]; then
  say "$OUT/ is up to date"
  exit 0
fi
say "tgsi reference --out $OUT"
cargo run --quiet -p tgsi --bin tgsi -- reference --out "$OUT"
