#!/usr/bin/env bash
# Builds the engine for the page: cargo (wasm32, simd128) → wasm-bindgen (--target web) →
# wasm-opt -O3, into web/pkg/. The bind and optimise steps are skipped when the module cargo
# produced is unchanged, so a rebuild with nothing changed takes about a second.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# An exported RUSTFLAGS replaces the config's per-target flags and would silently drop simd128.
if [ -n "${RUSTFLAGS:-}${CARGO_ENCODED_RUSTFLAGS:-}" ]; then
  say "ignoring RUSTFLAGS for the wasm build (it would override the simd128 flag in .cargo/config.toml)"
  unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS
fi

PROFILE=release
OUT_DIR=web/pkg
INPUT="target/$WASM_TARGET/$PROFILE/tgsi.wasm"
# Rust's default wasm32 features, plus SIMD; wasm-opt must be told which ones it may keep.
WASM_OPT_FLAGS=(-O3 --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int
  --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue)
WASM_OPT="$ROOT/node_modules/.bin/wasm-opt"

say "cargo build ($PROFILE, $WASM_TARGET)"
cargo build --profile "$PROFILE" --target "$WASM_TARGET" --lib -p tgsi
[ -f "$INPUT" ] || die "cargo did not produce $INPUT"
[ -x "$WASM_OPT" ] || die "wasm-opt is missing: run scripts/setup.sh (npm ci installs binaryen)"

# Everything that decides the output; when it matches the last build, the output is current.
stamp="$(sha256sum "$INPUT" | cut -d' ' -f1) $(wasm-bindgen --version) $("$WASM_OPT" --version) ${WASM_OPT_FLAGS[*]} $(sha256sum "$ROOT/scripts/build-wasm.sh" | cut -d' ' -f1)"
if [ -f "$OUT_DIR/.stamp" ] && [ "$(cat "$OUT_DIR/.stamp")" = "$stamp" ] &&
   [ -f "$OUT_DIR/tgsi.js" ] && [ -f "$OUT_DIR/tgsi_bg.wasm" ]; then
  say "$OUT_DIR is up to date"
  exit 0
fi

# Build into a scratch folder and swap it in, so a running server never serves a half-written engine.
tmp="$(mktemp -d "$ROOT/target/.web-pkg-XXXXXX")"
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
say "wasm-bindgen --target web"
wasm-bindgen --target web --out-dir "$tmp" "$INPUT"
say "wasm-opt ${WASM_OPT_FLAGS[*]}"
"$WASM_OPT" "${WASM_OPT_FLAGS[@]}" "$tmp/tgsi_bg.wasm" -o "$tmp/tgsi_bg.opt.wasm"
mv "$tmp/tgsi_bg.opt.wasm" "$tmp/tgsi_bg.wasm"
printf '%s' "$stamp" > "$tmp/.stamp"
rm -rf "$OUT_DIR"
mv "$tmp" "$OUT_DIR"
trap - EXIT
say "built $OUT_DIR ($(stat -c %s "$OUT_DIR/tgsi_bg.wasm") bytes of wasm)"
