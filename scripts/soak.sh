#!/usr/bin/env bash
# Soak test (not part of `npm test`): runs the browser suites many times in a row, with no
# retries, and counts the runs that failed, to measure how often an engine fails where one run
# cannot tell (docs/jit.md, "Not done yet": WebKitGTK's intermittent trap).
#
#   bash scripts/soak.sh [--wasm-runs N] [--e2e-runs N] [--engines "webkit firefox chromium"]
#                        [--wasm-engines LIST] [--e2e-engines LIST] [--wasm-filter FILTER]
#                        [--e2e-files "tests/e2e/a.test.mjs ..."] [--no-build]
#
#   --wasm-runs N     runs of the wasm-bindgen suite (crate/tests/web/) per wasm engine (50)
#   --e2e-runs N      runs of the end-to-end suite (tests/e2e/*.test.mjs) per e2e engine (10)
#   --engines LIST    sets both engine lists below
#   --wasm-engines    engines of the wasm runs (default: webkit)
#   --e2e-engines     engines of the e2e runs (default: chromium firefox webkit)
#   --wasm-filter F   libtest arguments for the wasm runs, e.g. "webkit_trap:: --include-ignored"
#   --e2e-files LIST  the e2e files to run (default: every tests/e2e/*.test.mjs)
#   --no-build        skip the builds (the wasm engine, bundles, CLI) the e2e suite needs
#
# Each run's log goes to test-artifacts/soak/; the closing lines give, per suite and engine,
# the failed runs out of all and the tests that failed in them, then one summary line. The exit
# status is non-zero when any run failed. JSC_<option>=value in the environment reaches
# WebKitGTK's JavaScriptCore, as for `npm test`.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

wasm_runs=50
e2e_runs=10
wasm_engines="webkit"
e2e_engines="chromium firefox webkit"
wasm_filter=""
e2e_files=(tests/e2e/*.test.mjs)
build=true
while [ $# -gt 0 ]; do
  case "$1" in
    --wasm-runs) wasm_runs="${2:?}"; shift 2 ;;
    --e2e-runs) e2e_runs="${2:?}"; shift 2 ;;
    --engines) wasm_engines="${2:?}"; e2e_engines="$2"; shift 2 ;;
    --wasm-engines) wasm_engines="${2:?}"; shift 2 ;;
    --e2e-engines) e2e_engines="${2:?}"; shift 2 ;;
    --wasm-filter) wasm_filter="${2:?}"; shift 2 ;;
    --e2e-files) read -r -a e2e_files <<< "${2:?}"; shift 2 ;;
    --no-build) build=false; shift ;;
    -h | --help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
done
[[ "$wasm_runs" =~ ^[0-9]+$ && "$e2e_runs" =~ ^[0-9]+$ ]] || die "run counts must be whole numbers"
for engine in $wasm_engines $e2e_engines; do
  case "$engine" in chromium | firefox | webkit) ;; *) die "unknown engine '$engine' (chromium, firefox, webkit)" ;; esac
done

LOGS="$ROOT/test-artifacts/soak"
mkdir -p "$LOGS"
browser_tmp="$(mktemp -d "${TMPDIR:-/tmp}/tgsi-soak-XXXXXX")"
trap 'rm -rf "$browser_tmp"' EXIT

# in_engine ENGINE COMMAND...: as in `npm test`: the driver the wasm test runner and the e2e
# tests pick for ENGINE; WebKitGTK's MiniBrowser under a private Xvfb display.
in_engine() {
  local engine="$1"; shift
  case "$engine" in
    chromium) TGSI_BROWSER=chromium "$@" ;;
    firefox) TGSI_BROWSER=firefox GECKODRIVER="$(command -v geckodriver)" "$@" ;;
    webkit) TGSI_BROWSER=webkit SAFARIDRIVER="$WEBKIT_WEBDRIVER_BIN" \
      xvfb-run --auto-servernum --server-args="-screen 0 1920x1200x24 -nolisten tcp" "$@" ;;
  esac
}

if $build && [ "$e2e_runs" -gt 0 ]; then
  say "building what the e2e suite needs"
  { bash scripts/build-wasm.sh && bash scripts/build-web.sh && bash scripts/build-reference.sh &&
    cargo build -p tgsi --bin tgsi; } > "$LOGS/build.log" 2>&1 || die "the build failed (see $LOGS/build.log)"
fi
if [ "$wasm_runs" -gt 0 ]; then
  say "building the wasm test binary"
  cargo wasm-test --no-run > "$LOGS/build-wasm-tests.log" 2>&1 ||
    die "the wasm test binary did not build (see $LOGS/build-wasm-tests.log)"
fi

results=()
details=()
any_failed=false

# soak KIND ENGINE RUNS COMMAND...: runs COMMAND RUNS times in ENGINE; a run fails when it exits
# non-zero. Prints one line per run as it ends and records the suite's result.
soak() {
  local kind="$1" engine="$2" runs="$3"; shift 3
  local failed=0 i log status names started
  local -A failing=()
  for ((i = 1; i <= runs; i++)); do
    log="$LOGS/$kind-$engine-$i.log"
    started=$SECONDS
    TMPDIR="$browser_tmp" in_engine "$engine" "$@" > "$log" 2>&1
    status=$?
    rm -rf "${browser_tmp:?}"/* 2> /dev/null
    if [ "$status" = 0 ]; then
      say "$kind $engine run $i of $runs: passed ($((SECONDS - started)) s)"
      continue
    fi
    failed=$((failed + 1))
    # The failed tests' names: libtest's "test NAME ... FAIL", node --test's "✖ NAME".
    names="$(awk '/^test .* \.\.\. FAIL(ED)?$/ { print $2 }
                  /^✖ failing tests:/ { listed = 1; next }
                  listed && /^✖ / { sub(/^✖ /, ""); sub(/ \([0-9.]+m?s\)$/, ""); print }' "$log" | sort -u)"
    [ -n "$names" ] || names="(no failed test named: exit status $status)"
    while IFS= read -r n; do failing["$n"]=$((${failing["$n"]:-0} + 1)); done <<< "$names"
    say "$kind $engine run $i of $runs: FAILED ($((SECONDS - started)) s; $log): $(echo "$names" | paste -sd ';' -)"
  done
  results+=("$kind-$engine: $failed of $runs runs failed")
  [ "$failed" = 0 ] || any_failed=true
  local n
  for n in "${!failing[@]}"; do details+=("  $kind-$engine: ${failing[$n]}x $n"); done
}

for engine in $wasm_engines; do
  [ "$wasm_runs" -gt 0 ] || break
  # shellcheck disable=SC2086  # the filter is a list of libtest arguments
  soak wasm "$engine" "$wasm_runs" \
    cargo wasm-test --no-fail-fast -- $wasm_filter
done
for engine in $e2e_engines; do
  [ "$e2e_runs" -gt 0 ] || break
  # Two files at a time, as npm test runs them (scripts/run-tests.mjs, E2E_FILES_AT_ONCE).
  # Under the run's session pool, as npm test runs them (tests/e2e/sessions.mjs).
  soak e2e "$engine" "$e2e_runs" node tests/e2e/sessions.mjs -- \
    node --test --test-concurrency=2 --test-reporter=spec "${e2e_files[@]}"
done

echo
echo "== soak =="
echo "machine: $(nproc) cores; $(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
jsc="$(env | grep '^JSC_' | paste -sd ' ' -)"
[ -z "$jsc" ] || echo "JavaScriptCore options: $jsc"
[ "${#details[@]}" = 0 ] || printf '%s\n' "${details[@]}"
echo "soak: $(IFS=';'; echo "${results[*]:-nothing run}" | sed 's/;/; /g')"
! $any_failed
