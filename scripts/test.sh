#!/usr/bin/env bash
# `npm test`: installs what is missing (the browsers included), builds each artefact once and runs
# every runner once: lints, native `cargo test`, the browser-less end-to-end tests, and the
# wasm-bindgen and end-to-end tests in Chromium, Firefox ESR and WebKitGTK. The steps, the runners,
# their counting and the summary are scripts/run-tests.mjs (read it for the order and the
# environment variables TGSI_BROWSERS, TGSI_RUNNERS and TGSI_LANES). Logs: test-artifacts/.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

command -v cargo >/dev/null || die "cargo is not on PATH: install Rust (rustup) first"
command -v node >/dev/null || die "node is not on PATH: install Node.js 20 or newer first"
command -v npm >/dev/null || die "npm is not on PATH: install npm first"
exec node scripts/run-tests.mjs
