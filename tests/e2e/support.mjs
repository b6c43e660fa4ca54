// Shared set-up for the end-to-end tests: a real local server (scripts/serve.mjs) and a browser
// engine chosen by TGSI_BROWSER: `chromium` (default; Debian's Chromium driven by playwright-core),
// `firefox` (Debian's firefox-esr through geckodriver) or `webkit` (WebKitGTK's MiniBrowser through
// WebKitWebDriver, which needs an X display, e.g. xvfb-run). The last two go through the WebDriver
// adapter in webdriver.mjs, which offers the same page operations, so every test is written once.
// Nothing here downloads a browser.

import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT, startServer } from '../../scripts/serve.mjs';
import { launchWebDriverBrowser } from './webdriver.mjs';

export { ROOT, startServer };

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Headless flags that work as root on a machine without a GPU or outside network: no sandbox
// (root), no GPU, no background traffic (networking, component updates, sync, QUIC), no
// first-run dialogs. Playwright adds --headless and a fresh profile itself.
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
  // Chromium 156 renders the address bar's suggestion popup as a page of its own (a WebUI
  // renderer) for every new window, which each Playwright context is: an empty page kept open
  // 2.5 s cost 1.39 CPU-s with it and 0.54 without. Chromium reads the last `--disable-features`
  // only, so this repeats playwright-core's own list (chromiumSwitches) before ours.
  `--disable-features=${[
    'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades',
    'HttpsFirstBalancedModeAutoEnable', 'LensOverlay', 'MediaRouter', 'PaintHolding',
    'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect', 'TcpPortRandomizationWin',
    'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch',
    'WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup',
  ].join(',')}`,
];

/** The engine these tests run in: chromium, firefox or webkit. */
export const ENGINE = process.env.TGSI_BROWSER ?? 'chromium';
if (!['chromium', 'firefox', 'webkit'].includes(ENGINE)) {
  throw new Error(`TGSI_BROWSER must be chromium, firefox or webkit, not "${ENGINE}"`);
}

// Screenshots and driver logs: test-artifacts/ for Chromium, test-artifacts/e2e-ENGINE/ otherwise.
export const ARTIFACTS_DIR = path.join(ROOT, 'test-artifacts', ...(ENGINE === 'chromium' ? [] : [`e2e-${ENGINE}`]));

/**
 * What the end-to-end tests add to CHROMIUM_FLAGS: V8's baseline wasm compiler (Liftoff) only.
 * In every new context (each test page is one) V8 recompiles the engine's hot functions with its
 * optimizing compiler (TurboFan) in the background: about 0.8 CPU-s after each page load, work
 * no test here looks at, and a third of this suite's CPU in Chromium (docs/perf-log.md,
 * 2026-12-06). The wasm suite (crate/tests/web: conformance with Mesa's pixels bit for bit,
 * among others) runs with Chromium's default tiers, where V8 optimizes what runs long, and the
 * benchmarks measure them (`launchBrowser({ optimizingWasm: true })`). Firefox and WebKitGTK spend
 * no such time after a page load (measured the same way), so they keep their defaults.
 */
export const CHROMIUM_TEST_FLAGS = ['--js-flags=--liftoff-only'];

/**
 * A Playwright `Browser` for Chromium; for Firefox and WebKit the adapter of webdriver.mjs, which
 * has the same methods for what the tests use. `optimizingWasm`: Chromium with every wasm tier,
 * as people run it (the benchmarks), instead of the tests' baseline tier only.
 * @param {{ optimizingWasm?: boolean }} [options]
 * @returns {Promise<any>}
 */
export async function launchBrowser({ optimizingWasm = false } = {}) {
  if (ENGINE === 'chromium') {
    const args = optimizingWasm ? CHROMIUM_FLAGS : [...CHROMIUM_FLAGS, ...CHROMIUM_TEST_FLAGS];
    // Loaded only here: importing playwright-core costs about 0.5 CPU-s, in each test file's
    // process, which the Firefox and WebKitGTK runs do not need.
    const { chromium } = await import('playwright-core');
    return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args });
  }
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  return launchWebDriverBrowser(ENGINE, path.join(ARTIFACTS_DIR, 'driver.log'));
}

/**
 * The `skip` option of a test that cannot run in some engines, with the reason (node --test
 * prints it next to the test's name, and the run counts it as skipped).
 * @param {Record<string, string>} reasons engine name → why the test cannot run there
 * @returns {string | false}
 */
export function skipIn(reasons) {
  return ENGINE in reasons ? `not in ${ENGINE}: ${reasons[ENGINE]}` : false;
}

/** The workspace version from the root Cargo.toml, read independently of the engine. */
export async function cargoWorkspaceVersion() {
  const toml = await readFile(path.join(ROOT, 'Cargo.toml'), 'utf8');
  const section = toml.split(/^\[/m).find((s) => s.startsWith('workspace.package]'));
  const match = section?.match(/^version\s*=\s*"([^"]+)"/m);
  if (!match) throw new Error('no [workspace.package] version in Cargo.toml');
  return match[1];
}

/**
 * Opens a page that records every console error, uncaught exception and failed request, so a
 * test can assert that none happened.
 */
export async function openPage(browser) {
  const page = await browser.newPage();
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`uncaught exception: ${err.message}`));
  page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} (${req.failure()?.errorText})`));
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()} for ${res.url()}`);
  });
  return { page, problems };
}

export async function saveScreenshot(page, name) {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
