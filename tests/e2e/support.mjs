// Shared set-up for the end-to-end tests: a real local server (scripts/serve.mjs) and Debian's
// Chromium driven by playwright-core. Nothing here downloads a browser.

import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ROOT, startServer } from '../../scripts/serve.mjs';

export { ROOT, startServer };

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Headless flags that work as root on a machine without a GPU or outside network
// (see /work/shared/toolchain.md). Playwright adds --headless and a fresh profile itself.
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];

export const ARTIFACTS_DIR = path.join(ROOT, 'test-artifacts');

export function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
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
