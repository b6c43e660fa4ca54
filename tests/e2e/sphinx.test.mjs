// sphinx-tgsi in a real Sphinx build, opened in the browser: the sample project
// (tests/docs-tools/sphinx/: Mesa's tgsi.rst unchanged, an `opcode` object type declared the way
// Mesa's formatting.py declares it, and a page of tgsi-shader directives, tgsi code blocks and
// :tgsi-op: links) is built with the pinned Sphinx that `scripts/setup.sh --only sphinx` installs
// in target/docs-venv/, together with the sphinx-tgsi package from sphinx-tgsi/. The build must
// be free of warnings; the pages must draw the right pixels, show live lane tables under the
// opcode entries (every row equal to its hand-derived value), highlight `tgsi` blocks and run
// them, with no console error.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ARTIFACTS_DIR, ROOT, launchBrowser, openPage, saveScreenshot, startServer } from './support.mjs';

const run = promisify(execFile);
const SPHINX_BUILD = process.env.TGSI_SPHINX_BUILD ?? path.join(ROOT, 'target/docs-venv/bin/sphinx-build');
const PROJECT = path.join(ROOT, 'tests/docs-tools/sphinx');

let scratch;
let server;
let browser;
let buildOutput = '';

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'tgsi-sphinx-'));
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const out = path.join(scratch, 'html');
  // -E: a fresh environment (no pickled state from another run); -q: only warnings and errors.
  const { stdout, stderr } = await run(SPHINX_BUILD, ['-E', '-q', '-b', 'html', PROJECT, out], { cwd: ROOT, maxBuffer: 16 << 20 });
  buildOutput = `${stdout}${stderr}`;
  // A documentation host of its own (no Content-Security-Policy: the host's business).
  server = await startServer(0, { root: out, headers: { 'Content-Security-Policy': null } });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

test('the sample project builds without a warning', () => {
  assert.equal(buildOutput.trim(), '', 'sphinx-build -q printed warnings or errors');
});

/**
 * The RGBA of pixel (x, y) of the widget inside `selector`, once it has drawn a frame.
 * @param {any} page
 * @param {string} selector
 * @param {number} x
 * @param {number} y
 */
async function pixel(page, selector, x, y) {
  await page.waitForFunction((sel) => document.querySelector(sel)?.frames > 0, selector, { timeout: 30_000 });
  return page.evaluate(([sel, px, py]) => {
    const el = /** @type {any} */ (document.querySelector(sel));
    const canvas = el.shadowRoot.querySelector('canvas');
    return Array.from(canvas.getContext('2d').getImageData(px, py, 1, 1).data);
  }, [selector, x, y]);
}

test('directives draw their shaders; a tgsi block is highlighted and runs', { timeout: 90_000 }, async () => {
  const { page, problems } = await openPage(browser);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${server.url}widgets.html`);
  // (0.25, 0.5, 1, 1) → round(255 · v) = (64, 128, 255, 255), in every pixel.
  assert.deepEqual(await pixel(page, '.sample-constant tgsi-shader', 0, 0), [64, 128, 255, 255]);
  assert.deepEqual(await pixel(page, '.sample-constant tgsi-shader', 63, 63), [64, 128, 255, 255]);
  // The :constants: option: CONST[0][0] = (1, 0.5, 0, 1) → (255, 128, 0, 255).
  assert.deepEqual(await pixel(page, '.sample-constants tgsi-shader', 20, 30), [255, 128, 0, 255]);
  // ramp.tgsi writes the interpolated (u, v) as red and green: red grows from left to right and
  // green differs between the top and the bottom row; blue is 0 and alpha 1 (GENERIC[0].zw of
  // the full-screen triangle are 0 and 1).
  const left = await pixel(page, '.sample-file tgsi-shader', 0, 16);
  const right = await pixel(page, '.sample-file tgsi-shader', 31, 16);
  const top = await pixel(page, '.sample-file tgsi-shader', 16, 0);
  const bottom = await pixel(page, '.sample-file tgsi-shader', 16, 31);
  assert.ok(left[0] < 16 && right[0] > 239, `red from ${left[0]} to ${right[0]}`);
  assert.ok(Math.abs(top[1] - bottom[1]) > 223, `green ${top[1]} at the top, ${bottom[1]} at the bottom`);
  assert.deepEqual([left[2], left[3]], [0, 255]);

  // The source is shown under a directive unless :hide-source:, highlighted by the lexer.
  const shown = await page.evaluate(() => ({
    blocks: document.querySelectorAll('div.highlight-tgsi').length,
    opcode: [...document.querySelectorAll('div.highlight-tgsi .nf')].map((s) => s.textContent).slice(0, 3),
    header: document.querySelector('div.highlight-tgsi .k')?.textContent,
    file: document.querySelector('div.highlight-tgsi .kt')?.textContent,
    comment: [...document.querySelectorAll('div.highlight-tgsi .c1')].map((s) => s.textContent),
    runButtons: document.querySelectorAll('button.tgsi-run').length,
    links: [...document.querySelectorAll('a code.tgsi-op')].map((c) => [c.textContent, /** @type {HTMLAnchorElement} */ (c.parentElement).getAttribute('href')]),
  }));
  // Two directives show their source (one hides it), then the two code blocks.
  assert.equal(shown.blocks, 4);
  assert.deepEqual(shown.opcode, ['MOV', 'END', 'MOV']);
  assert.equal(shown.header, 'FRAG');
  assert.equal(shown.file, 'OUT');
  assert.deepEqual(shown.comment, ['; a comment']);
  // Only the code block that is a whole fragment shader has a Run button: not the directives'
  // sources (their widget is above them), not the fragment in the last block.
  assert.equal(shown.runButtons, 1);
  assert.deepEqual(shown.links, [['ADD', 'tgsi.html#opcode-ADD'], ['UDIV', 'tgsi.html#opcode-UDIV']]);

  // Run the code block: a live widget under it, black (0, 0, 0, 1) → (0, 0, 0, 255).
  await page.evaluate(() => {
    const buttons = document.querySelectorAll('button.tgsi-run');
    const button = /** @type {HTMLButtonElement} */ (buttons[buttons.length - 1]);
    // The reader sees the button they click, at the bottom of the window.
    button.scrollIntoView({ block: 'end' });
    button.click();
  });
  assert.deepEqual(await pixel(page, '.tgsi-run-output tgsi-shader', 5, 5), [0, 0, 0, 255]);
  for (const [w, h] of [[1280, 800], [1920, 1080], [390, 844]]) {
    await page.setViewportSize({ width: w, height: h });
    await saveScreenshot(page, `sphinx-widgets-${w}x${h}`);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('tgsi.rst gets a live lane table under most opcode entries, every row as derived', { timeout: 180_000 }, async () => {
  const { page, problems } = await openPage(browser);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${server.url}tgsi.html`);
  await page.waitForFunction(() => customElements.get('tgsi-lanes') !== undefined, undefined, { timeout: 20_000 });
  const report = await page.evaluate(async () => {
    const entries = [...document.querySelectorAll('dl.std.opcode')];
    const withTable = entries.filter((dl) => dl.querySelector(':scope > dd tgsi-lanes'));
    const tables = /** @type {any[]} */ ([...document.querySelectorAll('tgsi-lanes')]);
    // Build every table now (they otherwise build as they come near the viewport).
    await Promise.all(tables.map((t) => t.build()));
    const rows = tables.map((t) => ({
      op: t.getAttribute('op'),
      state: t.dataset.state,
      verdicts: [...t.shadowRoot.querySelectorAll('[data-same]')].map((v) => v.dataset.same),
    }));
    return { entries: entries.length, withTable: withTable.length, rows, examples: document.querySelectorAll('.tgsi-opcode-example tgsi-shader').length };
  });
  assert.ok(report.entries >= 200, `${report.entries} opcode entries`);
  assert.ok(report.withTable / report.entries >= 0.8, `${report.withTable} of ${report.entries} entries have a lane table`);
  const notLive = report.rows.filter((r) => r.state !== 'live');
  assert.deepEqual(notLive, []);
  // Each table's four lanes agree with the reference's hand-derived values, in this browser's engine.
  const wrong = report.rows.filter((r) => r.verdicts.length !== 4 || r.verdicts.some((v) => v !== 'true'));
  assert.deepEqual(wrong, []);
  assert.ok(report.examples > 100, `${report.examples} rendered examples`);

  // The IF entry's example: u < 0.5 takes IMM[0].yzwy = (1, 0, 0.2, 1), else IMM[0].wzyy =
  // (0.2, 0, 1, 1); green is v. Red 255 / blue round(0.2 · 255) = 51 on the left, the reverse on
  // the right.
  await page.evaluate(() => document.getElementById('opcode-IF')?.scrollIntoView());
  const ifWidget = '[data-op="IF"] .tgsi-opcode-example tgsi-shader';
  const l = await pixel(page, ifWidget, 10, 64);
  const r = await pixel(page, ifWidget, 117, 64);
  assert.deepEqual([l[0], l[2]], [255, 51]);
  assert.deepEqual([r[0], r[2]], [51, 255]);

  // Editing a lane's input reruns it and marks the row edited.
  const edited = await page.evaluate(() => {
    const t = /** @type {any} */ (document.querySelector('tgsi-lanes[op="ADD"]'));
    const input = t.shadowRoot.querySelector('input');
    input.value = '100';
    input.dispatchEvent(new Event('input'));
    return { verdict: t.shadowRoot.querySelector('[data-same]').dataset.same, out: t.shadowRoot.querySelector('.computed').textContent };
  });
  assert.equal(edited.verdict, 'edited');
  assert.match(edited.out, /xyzw: 10[0-9.]/, edited.out);

  // At each size the whole table is inside its element (no sideways scrolling): the widest
  // row's verdict cell ends within the element's box; a narrow column stacks each lane.
  for (const [w, h] of [[1280, 800], [1920, 1080], [390, 844]]) {
    await page.setViewportSize({ width: w, height: h });
    await page.evaluate(() => document.getElementById('opcode-UDIV')?.scrollIntoView());
    const box = await page.evaluate(() => {
      const t = /** @type {any} */ (document.querySelector('tgsi-lanes[op="UDIV"]'));
      const host = t.getBoundingClientRect();
      const cells = [...t.shadowRoot.querySelectorAll('td.verdict, td.computed')].map((c) => c.getBoundingClientRect());
      return { hostLeft: host.left, hostRight: host.right, scroll: t.scrollWidth - t.clientWidth, right: Math.max(...cells.map((c) => c.right)), left: Math.min(...cells.map((c) => c.left)) };
    });
    assert.ok(box.scroll <= 1, `${w}x${h}: the table scrolls sideways by ${box.scroll} px`);
    assert.ok(box.right <= box.hostRight + 1 && box.left >= box.hostLeft - 1, `${w}x${h}: ${JSON.stringify(box)}`);
    // The window only (the page holds every opcode: far too tall for a full-page picture).
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, `sphinx-udiv-${w}x${h}.png`) });
  }
  assert.deepEqual(problems, []);
  await page.close();
});
