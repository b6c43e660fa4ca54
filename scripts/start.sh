#!/usr/bin/env bash
# `npm start`: install what is missing, build the engines, the page's bundles and the opcode
# reference (scripts/start.mjs: independent steps side by side, one progress line per step),
# then serve the playground on http://localhost:${PORT:-8080}/.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

command -v cargo >/dev/null || die "cargo is not on PATH: install Rust (rustup) first"
command -v node >/dev/null || die "node is not on PATH: install Node.js 20 or newer first"
command -v npm >/dev/null || die "npm is not on PATH: install npm first"
node scripts/start.mjs || die "the build failed (see above; logs in target/start-logs/)"
exec node scripts/serve.mjs
