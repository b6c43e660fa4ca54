// @ts-check
// The mdbook-tgsi sample book (tests/docs-tools/book/, built by the pinned mdBook with the
// workspace's preprocessor) served as a static site: on each page every widget draws its
// shader's colour, the pages in a folder find the element's files at the book's root, and
// nothing reports an error (a missing file would be an HTTP 404 or a failed module). The source
// under a widget is highlighted at build time in every mdBook theme, highlight.js leaves it
// alone without a warning, and the chapter fits a phone's width.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { launchBrowser, openPage, saveScreenshot, startServer } from './support.mjs';
import { buildSampleBook } from './mdbook-build.mjs';

/** @type {Awaited<ReturnType<typeof buildSampleBook>>} */
let book;
/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {any} */
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
 * Waits for the element to be defined, then shows each widget in turn (widgets out of view do not
 * draw) until it has drawn. Resolves to the number of widgets.
 * @param {any} p the page
 */
async function drawAll(p) {
  await p.waitForFunction(() => customElements.get('tgsi-shader') !== undefined, undefined, { timeout: 20_000 });
  const count = await p.evaluate(() => document.querySelectorAll('tgsi-shader').length);
  for (let i = 0; i < count; i++) {
    await p.evaluate((k) => document.querySelectorAll('tgsi-shader')[k].scrollIntoView({ block: 'center' }), i);
    await p.waitForFunction((k) => (/** @type {any} */ (document.querySelectorAll('tgsi-shader')[k]).frames ?? 0) > 0, i, { timeout: 30_000 });
  }
  return count;
}

/**
 * Opens a page of the book, lets every widget draw, and reads pixel (x, y) of each canvas given
 * in `at` (index → [x, y]).
 * @param {string} name
 * @param {number[][][]} at
 */
async function widgetPixels(name, at) {
  const { page: p, problems } = await openPage(browser);
  await p.goto(`${server.url}${name}`);
  const count = await drawAll(p);
  const pixels = [];
  for (let i = 0; i < count; i++) {
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

/** fence.md's first shader, the source under its widget. */
const BLUE = 'FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 0.2500, 0.5000, 1.0000, 1.0000 }\n  0: MOV OUT[0], IMM[0]\n  1: END\n';

/**
 * A token of each kind in fence.md's two source blocks, with the highlight.js class
 * mdbook-tgsi/README.md maps its kind to.
 */
const TOKENS = {
  header: ['hljs-keyword', 'FRAG'],
  opcode: ['hljs-title', 'MOV'],
  file: ['hljs-name', 'OUT'],
  semantic: ['hljs-string', 'COLOR'],
  modifier: ['hljs-variable', 'FLT32'],
  number: ['hljs-number', '0.2500'],
  swizzle: ['hljs-attr', '.xyzw'],
  label: ['hljs-symbol', '0:'],
};

/** mdBook 0.4's themes: light and rust use highlight.css, coal and navy tomorrow-night.css, ayu ayu-highlight.css. */
const THEMES = ['light', 'rust', 'coal', 'navy', 'ayu'];

test('the source under a widget is highlighted at build time, without a highlight.js warning, and the chapter fits a phone', { timeout: 240_000 }, async () => {
  const { page: p, problems } = await openPage(browser);
  // highlight.js 10 warns "Could not find the language 'tgsi'" for a language-tgsi block.
  // Playwright reports every console message (Chromium); the WebDriver adapter (Firefox,
  // WebKitGTK) reports errors only, so highlight.js is also asked directly below.
  /** @type {string[]} */
  const warnings = [];
  p.on('console', (/** @type {any} */ msg) => {
    if (msg.type() === 'warning') warnings.push(msg.text());
  });
  await p.setViewportSize({ width: 1280, height: 800 });
  await p.goto(`${server.url}fence.html`);
  await p.waitForFunction(() => document.readyState === 'complete' && document.querySelectorAll('code.tgsi-source').length === 2, undefined, { timeout: 20_000 });

  // Every token in its span, and the colours each theme gives it. A theme button of mdBook's
  // menu switches the highlight style sheets as a reader's click does: it enables one <link>
  // and disables the others, and an enabled link loads its sheet again (a moment later).
  /** @type {Record<string, Record<string, string>>} */
  const colours = {};
  for (const theme of [...THEMES, 'light']) {
    await p.evaluate((t) => document.getElementById(t).click(), theme);
    await p.waitForFunction(() => [...document.querySelectorAll('#highlight-css, #tomorrow-night-css, #ayu-highlight-css')]
      .every((l) => /** @type {HTMLLinkElement} */ (l).disabled || /** @type {HTMLLinkElement} */ (l).sheet !== null), undefined, { timeout: 10_000 });
    colours[theme] = await p.evaluate((tokens) => {
      const spans = [...document.querySelectorAll('code.tgsi-source span')];
      /** @type {Record<string, string>} */
      const row = { plain: getComputedStyle(document.querySelector('code.tgsi-source')).color };
      for (const [kind, [, text]] of Object.entries(tokens)) {
        const span = spans.find((x) => x.textContent === text);
        row[kind] = span ? `${span.className} ${getComputedStyle(span).color}` : 'no span';
      }
      return row;
    }, TOKENS);
  }
  for (const theme of THEMES) {
    const row = colours[theme];
    const colour = (/** @type {string} */ kind) => row[kind].split(' ').slice(1).join(' ');
    for (const [kind, [cls]] of Object.entries(TOKENS)) {
      assert.equal(row[kind].split(' ')[0], cls, `${theme}: ${kind} ${JSON.stringify(row)}`);
    }
    // Opcodes, headers, register files and numbers: four colours, none of them the plain text's
    // (README.md's table: e.g. light #0030f2, #9d00ec, #d70025, #b21e00 on #000); semantics
    // are coloured too.
    const main = ['opcode', 'header', 'file', 'number'].map(colour);
    assert.equal(new Set([...main, row.plain]).size, 5, `${theme}: ${JSON.stringify(row)}`);
    assert.notEqual(colour('semantic'), row.plain, `${theme}: ${JSON.stringify(row)}`);
  }

  // highlight.js run again on the blocks: it skips them (nothing changes) and warns nothing.
  const rerun = await p.evaluate(() => {
    /** @type {string[]} */
    const warned = [];
    const warn = console.warn;
    console.warn = (...args) => { warned.push(args.map(String).join(' ')); };
    try {
      return [...document.querySelectorAll('code.tgsi-source')].map((code) => {
        const before = code.innerHTML;
        /** @type {any} */ (window).hljs.highlightBlock(code);
        return { unchanged: code.innerHTML === before, warned: warned.splice(0) };
      });
    } finally {
      console.warn = warn;
    }
  });
  assert.deepEqual(rerun, [{ unchanged: true, warned: [] }, { unchanged: true, warned: [] }]);

  // mdBook's copy button is on each block and copies the shader's text.
  const copy = await p.evaluate(() => [...document.querySelectorAll('code.tgsi-source')].map((code) => ({
    button: code.parentElement.querySelector(':scope > .buttons > .clip-button') !== null,
    text: /** @type {any} */ (window).playground_text(code.parentElement, false),
  })));
  assert.deepEqual(copy.map((c) => c.button), [true, true]);
  assert.equal(copy[0].text.trimEnd(), BLUE.trimEnd());

  // The chapter as a reader opens it at each size (the sidebar is shown or hidden by the width
  // the page loads at), its widgets drawn.
  for (const size of [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }, { width: 390, height: 844 }]) {
    await p.setViewportSize(size);
    await p.goto(`${server.url}fence.html`);
    await drawAll(p);
    await p.evaluate(() => window.scrollTo(0, 0));
    await saveScreenshot(p, `mdbook-fence-${size.width}x${size.height}`);
    if (size.width > 400) continue;
    const layout = await p.evaluate(() => {
      const box = (/** @type {Element} */ e) => {
        const r = e.getBoundingClientRect();
        return [Math.round(r.left), Math.round(r.right)];
      };
      return {
        innerWidth,
        scrollWidth: document.documentElement.scrollWidth,
        widgets: [...document.querySelectorAll('tgsi-shader')].map(box),
        sources: [...document.querySelectorAll('code.tgsi-source')].map((c) => box(c.parentElement)),
      };
    });
    assert.equal(layout.innerWidth, 390);
    assert.ok(layout.scrollWidth <= layout.innerWidth, `the page scrolls sideways: ${JSON.stringify(layout)}`);
    assert.equal(layout.widgets.length, 3);
    assert.equal(layout.sources.length, 2);
    for (const [left, right] of [...layout.widgets, ...layout.sources]) {
      assert.ok(left >= 0 && right <= layout.innerWidth, `a box leaves the window: ${JSON.stringify(layout)}`);
    }
  }

  assert.deepEqual(warnings, []);
  assert.deepEqual(problems, []);
  await p.close();
});
