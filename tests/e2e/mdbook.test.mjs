// The mdbook-tgsi sample book (tests/docs-tools/book/, built by the pinned mdBook with the
// workspace's preprocessor) served as a static site: on each page every widget draws its
// shader's colour, the pages in a folder find the element's files at the book's root, and
// nothing reports an error (a missing file would be an HTTP 404 or a failed module).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { launchBrowser, openPage, saveScreenshot, startServer } from './support.mjs';
import { buildSampleBook } from './mdbook-build.mjs';

let book;
let server;
let browser;

before(async () => {
  book = await buildSampleBook();
  if (book.status !== 0) throw new Error(`mdbook build failed:\n${book.output}`);
  // mdBook's pages have inline scripts of their own: served without the playground's
  // Content-Security-Policy, as a book's host would.
  server = await startServer(0, { root: book.html, headers: { 'Content-Security-Policy': null } });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (book) await rm(book.scratch, { recursive: true, force: true });
});

/**
 * Opens a page of the book, shows each widget in turn (widgets out of view do not draw) until it
 * has drawn, and reads pixel (x, y) of each canvas given in `at` (index → [x, y]).
 */
async function widgetPixels(name, at) {
  const { page: p, problems } = await openPage(browser);
  await p.goto(`${server.url}${name}`);
  await p.waitForFunction(() => customElements.get('tgsi-shader') !== undefined, undefined, { timeout: 20_000 });
  const count = await p.evaluate(() => document.querySelectorAll('tgsi-shader').length);
  const pixels = [];
  for (let i = 0; i < count; i++) {
    await p.evaluate((k) => document.querySelectorAll('tgsi-shader')[k].scrollIntoView({ block: 'center' }), i);
    await p.waitForFunction((k) => (document.querySelectorAll('tgsi-shader')[k].frames ?? 0) > 0, i, { timeout: 30_000 });
    pixels.push(await p.evaluate(([k, points]) => {
      const c = document.querySelectorAll('tgsi-shader')[k].shadowRoot.querySelector('canvas');
      const ctx = c.getContext('2d');
      return { size: [c.width, c.height], at: points.map(([x, y]) => Array.from(ctx.getImageData(x, y, 1, 1).data)) };
    }, [i, at[i] ?? [[0, 0]]]));
  }
  await saveScreenshot(p, `mdbook-${name.replace(/[/.]/g, '-')}`);
  await p.close();
  return { pixels, problems };
}

// Each colour is round(255 · v) per channel (the engine's unorm8: v · 255 + 0.5, truncated).

test('the code block widgets draw their colours', { timeout: 120_000 }, async () => {
  const { pixels, problems } = await widgetPixels('fence.html', [[[24, 16]], [[16, 16]], [[8, 8]]]);
  assert.deepEqual(pixels, [
    // (0.25, 0.5, 1, 1): 63.75 → 64, 127.5 → 128, 255, 255.
    { size: [48, 32], at: [[64, 128, 255, 255]] },
    // constants="0:0=1,0.5,0,1" read by MOV OUT[0], CONST[0][0]: 255, 127.5 → 128, 0, 255.
    { size: [32, 32], at: [[255, 128, 0, 255]] },
    // The list item's (0, 0.75, 0.25, 1): 0, 191.25 → 191, 63.75 → 64, 255.
    { size: [16, 16], at: [[0, 191, 64, 255]] },
  ]);
  assert.deepEqual(problems, []);
});

test('an included shader draws on the quad its included vertex shader halves', { timeout: 120_000 }, async () => {
  // The quad mesh spans clip space [-1, 1]²; the vertex shader scales x and y by 0.5, so on the
  // 64 × 64 canvas it covers pixels 16 to 47 in both directions. The middle, (32, 32), is the
  // fragment shader's (1, 0.25, 0, 1): 255, 63.75 → 64, 0, 255; the corner pixel (2, 2) is
  // outside and keeps the cleared (0, 0, 0, 0).
  const { pixels, problems } = await widgetPixels('include.html', [[[32, 32], [2, 2]]]);
  assert.deepEqual(pixels, [{ size: [64, 64], at: [[255, 64, 0, 255], [0, 0, 0, 0]] }]);
  assert.deepEqual(problems, []);
});

test("a chapter in a folder loads the element from the book's root and draws both its widgets", { timeout: 120_000 }, async () => {
  const { pixels, problems } = await widgetPixels('nested/deep.html', [[[12, 12]], [[12, 12]]]);
  assert.deepEqual(pixels, [
    // (0, 1, 0.5, 1): 0, 255, 127.5 → 128, 255.
    { size: [24, 24], at: [[0, 255, 128, 255]] },
    // ../shaders/orange.tgsi, (1, 0.25, 0, 1): 255, 64, 0, 255.
    { size: [24, 24], at: [[255, 64, 0, 255]] },
  ]);
  assert.deepEqual(problems, []);
});
