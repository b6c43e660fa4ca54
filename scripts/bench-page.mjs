// Measures the playground page's frame time in headless Chromium: renders each named corpus
// fragment shader (fragment-only mode, uv inputs as the corpus vertex shader gives them) at the
// chosen size with the page's Web Workers, while animating, and prints the median ms per frame.
// With --inspect it measures the inspector instead: inspecting a pixel (trace + panel update)
// at --size (512 by default) and one position of the instruction scrubber at 256x256, from the
// user's action to the panel or overlay showing the result (median of several).
//
//   node scripts/bench-page.mjs [--size 512] [--seconds 4] [--inspect] [SHADER.tgsi ...]
//
// Needs the built page (bash scripts/build-wasm.sh && bash scripts/build-web.sh) and Chromium.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { launchBrowser, startServer, ROOT } from '../tests/e2e/support.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = args[i + 1];
  args.splice(i, 2);
  return value;
};
const inspect = args.includes('--inspect');
if (inspect) args.splice(args.indexOf('--inspect'), 1);
const size = Number(option('size', '512'));
const seconds = Number(option('seconds', '4'));
const corpus = path.join(ROOT, '..', 'shared', 'corpus', 'softpipe');
const shaders = args.length ? args : ['01_arith.tgsi', '26_mandelbrot.tgsi'].map((f) => path.join(corpus, f));

const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Inspector latency on the loaded page: pixel traces at the page size, scrubbing at 256². */
async function measureInspector(page) {
  const traces = [];
  for (let i = 0; i < 12; i += 1) {
    const x = (37 * i + 11) % size;
    const y = (53 * i + 7) % size;
    traces.push(await page.evaluate(async ([x, y]) => {
      const t0 = performance.now();
      await window.tgsiPlayground.inspect(x, y);
      // The panel is built synchronously after the trace arrives; wait for it to be painted.
      await new Promise((r) => requestAnimationFrame(() => r(null)));
      return performance.now() - t0;
    }, [x, y]));
  }
  await page.selectOption('#size', '256');
  await page.waitForTimeout(1500);
  await page.selectOption('#view-mode', 'value');
  await page.waitForTimeout(1000);
  const positions = await page.evaluate(() => Number(document.querySelector('#probe-pc').max) + 1);
  const scrubs = [];
  for (let pc = 0; pc < Math.min(positions, 24); pc += 1) {
    scrubs.push(await page.evaluate(async (pc) => {
      const overlay = document.querySelector('#overlay');
      const before = Number(overlay.dataset.probes ?? 0);
      const slider = document.querySelector('#probe-pc');
      const t0 = performance.now();
      slider.value = String(pc);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      while (Number(overlay.dataset.probes ?? 0) <= before) await new Promise((r) => setTimeout(r, 1));
      return performance.now() - t0;
    }, pc));
  }
  return `inspect a pixel at ${size}x${size}: median ${median(traces).toFixed(1)} ms (max ${Math.max(...traces).toFixed(1)}); ` +
    `scrub one position at 256x256: median ${median(scrubs).toFixed(1)} ms (max ${Math.max(...scrubs).toFixed(1)}, ${scrubs.length} positions)`;
}

const server = await startServer(0);
const browser = await launchBrowser();
try {
  for (const file of shaders) {
    const text = await readFile(file, 'utf8');
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(server.url);
    await page.waitForSelector('#engine-version[data-state="ready"]', { timeout: 30_000 });
    await page.selectOption('#size', String(size));
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(text);
    await page.waitForTimeout(1500);
    if (inspect) {
      console.log(`${path.basename(file)}: ${await measureInspector(page)}`);
      await page.close();
      continue;
    }
    await page.click('#play');
    const samples = [];
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      await page.waitForTimeout(250);
      const label = await page.textContent('#frame-time');
      const ms = parseFloat(label ?? '');
      if (Number.isFinite(ms)) samples.push(ms);
    }
    samples.sort((a, b) => a - b);
    const median = samples.length ? samples[Math.floor(samples.length / 2)] : NaN;
    console.log(`${path.basename(file)} ${size}x${size}: median ${median.toFixed(1)} ms/frame (${(1000 / median).toFixed(1)} fps, ${samples.length} samples)`);
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
