# Shared by the scripts in this folder (sourced, not run). Moves to the repository root so every
# script works from any working directory inside the repository.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# The test corpus (tests/corpus/, see its README; the Rust tests know it as `corpus!()`).
CORPUS="$ROOT/tests/corpus"
cd "$ROOT" || exit 1

# `cargo install` puts binaries here; a fresh shell may not have it on PATH yet.
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

WASM_TARGET=wasm32-unknown-unknown
CHROMIUM_BIN=/usr/bin/chromium
CHROMEDRIVER_BIN=/usr/bin/chromedriver
# The other two engines of the browser tests: Debian's Firefox ESR (driven by geckodriver, from
# crates.io at this exact version) and WebKitGTK's MiniBrowser (driven by WebKitWebDriver, from
# Debian's webkit2gtk-driver, under Xvfb).
FIREFOX_BIN=/usr/bin/firefox-esr
GECKODRIVER_VERSION=0.37.1
WEBKIT_WEBDRIVER_BIN=/usr/bin/WebKitWebDriver

if [ -t 1 ]; then BOLD=$'\033[1m' RED=$'\033[1;31m' PLAIN=$'\033[0m'; else BOLD='' RED='' PLAIN=''; fi
say() { printf '%s[%s]%s %s\n' "$BOLD" "$(basename "$0" .sh)" "$PLAIN" "$*"; }
die() { printf '%s[%s] error:%s %s\n' "$RED" "$(basename "$0" .sh)" "$PLAIN" "$*" >&2; exit 1; }

# The exact wasm-bindgen version the crate pins (crate and CLI must match, or wasm-bindgen
# refuses the module with a "schema version" error).
wasm_bindgen_version() {
  sed -n 's/^wasm-bindgen *= *"=\([0-9.]*\)".*/\1/p' "$ROOT/crate/Cargo.toml" | head -n 1
}
