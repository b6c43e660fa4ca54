#!/usr/bin/env bash
# `npm start`: install what is missing, build the engine and the opcode reference, serve the playground on
# http://localhost:${PORT:-8080}/.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

bash scripts/setup.sh
bash scripts/build-wasm.sh
bash scripts/build-web.sh
bash scripts/build-reference.sh
exec node scripts/serve.mjs
