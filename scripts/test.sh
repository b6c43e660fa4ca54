#!/usr/bin/env bash
# `npm test`: install what is missing (the browsers included), build the engine, then run, in order,
#   1. lints: rustfmt, clippy (native and wasm32, warnings are errors), tsc --noEmit on web/
#   2. native `cargo test` (whole workspace)
#   3. wasm-bindgen tests (crate/tests/web/) in each browser engine: Chromium (chromedriver),
#      Firefox ESR (geckodriver), WebKitGTK (WebKitWebDriver under Xvfb)
#   4. end-to-end tests (tests/e2e/*.test.mjs, node --test) against a real server, in each engine:
#      Chromium through playwright-core, Firefox and WebKitGTK through tests/e2e/webdriver.mjs
# TGSI_BROWSERS="chromium firefox" (say) runs steps 3 and 4 in fewer engines; the default is all three.
# Every runner runs even when an earlier one fails, so the summary is complete; the exit status
# is non-zero when anything failed. Full logs go to test-artifacts/.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

LOGS="$ROOT/test-artifacts"
mkdir -p "$LOGS"
summary=()
total_passed=0
total_failed=0
total_skipped=0

# record NAME EXIT_STATUS PASSED FAILED SKIPPED: one summary line; a runner that exited non-zero
# without reporting a failed test (compile error, crash, time-out) counts as one failure.
record() {
  local name="$1" status="$2" passed="$3" failed="$4" skipped="$5" note=""
  if [ "$status" != 0 ] && [ "$failed" = 0 ]; then
    failed=1
    note="  (exited with status $status before reporting a failed test; see test-artifacts/$name.log)"
  fi
  if [ "$status" = 0 ] && [ "$passed" = 0 ] && [ "$failed" = 0 ]; then
    failed=1
    note="  (ran no test)"
  fi
  summary+=("$name: $passed passed, $failed failed, $skipped skipped$note")
  total_passed=$((total_passed + passed))
  total_failed=$((total_failed + failed))
  total_skipped=$((total_skipped + skipped))
}

# Sums libtest's "test result: ... N passed; M failed; K ignored" lines of a log.
libtest_counts() {
  awk '/^test result:/ {
         for (i = 1; i <= NF; i++) {
           if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i; if ($(i+1) ~ /^ignored/) s += $i
         }
       } END { printf "%d %d %d\n", p, f, s }' "$1"
}

# node --test's closing counts ("ℹ pass N" with the spec reporter, "# pass N" with TAP).
node_test_counts() {
  awk '$1 ~ /^(ℹ|#)$/ && $2 == "pass" { p = $3 } $1 ~ /^(ℹ|#)$/ && $2 == "fail" { f = $3 }
       $1 ~ /^(ℹ|#)$/ && ($2 == "skipped" || $2 == "todo" || $2 == "cancelled") { s += $3 }
       END { printf "%d %d %d\n", p, f, s }' "$1"
}

# Why a runner failed, in a few lines: each failed test's name and the first lines of its panic
# or assertion, so the end of the output says what broke even when the log above is long.
failures=()
why_failed() {
  local name="$1" log="$2" label="${3:-$1}"
  failures+=("-- $label (full log: test-artifacts/${log##*/})")
  local lines
  # A browser's stack keeps its first three wasm frames (function names only): where a trap was.
  lines="$(grep -E -A8 '^---- .* ----$|^not ok|^✖|^error(\[|:)|Failed to detect|driver status' "$log" \
    | grep -v -E '^\s*(at |Stack:|$)|@http|^--$' \
    | awk '/^---- / { frames = 0 } /wasm-function/ { if (++frames > 3) next; sub(/@[^ ]*wasm-function.*$/, "") } { print }' \
    | head -40)"
  failures+=("${lines:-  (no failure message found)}")
}

# run NAME COUNTER COMMAND...: runs a runner with its output shown and logged, then records it.
run() {
  local name="$1" counter="$2"; shift 2
  say "running $name: $*"
  "$@" 2>&1 | tee "$LOGS/$name.log"
  local status="${PIPESTATUS[0]}"
  [ "$status" = 0 ] || why_failed "$name" "$LOGS/$name.log"
  # shellcheck disable=SC2046
  record "$name" "$status" $("$counter" "$LOGS/$name.log")
}

# run_twice NAME COUNTER RERUN_IF COMMAND...: as run, but a failed runner whose first log
# satisfies `RERUN_IF LOG` runs once more and only its second result counts; the first run's
# failures stay in the closing list, marked as such, so a flaky engine is seen, never hidden.
# RERUN_IF is `any_failure` for the wasm tests in Chromium and Firefox (their test runner has
# failed once on a CI machine where the same binary passes every time here) and
# `only_browser_crashes` for the end-to-end tests (WebKitGTK's web process has died now and
# then under the suite, a SIGKILL in code the failing test does not touch, and passed the same
# test at once when run again; WebKitWebDriver has now and then answered a script call with
# "Could not parse script result" before the test had drawn anything, and the same file passed
# three runs out of three right after); any other failure counts at once.
run_twice() {
  local name="$1" counter="$2" rerun_if="$3"; shift 3
  say "running $name: $*"
  "$@" 2>&1 | tee "$LOGS/$name.first.log"
  local status="${PIPESTATUS[0]}"
  if [ "$status" != 0 ] && "$rerun_if" "$LOGS/$name.first.log"; then
    run_again "$name" "$counter" "$@"
    return
  fi
  mv "$LOGS/$name.first.log" "$LOGS/$name.log"
  [ "$status" = 0 ] || why_failed "$name" "$LOGS/$name.log"
  # shellcheck disable=SC2046
  record "$name" "$status" $("$counter" "$LOGS/$name.log")
}

# any_failure LOG: true (every failure is worth a second run).
any_failure() { true; }

# only_browser_crashes LOG: true when node --test's list of failing tests is not empty and each
# of them says the browser's page crashed, hung or was closed under it, or that the WebDriver
# server could not read back a script's result (a driver fault, not the page's).
only_browser_crashes() {
  awk '/^✖ failing tests:/ { listed = 1; next }
       listed && /^test at / { n++ }
       listed && n && /page crash|session deleted|WebProcess CRASHED|Target crashed|browser has been closed|Could not parse script result/ { crashed[n] = 1 }
       END { for (i = 1; i <= n; i++) if (!crashed[i]) exit 1; exit n > 0 ? 0 : 1 }' "$1"
}

# run_again NAME COUNTER COMMAND...: after a failed first run (its log NAME.first.log), lists
# that failure and runs the runner once more in full; only the second result counts.
run_again() {
  local name="$1" counter="$2"; shift 2
  why_failed "$name" "$LOGS/$name.first.log" "$name (first run; it runs again)"
  run "$name" "$counter" "$@"
  summary[-1]="${summary[-1]}  (second run; the first failed: see the failures below)"
}

# run_rerunning_failed NAME COMMAND...: for the wasm tests in WebKitGTK. As run, but each test
# that fails runs again alone, in a fresh page (the runner given its exact name): up to twice as
# the browser is, then, if it fails again, up to twice with JavaScriptCore's optimizing tier
# (OMG) off. A test that passes there counts as passed; every failure before stays in the
# failure list, marked, with the attempt that passed. Why: JavaScriptCore traps now and then inside the
# engine's own safe code, early in a page's life, where Chromium and Firefox pass the same
# bytes every time (docs/jit.md, "Not done yet"); WebAssembly is deterministic, so a test whose
# code is wrong fails in every page and every tier. A runner that dies without naming a failed
# test runs once more in full, and the tests that fail in that run run again alone as above.
run_rerunning_failed() {
  local name="$1"; shift
  say "running $name: $*"
  "$@" 2>&1 | tee "$LOGS/$name.first.log"
  local status="${PIPESTATUS[0]}"
  local counts
  counts="$(libtest_counts "$LOGS/$name.first.log")"
  if [ "$status" = 0 ]; then
    mv "$LOGS/$name.first.log" "$LOGS/$name.log"
    # shellcheck disable=SC2086
    record "$name" 0 $counts
    return
  fi
  local failed_tests
  failed_tests="$(awk '/^test .* \.\.\. FAIL(ED)?$/ { print $2 }' "$LOGS/$name.first.log")"
  local which_run="first run"
  if [ -z "$failed_tests" ]; then
    which_run="second run"
    # The runner died without naming a failed test (WebKitGTK's web process crashed): it runs
    # once more in full, and the tests that fail in that run go on as below.
    mv "$LOGS/$name.first.log" "$LOGS/$name.died.log"
    why_failed "$name" "$LOGS/$name.died.log" "$name (first run: it died without naming a failed test; it runs again in full)"
    say "running $name again: $*"
    "$@" 2>&1 | tee "$LOGS/$name.first.log"
    status="${PIPESTATUS[0]}"
    counts="$(libtest_counts "$LOGS/$name.first.log")"
    failed_tests="$(awk '/^test .* \.\.\. FAIL(ED)?$/ { print $2 }' "$LOGS/$name.first.log")"
    if [ "$status" = 0 ] || [ -z "$failed_tests" ]; then
      mv "$LOGS/$name.first.log" "$LOGS/$name.log"
      [ "$status" = 0 ] || why_failed "$name" "$LOGS/$name.log"
      # shellcheck disable=SC2086
      record "$name" "$status" $counts
      summary[-1]="${summary[-1]}  (second run; the first died: see the failures below)"
      return
    fi
  fi
  why_failed "$name" "$LOGS/$name.first.log" "$name ($which_run; each failed test runs again alone)"
  local passed failed skipped test rerun_note="" still_failing=0
  read -r passed failed skipped <<< "$counts"
  : > "$LOGS/$name.log"
  # alone COMMAND...: the failed test $test alone in a fresh page; true when it passes.
  alone() { "$@" -- --exact "$test" 2>&1 | tee -a "$LOGS/$name.log" | grep -q '^test result: ok\. 1 passed'; }
  for test in $failed_tests; do
    local passed_on=""
    local attempt
    for attempt in 1 2; do
      say "running $test again alone in WebKitGTK (attempt $attempt of 2)"
      if alone "$@"; then
        passed_on="alone, in a fresh page (attempt $attempt)"
        break
      fi
    done
    for attempt in 1 2; do
      [ -n "$passed_on" ] && break
      say "running $test again alone with JavaScriptCore's OMG tier off (attempt $attempt of 2)"
      if JSC_useOMGJIT=false alone "$@"; then
        passed_on="alone, with JavaScriptCore's OMG tier off (attempt $attempt; it failed alone twice with it on)"
      fi
    done
    if [ -n "$passed_on" ]; then
      passed=$((passed + 1))
      failed=$((failed - 1))
      failures+=("   $test passed when run again $passed_on")
    else
      still_failing=$((still_failing + 1))
      failures+=("   $test failed again alone, twice with and twice without the OMG tier (test-artifacts/$name.log)")
    fi
  done
  [ "$still_failing" = 0 ] && rerun_note="  (failed tests passed when run again alone: see the failures below)"
  # A runner that failed for another reason as well keeps a failure of its own.
  [ "$still_failing" = 0 ] && [ "$failed" = 0 ] && status=0
  record "$name" "$status" "$passed" "$failed" "$skipped"
  summary[-1]="${summary[-1]}$rerun_note"
}

# 0. Set-up and build. Without them the runners cannot run: stop here.
bash scripts/setup.sh --browser || die "set-up failed (see above)"
build_ok=true
bash scripts/build-wasm.sh 2>&1 | tee "$LOGS/build-wasm.log"
[ "${PIPESTATUS[0]}" = 0 ] || build_ok=false
bash scripts/build-web.sh 2>&1 | tee "$LOGS/build-web.log"
[ "${PIPESTATUS[0]}" = 0 ] || build_ok=false
bash scripts/build-reference.sh 2>&1 | tee "$LOGS/build-reference.log"
[ "${PIPESTATUS[0]}" = 0 ] || build_ok=false
# The e2e tests compare the page with the command-line renderer: build it.
cargo build -p tgsi --bin tgsi 2>&1 | tee "$LOGS/build-cli.log"
[ "${PIPESTATUS[0]}" = 0 ] || build_ok=false

# Browsers leave their profiles in TMPDIR (about 13 MB per wasm test run): give them a private
# one and remove it at the end.
browser_tmp="$(mktemp -d "${TMPDIR:-/tmp}/tgsi-test-XXXXXX")"
trap 'rm -rf "$browser_tmp"' EXIT

# 1. Lints: formatting and clippy (every target, warnings are errors). Counted as one runner
# with one check per tool.
lint_passed=0
lint_failed=0
lint() {
  local name="$1"; shift
  say "lint: $*"
  if "$@" 2>&1 | tee -a "$LOGS/lint.log"; then
    lint_passed=$((lint_passed + 1))
  else
    lint_failed=$((lint_failed + 1))
    say "lint failed: $name"
  fi
}
: > "$LOGS/lint.log"
lint rustfmt cargo fmt --all --check
lint clippy cargo clippy --workspace --all-targets -- -D warnings
lint clippy-wasm cargo clippy -p tgsi --target "$WASM_TARGET" --lib --tests -- -D warnings
lint clippy-widget cargo clippy -p tgsi --target "$WASM_TARGET" --lib --no-default-features -- -D warnings
# The page's JavaScript: every module is `// @ts-check`ed against its JSDoc types (pinned
# TypeScript from package-lock.json; web/pkg's .d.ts come from the wasm build above).
lint tsc node_modules/.bin/tsc --noEmit -p .
summary+=("lint: $lint_passed passed, $lint_failed failed, 0 skipped")
total_passed=$((total_passed + lint_passed))
total_failed=$((total_failed + lint_failed))

# 2. Native tests.
run cargo libtest_counts cargo test --workspace --no-fail-fast

BROWSERS="${TGSI_BROWSERS:-chromium firefox webkit}"
for engine in $BROWSERS; do
  case "$engine" in chromium | firefox | webkit) ;; *) die "TGSI_BROWSERS: unknown engine '$engine' (chromium, firefox, webkit)" ;; esac
done

# in_engine ENGINE COMMAND...: runs a command with what the wasm test runner and the e2e tests
# need to use ENGINE. wasm-bindgen-test-runner picks the first driver named in its environment
# (GECKODRIVER before SAFARIDRIVER before CHROMEDRIVER, which .cargo/config.toml sets);
# WebKitWebDriver speaks Safari's dialect of WebDriver and starts WebKitGTK's MiniBrowser, which
# needs an X display: xvfb-run gives it a private one on a free display number.
in_engine() {
  local engine="$1"; shift
  case "$engine" in
    chromium) TGSI_BROWSER=chromium "$@" ;;
    firefox) TGSI_BROWSER=firefox GECKODRIVER="$(command -v geckodriver)" "$@" ;;
    webkit) TGSI_BROWSER=webkit SAFARIDRIVER="$WEBKIT_WEBDRIVER_BIN" \
      xvfb-run --auto-servernum --server-args="-screen 0 1920x1200x24 -nolisten tcp" "$@" ;;
  esac
}

# 3. wasm-bindgen tests in each engine (runner and browser settings in .cargo/config.toml and
# webdriver.json). Only the web target: the native test binary compiles to nothing on wasm32.
for engine in $BROWSERS; do
  if [ "$engine" = webkit ]; then
    TMPDIR="$browser_tmp" run_rerunning_failed "wasm-$engine" \
      in_engine "$engine" cargo test -p tgsi --target "$WASM_TARGET" --no-fail-fast --test web
  else
    TMPDIR="$browser_tmp" run_twice "wasm-$engine" libtest_counts any_failure \
      in_engine "$engine" cargo test -p tgsi --target "$WASM_TARGET" --no-fail-fast --test web
  fi
done

# 4. End-to-end tests against the built page, in each engine. serve.test.mjs (the server),
# state.test.mjs (the share-link format), vertices-format.test.mjs (the vertex editor's text),
# links.test.mjs (the pages' links) and textures-builtin.test.mjs (the built-in textures' data)
# need no browser: they run once, with Chromium's suite.
if $build_ok; then
  for engine in $BROWSERS; do
    files=()
    for f in tests/e2e/*.test.mjs; do
      case "$f" in
        tests/e2e/serve.test.mjs | tests/e2e/state.test.mjs | tests/e2e/vertices-format.test.mjs | tests/e2e/links.test.mjs | tests/e2e/textures-builtin.test.mjs) [ "$engine" = chromium ] && files+=("$f") ;;
        *) files+=("$f") ;;
      esac
    done
    TMPDIR="$browser_tmp" run_twice "e2e-$engine" node_test_counts only_browser_crashes \
      in_engine "$engine" node --test --test-reporter=spec "${files[@]}"
  done
else
  say "skipping e2e: the wasm build failed"
  summary+=("e2e: 0 passed, 1 failed, 0 skipped  (not run: the wasm build failed; see test-artifacts/build-wasm.log)")
  total_failed=$((total_failed + 1))
fi

echo
echo "== summary =="
# The machine, for failures that depend on it (a browser engine's code differs by CPU features).
echo "machine: $(nproc) cores; $(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); $(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -x -E 'sse4_2|avx|avx2|avx512f' | tr '\n' ' ')"
printf '%s\n' "${summary[@]}"
echo "total: $total_passed passed, $total_failed failed, $total_skipped skipped"
if [ "${#failures[@]}" != 0 ]; then
  echo
  echo "== failures =="
  printf '%s\n' "${failures[@]}"
fi
[ "$total_failed" = 0 ]
