#!/usr/bin/env bash
# Builds the engine the reproducer page loads into docs/webkit-trap/pkg/ (not committed):
#   pkg/release.js + release_bg.wasm   the page's engine before wasm-opt (release profile)
#   pkg/dev.js + dev_bg.wasm           the unoptimised build `cargo test` runs in the browser
# Extra arguments go to cargo, e.g. --config 'target.wasm32-unknown-unknown.rustflags=[]' for
# a build without simd128 (then pass --suffix nosimd to keep both).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
suffix=""
if [ "${1:-}" = --suffix ]; then suffix="-$2"; shift 2; fi
for profile in release dev; do
  cargo build --profile "$profile" --target wasm32-unknown-unknown --lib -p tgsi "$@"
  dir=$([ "$profile" = dev ] && echo debug || echo release)
  wasm-bindgen --target web --out-dir docs/webkit-trap/pkg --out-name "$profile$suffix" \
    "target/wasm32-unknown-unknown/$dir/tgsi.wasm"
done
ls -la docs/webkit-trap/pkg
