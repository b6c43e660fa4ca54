// Helpers for driving the playground page in the end-to-end tests: open it, replace a shader
// through the keyboard, read diagnostics and canvas pixels.

import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { openPage, ROOT } from './support.mjs';

const run = promisify(execFile);

/**
 * Opens the page (optionally at a URL fragment) and waits until the engine is ready and the
 * first shader is settled: its first frame is drawn and, when its compiled module was being
 * prepared, the page has drawn it again with the module (the default example compiles). Else
 * that late redraw could be taken for the frame of a test's first action.
 */
export async function openPlayground(browser, server, { hash = '', context } = {}) {
  const target = context ?? browser;
  const { page, problems } = await openPage(target);
  await page.goto(`${server.url}${hash}`);
  await page.waitForSelector('#engine-version[data-state="ready"]', { timeout: 20_000 });
  await page.waitForFunction(() => {
    const hook = /** @type {any} */ (window).tgsiPlayground;
    if (hook?.state?.stage !== 'pipeline') return true;
    const drawn = document.querySelector('#output')?.getAttribute('data-state');
    return drawn !== null && document.querySelector('#engine-badge')?.getAttribute('data-preparing') !== 'true';
  }, null, { timeout: 30_000 });
  return { page, problems };
}

/** Replaces the text of the current editor tab as a user would (select all, type). */
export async function typeShader(page, text) {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
  // The editor holds exactly `text`: what the page does next is about this text (the editor
  // answers the keys on its own time; a failure names what it holds instead).
  const holds = () => page.evaluate(() => {
    const view = /** @type {any} */ (window).tgsiPlayground?.editor?.view;
    if (view) return view.state.doc.toString();
    // Other pages (the lessons): the editor holding the focus, or the page's only editor.
    const editors = [...document.querySelectorAll('.cm-editor')];
    const editor = editors.find((e) => e.contains(document.activeElement)) ?? (editors.length === 1 ? editors[0] : null);
    return editor ? [...editor.querySelectorAll('.cm-content .cm-line')].map((l) => l.textContent).join('\n') : `(${editors.length} editors, none focused)`;
  });
  const held = await readUntil(page, holds, (h) => h === text, 10_000);
  if (held !== text) throw new Error(`typeShader: the editor holds ${JSON.stringify(held.slice(0, 300))} instead of the typed text`);
}

/** Waits until the page has checked the current text (the debounce has passed). */
export async function settle(page, ms = 600) {
  await page.waitForTimeout(ms);
}

/** The problems listed under the editor. */
export function listedProblems(page) {
  return page.$$eval('#problems li', (items) => items.map((li) => ({
    severity: [...li.classList].find((c) => c !== 'problem'),
    code: li.dataset.code,
    line: Number(li.dataset.line ?? 0),
    column: Number(li.dataset.column ?? 0),
    text: li.textContent,
  })));
}

/** The underlined ranges in the editor: 1-based line and column of each start, and the text. */
export function underlines(page) {
  return page.evaluate(() => {
    const view = window.tgsiPlayground.editor.view;
    return [...document.querySelectorAll('.cm-lintRange-error, .cm-lintRange-warning')].map((el) => {
      const pos = view.posAtDOM(el, 0);
      const line = view.state.doc.lineAt(pos);
      return { severity: el.className.includes('error') ? 'error' : 'warning', line: line.number, column: pos - line.from + 1, text: el.textContent };
    });
  });
}

/** Waits for the canvas to show a new frame (its render counter grows past `after`). */
export async function waitForRender(page, after = 0, timeout = 20_000) {
  await page.waitForFunction((n) => Number(document.querySelector('#output').dataset.renders ?? 0) > n, after, { timeout });
  return page.evaluate(() => Number(document.querySelector('#output').dataset.renders));
}

export function renderCount(page) {
  return page.evaluate(() => Number(document.querySelector('#output').dataset.renders ?? 0));
}

/** RGBA bytes of the canvas, top row first. */
export async function canvasPixels(page) {
  // As base64 in one string: a 1024x1024 picture as an array of 4 million numbers took 20-30 s
  // to cross from Chromium to the test.
  const b64 = await page.evaluate(() => {
    const c = /** @type {HTMLCanvasElement} */ (document.querySelector('#output'));
    const bytes = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(s);
  });
  return fromBase64(b64);
}

/** Bytes a page sent as base64 (see `canvasPixels`). @param {string} b64 */
export function fromBase64(b64) {
  return new Uint8Array(Buffer.from(b64, 'base64'));
}

/**
 * The command-line tool the test script builds: the newer of the release and debug builds (the
 * test script builds debug; a release build left from an earlier benchmark may be older than
 * the sources and lack newer options).
 */
export function tgsiBinary() {
  const built = ['target/release/tgsi', 'target/debug/tgsi'].map((p) => path.join(ROOT, p)).filter((p) => existsSync(p));
  built.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  return built[0] ?? null;
}

/** Runs `tgsi` with arguments in a scratch folder holding `files`; returns that folder's outputs. */
export async function runTgsi(args, files) {
  const bin = tgsiBinary();
  if (!bin) throw new Error('target/*/tgsi is missing: npm test builds it (cargo test --no-run), or: cargo build -p tgsi --bin tgsi');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tgsi-e2e-'));
  try {
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
    const { stdout, stderr } = await run(bin, args, { cwd: dir, maxBuffer: 64 << 20 }).catch((e) => { throw new Error(`tgsi ${args.join(' ')} failed: ${e.stderr || e.message}`); });
    const read = (name) => readFile(path.join(dir, name));
    return { stdout, stderr, read, dir: null, cleanup: () => rm(dir, { recursive: true, force: true }) };
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
}

/** Decodes a PNG in the page (Chromium applies no colour conversion to untagged PNGs). */
export async function decodePng(page, bytes) {
  const data = await page.evaluate(async (b64) => {
    const blob = await (await fetch(`data:image/png;base64,${b64}`)).blob();
    const bitmap = await createImageBitmap(blob, { colorSpaceConversion: 'none', premultiplyAlpha: 'none' });
    const c = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = c.getContext('2d');
    ctx.drawImage(bitmap, 0, 0);
    const pixels = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
    let s = '';
    for (let i = 0; i < pixels.length; i += 0x8000) s += String.fromCharCode(...pixels.subarray(i, i + 0x8000));
    return { width: bitmap.width, height: bitmap.height, data: btoa(s) };
  }, Buffer.from(bytes).toString('base64'));
  return { ...data, data: fromBase64(data.data) };
}

/**
 * Reads `read()` until `done(value)` holds or `ms` milliseconds pass, and returns the last value
 * read: for a page that may show an intermediate state first. The caller asserts on the value,
 * so a page that never gets there still fails.
 * @template T
 * @param {any} page
 * @param {() => Promise<T>} read
 * @param {(value: T) => boolean} done
 * @param {number} ms
 * @returns {Promise<T>}
 */
export async function readUntil(page, read, done, ms) {
  let value = await read();
  for (const until = Date.now() + ms; !done(value) && Date.now() < until;) {
    await page.waitForTimeout(100);
    value = await read();
  }
  return value;
}
