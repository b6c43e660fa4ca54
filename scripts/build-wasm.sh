#!/usr/bin/env bash
# Builds the two engines: cargo (wasm32, simd128) → wasm-bindgen (--target web) → wasm-opt -O3.
#   web/pkg/         the page's engine: every feature, `release` profile;
#   web/widget/pkg/  the widget's lean engine: parse, validate and render only
#                    (`--no-default-features`), `widget` profile and the LLVM settings below.
# An engine's bind and optimise steps are skipped when the module cargo produced is unchanged, so
# a rebuild with nothing changed takes about a second.
# Usage: scripts/build-wasm.sh [page|widget] [--cargo-only|--bind-only]: one engine, or one half of
# the work (`npm start` compiles while wasm-bindgen-cli is still being installed, then binds).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

engines=()
do_cargo=true
do_bind=true
for arg in "$@"; do
  case "$arg" in
    page | widget) engines+=("$arg") ;;
    --cargo-only) do_bind=false ;;
    --bind-only) do_cargo=false ;;
    *) die "unknown argument '$arg' (usage: scripts/build-wasm.sh [page|widget] [--cargo-only|--bind-only])" ;;
  esac
done
[ "${#engines[@]}" -gt 0 ] || engines=(page widget)

# An exported RUSTFLAGS replaces the config's per-target flags and would silently drop simd128.
if [ -n "${RUSTFLAGS:-}${CARGO_ENCODED_RUSTFLAGS:-}" ]; then
  say "ignoring RUSTFLAGS for the wasm build (it would override the simd128 flag in .cargo/config.toml)"
  unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS
fi

PROFILE=release
OUT_DIR=web/pkg
INPUT="target/$WASM_TARGET/$PROFILE/tgsi.wasm"
# The widget's engine must stay within 250 KB gzipped. Its profile (opt-level 2) renders about as
# fast as release; these LLVM settings, added to the config's flags, take another 12% off its
# gzipped size: no runtime loop unrolling, a lower full-unrolling threshold, and a lower inlining
# threshold, which leaves the cold code (parser, validator, job set-up) less inlined while the
# interpreter's helpers marked #[inline] still are. The cost: texture sampling about 15% slower,
# the interpreter's loops a few percent (scripts/bench-widget-wasm.mjs compares the engines). The
# unrolling threshold of 20 (rather than 50) takes 5.5 KB more off at no measurable cost
# (docs/perf-log.md, 2026-12-04).
# Its cold dependencies (serde, serde_json, serde-wasm-bindgen: the options' JSON) are built for
# size (`[profile.widget.package.*]` in Cargo.toml).
WIDGET_PROFILE=widget
WIDGET_OUT_DIR=web/widget/pkg
WIDGET_INPUT="target/$WASM_TARGET/$WIDGET_PROFILE/tgsi.wasm"
WIDGET_RUSTFLAGS='["-C", "llvm-args=-unroll-runtime=false", "-C", "llvm-args=-unroll-threshold=20",
  "-C", "llvm-args=-inline-threshold=25"]'
WIDGET_BUDGET=$((250 * 1024))
# Rust's default wasm32 features, plus SIMD; wasm-opt must be told which ones it may keep.
# The producers and target_features sections (about 240 bytes) only describe the toolchain: no
# browser reads them.
WASM_OPT_FLAGS=(-O3 --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int
  --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue
  --strip-producers --strip-target-features)
WASM_OPT="$ROOT/node_modules/.bin/wasm-opt"


# bind INPUT OUT_DIR: wasm-bindgen and wasm-opt of cargo's module into OUT_DIR, unless OUT_DIR
# already holds the output of the same inputs (then it returns 1).
bind() {
  local input="$1" out_dir="$2"
  [ -f "$input" ] || die "cargo did not produce $input"
  [ -x "$WASM_OPT" ] || die "wasm-opt is missing: run scripts/setup.sh (npm ci installs binaryen)"
  # Everything that decides the output; when it matches the last build, the output is current.
  local stamp
  stamp="$(sha256sum "$input" | cut -d' ' -f1) $(wasm-bindgen --version) $("$WASM_OPT" --version) ${WASM_OPT_FLAGS[*]} $(sha256sum "$ROOT/scripts/build-wasm.sh" | cut -d' ' -f1)"
  if [ -f "$out_dir/.stamp" ] && [ "$(cat "$out_dir/.stamp")" = "$stamp" ] &&
     [ -f "$out_dir/tgsi.js" ] && [ -f "$out_dir/tgsi_bg.wasm" ]; then
    say "$out_dir is up to date"
    return 1
  fi
  # Build into a scratch folder and swap it in, so a running server never serves a half-written
  # engine.
  tmp="$(mktemp -d "$ROOT/target/.web-pkg-XXXXXX")"
  chmod 755 "$tmp"
  trap 'rm -rf "$tmp"' EXIT
  say "wasm-bindgen --target web ($out_dir)"
  wasm-bindgen --target web --out-dir "$tmp" "$input"
  say "wasm-opt ${WASM_OPT_FLAGS[*]} ($out_dir)"
  "$WASM_OPT" "${WASM_OPT_FLAGS[@]}" "$tmp/tgsi_bg.wasm" -o "$tmp/tgsi_bg.opt.wasm"
  mv "$tmp/tgsi_bg.opt.wasm" "$tmp/tgsi_bg.wasm"
  printf '%s' "$stamp" > "$tmp/.stamp"
  mkdir -p "$(dirname "$out_dir")"
  rm -rf "$out_dir"
  mv "$tmp" "$out_dir"
  trap - EXIT
  say "built $out_dir"
}

# Gzipped as the widget's size test measures it (Node's zlib at level 9; GNU gzip -9 gives about
# 2 KB less for the same file).
gzipped() {
  node -e 'process.stdout.write(String(require("zlib").gzipSync(require("fs").readFileSync(process.argv[1]), { level: 9 }).length))' "$1"
}

for engine in "${engines[@]}"; do
  if [ "$engine" = page ]; then
    if $do_cargo; then
      say "cargo build ($PROFILE, $WASM_TARGET)"
      cargo build --profile "$PROFILE" --target "$WASM_TARGET" --lib -p tgsi
    fi
    if $do_bind; then
      if bind "$INPUT" "$OUT_DIR"; then
        say "$OUT_DIR: $(stat -c %s "$OUT_DIR/tgsi_bg.wasm") bytes of wasm, $(gzipped "$OUT_DIR/tgsi_bg.wasm") gzipped"
      fi
    fi
  else
    # Its own profile keeps both builds cached in target/ (their features and flags differ).
    if $do_cargo; then
      say "cargo build ($WIDGET_PROFILE, $WASM_TARGET, --no-default-features)"
      cargo build --profile "$WIDGET_PROFILE" --target "$WASM_TARGET" --lib -p tgsi --no-default-features \
        --config "target.$WASM_TARGET.rustflags = $WIDGET_RUSTFLAGS"
    fi
    if $do_bind; then
      bind "$WIDGET_INPUT" "$WIDGET_OUT_DIR" || continue
      widget_gzip="$(gzipped "$WIDGET_OUT_DIR/tgsi_bg.wasm")"
      say "$WIDGET_OUT_DIR: $(stat -c %s "$WIDGET_OUT_DIR/tgsi_bg.wasm") bytes of wasm, $widget_gzip gzipped"
      if [ "$widget_gzip" -gt "$WIDGET_BUDGET" ]; then
        say "warning: the widget's engine is over its budget of $WIDGET_BUDGET bytes gzipped"
      fi
    fi
  fi
done
