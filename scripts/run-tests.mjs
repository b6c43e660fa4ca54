// @ts-check
// `npm test` (scripts/test.sh runs this after nothing else): builds what the runners need, each
// artefact once, then runs every runner once and prints one line per runner, the total, the
// machine and the failures. CI judges by the lines `NAME: N passed, N failed, N skipped` and
// `total: N passed, N failed, N skipped`; the exit status is 1 when anything failed.
//
// Builds (steps.mjs: independent steps side by side, one progress line each):
//   set-up parts (scripts/setup.sh --only …: the Rust target, npm, wasm-bindgen-cli, the
//   browsers, geckodriver), the two engines (scripts/build-wasm.sh), the page's bundles
//   (build-web.sh), `cargo build --bin tgsi` (target/debug/tgsi, the CLI the end-to-end tests
//   compare with and the reference is written by), `cargo test --no-run` (the native test
//   binaries), the opcode reference (build-reference.sh --cli target/debug/tgsi), the wasm
//   test binary, the npm package (build-package.mjs: dist/tgsi-shader), mdBook (setup.sh --only
//   mdbook: target/tools/bin/mdbook) and the mdBook preprocessor that embeds the package
//   (`cargo build -p mdbook-tgsi`: target/debug/mdbook-tgsi), which tests/e2e/node/mdbook.test.mjs
//   and tests/e2e/mdbook.test.mjs build the sample book with, and Sphinx with sphinx-tgsi
//   (setup.sh --only sphinx-venv, then --only sphinx: target/docs-venv) for tests/e2e/{node/sphinx-build,sphinx}.test.mjs.
// Runners, in three lanes that run side by side (TGSI_LANES=1: one after the other):
//   spare:    lint-rust (rustfmt, clippy native / wasm32 / widget, in target/lint: it starts at
//             once, at the lowest CPU priority, in a lane of its own so that it holds up no
//             other runner)
//   cpu:      lint-web (tsc, lint-paths), e2e-node (tests/e2e/node/: no browser),
//             wasm-ENGINE for each engine (crate/tests/web/ in the browser,
//             wasm-bindgen-test-runner: 10–20 s each), cargo (native `cargo test --workspace`)
//   browsers: e2e-ENGINE for each engine (tests/e2e/*.test.mjs against a real server, two
//             files at a time; in Firefox and WebKitGTK the files share one pool of browsers,
//             tests/e2e/sessions.mjs)
// The e2e runs, the longest, start as soon as the engines, the bundles, the CLI, the reference,
// the package, mdBook, mdbook-tgsi and Sphinx are built; the wasm test binary and the native tests are
// built after those, and their runs wait until only the last e2e engine's run is left. Only one
// e2e engine runs at a time.
// Every runner runs once, even after an earlier one failed; a failure fails. A runner that exits
// non-zero without a counted failure counts as one failure, one that ran no test as one failure.
//
// Environment: TGSI_BROWSERS="chromium firefox webkit" (the engines, default all three),
// TGSI_RUNNERS="lint cargo" (only these runners or groups: lint (lint-rust and lint-web), cargo, e2e-node, wasm, e2e,
// or a runner's full name such as wasm-chromium; default all), TGSI_LANES=1 (no side by side).

import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, runLogged, runSteps, seconds } from './steps.mjs';

// JavaScriptCore (WebKitGTK 2.50.6) now and then faults inside the engine's own safe code when
// it compiles wasm on its background threads while the module runs (docs/webkit-trap/README.md,
// "Which tier": with concurrent compilation off, 0 of 78 runs of the whole wasm suite failed,
// against 17 of 164 with it on). The WebKitGTK wasm runner turns that off; a page cannot, so the
// page keeps replacing a worker that faults (docs/playground.md). No runner is ever run again.
const WEBKIT_WASM_JSC = { JSC_useConcurrentJIT: 'false' };

/**
 * A command at the lowest CPU priority (`nice -n 19`): work nothing waits for until the end (the
 * lints) takes only the CPU time the builds the e2e runs wait for leave idle, instead of an
 * equal share of the two cores.
 * @param {string[]} command
 */
const spare = (command) => (existsSync('/usr/bin/nice') || existsSync('/bin/nice') ? ['nice', '-n', '19', ...command] : command);

const LOGS = path.join(ROOT, 'test-artifacts');
/** How many e2e files of one engine run side by side (see the e2e runners). */
const E2E_FILES_AT_ONCE = 2;
const WASM_TARGET = 'wasm32-unknown-unknown';
const WEBKIT_WEBDRIVER_BIN = '/usr/bin/WebKitWebDriver';
const ENGINES = ['chromium', 'firefox', 'webkit'];
const XVFB = ['xvfb-run', '--auto-servernum', '--server-args=-screen 0 1920x1200x24 -nolisten tcp'];

/**
 * @typedef {'libtest' | 'node' | 'checks'} Counter
 * @typedef {object} Runner
 * @property {string} name
 * @property {'spare' | 'cpu' | 'browsers'} lane
 * @property {string[]} needs        build steps that must have succeeded
 * @property {Counter} counter       how its log is counted
 * @property {() => string[][]} [commands]  for `checks`: one command per check
 * @property {() => string[]} [command]     otherwise: the command
 * @property {Record<string, string>} [env]
 * @property {string} [engine]       the browser engine it drives
 * @property {boolean} [besideLastE2e]  starts only once every e2e run but the last has ended
 *                                   (see `main`)
 *
 * @typedef {object} Counts
 * @property {number} passed
 * @property {number} failed
 * @property {number} skipped
 *
 * @typedef {object} Outcome
 * @property {string} name
 * @property {Counts} counts
 * @property {number} seconds
 * @property {string[]} notes      appended to its summary line
 * @property {string[]} failures   its part of the failure list
 */

/** @param {string} file */
function read(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** Sums libtest's `test result: … N passed; M failed; K ignored` lines. @param {string} text @returns {Counts} */
export function libtestCounts(text) {
  const c = { passed: 0, failed: 0, skipped: 0 };
  for (const line of text.split('\n')) {
    if (!line.startsWith('test result:')) continue;
    for (const [, n, what] of line.matchAll(/(\d+) (passed|failed|ignored)/g)) {
      c[what === 'ignored' ? 'skipped' : /** @type {'passed' | 'failed'} */ (what)] += Number(n);
    }
  }
  return c;
}

/** node --test's closing counts (`ℹ pass N` with the spec reporter, `# pass N` with TAP). @param {string} text @returns {Counts} */
export function nodeTestCounts(text) {
  const c = { passed: 0, failed: 0, skipped: 0 };
  for (const line of text.split('\n')) {
    const m = /^(?:ℹ|#) (pass|fail|skipped|todo|cancelled) (\d+)\s*$/.exec(line);
    if (!m) continue;
    if (m[1] === 'pass') c.passed = Number(m[2]);
    else if (m[1] === 'fail') c.failed = Number(m[2]);
    else c.skipped += Number(m[2]);
  }
  return c;
}

/**
 * Why a runner failed, in a few lines: each failed test's name and the first lines of its panic
 * or assertion. A browser's stack keeps its first three wasm frames (names only): where a trap was.
 * @param {string} text
 * @returns {string[]}
 */
export function failureLines(text) {
  const lines = text.split('\n');
  const start = /^---- .* ----$|^not ok|^✖|^error(\[|:)|Failed to detect|driver status/;
  const drop = /^\s*(at |Stack:|$)|@http|^--$/;
  /** @type {Set<number>} */
  const keep = new Set();
  lines.forEach((line, i) => {
    if (start.test(line)) for (let j = i; j <= i + 8 && j < lines.length; j++) keep.add(j);
  });
  const out = [];
  let frames = 0;
  for (const i of [...keep].sort((a, b) => a - b)) {
    let line = lines[i];
    if (drop.test(line)) continue;
    if (line.startsWith('---- ')) frames = 0;
    if (line.includes('wasm-function')) {
      if (++frames > 3) continue;
      line = line.replace(/@[^ ]*wasm-function.*$/, '');
    }
    out.push(line);
    if (out.length >= 40) break;
  }
  return out;
}

/** @param {string} engine @returns {Record<string, string>} */
function engineEnv(engine) {
  /** @type {Record<string, string>} */
  const env = { TGSI_BROWSER: engine };
  if (engine === 'firefox') env.GECKODRIVER = which('geckodriver') ?? 'geckodriver';
  if (engine === 'webkit') env.SAFARIDRIVER = WEBKIT_WEBDRIVER_BIN;
  return env;
}

/** @param {string} engine @param {string[]} command */
function inEngine(engine, command) {
  // WebKitWebDriver starts WebKitGTK's MiniBrowser, which needs an X display: xvfb-run gives it
  // a private one on a free display number.
  return engine === 'webkit' ? [...XVFB, ...command] : command;
}

/** @param {string} name @returns {string | undefined} */
function which(name) {
  const dirs = [path.join(process.env.CARGO_HOME ?? path.join(os.homedir(), '.cargo'), 'bin'), ...(process.env.PATH ?? '').split(':')];
  return dirs.map((d) => path.join(d, name)).find((p) => existsSync(p));
}

/** The wasm test binary the build step built: cargo names it in its JSON messages (in the step's log). @param {string} log */
function wasmTestBinary(log) {
  for (const line of read(log).split('\n').reverse()) {
    if (!line.startsWith('{')) continue;
    const msg = JSON.parse(line);
    if (msg.reason === 'compiler-artifact' && msg.target?.name === 'web' && msg.executable) return /** @type {string} */ (msg.executable);
  }
  throw new Error(`cargo did not name the wasm test binary (${path.relative(ROOT, log)})`);
}

/** The e2e files that drive a browser (tests/e2e/node/ holds the ones that do not). */
function e2eFiles() {
  return readdirSync(path.join(ROOT, 'tests/e2e')).filter((f) => f.endsWith('.test.mjs')).sort().map((f) => `tests/e2e/${f}`);
}

function nodeFiles() {
  return readdirSync(path.join(ROOT, 'tests/e2e/node')).filter((f) => f.endsWith('.test.mjs')).sort().map((f) => `tests/e2e/node/${f}`);
}

// ---------------------------------------------------------------------------------------------
// What runs.

const browsers = (process.env.TGSI_BROWSERS ?? ENGINES.join(' ')).split(/[\s,]+/).filter(Boolean);
for (const b of browsers) {
  if (!ENGINES.includes(b)) {
    console.error(`TGSI_BROWSERS: unknown engine '${b}' (${ENGINES.join(', ')})`);
    process.exit(2);
  }
}
const withoutSiblings = existsSync(path.join(ROOT, 'scripts/without-siblings.sh')) ? ['bash', 'scripts/without-siblings.sh'] : [];

/** @type {Runner[]} */
const RUNNERS = [
  {
    // Clippy checks in a target folder of its own, so it needs no other build and takes no lock
    // the builds hold: it starts at once, at the lowest priority (`spare`), so that it fills the
    // cores the builds the e2e runs wait for leave idle (LTO, wasm-bindgen, wasm-opt) without
    // slowing them.
    name: 'lint-rust', lane: 'spare', counter: 'checks', needs: ['target'],
    env: { CARGO_TARGET_DIR: path.join(ROOT, 'target', 'lint') },
    commands: () => [
      ['cargo', 'fmt', '--all', '--check'],
      spare(['cargo', 'clippy', '--workspace', '--all-targets', '--', '-D', 'warnings']),
      spare(['cargo', 'clippy', '-p', 'tgsi', '--target', WASM_TARGET, '--lib', '--tests', '--', '-D', 'warnings']),
      spare(['cargo', 'clippy', '-p', 'tgsi', '--target', WASM_TARGET, '--lib', '--no-default-features', '--', '-D', 'warnings']),
    ],
  },
  {
    // `web` writes web/programs.gen.js, which the modules import.
    name: 'lint-web', lane: 'cpu', counter: 'checks', needs: ['npm', 'page-bind', 'widget-bind', 'web'],
    commands: () => [
      // Every web module is `// @ts-check`ed against its JSDoc types (web/pkg's .d.ts come from
      // the engine's build); so are the build and test scripts (scripts/tsconfig.json, Node's types).
      ['node_modules/.bin/tsc', '--noEmit', '-p', '.'],
      ['node_modules/.bin/tsc', '--noEmit', '-p', 'scripts'],
      ...(existsSync(path.join(ROOT, 'scripts/lint-paths.mjs')) ? [['node', 'scripts/lint-paths.mjs']] : []),
    ],
  },
  {
    name: 'e2e-node', lane: 'cpu', counter: 'node', needs: ['npm', 'page-bind', 'widget-bind', 'web', 'reference', 'mdbook', 'mdbook-tgsi', 'sphinx'],
    command: () => ['node', '--test', '--test-reporter=spec', ...nodeFiles()],
  },
  ...browsers.map((engine) => /** @type {Runner} */ ({
    // In the cpu lane, beside the browser lane's e2e runs: short runs (10–20 s each) that need
    // only the wasm test binary, while that lane's e2e runs need the whole page.
    name: `wasm-${engine}`, lane: 'cpu', counter: 'libtest', engine, besideLastE2e: true,
    needs: ['wasm-tests', 'wasm-bindgen-cli', 'browsers', ...(engine === 'firefox' ? ['geckodriver'] : [])],
    // The binary cargo built, run as `cargo test` would run it (its runner and environment are
    // in .cargo/config.toml), without taking cargo's lock while the other lane builds.
    command: () => inEngine(engine, ['wasm-bindgen-test-runner', wasmBinary]),
    env: {
      ...engineEnv(engine),
      ...(engine === 'webkit' ? WEBKIT_WASM_JSC : {}),
      CHROMEDRIVER: '/usr/bin/chromedriver',
      WASM_BINDGEN_TEST_WEBDRIVER_JSON: path.join(ROOT, 'webdriver.json'),
      WASM_BINDGEN_TEST_TIMEOUT: '120',
    },
  })),
  {
    // The native test binaries are the last build: the cpu lane's last runner.
    name: 'cargo', lane: 'cpu', counter: 'libtest', needs: ['native-tests'], besideLastE2e: true,
    command: () => [...withoutSiblings, 'cargo', 'test', '--workspace', '--no-fail-fast'],
  },
  ...browsers.map((engine) => /** @type {Runner} */ ({
    name: `e2e-${engine}`, lane: 'browsers', counter: 'node', engine,
    needs: ['npm', 'page-bind', 'widget-bind', 'web', 'reference', 'cli', 'browsers', 'mdbook', 'mdbook-tgsi', 'sphinx', ...(engine === 'firefox' ? ['geckodriver'] : [])],
    // Two files at a time: a file spends most of its time waiting on its page (debounces,
    // frames, workers), so two keep the cores busier; each file has its own server. Under
    // tests/e2e/sessions.mjs: in Firefox and WebKitGTK every file leases its browsers from one
    // pool for the whole run instead of starting its own (Chromium's files launch their own).
    command: () => inEngine(engine, ['node', 'tests/e2e/sessions.mjs', '--',
      'node', '--test', `--test-concurrency=${E2E_FILES_AT_ONCE}`, '--test-reporter=spec', ...e2eFiles()]),
    env: engineEnv(engine),
  })),
];

/** @type {import('./steps.mjs').Step[]} */
const BUILD_STEPS = [
  { id: 'target', label: 'rustup target wasm32-unknown-unknown', command: ['bash', 'scripts/setup.sh', '--only', 'target'] },
  { id: 'npm', label: 'npm ci', command: ['bash', 'scripts/setup.sh', '--only', 'npm'] },
  { id: 'wasm-bindgen-cli', label: 'cargo install wasm-bindgen-cli', command: ['bash', 'scripts/setup.sh', '--only', 'wasm-bindgen'] },
  { id: 'browsers', label: "Debian's browsers and drivers", command: ['bash', 'scripts/setup.sh', '--only', 'browsers'] },
  // Only Firefox's runs need it, and they come after Chromium's: it starts once the CLI (the
  // slowest of the builds the e2e runs wait for) is built. (At the lowest priority from the
  // start instead, it got so little of the cores that the Firefox runs waited for it.)
  { id: 'geckodriver', label: 'cargo install geckodriver', command: ['bash', 'scripts/setup.sh', '--only', 'geckodriver'], after: ['cli'] },
  { id: 'page-cargo', label: 'cargo build (wasm32, page engine)', command: ['bash', 'scripts/build-wasm.sh', 'page', '--cargo-only'], needs: ['target'] },
  { id: 'widget-cargo', label: 'cargo build (wasm32, widget engine)', command: ['bash', 'scripts/build-wasm.sh', 'widget', '--cargo-only'], needs: ['target'], after: ['page-cargo'] },
  { id: 'page-bind', label: 'wasm-bindgen + wasm-opt (page engine)', command: ['bash', 'scripts/build-wasm.sh', 'page', '--bind-only'], needs: ['page-cargo', 'wasm-bindgen-cli', 'npm'] },
  { id: 'widget-bind', label: 'wasm-bindgen + wasm-opt (widget engine)', command: ['bash', 'scripts/build-wasm.sh', 'widget', '--bind-only'], needs: ['widget-cargo', 'wasm-bindgen-cli', 'npm'] },
  { id: 'web', label: 'esbuild (page bundles)', command: ['bash', 'scripts/build-web.sh'], needs: ['npm'] },
  // target/debug/tgsi, the CLI the end-to-end tests compare with and the reference is written
  // by, before the native test binaries, so that neither waits for those; `cargo test` reuses it.
  // It starts at once, beside the engines' builds: cargo locks the profile directories a build
  // writes (target/debug for the CLI; target/release or target/widget and their wasm32 twins for
  // the engines), not the whole folder, so they do not wait for each other, and the CLI's many
  // crates fill the cores the engines' single-threaded LTO leaves idle.
  { id: 'cli', label: 'cargo build --bin tgsi (target/debug/tgsi)', command: ['cargo', 'build', '-p', 'tgsi', '--bin', 'tgsi'] },
  { id: 'native-tests', label: 'cargo test --workspace --no-run', command: ['cargo', 'test', '--workspace', '--no-run'], after: ['wasm-tests'] },
  { id: 'reference', label: 'opcode reference (target/debug/tgsi reference)', command: ['bash', 'scripts/build-reference.sh', '--cli', 'target/debug/tgsi'], needs: ['cli'] },
  // After the CLI: the wasm test binary's build scripts and the CLI's build both go to
  // target/debug, which cargo locks; then mdbook-tgsi (below, which the e2e runs wait for), the
  // small wasm test binary and the native tests, one after the other.
  { id: 'wasm-tests', label: 'cargo wasm-test --no-run (wasm32, crate/tests/web)', command: ['cargo', 'wasm-test', '--no-run', '--message-format=json-render-diagnostics'], needs: ['target'], after: ['cli', 'mdbook-tgsi'] },
  // The mdBook preprocessor's tests (e2e-node, e2e-ENGINE): the package it embeds, mdBook itself
  // (cargo install into target/tools, beside the engines' builds: its own target folder), and
  // the preprocessor, built right after the CLI in cargo's target folder and before the wasm
  // test binary, because the e2e runs wait for it and the cpu lane's runners have time to spare.
  { id: 'package', label: 'npm package (dist/tgsi-shader)', command: ['node', 'scripts/build-package.mjs'], needs: ['npm', 'page-bind', 'widget-bind', 'reference'] },
  { id: 'mdbook', label: 'cargo install mdbook (target/tools)', command: ['bash', 'scripts/setup.sh', '--only', 'mdbook'] },
  // With the engine's default features, as the CLI and `cargo test --workspace` build it: the
  // engine's library (a cdylib too, so one file whatever its features) is then built once, and
  // target/debug/tgsi is not relinked under the e2e runs that call it.
  { id: 'mdbook-tgsi', label: 'cargo build -p mdbook-tgsi (target/debug/mdbook-tgsi)', command: ['cargo', 'build', '-p', 'mdbook-tgsi', '--features', 'tgsi/default'], needs: ['package'], after: ['cli'] },
  // The Sphinx extension's tests (e2e-node, e2e-ENGINE): pinned Sphinx in target/docs-venv, from
  // the start (a download that needs none of the builds: after the package, it held up the e2e
  // runs about 25 s on a fresh machine), then sphinx-tgsi, which carries the package.
  { id: 'sphinx-venv', label: 'Sphinx (target/docs-venv)', command: ['bash', 'scripts/setup.sh', '--only', 'sphinx-venv'] },
  { id: 'sphinx', label: 'sphinx-tgsi (target/docs-venv)', command: ['bash', 'scripts/setup.sh', '--only', 'sphinx'], needs: ['package', 'sphinx-venv'] },
];

/** Selected by TGSI_RUNNERS (a name, or a group: lint, cargo, e2e-node, wasm, e2e). @param {Runner} r */
function selected(r) {
  const want = (process.env.TGSI_RUNNERS ?? '').split(/[\s,]+/).filter(Boolean);
  if (want.length === 0) return true;
  return want.some((w) => w === r.name || (w === 'lint' && r.name.startsWith('lint-')) || (w === 'wasm' && r.name.startsWith('wasm-')) || (w === 'e2e' && r.name.startsWith('e2e-') && r.name !== 'e2e-node'));
}

/**
 * @template T
 * @typedef {object} Signals  one promise per name, each settled once from outside
 * @property {(name: string) => Promise<T> | undefined} get
 * @property {(name: string, value: T) => void} settle
 */

/**
 * A promise for each name and the means to settle it (build steps as they end, runners as
 * they end).
 * @template T
 * @param {string[]} names
 * @returns {Signals<T>}
 */
function signals(names) {
  /** @type {Map<string, { promise: Promise<T>, resolve: (value: T) => void }>} */
  const all = new Map();
  for (const name of names) {
    /** @type {(value: T) => void} */
    let resolve = () => {};
    const promise = new Promise((r) => { resolve = r; });
    all.set(name, { promise, resolve });
  }
  return { get: (name) => all.get(name)?.promise, settle: (name, value) => all.get(name)?.resolve(value) };
}

/** The build steps the runners need, with the steps those need. @param {Runner[]} runners */
function stepsFor(runners) {
  const ids = new Set(runners.flatMap((r) => r.needs));
  let grew = true;
  while (grew) {
    grew = false;
    for (const s of BUILD_STEPS) {
      if (ids.has(s.id)) for (const n of s.needs ?? []) if (!ids.has(n)) { ids.add(n); grew = true; }
    }
  }
  // `after` orders only among the steps that run anyway.
  for (const s of BUILD_STEPS) if (s.after) s.after = s.after.filter((id) => ids.has(id));
  return BUILD_STEPS.filter((s) => ids.has(s.id));
}

// ---------------------------------------------------------------------------------------------
// Running.

/** @type {string} */
let wasmBinary = '';
/** @type {string} */
let browserTmp = '';

/** @param {string} msg */
function say(msg) {
  const [b, p] = process.stdout.isTTY ? ['\x1b[1m', '\x1b[0m'] : ['', ''];
  console.log(`${b}[test]${p} ${msg}`);
}

/**
 * Runs one runner once and counts its log (the WebKitGTK wasm exception above aside).
 * @param {Runner} r
 * @returns {Promise<Outcome>}
 */
async function runRunner(r) {
  const log = path.join(LOGS, `${r.name}.log`);
  const rel = path.relative(ROOT, log);
  writeFileSync(log, '');
  const t0 = Date.now();
  // Browsers leave their profiles in TMPDIR (about 13 MB per wasm test run): a private one.
  const env = { ...(r.env ?? {}), ...(r.engine ? { TMPDIR: browserTmp } : {}) };
  /** @type {Outcome} */
  const o = { name: r.name, counts: { passed: 0, failed: 0, skipped: 0 }, seconds: 0, notes: [], failures: [] };

  if (r.counter === 'checks') {
    for (const command of /** @type {() => string[][]} */ (r.commands)()) {
      writeFileSync(log, `\n$ ${command.join(' ')}\n`, { flag: 'a' });
      const before = read(log).length;
      const status = await runLogged(command, log, env);
      if (status === 0) o.counts.passed++;
      else {
        o.counts.failed++;
        o.failures.push(`-- ${r.name}: ${command.join(' ')} exited with status ${status} (full log: ${rel})`);
        const why = failureLines(read(log).slice(before));
        o.failures.push(...(why.length ? why : read(log).slice(before).trimEnd().split('\n').slice(-10)).map((l) => `  ${l}`));
      }
    }
    o.seconds = (Date.now() - t0) / 1000;
    return judge(o, o.counts.failed ? 1 : 0);
  }

  const command = /** @type {() => string[]} */ (r.command)();
  writeFileSync(log, `$ ${command.join(' ')}\n`);
  const status = await runLogged(command, log, env);
  const text = read(log);
  o.counts = r.counter === 'libtest' ? libtestCounts(text) : nodeTestCounts(text);
  if (status !== 0) {
    const why = failureLines(text);
    o.failures.push(`-- ${r.name} (full log: ${rel})`, ...(why.length ? why : ['(no failure message found)']).map((l) => `  ${l}`));
  }

  o.seconds = (Date.now() - t0) / 1000;
  return judge(o, status);
}

/**
 * The summary's rules: a runner that exited non-zero without a counted failure counts as one
 * failure, one that ran no test as one failure.
 * @param {Outcome} o
 * @param {number} status  0 when the runner succeeded
 */
export function judge(o, status) {
  if (status !== 0 && o.counts.failed === 0) {
    o.counts.failed = 1;
    o.notes.unshift(`exited with status ${status} before reporting a failed test`);
  }
  if (status === 0 && o.counts.passed === 0 && o.counts.failed === 0) {
    o.counts.failed = 1;
    o.notes.unshift('ran no test');
  }
  return o;
}

/** @param {Outcome} o */
function line(o) {
  const { passed, failed, skipped } = o.counts;
  return `${o.name}: ${passed} passed, ${failed} failed, ${skipped} skipped  (${seconds(o.seconds * 1000)})${o.notes.length ? `  ${o.notes.map((n) => `(${n})`).join(' ')}` : ''}`;
}

async function main() {
  mkdirSync(LOGS, { recursive: true });
  const t0 = Date.now();
  // A target folder with no debug build yet (a fresh clone, as CI's): the workspace's own crates
  // are built once and not edited before the run ends, so cargo's incremental state would be
  // written for nothing (the engine's debug crate and CLI: 60 -> 52 CPU-s on two cores,
  // docs/perf-log.md, 2026-12-06 08:00 UTC). A later run builds incrementally again; its first
  // build of the workspace's own crates is then a full one.
  const targetDir = process.env.CARGO_TARGET_DIR ?? path.join(ROOT, 'target');
  if (process.env.CARGO_INCREMENTAL === undefined && !existsSync(path.join(targetDir, 'debug'))) process.env.CARGO_INCREMENTAL = '0';
  const runners = RUNNERS.filter(selected);
  if (runners.length === 0) {
    console.error(`TGSI_RUNNERS: no runner matches '${process.env.TGSI_RUNNERS}' (${RUNNERS.map((r) => r.name).join(', ')}, or wasm, e2e)`);
    process.exit(2);
  }

  // The builds run as steps (steps.mjs); each runner starts as soon as the steps it needs have
  // ended and the runner before it in its lane is done, so the browser lane's wasm runners run
  // while cargo still builds the native tests.
  say(`building what ${runners.map((r) => r.name).join(', ')} need; each runner starts when its builds are done`);
  browserTmp = mkdtempSync(path.join(os.tmpdir(), 'tgsi-test-'));
  const steps = stepsFor(runners);
  /** Whether each build step succeeded, settled as it ends. */
  const stepOk = /** @type {Signals<boolean>} */ (signals(steps.map((s) => s.id)));
  let buildSeconds = 0;
  const building = runSteps('test', steps, path.join(LOGS, 'build'), (res) => {
    let good = res.outcome === 'ok';
    if (good && res.id === 'wasm-tests') {
      try {
        wasmBinary = wasmTestBinary(res.log);
      } catch (e) {
        good = false;
        console.log(`[test] ${e instanceof Error ? e.message : e}`);
      }
    }
    stepOk.settle(res.id, good);
  }).then((r) => { buildSeconds = (Date.now() - t0) / 1000; return r; });

  /** @type {Outcome[]} */
  const outcomes = [];
  /** Each runner's end. */
  const ended = /** @type {Signals<void>} */ (signals(runners.map((r) => r.name)));
  // The e2e runs are the longest lane and bound by CPU: the cpu lane's test runs (the wasm suites
  // and the native tests) wait until only the last e2e run is left, the lightest (WebKitGTK's),
  // instead of taking a share of the cores from Chromium's and Firefox's (measured in
  // docs/perf-log.md, 2026-12-06). In one lane (TGSI_LANES=1) nothing runs beside anything, and
  // nothing waits.
  const e2eRuns = runners.filter((r) => r.lane === 'browsers');
  const beforeLastE2e = process.env.TGSI_LANES === '1' ? [] : e2eRuns.slice(0, -1).map((r) => r.name);
  /** @param {Runner} r */
  const runOne = async (r) => {
    if (r.besideLastE2e) await Promise.all(beforeLastE2e.map((name) => ended.get(name)));
    const oks = await Promise.all(r.needs.map((id) => stepOk.get(id)));
    const missing = r.needs.filter((_, i) => !oks[i]);
    if (missing.length) {
      const o = { name: r.name, counts: { passed: 0, failed: 1, skipped: 0 }, seconds: 0, notes: [`not run: the build step(s) ${missing.join(', ')} failed; see test-artifacts/build/`], failures: [`-- ${r.name}: not run (the build step(s) ${missing.join(', ')} failed; see test-artifacts/build/)`] };
      return o;
    }
    say(`${r.name} …`);
    return runRunner(r);
  };
  /** @param {Runner[]} lane */
  const runLane = async (lane) => {
    for (const r of lane) {
      const o = await runOne(r);
      outcomes.push(o);
      say(line(o));
      ended.settle(r.name, undefined);
    }
  };
  const lanes = process.env.TGSI_LANES === '1'
    ? [runners]
    : ['spare', 'cpu', 'browsers'].map((lane) => runners.filter((r) => r.lane === lane));
  await Promise.all([building, ...lanes.map(runLane)]);
  rmSync(browserTmp, { recursive: true, force: true });

  // Summary, in the runners' order.
  outcomes.sort((a, b) => RUNNERS.findIndex((r) => r.name === a.name) - RUNNERS.findIndex((r) => r.name === b.name));
  const total = outcomes.reduce((t, o) => ({ passed: t.passed + o.counts.passed, failed: t.failed + o.counts.failed, skipped: t.skipped + o.counts.skipped }), { passed: 0, failed: 0, skipped: 0 });
  const cpu = read('/proc/cpuinfo');
  const model = /^model name\s*:\s*(.*)$/m.exec(cpu)?.[1] ?? 'unknown CPU';
  const flags = (/^flags\s*:\s*(.*)$/m.exec(cpu)?.[1] ?? '').split(' ').filter((f) => ['sse4_2', 'avx', 'avx2', 'avx512f'].includes(f));
  console.log('\n== summary ==');
  // The machine, for failures that depend on it (a browser engine's code differs by CPU features).
  console.log(`machine: ${os.cpus().length} cores; ${model}; ${flags.join(' ')}`);
  console.log(`time: ${seconds(Date.now() - t0)} (the builds ended after ${seconds(buildSeconds * 1000)}; runners start as their builds end${lanes.length > 1 ? ', in three lanes side by side' : ''})`);
  for (const o of outcomes) console.log(line(o));
  console.log(`total: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  const failures = outcomes.flatMap((o) => o.failures);
  if (failures.length) {
    console.log('\n== failures ==');
    for (const f of failures) console.log(f);
  }
  process.exit(total.failed === 0 ? 0 : 1);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
