#!/usr/bin/env bash
# Bundles the page's JavaScript (web/main.js and its imports, CodeMirror included) into
# web/app.js with esbuild. The engine (web/pkg/) and the render worker stay separate files.
# Skipped when web/app.js is newer than every source, so a rebuild with nothing changed is instant.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

OUT=web/app.js
ESBUILD="$ROOT/node_modules/.bin/esbuild"
[ -x "$ESBUILD" ] || die "esbuild is missing: run scripts/setup.sh (npm ci installs it)"

if [ -f "$OUT" ] && [ -z "$(find web -maxdepth 1 -name '*.js' ! -name app.js -newer "$OUT" -print -quit)" ] &&
   [ "$OUT" -nt package-lock.json ] && [ "$OUT" -nt scripts/build-web.sh ]; then
  say "$OUT is up to date"
  exit 0
fi
say "esbuild web/main.js → $OUT"
"$ESBUILD" web/main.js --bundle --format=esm --target=es2022 --minify --sourcemap \
  --external:./pkg/tgsi.js --outfile="$OUT" --log-level=warning
