// Measures the <tgsi-shader> widget against its budgets in headless Chromium, on the local
// server (the source tree's widget: web/widget/, engines from scripts/build-wasm.sh):
//
//   first picture  — from the moment the element's module starts loading to the first frame on
//                    the canvas, for a simple shader (median of several fresh page loads);
//                    budget 300 ms.
//   first picture of forty — the same on a fresh load of a page of forty widgets: until every
//                    widget in the viewport has drawn its first frame (median); budget 300 ms.
//   40 widgets     — a page of forty animated widgets scrolled from top to bottom: main-thread
//                    long tasks (PerformanceObserver 'longtask'), budget none over 100 ms; and
//                    how many widgets drew while out of view at the start (must be the ones near
//                    the viewport only).
//
//   node scripts/bench-widget.mjs [--loads 7]
//
// Exits 1 when a budget is exceeded. Results go to stdout; the README quotes them.

import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { launchBrowser, startServer, ROOT } from '../tests/e2e/support.mjs';

const args = process.argv.slice(2);
const loadsIndex = args.indexOf('--loads');
const loads = loadsIndex >= 0 ? Number(args[loadsIndex + 1]) : 7;
const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const FS = 'FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n';
const FS_ANIMATED = 'FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL CONST[15][1]\nDCL TEMP[0]\n  0: ADD TEMP[0], IN[0], CONST[15][1].xxxx\n  1: FRC OUT[0], TEMP[0]\n  2: END\n';
const head = '<!doctype html><html><head><meta charset="utf-8"><script type="module" src="/web/widget/tgsi-shader.js"></script>'
  + '<style>body{margin:0} tgsi-shader{display:block;margin:4px}</style></head><body>';
const widget = (attrs, fs) => `<tgsi-shader ${attrs}><script type="text/x-tgsi">\n${fs}</script></tgsi-shader>`;

const dir = path.join(ROOT, 'test-artifacts', 'bench-widget');
await mkdir(dir, { recursive: true });
await writeFile(path.join(dir, 'one.html'), `${head}${widget('id="one" width="256" height="256"', FS)}</body></html>`);
await writeFile(path.join(dir, 'forty.html'), `${head}${Array.from({ length: 40 }, (_, i) => widget(`id="w${i}" width="128" height="128" autoplay`, FS_ANIMATED)).join('\n')}</body></html>`);

const server = await startServer(0);
const browser = await launchBrowser({ optimizingWasm: true });
let failed = false;
try {
  const firsts = [];
  for (let i = 0; i < loads; i += 1) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}test-artifacts/bench-widget/one.html`);
    firsts.push(await page.evaluate(async () => {
      const el = /** @type {any} */ (document.getElementById('one'));
      if (!(el.frames > 0)) await new Promise((r) => el.addEventListener('render', r, { once: true }));
      const drawn = performance.now();
      const start = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/web/widget/tgsi-shader.js'));
      return drawn - (start?.startTime ?? 0);
    }));
    await context.close();
  }
  const first = median(firsts);
  console.log(`first picture (256x256, module load to canvas): median ${first.toFixed(0)} ms over ${loads} loads (min ${Math.min(...firsts).toFixed(0)}, max ${Math.max(...firsts).toFixed(0)}); budget 300 ms`);
  if (first > 300) failed = true;

  const fortyFirsts = [];
  for (let i = 0; i < loads; i += 1) {
    const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
    const page = await context.newPage();
    await page.goto(`${server.url}test-artifacts/bench-widget/forty.html`);
    fortyFirsts.push(await page.evaluate(async () => {
      const visible = Array.from(document.querySelectorAll('tgsi-shader')).filter((el) => el.getBoundingClientRect().top < innerHeight);
      await Promise.all(visible.map((el) => /** @type {any} */ (el).frames > 0 ? null
        : new Promise((r) => el.addEventListener('render', r, { once: true }))));
      const drawn = performance.now();
      const start = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/web/widget/tgsi-shader.js'));
      return drawn - (start?.startTime ?? 0);
    }));
    await context.close();
  }
  const fortyFirst = median(fortyFirsts);
  console.log(`first picture of 40 widgets (128x128, every one in the viewport drawn, module load to canvas): median ${fortyFirst.toFixed(0)} ms over ${loads} loads (min ${Math.min(...fortyFirsts).toFixed(0)}, max ${Math.max(...fortyFirsts).toFixed(0)}); budget 300 ms`);
  if (fortyFirst > 300) failed = true;

  const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  await page.addInitScript(() => {
    /** @type {number[]} */ (/** @type {any} */ (window).longTasks = []);
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) /** @type {any} */ (window).longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(`${server.url}test-artifacts/bench-widget/forty.html`);
  await page.waitForFunction(() => /** @type {any} */ (document.getElementById('w0')).frames > 5, undefined, { timeout: 20_000 });
  const atStart = await page.evaluate(() => Array.from(document.querySelectorAll('tgsi-shader'), (el) => /** @type {any} */ (el).frames));
  const drewOffscreen = atStart.filter((n, i) => i >= 10 && n > 0).length;
  for (let y = 0; y < 40 * 150; y += 120) {
    await page.mouse.wheel(0, 120);
    await page.waitForTimeout(40);
  }
  await page.waitForTimeout(1000);
  const tasks = await page.evaluate(() => /** @type {any} */ (window).longTasks);
  const longest = tasks.length ? Math.max(...tasks) : 0;
  const frames = await page.evaluate(() => Array.from(document.querySelectorAll('tgsi-shader'), (el) => /** @type {any} */ (el).frames));
  console.log(`40 widgets (128x128, animated), scrolled top to bottom: ${tasks.length} long tasks, longest ${longest.toFixed(0)} ms (budget: none over 100 ms); ` +
    `widgets below the fold that drew before scrolling: ${drewOffscreen} of 30; frames per widget after scrolling: ${Math.min(...frames)}..${Math.max(...frames)}`);
  if (longest > 100 || drewOffscreen > 0) failed = true;
} finally {
  await browser.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
}
if (failed) {
  console.log('a budget was exceeded');
  process.exit(1);
}
