#!/usr/bin/env bash
# Installs whatever the build and the tests need and is missing; does nothing (quickly) when all
# is present. Usage: scripts/setup.sh [--browser] [--only PART]...
#   always:     the wasm32 Rust target (part `target`), the pinned wasm-bindgen-cli
#               (`wasm-bindgen`), npm dependencies (`npm`)
#   --browser:  the three browser engines of the wasm and end-to-end tests: Debian's chromium and
#               chromium-driver, firefox-esr, webkit2gtk-driver (WebKitGTK's MiniBrowser and
#               WebKitWebDriver) and xvfb (its X display) (`browsers`); geckodriver from crates.io,
#               pinned (`geckodriver`)
#   --only PART: that part alone (repeatable): `npm start` and `npm test` run the parts as separate
#               steps, so that e.g. wasm-bindgen-cli compiles while cargo builds the engine.
#   --only mdbook: mdBook, pinned, into target/tools/bin (the mdbook-tgsi tests build a book
#               with it); only when named, never part of a plain run.
#   --only sphinx-venv: a Python virtual environment in target/docs-venv with Sphinx, pinned
#               (tests/docs-tools/requirements.txt); only when named.
#   --only sphinx: that environment, then sphinx-tgsi/ installed into it from this tree (after
#               scripts/build-package.mjs, whose files it carries); only when named.
# Nothing here downloads binaries from outside the package registries.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

want_browser=false
only=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    --browser) want_browser=true ;;
    --only)
      case "${2:-}" in
        target | wasm-bindgen | npm | browsers | geckodriver | mdbook | sphinx-venv | sphinx) only+=("$2") ;;
        *) die "--only takes target, wasm-bindgen, npm, browsers, geckodriver, mdbook, sphinx-venv or sphinx, not '${2:-}'" ;;
      esac
      shift ;;
    *) die "unknown option '$1' (usage: scripts/setup.sh [--browser] [--only PART]...)" ;;
  esac
  shift
done
# part NAME: whether this run installs NAME.
part() {
  if [ "${#only[@]}" -gt 0 ]; then
    local p
    for p in "${only[@]}"; do [ "$p" = "$1" ] && return 0; done
    return 1
  fi
  case "$1" in browsers | geckodriver) $want_browser ;; mdbook | sphinx-venv | sphinx) false ;; *) true ;; esac
}

command -v cargo >/dev/null || die "cargo is not on PATH: install Rust (rustup) first"
command -v node >/dev/null || die "node is not on PATH: install Node.js 20 or newer first"
command -v npm >/dev/null || die "npm is not on PATH: install npm first"

# 1. The wasm32 target.
if part target && ! rustup target list --installed 2>/dev/null | grep -qx "$WASM_TARGET"; then
  command -v rustup >/dev/null || die "the $WASM_TARGET target is missing and rustup is not available to add it"
  say "adding the Rust target $WASM_TARGET"
  rustup target add "$WASM_TARGET"
fi

# cargo install of the tools below: debug builds (see each) without debug information and without
# incremental state, which nothing reads (mdBook's install: 61 -> 47 CPU-s on two cores,
# docs/perf-log.md, 2026-12-06 08:00 UTC).
cargo_install() { CARGO_PROFILE_DEV_DEBUG=false CARGO_INCREMENTAL=0 cargo install "$@"; }

# 2. wasm-bindgen-cli at exactly the crate's version (it also provides wasm-bindgen-test-runner).
# A debug build, as geckodriver's and mdBook's below: 90 CPU-s to compile against 195 for a
# release build (measured on two cores), which a fresh machine spends while the builds the
# end-to-end runs wait for compete for the cores; it then binds the page's engine in about a
# second instead of 0.3 s and the wasm test binary in 2 s instead of 0.6 s.
pinned="$(wasm_bindgen_version)"
[ -n "$pinned" ] || die "cannot read the pinned wasm-bindgen version from crate/Cargo.toml"
installed_version() { "$1" --version 2>/dev/null | awk '{print $2}'; }
if part wasm-bindgen && { [ "$(installed_version wasm-bindgen)" != "$pinned" ] ||
   [ "$(installed_version wasm-bindgen-test-runner)" != "$pinned" ]; }; then
  say "installing wasm-bindgen-cli $pinned (takes a few minutes the first time)"
  cargo_install wasm-bindgen-cli --version "$pinned" --no-default-features --debug --force
  [ "$(installed_version wasm-bindgen)" = "$pinned" ] ||
    die "wasm-bindgen $pinned was installed but '$(command -v wasm-bindgen)' reports '$(installed_version wasm-bindgen)': check PATH"
fi

# 3. npm dependencies (playwright-core, binaryen's wasm-opt), exactly as package-lock.json says.
if part npm && { [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ] ||
   [ ! -x node_modules/.bin/wasm-opt ]; }; then
  say "installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund
fi

# 4. The browsers and their WebDriver servers, from Debian, only for the browser tests.
debian_packages=()
if part browsers; then
  { [ -x "$CHROMIUM_BIN" ] && [ -x "$CHROMEDRIVER_BIN" ]; } || debian_packages+=(chromium chromium-driver)
  [ -x "$FIREFOX_BIN" ] || debian_packages+=(firefox-esr)
  [ -x "$WEBKIT_WEBDRIVER_BIN" ] || debian_packages+=(webkit2gtk-driver)
  { command -v xvfb-run >/dev/null && command -v xauth >/dev/null; } || debian_packages+=(xvfb xauth)
fi
if [ "${#debian_packages[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    say "installing Debian's ${debian_packages[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y --no-install-recommends "${debian_packages[@]}"
  else
    die "the browser tests need Debian's ${debian_packages[*]}. Install them, e.g.: sudo apt-get install --no-install-recommends ${debian_packages[*]}"
  fi
  for bin in "$CHROMIUM_BIN" "$CHROMEDRIVER_BIN" "$FIREFOX_BIN" "$WEBKIT_WEBDRIVER_BIN"; do
    [ -x "$bin" ] || die "the browser packages were installed but $bin is still missing"
  done
  command -v xvfb-run >/dev/null || die "xvfb was installed but xvfb-run is still missing"
fi

# 5. geckodriver (Firefox's WebDriver server) at exactly GECKODRIVER_VERSION, with the
# dependency versions of its own lock file. A debug build: it only relays the tests' commands,
# and it compiles in about half the CPU time of a release build (98 against 184 CPU-s measured),
# which a fresh machine spends beside the engines' builds.
if part geckodriver && [ "$(geckodriver --version 2>/dev/null | awk 'NR == 1 {print $2}')" != "$GECKODRIVER_VERSION" ]; then
  say "installing geckodriver $GECKODRIVER_VERSION (takes a few minutes the first time)"
  cargo_install geckodriver --version "$GECKODRIVER_VERSION" --locked --debug --force
  [ "$(geckodriver --version 2>/dev/null | awk 'NR == 1 {print $2}')" = "$GECKODRIVER_VERSION" ] ||
    die "geckodriver $GECKODRIVER_VERSION was installed but '$(command -v geckodriver)' reports another version: check PATH"
fi

# 6. mdBook at exactly MDBOOK_VERSION (the mdbook-tgsi preprocessor speaks its 0.4 protocol), in
# target/tools/bin rather than ~/.cargo/bin: only the tests use it. Without its default features
# (the `serve` and `watch` commands, the search index): `mdbook build` is all the tests run. A
# debug build, as geckodriver's: 61 CPU-s against 154 for a release build (measured on two
# cores), and the test books still build in a tenth of a second.
MDBOOK_VERSION=0.4.52
MDBOOK_ROOT="$ROOT/target/tools"
if part mdbook && [ "$("$MDBOOK_ROOT/bin/mdbook" --version 2>/dev/null | awk '{print $2}')" != "v$MDBOOK_VERSION" ]; then
  say "installing mdBook $MDBOOK_VERSION into target/tools (under a minute on two cores)"
  cargo_install mdbook --version "$MDBOOK_VERSION" --locked --no-default-features --debug --root "$MDBOOK_ROOT" --force
  [ "$("$MDBOOK_ROOT/bin/mdbook" --version 2>/dev/null | awk '{print $2}')" = "v$MDBOOK_VERSION" ] ||
    die "mdBook $MDBOOK_VERSION was installed but target/tools/bin/mdbook reports '$("$MDBOOK_ROOT/bin/mdbook" --version 2>&1)'"
fi

# 7. Sphinx for the sphinx-tgsi tests: a virtual environment in target/docs-venv with the pinned
# Sphinx (from PyPI; `sphinx-venv`, which needs nothing of this tree's builds, so `npm test`
# fetches it while the engines build), then sphinx-tgsi from this tree (`sphinx`), reinstalled
# every time (its files change with the package build). Needs python3 with venv and pip.
VENV="$ROOT/target/docs-venv"
if part sphinx-venv || part sphinx; then
  command -v python3 >/dev/null || die "python3 is not on PATH: the sphinx-tgsi tests need Python 3.11 or newer"
  [ -x "$VENV/bin/pip" ] || python3 -m venv "$VENV"
  # The environment keeps a copy of the requirements it was last given: the same file, nothing to do.
  if ! cmp -s "$ROOT/tests/docs-tools/requirements.txt" "$VENV/requirements.txt"; then
    "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$ROOT/tests/docs-tools/requirements.txt"
    cp "$ROOT/tests/docs-tools/requirements.txt" "$VENV/requirements.txt"
  fi
fi
if part sphinx; then
  [ -f "$ROOT/sphinx-tgsi/sphinx_tgsi/assets/tgsi-shader/tgsi-shader.js" ] ||
    die "sphinx-tgsi carries the widget package: run node scripts/build-package.mjs first"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps --no-build-isolation --force-reinstall "$ROOT/sphinx-tgsi"
  # pip builds in the source tree: leave nothing there.
  rm -rf "$ROOT/sphinx-tgsi/build" "$ROOT"/sphinx-tgsi/*.egg-info
  say "Sphinx $("$VENV/bin/python" -c 'import sphinx; print(sphinx.__version__)') and sphinx-tgsi in target/docs-venv"
fi
