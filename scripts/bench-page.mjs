// Measures the playground page's frame time in headless Chromium: renders each named corpus
// fragment shader (fragment-only mode, uv inputs as the corpus vertex shader gives them) at the
// chosen size with the page's Web Workers, while animating, and prints the median ms per frame.
//
//   node scripts/bench-page.mjs [--size 512] [--seconds 4] [SHADER.tgsi ...]
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
const size = Number(option('size', '512'));
const seconds = Number(option('seconds', '4'));
const corpus = path.join(ROOT, '..', 'shared', 'corpus', 'softpipe');
const shaders = args.length ? args : ['01_arith.tgsi', '26_mandelbrot.tgsi'].map((f) => path.join(corpus, f));

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
