#!/usr/bin/env bash
# Writes web/programs.gen.js, the programs of programs/ as a module (scripts/build-programs.mjs;
# the page, the lessons, widget.html and the tests import it), then bundles the page's JavaScript
# (web/main.js and its imports, CodeMirror included) into web/app.js with esbuild, and the
# "Learn TGSI" page's (web/learn/main.js) into web/learn/app.js.
# The widget's editor (web/widget/edit.js) goes into web/widget/edit.bundle.js.
# The engine (web/pkg/) and the render worker stay separate files.
# Each bundle is skipped when it is newer than every source, so a rebuild with nothing changed is instant.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ESBUILD="$ROOT/node_modules/.bin/esbuild"
[ -x "$ESBUILD" ] || die "esbuild is missing: run scripts/setup.sh (npm ci installs it)"

# fresh OUT DIR...: whether OUT is newer than every .js directly in the DIRs, the lock file and this script.
fresh() {
  local out="$1"; shift
  [ -f "$out" ] || return 1
  local dir
  for dir in "$@"; do
    [ -z "$(find "$dir" -maxdepth 1 -name '*.js' ! -name app.js -newer "$out" -print -quit)" ] || return 1
  done
  [ "$out" -nt package-lock.json ] && [ "$out" -nt scripts/build-web.sh ]
}

# Rewritten only when a program changed, so the bundles below stay fresh otherwise.
say "$(node scripts/build-programs.mjs)"

# (The page's Embed dialog imports the widget's snippets.js.) boot.js, engine.js and render-pool.js
# stay outside the bundle: index.html loads boot.js first, and the bundle must share its module.
if fresh web/app.js web web/widget; then
  say "web/app.js is up to date"
else
  say "esbuild web/main.js → web/app.js"
  "$ESBUILD" web/main.js --bundle --format=esm --target=es2022 --minify --sourcemap \
    --external:./pkg/tgsi.js --external:./boot.js --external:./engine.js --external:./render-pool.js \
    --outfile=web/app.js --log-level=warning
fi

# The learn page imports the editor and the textures from web/ and the engine from web/pkg/.
if fresh web/learn/app.js web web/learn; then
  say "web/learn/app.js is up to date"
else
  say "esbuild web/learn/main.js → web/learn/app.js"
  "$ESBUILD" web/learn/main.js --bundle --format=esm --target=es2022 --minify --sourcemap \
    --external:../pkg/tgsi.js --outfile=web/learn/app.js --log-level=warning
fi

# The widget's editor (web/widget/edit.js: CodeMirror and the playground's TGSI language), which
# <tgsi-shader editable> imports on the first click on "Edit", from next to its own module: a
# bundle, since a browser cannot resolve the editor's package imports (@codemirror/…) itself.
if fresh web/widget/edit.bundle.js web web/widget; then
  say "web/widget/edit.bundle.js is up to date"
else
  say "esbuild web/widget/edit.js → web/widget/edit.bundle.js"
  "$ESBUILD" web/widget/edit.js --bundle --format=esm --target=es2022 --minify --sourcemap \
    --outfile=web/widget/edit.bundle.js --log-level=warning
fi
