// Textures: the texture choice and the sampler state change the picture, the picture equals
// `tgsi render --texture U=FILE.json` with the same description, and the mip-level texture
// shows each level's own colour where TXL asks for it.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, saveScreenshot, startServer } from './support.mjs';
import { canvasPixels, decodePng, openPlayground, renderCount, runTgsi, waitForRender } from './playground.mjs';

let server;
let browser;

before(async () => {
  server = await startServer(0);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const differing = (a, b) => a.reduce((n, v, i) => n + (v !== b[i] ? 1 : 0), 0);

async function change(page, action) {
  const n = await renderCount(page);
  await action();
  await waitForRender(page, n);
  return canvasPixels(page);
}

test('texture choice and sampler state change the picture as tgsi render draws it', { timeout: 120_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  await change(page, () => page.locator('#size').selectOption('128'));
  const checker = await change(page, () => page.evaluate(() => window.tgsiPlayground.loadExample('texture')));
  const row = page.locator('fieldset.texture-row[data-unit="0"]');
  const gradient = await change(page, () => row.locator('select').first().selectOption('gradient'));
  assert.ok(differing(checker, gradient) > 0, 'choosing another texture left the picture unchanged');
  const wrapMenu = row.locator('label:has-text("wrap") select');
  // Every wrap word of the engine is in the menu (web/textures.js WRAP_NAMES).
  const words = await page.evaluate(() => {
    const label = [...document.querySelectorAll('fieldset.texture-row[data-unit="0"] label')].find((l) => l.textContent?.startsWith('wrap'));
    return [...(label?.querySelector('select')?.options ?? [])].map((o) => o.value);
  });
  assert.deepEqual(words, ['repeat', 'clamp', 'border', 'mirror', 'mirror-clamp', 'mirror-edge', 'mirror-border', 'gl-clamp']);
  const clamped = await change(page, () => wrapMenu.selectOption('clamp'));
  assert.ok(differing(gradient, clamped) > 0, 'clamping left the picture unchanged');
  await saveScreenshot(page, 'textures-clamped');
  // The example samples s, t in [−1, 2]: mirror clamp to edge mirrors the negative half.
  const mirrored = await change(page, () => wrapMenu.selectOption('mirror-edge'));
  assert.ok(differing(clamped, mirrored) > 0, 'mirror clamp to edge drew the clamped picture');

  // The same shader and texture description through the command-line renderer.
  const { fs, description } = await page.evaluate(() => ({
    fs: window.tgsiPlayground.state.fs,
    description: [...window.tgsiPlayground.descriptions.values()].at(-1),
  }));
  const out = await runTgsi(['render', 'fs.tgsi', '--size', '128x128', '--texture', '0=tex.json', '-o', 'out.png'], { 'fs.tgsi': fs, 'tex.json': description });
  const expected = (await decodePng(page, await out.read('out.png'))).data;
  await out.cleanup();
  assert.equal(differing(mirrored, expected), 0, 'the canvas differs from tgsi render --texture');
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('the mip-level texture shows level L colour where TXL asks for level L', { timeout: 60_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  await change(page, () => page.locator('#size').selectOption('128'));
  await page.evaluate(() => window.tgsiPlayground.loadExample('mip-levels'));
  // The frame of this example, not a late frame of the one before (a size change can be drawn
  // twice: by the interpreter, then by the compiled module once it is ready).
  await page.waitForFunction(() => document.querySelector('#output')?.getAttribute('data-state') === 'ok'
    && window.tgsiPlayground.rendered?.fs.includes('TXL'), undefined, { timeout: 30_000 });
  const pixels = await canvasPixels(page);
  // The example's lod is floor(6 * u): columns 0..20 read level 0, 22..41 level 1 (u = (x+0.5)/128).
  // Level colours as the texture defines them: level 0 (230, 60, 60), level 1 (60, 200, 80).
  const at = (x, y) => [...pixels.slice((y * 128 + x) * 4, (y * 128 + x) * 4 + 3)];
  const near = (a, b) => a.every((v, i) => Math.abs(v - b[i]) <= 1);
  assert.ok(near(at(10, 64), [230, 60, 60]), `level 0 column shows ${at(10, 64)}`);
  assert.ok(near(at(30, 64), [60, 200, 80]), `level 1 column shows ${at(30, 64)}`);
  await saveScreenshot(page, 'textures-mip-levels');
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});
