#!/usr/bin/env bash
# A time-boxed libFuzzer campaign over every target in fuzz/ (cargo-fuzz, nightly toolchain):
#
#   bash scripts/fuzz.sh [SECONDS] [TARGET...]
#
# SECONDS (default 60) is the time of each target; TARGETs default to all of them (the names in
# fuzz/fuzz_targets/). The corpora live in fuzz/corpus/TARGET/ (not committed) and grow from run
# to run; each run first seeds them from the test data — the corpus (tests/corpus/), the rest of
# tests/ and the small seeds kept in fuzz/seeds/ — with the framing `crate/src/fuzzing.rs`
# describes. A crash or a broken promise leaves its input in fuzz/artifacts/TARGET/; replay it
# with `cargo +nightly fuzz run TARGET fuzz/artifacts/TARGET/FILE` from the repository root.
# The same bodies run on the stable toolchain in `npm test` (crate/tests/native/fuzz_smoke.rs).
# Exit status: 0 when every target ran its time without a finding, 1 otherwise.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

SECONDS_PER_TARGET="${1:-60}"
[[ "$SECONDS_PER_TARGET" =~ ^[0-9]+$ ]] && [ "$SECONDS_PER_TARGET" -gt 0 ] \
  || die "usage: bash scripts/fuzz.sh [SECONDS] [TARGET...] (SECONDS: a positive whole number)"
shift $(( $# > 0 ? 1 : 0 ))
ALL_TARGETS=(tgsi_text agal_bytes agal_asm texture_json render_options render vertices_json)
TARGETS=("${@:-${ALL_TARGETS[@]}}")
for t in "${TARGETS[@]}"; do
  [ -f "fuzz/fuzz_targets/$t.rs" ] || die "no target '$t' (one of: ${ALL_TARGETS[*]})"
done

# The nightly toolchain and cargo-fuzz (from the crates registry) when missing.
rustup run nightly rustc --version >/dev/null 2>&1 || rustup toolchain install nightly --profile minimal \
  || die "cannot install the nightly toolchain"
cargo fuzz --version >/dev/null 2>&1 || cargo install cargo-fuzz --locked \
  || die "cannot install cargo-fuzz"

# seed TARGET NAME: standard input becomes fuzz/corpus/TARGET/seed-NAME.
seed() {
  cat > "fuzz/corpus/$1/seed-${2//\//_}"
}
# Each file under DIR whose name ends with SUFFIX, one per line, sorted.
files() {
  [ -d "$1" ] && find "$1" -type f -name "*$2" | sort
}

say "seeding fuzz/corpus/ from the test data"
for t in "${ALL_TARGETS[@]}"; do
  mkdir -p "fuzz/corpus/$t"
  for f in $(files "fuzz/seeds/$t" ""); do seed "$t" "kept-$(basename "$f")" < "$f"; done
done
for f in $(files "$CORPUS/softpipe" .tgsi; files "$CORPUS/third-party" .tgsi; files "$CORPUS/third-party" .txt; \
           files "$CORPUS/piglit" .tgsi; files tests .tgsi); do
  seed tgsi_text "${f#"$CORPUS"/}" < "$f"
done
for f in $(files "$CORPUS/agal" .bin); do seed agal_bytes "${f#"$CORPUS"/}" < "$f"; done
# agal_asm: one byte first, bit 0 = fragment, (byte >> 1) % 3 + 1 = AGAL version.
for f in $(files "$CORPUS/agal" .agal); do
  name="$(basename "$f")"
  kind=0; version=0
  case "$name" in f*|*fragment*) kind=1 ;; esac
  case "$name" in *_v2*) version=1 ;; esac
  { printf "\\x0$(( version * 2 + kind ))"; cat "$f"; } | seed agal_asm "${f#"$CORPUS"/}"
done
for f in $(files tests/texture-cases .json); do seed texture_json "$f" < "$f"; done
for f in $(files tests/vertex-cases .vertices.json; files "$CORPUS/piglit" .vertices.json); do
  seed vertices_json "${f#"$CORPUS"/}" < "$f"
done
# render: width byte, height byte, mesh byte, the fragment shader, NUL, its vertex shader.
for f in $(files "$CORPUS/softpipe" .tgsi); do
  case "$f" in *.vs.tgsi) continue ;; esac
  vs="${f%.tgsi}.vs.tgsi"
  { printf '\x07\x05\x00'; cat "$f"; if [ -f "$vs" ]; then printf '\x00'; cat "$vs"; fi; } \
    | seed render "${f#"$CORPUS"/}"
done

say "building the targets (nightly, sanitizer and coverage instrumentation)"
cargo +nightly fuzz build || die "the fuzz targets do not build"

summary=()
failed=0
for t in "${TARGETS[@]}"; do
  say "fuzzing $t for ${SECONDS_PER_TARGET}s"
  log="fuzz/artifacts/$t.log"
  mkdir -p "fuzz/artifacts/$t"
  # -timeout: one input taking 10 s is a finding (the budget should stop it long before);
  # -rss_limit_mb: the limits table bounds memory far below this.
  cargo +nightly fuzz run "$t" "fuzz/corpus/$t" -- \
      -max_total_time="$SECONDS_PER_TARGET" -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
      -print_final_stats=1 > "$log" 2>&1
  status=$?
  runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
  if [ "$status" = 0 ]; then
    summary+=("$t: ${runs:-?} inputs, no finding")
  else
    failed=$((failed + 1))
    summary+=("$t: FINDING after ${runs:-?} inputs (status $status): see $log and fuzz/artifacts/$t/")
    tail -n 30 "$log"
  fi
done

echo
echo "== fuzz summary (${SECONDS_PER_TARGET}s per target) =="
printf '%s\n' "${summary[@]}"
[ "$failed" = 0 ]
