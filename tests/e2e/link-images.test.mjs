// User images in share links: a small image travels in the link and the receiver draws the same
// pixels; an image too big for a link becomes an "image not included" marker that the receiver
// sees in the Textures panel, with the checker texture standing in.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, saveScreenshot, startServer } from './support.mjs';
import { canvasPixels, openPlayground, readUntil, renderCount, waitForRender } from './playground.mjs';
import { encodeState } from '../../web/state.js';

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

/** The texture example at 128×128; returns the page and its picture with the checker texture. */
async function openTextureExample(context) {
  const opened = await openPlayground(browser, server, { context });
  const { page } = opened;
  let n = await renderCount(page);
  await page.locator('#size').selectOption('128');
  n = await waitForRender(page, n);
  await page.evaluate(() => window.tgsiPlayground.loadExample('texture'));
  await waitForRender(page, n);
  await page.waitForSelector('fieldset.texture-row[data-unit="0"]');
  // The picture on the canvas must be the texture example's: a frame of the example before it
  // (the size change can be drawn twice) may be the render awaited above. In a WebKitGTK soak
  // that frame became the "checker" and the receiver, rightly drawing the checker, differed
  // from it in 48 966 bytes.
  await page.waitForFunction(() => {
    const hook = window.tgsiPlayground;
    return hook.rendered?.fs === hook.state.fs && hook.rendered?.width === 128
      && document.querySelector('#output')?.getAttribute('data-state') === 'ok';
  }, undefined, { timeout: 20_000 });
  return { ...opened, checker: await canvasPixels(page) };
}

/**
 * Gives SAMP[0]'s file input a PNG made in the page, as a user picking a file would (the
 * input's files and its change event). `kind`: `small` (16×16, opaque, a colour per texel) or
 * `noise` (256×256 random colours and alphas: its PNG is far over 64 KB, and an image with alpha is never sent lossy).
 */
async function pickImage(page, kind) {
  await page.evaluate(async (k) => {
    const size = k === 'small' ? 16 : 256;
    const canvas = document.createElement('canvas');
    canvas.width = size;
    canvas.height = size;
    const image = new ImageData(size, size);
    let seed = 7;
    const next = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed >>> 24; };
    for (let i = 0; i < size * size; i += 1) {
      const x = i % size;
      const y = Math.floor(i / size);
      image.data.set(k === 'small' ? [x * 16, y * 16, 255 - x * 8, 255] : [next(), next(), next(), 128 + (next() >> 1)], i * 4);
    }
    canvas.getContext('2d').putImageData(image, 0, 0);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
    const transfer = new DataTransfer();
    transfer.items.add(new File([blob], `${k}.png`, { type: 'image/png' }));
    const input = document.querySelector('fieldset.texture-row[data-unit="0"] input[type="file"]');
    input.files = transfer.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }, kind);
}

test('a small image travels in the share link and the receiver draws the same pixels', { timeout: 120_000 }, async () => {
  const first = await browser.newContext();
  const { page, problems, checker } = await openTextureExample(first);
  await pickImage(page, 'small');
  await page.waitForFunction(() => window.tgsiPlayground.state.images['0'] && window.tgsiPlayground.rendered?.imageVersion >= 1, undefined, { timeout: 20_000 });
  const picture = await canvasPixels(page);
  assert.ok(differing(picture, checker) > 0, 'the image left the picture unchanged');
  const image = await page.evaluate(() => window.tgsiPlayground.state.images['0']);
  assert.match(image.data, /^data:image\/png;base64,/, 'a 16×16 image goes in as an exact PNG');
  assert.equal(image.lossy, undefined);
  // Another texture drops the image from the link; the image again puts it back.
  const select = page.locator('fieldset.texture-row[data-unit="0"] select').first();
  await select.selectOption('checker');
  await page.waitForFunction(() => !window.tgsiPlayground.state.images['0'], undefined, { timeout: 10_000 });
  await select.selectOption('image file');
  await page.waitForFunction(() => window.tgsiPlayground.state.images['0']?.data, undefined, { timeout: 10_000 });
  const url = await page.evaluate(() => window.tgsiPlayground.copyLink());
  await first.close();

  const fresh = await browser.newContext();
  const { page: other, problems: otherProblems } = await openPlayground(browser, server, { context: fresh, hash: new URL(url).hash });
  await other.waitForFunction(() => window.tgsiPlayground.imagesRestored >= 1 && window.tgsiPlayground.rendered?.imageVersion >= 1, undefined, { timeout: 20_000 });
  assert.equal(differing(await canvasPixels(other), picture), 0, 'the receiver draws another picture');
  assert.equal(await other.locator('fieldset.texture-row[data-unit="0"] select').first().inputValue(), 'image file');
  assert.equal(await other.locator('.image-marker').count(), 0, 'an image that came along is marked as missing');
  await saveScreenshot(other, 'link-image-restored');
  assert.deepEqual([...problems, ...otherProblems], [], 'the pages reported problems');
  await fresh.close();
});

test('an image too big for a link becomes a marker the receiver sees, with the checker standing in', { timeout: 120_000 }, async () => {
  const first = await browser.newContext();
  const { page, problems, checker } = await openTextureExample(first);
  await pickImage(page, 'noise');
  await page.waitForFunction(() => window.tgsiPlayground.state.images['0'] && window.tgsiPlayground.rendered?.imageVersion >= 1, undefined, { timeout: 20_000 });
  const omitted = await page.evaluate(() => window.tgsiPlayground.state.images['0'].omitted);
  assert.ok(omitted, 'the noise image was put in the link');
  assert.equal(omitted.width, 256);
  assert.equal(omitted.height, 256);
  assert.ok(omitted.bytes > 64 * 1024, `the marker says ${omitted.bytes} bytes`);
  // The sender still draws its image, and is told the link will not carry it.
  assert.ok(differing(await canvasPixels(page), checker) > 0, 'the sender does not draw its image');
  assert.match(await page.locator('.image-marker[data-state="omitted"]').textContent(), /too big for share links/);
  const url = await page.evaluate(() => window.tgsiPlayground.copyLink());
  assert.ok(url.length < 20_000, `the link is ${url.length} characters`);
  await first.close();

  const fresh = await browser.newContext();
  const { page: other, problems: otherProblems } = await openPlayground(browser, server, { context: fresh, hash: new URL(url).hash });
  await waitForRender(other, 0);
  const marker = other.locator('fieldset.texture-row[data-unit="0"] .image-marker[data-state="omitted"]');
  await marker.waitFor({ timeout: 20_000 });
  assert.match(await marker.textContent(), /^Image not included in the link: the 256×256 image takes \d+ KB, over the link's 64 KB limit/);
  await other.waitForFunction(() => window.tgsiPlayground.rendered?.width === 128, undefined, { timeout: 20_000 });
  assert.equal(await other.locator('#output').getAttribute('data-state'), 'ok');
  // The picture the receiver settles on is the checker's (a frame drawn while the link's state is
  // still being applied may come first).
  const differ = await readUntil(other, async () => differing(await canvasPixels(other), checker), (d) => d === 0, 20_000);
  if (differ !== 0) {
    // Which side is off (a soak saw this once in WebKitGTK): the first differing pixel of each,
    // the receiver's state and a picture of it.
    const pixels = await canvasPixels(other);
    const i = pixels.findIndex((v, k) => v !== checker[k]) & ~3;
    const seen = await other.evaluate(() => ({ rendered: window.tgsiPlayground.rendered, textures: window.tgsiPlayground.state.textures }));
    await saveScreenshot(other, 'link-image-marker-failed');
    assert.fail(`the checker does not stand in for the missing image: ${differ} bytes differ; pixel ${i / 4}: receiver ${[...pixels.subarray(i, i + 4)]}, sender's checker ${[...checker.subarray(i, i + 4)]}; receiver ${JSON.stringify(seen).slice(0, 400)}`);
  }
  await saveScreenshot(other, 'link-image-marker');
  assert.deepEqual([...problems, ...otherProblems], [], 'the pages reported problems');
  await fresh.close();
});

test('a reload restores a loaded image from the autosave', { timeout: 120_000 }, async () => {
  const context = await browser.newContext();
  const { page, problems } = await openTextureExample(context);
  await pickImage(page, 'small');
  await page.waitForFunction(() => window.tgsiPlayground.state.images['0'] && window.tgsiPlayground.rendered?.imageVersion >= 1, undefined, { timeout: 20_000 });
  const picture = await canvasPixels(page);
  await page.waitForTimeout(500); // the autosave runs 300 ms after the last change
  await page.reload();
  await page.waitForSelector('#engine-version[data-state="ready"]', { timeout: 20_000 });
  await page.waitForFunction(() => window.tgsiPlayground.imagesRestored >= 1 && window.tgsiPlayground.rendered?.imageVersion >= 1, undefined, { timeout: 20_000 });
  assert.equal(differing(await canvasPixels(page), picture), 0, 'the reloaded page draws another picture');
  assert.deepEqual(problems, [], 'the page reported problems');
  await context.close();
});

test('a link whose unit asks for an image file but carries none says so', { timeout: 60_000 }, async () => {
  // A link of this shape comes from a version of the page that kept no images.
  const { page, problems } = await openTextureExample();
  const state = await page.evaluate(() => window.tgsiPlayground.state);
  const fragment = await encodeState({ ...state, textures: { 0: { ...(state.textures['0'] ?? {}), name: 'image file' } }, images: {} });
  const context = await browser.newContext();
  const { page: other, problems: otherProblems } = await openPlayground(browser, server, { context, hash: `#${fragment}` });
  const marker = other.locator('fieldset.texture-row[data-unit="0"] .image-marker[data-state="missing"]');
  await marker.waitFor({ timeout: 20_000 });
  assert.match(await marker.textContent(), /No image file is loaded for this unit: the checker texture stands in/);
  assert.deepEqual([...problems, ...otherProblems], [], 'the pages reported problems');
  await page.close();
  await context.close();
});
