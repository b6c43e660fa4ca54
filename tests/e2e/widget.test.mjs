// The <tgsi-shader> widget as a documentation site gets it: the npm package as built
// (scripts/build-package.mjs, `npm test`'s package step; built here only when missing) is packed,
// installed with npm into a scratch folder outside the source tree,
// and plain HTML pages there use it. Pixels are compared with `tgsi render` of the same shader.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { ROOT, launchBrowser, openPage, saveScreenshot, startServer } from './support.mjs';
import { decodePng, fromBase64, runTgsi } from './playground.mjs';
import { defaultBinding, makeTexture, textureDescription } from '../../web/textures.js';
import { decodeState, encodeState, defaultState } from '../../web/state.js';
import { program } from '../../web/programs.js';

const run = promisify(execFile);

let scratch;
let server;
let browser;
let pkgDir;

// The programs of widget.html's examples (programs/): these pages show them through the packed widget.
const FS_RAMP = program('shared/input-colour');
const FS_CONST = program('widget/constant');
const FS_TEX = program('widget/checker');
const VS_QUAD = program('widget/quad.vs');
const FS_SQUARE = program('widget/square');
// TEMP[7] is not declared: the validator's message names line 3, column 18.
const FS_BROKEN = program('widget/broken');
const FS_ANIMATED = 'FRAG\nDCL OUT[0], COLOR\nDCL CONST[15][1]\nDCL TEMP[0]\n  0: FRC TEMP[0], CONST[15][1].xxxx\n  1: MOV OUT[0], TEMP[0]\n  2: END\n';

const script = (type, text) => `<script type="${type}">\n${text}</script>`;
const widget = (attrs, body) => `<tgsi-shader ${attrs}>${body}</tgsi-shader>`;
const page = (body) => `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="node_modules/tgsi-shader/tgsi-shader.js"></script>
<style>body { margin: 0; } tgsi-shader { display: block; margin: 4px; }</style></head><body>${body}</body></html>`;

/** The checker texture with nearest filtering, as the widget's `textures="0=checker,nearest"` binds it. */
const checkerNearest = () => textureDescription(makeTexture('checker'), { ...defaultBinding(), name: 'checker', min: 'nearest', mag: 'nearest' });

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'tgsi-widget-'));
  const { stdout } = await run('node', [path.join(ROOT, 'scripts/build-package.mjs'), '--pack-built', path.join(scratch, 'tarball')], { cwd: ROOT });
  const tarball = stdout.trim().split('\n').pop();
  await writeFile(path.join(scratch, 'package.json'), '{ "name": "widget-host", "private": true }\n');
  await run('npm', ['install', '--no-audit', '--no-fund', '--offline', tarball], { cwd: scratch });
  pkgDir = path.join(scratch, 'node_modules', 'tgsi-shader');
  await mkdir(path.join(scratch, 'shaders'));
  await writeFile(path.join(scratch, 'shaders', 'ramp.tgsi'), FS_RAMP);
  await writeFile(path.join(scratch, 'many.html'), page([
    widget('id="inline" width="64" height="64" label="inline"', script('text/x-tgsi', FS_RAMP)),
    widget('id="src" width="64" height="48" src="shaders/ramp.tgsi"', ''),
    widget('id="consts" width="32" height="32" constants="0:0=0.9,0.4,0.1,1"', script('text/x-tgsi', FS_CONST)),
    widget('id="tex" width="64" height="64" textures="0=checker,nearest"', script('text/x-tgsi', FS_TEX)),
    widget('id="broken" width="32" height="32"', script('text/x-tgsi', FS_BROKEN)),
    widget('id="vs" width="64" height="64" mesh="quad"', script('text/x-tgsi-vs', VS_QUAD) + script('text/x-tgsi', FS_RAMP)),
  ].join('\n')));
  const forty = Array.from({ length: 40 }, (_, i) => widget(`id="w${i}" width="64" height="64" autoplay`, script('text/x-tgsi', FS_ANIMATED))).join('\n');
  await writeFile(path.join(scratch, 'forty.html'), page(`<div style="height: 10px"></div>${forty}`));
  await writeFile(path.join(scratch, 'one.html'), page(widget('id="one" width="48" height="48" editable inspect agal', script('text/x-tgsi', FS_SQUARE))));
  // The page's own script is a file: the server's Content-Security-Policy forbids inline scripts.
  await writeFile(path.join(scratch, 'api.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module" src="api.js"></script>');
  await writeFile(path.join(scratch, 'api.js'), `
import { render, validate, version } from './node_modules/tgsi-shader/engine.js';
window.apiResult = (async () => ({
  version: await version(),
  good: await validate(${JSON.stringify(FS_CONST)}),
  bad: await validate(${JSON.stringify(FS_BROKEN)}),
  frame: await render(${JSON.stringify(FS_CONST)}, null, { width: 2, height: 2, consts: ['0:0=1,0.5,0,1'] }),
}))().then((r) => ({ ...r, frame: { ok: r.frame.ok, pixels: Array.from(r.frame.pixels) } }), (e) => ({ error: String(e) }));
`);
  await writeFile(path.join(scratch, 'link.html'), page(widget('id="linked" width="64" height="64" constants="0:0=0.5,0.25,1,1" textures="0=gradient,nearest,clamp" playground="https://example.org/play/index.html"', script('text/x-tgsi', FS_CONST))
    + widget('id="reduced" width="16" height="16" autoplay', script('text/x-tgsi', FS_ANIMATED))));
  server = await startServer(0, { root: scratch });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Waits until widget `id` has drawn more than `after` frames; resolves to its frame count. */
async function framesAbove(p, id, after = 0, timeout = 20_000) {
  await p.waitForFunction(([i, n]) => (document.getElementById(i)?.frames ?? 0) > n, [id, after], { timeout });
  return p.evaluate((i) => document.getElementById(i).frames, id);
}

/** A widget's canvas as RGBA bytes, top row first. */
async function widgetPixels(p, id) {
  const data = await p.evaluate((i) => {
    const c = document.getElementById(i).shadowRoot.querySelector('canvas');
    const bytes = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let s = '';
    for (let k = 0; k < bytes.length; k += 0x8000) s += String.fromCharCode(...bytes.subarray(k, k + 0x8000));
    return { width: c.width, height: c.height, data: btoa(s) };
  }, id);
  return { ...data, data: fromBase64(data.data) };
}

/** `tgsi render` of the same inputs, decoded in the browser like the canvas. */
async function cliPixels(p, files, args) {
  const out = await runTgsi(['render', ...args, '-o', 'out.png'], files);
  try {
    return await decodePng(p, await out.read('out.png'));
  } finally {
    await out.cleanup();
  }
}

function assertSamePixels(actual, expected, what) {
  assert.equal(actual.width, expected.width, `${what}: width`);
  assert.equal(actual.height, expected.height, `${what}: height`);
  const diff = actual.data.findIndex((v, i) => v !== expected.data[i]);
  assert.equal(diff, -1, `${what}: first differing byte ${diff} (pixel ${Math.floor(diff / 4)}): widget ${actual.data[diff]}, tgsi render ${expected.data[diff]}`);
}

test('the packed widget renders inline, src, constants, textures and vertex-shader widgets as tgsi render does; a broken one only shows its diagnostic', { timeout: 120_000 }, async () => {
  const { page: p, problems } = await openPage(browser);
  await p.goto(`${server.url}many.html`);
  for (const id of ['inline', 'src', 'consts', 'tex', 'vs']) await framesAbove(p, id);
  await p.waitForFunction(() => document.getElementById('broken').shadowRoot?.querySelector('.diagnostics li') !== null, undefined, { timeout: 20_000 });
  await saveScreenshot(p, 'widget-many');

  assertSamePixels(await widgetPixels(p, 'inline'), await cliPixels(p, { 'fs.tgsi': FS_RAMP }, ['fs.tgsi', '--size', '64x64']), 'inline source');
  assertSamePixels(await widgetPixels(p, 'src'), await cliPixels(p, { 'fs.tgsi': FS_RAMP }, ['fs.tgsi', '--size', '64x48']), 'src');
  assertSamePixels(await widgetPixels(p, 'consts'), await cliPixels(p, { 'fs.tgsi': FS_CONST }, ['fs.tgsi', '--size', '32x32', '--const', '0:0=0.9,0.4,0.1,1']), 'constants');
  assertSamePixels(await widgetPixels(p, 'tex'), await cliPixels(p, { 'fs.tgsi': FS_TEX, 'checker.json': checkerNearest() }, ['fs.tgsi', '--size', '64x64', '--texture', '0=checker.json']), 'textures');
  assertSamePixels(await widgetPixels(p, 'vs'), await cliPixels(p, { 'fs.tgsi': FS_RAMP, 'vs.tgsi': VS_QUAD }, ['fs.tgsi', '--vs', 'vs.tgsi', '--mesh', 'quad', '--size', '64x64']), 'vertex shader and mesh');

  // The broken widget: its diagnostic (line:column, code, message) as text; no frame.
  const broken = await p.evaluate(() => {
    const el = document.getElementById('broken');
    return { text: el.shadowRoot.querySelector('.diagnostics').textContent, frames: el.frames };
  });
  assert.match(broken.text, /^3:\d+: error V\d+: .*TEMP\[7\]/, broken.text);
  assert.equal(broken.frames, 0);
  assert.deepEqual(problems, [], 'the host page saw no error');
  await p.close();
});

test('events fire, attribute changes draw again, and renderFrame/toBlob give the frame', { timeout: 60_000 }, async () => {
  const { page: p, problems } = await openPage(browser);
  await p.goto(`${server.url}many.html`);
  await framesAbove(p, 'consts');
  const seen = await p.evaluate(async () => {
    const el = document.getElementById('consts');
    const events = [];
    for (const type of ['compile', 'render', 'error']) el.addEventListener(type, (e) => events.push([type, e.detail.message ?? null]));
    const before = el.frames;
    const intoSpareBefore = el.framesIntoSpare;
    el.setAttribute('constants', '0:0=0.2,0.4,0.6,1');
    await new Promise((resolve) => el.addEventListener('render', resolve, { once: true }));
    const px = Array.from(el.shadowRoot.querySelector('canvas').getContext('2d').getImageData(0, 0, 1, 1).data);
    const intoSpare = el.framesIntoSpare;
    el.source = 'FRAG\nDCL OUT[0], COLOR\n  0: MOV OUT[0], TEMP[1]\n  1: END\n';
    await new Promise((resolve) => el.addEventListener('error', resolve, { once: true }));
    el.source = 'FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 1.0000, 0.0000, 1.0000, 1.0000 }\n  0: MOV OUT[0], IMM[0]\n  1: END\n';
    const frame = await el.renderFrame(0);
    const blob = await el.toBlob();
    return { before, after: el.frames, px, events, frame, blobType: blob.type, blobSize: blob.size, intoSpareBefore, intoSpare };
  });
  assert.ok(seen.after > seen.before, 'a changed attribute drew a new frame');
  // The frame after the first is drawn into the buffer of the one before (`pixelsInto`), and
  // what it shows is the new frame's: round(255 · (0.2, 0.4, 0.6, 1)) = (51, 102, 153, 255).
  assert.ok(seen.intoSpare > seen.intoSpareBefore, `no frame was drawn into the spare buffer: ${JSON.stringify(seen)}`);
  assert.deepEqual(seen.px, [51, 102, 153, 255]);
  const types = seen.events.map((e) => e[0]);
  assert.ok(types.includes('render'), JSON.stringify(seen.events));
  assert.ok(types.includes('compile'), JSON.stringify(seen.events));
  assert.ok(seen.events.some(([t, m]) => t === 'error' && /TEMP\[1\]/.test(m)), JSON.stringify(seen.events));
  assert.equal(seen.frame.ok, true);
  assert.equal(seen.blobType, 'image/png');
  assert.ok(seen.blobSize > 0);
  assert.deepEqual(problems, []);
  await p.close();
});

test('of forty animated widgets only those in view draw, and a hidden tab stops them all', { timeout: 90_000 }, async () => {
  const { page: p, problems } = await openPage(browser);
  await p.setViewportSize({ width: 800, height: 400 });
  await p.goto(`${server.url}forty.html`);
  await framesAbove(p, 'w0', 3);
  const frames = () => p.evaluate(() => Array.from(document.querySelectorAll('tgsi-shader'), (el) => el.frames));
  const first = await frames();
  // Each widget is about 90 px tall: rows far below the 400 px viewport (and its 100 px margin) never drew.
  assert.ok(first.slice(20).every((n) => n === 0), `offscreen widgets drew: ${first.join(',')}`);
  assert.ok(first[0] > 0 && first[1] > 0, `visible widgets did not draw: ${first.join(',')}`);

  await p.evaluate(() => document.getElementById('w39').scrollIntoView());
  await framesAbove(p, 'w39', 1);
  const scrolled = await frames();
  const topAfterScroll = scrolled[0];
  await p.waitForTimeout(600);
  assert.equal((await frames())[0], topAfterScroll, 'a widget scrolled out of view kept drawing');

  // Hidden tab: the document says so and tells its listeners (as a browser does on a tab switch).
  await p.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await p.waitForTimeout(300);
  const hidden = await frames();
  await p.waitForTimeout(800);
  assert.deepEqual(await frames(), hidden, 'widgets drew in a hidden tab');
  await p.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await framesAbove(p, 'w39', hidden[39]);
  assert.deepEqual(problems, []);
  await p.close();
});

test('editable loads the editor only when clicked; inspect traces a pixel; agal shows the export', { timeout: 90_000 }, async () => {
  const { page: p, problems } = await openPage(browser);
  await p.goto(`${server.url}one.html`);
  await framesAbove(p, 'one');
  const loaded = () => p.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name.split('/').pop()));
  assert.ok(!(await loaded()).includes('edit.js'), `the editor loaded before "Edit": ${(await loaded()).join(', ')}`);
  await p.evaluate(() => document.getElementById('one').shadowRoot.querySelector('[part~="edit"]').click());
  await p.waitForFunction(() => document.getElementById('one').shadowRoot?.querySelector('.cm-editor') !== null, undefined, { timeout: 20_000 });
  assert.ok((await loaded()).includes('edit.js'), 'the editor module was not fetched');
  const editorText = await p.evaluate(() => document.getElementById('one').shadowRoot.querySelector('.cm-content').textContent);
  assert.match(editorText, /MUL TEMP\[0\], IN\[0\], IN\[0\]/);

  // inspect: pixel (5, 6) of 48×48. GENERIC[0] is (u, v) at the pixel centre, v from the bottom:
  // u = 5.5/48, v = (48 − 6.5)/48; MUL squares them, so TEMP[0].x = (5.5/48)², TEMP[0].y = (41.5/48)².
  const trace = await p.evaluate(async () => {
    const t = await document.getElementById('one').inspectPixel(5, 6);
    const panel = document.getElementById('one').shadowRoot.querySelector('.inspector');
    const canvas = document.getElementById('one').shadowRoot.querySelector('canvas');
    return { lane: t.lane, pixel: t.pixel, steps: t.steps.map((s) => ({ text: s.text, writes: s.writes.map((w) => [w.reg, w.chan, w.after[t.lane]]) })), shown: !panel.hidden, panel: panel.textContent,
      outputs: t.outputs, canvas: Array.from(canvas.getContext('2d').getImageData(5, 6, 1, 1).data) };
  });
  assert.deepEqual(trace.pixel, [5, 6]);
  assert.equal(trace.shown, true);
  const f32 = (bits) => new Float32Array(new Uint32Array([bits]).buffer)[0];
  const mul = trace.steps.find((s) => s.text.startsWith('MUL'));
  const x = mul.writes.find((w) => w[0] === 'TEMP[0]' && w[1] === 'x');
  const y = mul.writes.find((w) => w[0] === 'TEMP[0]' && w[1] === 'y');
  assert.ok(Math.abs(f32(x[2]) - (5.5 / 48) ** 2) < 1e-6, `TEMP[0].x = ${f32(x[2])}`);
  assert.ok(Math.abs(f32(y[2]) - (41.5 / 48) ** 2) < 1e-5, `TEMP[0].y = ${f32(y[2])}`);
  assert.match(trace.panel, /Pixel \(5, 6\)/);
  // The trace is of the frame on the canvas: its colour output, as RGBA8 (round(255 · clamp(v))),
  // is the canvas pixel.
  const colour = trace.outputs.find((o) => o.semantic === 'COLOR').bits.map((b) => Math.round(255 * Math.min(1, Math.max(0, f32(b)))));
  assert.deepEqual(colour, trace.canvas);

  const agal = await p.evaluate(async () => {
    const box = document.getElementById('one').shadowRoot.querySelector('.agal');
    for (let i = 0; i < 100 && !box.textContent; i += 1) await new Promise((r) => setTimeout(r, 100));
    return { hidden: box.hidden, text: box.textContent };
  });
  assert.equal(agal.hidden, false);
  assert.match(agal.text, /^AGAL \d/);
  assert.match(agal.text, /\bmul\b/);
  assert.deepEqual(problems, []);
  await p.close();
});

test('hostile attributes and sources show as text or a clear error, never markup or a hang', { timeout: 90_000 }, async () => {
  const hostile = page([
    widget('id="h-label" width="16" height="16" label="&lt;img src=x onerror=&quot;window.pwned=1&quot;&gt;"', script('text/x-tgsi', FS_RAMP)),
    widget('id="h-diag" width="16" height="16"', script('text/x-tgsi', 'FRAG\nDCL OUT[0], COLOR\n  0: MOV OUT[0], <b>bold</b>\n  1: END\n')),
    widget('id="h-huge" width="100000000" height="16"', script('text/x-tgsi', FS_RAMP)),
    widget('id="h-nan" width="abc" height="-3"', script('text/x-tgsi', FS_RAMP)),
    widget('id="h-time" width="16" height="16" time="soon"', script('text/x-tgsi', FS_RAMP)),
    widget('id="h-tex" width="16" height="16" textures="0=javascript:alert(1)"', script('text/x-tgsi', FS_TEX)),
    widget('id="h-const" width="16" height="16" constants="0:99999=1,2"', script('text/x-tgsi', FS_CONST)),
    widget('id="h-loop" width="16" height="16"', script('text/x-tgsi', 'FRAG\nDCL OUT[0], COLOR\n  0: BGNLOOP\n  1: ENDLOOP\n  2: END\n')),
    widget('id="h-empty" width="16" height="16"', ''),
  ].join('\n'));
  await writeFile(path.join(scratch, 'hostile.html'), hostile);
  const { page: p, problems } = await openPage(browser);
  await p.setViewportSize({ width: 800, height: 2000 });
  await p.goto(`${server.url}hostile.html`);
  const ids = ['h-diag', 'h-huge', 'h-nan', 'h-time', 'h-tex', 'h-const', 'h-loop', 'h-empty'];
  // Every one of them says what is wrong within the time limit (the endless loop: the budget).
  await p.waitForFunction((list) => list.every((i) => document.getElementById(i).shadowRoot?.querySelector('.diagnostics li')), ids, { timeout: 30_000 })
    .catch(() => {});
  const report = await p.evaluate((list) => Object.fromEntries(list.map((i) => {
    const root = document.getElementById(i).shadowRoot;
    return [i, { text: root.querySelector('.diagnostics').textContent, markup: root.querySelectorAll('b, img:not([part="poster"]), script').length }];
  })), [...ids, 'h-label']);
  for (const id of ids) assert.equal(report[id].markup, 0, `${id} made elements from its input`);
  for (const id of ids) assert.notEqual(report[id].text, '', `${id} says nothing: ${JSON.stringify(report)}`);
  assert.match(report['h-diag'].text, /^3:\d+: error/);
  assert.match(report['h-huge'].text, /width="100000000": give a whole number of pixels from 1 to 1024/);
  assert.match(report['h-nan'].text, /width="abc"/);
  assert.match(report['h-time'].text, /time="soon": give a number of seconds/);
  assert.match(report['h-tex'].text, /texture/);
  assert.match(report['h-const'].text, /out of range/);
  assert.match(report['h-loop'].text, /X005|budget|stopped/i);
  assert.match(report['h-empty'].text, /no shader/);
  const label = await p.evaluate(() => ({
    aria: document.getElementById('h-label').shadowRoot.querySelector('canvas').getAttribute('aria-label'),
    imgs: document.getElementById('h-label').shadowRoot.querySelectorAll('img:not([part="poster"])').length,
    pwned: window.pwned ?? null,
  }));
  assert.equal(label.aria, '<img src=x onerror="window.pwned=1">');
  assert.equal(label.imgs, 0);
  assert.equal(label.pwned, null);
  // Failed texture fetches are the host's business to see; nothing else went wrong.
  assert.deepEqual(problems.filter((m) => !/javascript:|request failed|Fetch API|fetch/i.test(m)), []);
  await p.close();
});

test('the iframe embed renders a share link under a strict Content-Security-Policy', { timeout: 60_000 }, async () => {
  const csp = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data: blob:";
  const strict = await startServer(0, { headers: { 'Content-Security-Policy': csp } });
  try {
    const state = { ...defaultState(), fs: FS_CONST, size: 128, constants: { '0:0': [0.25, 0.5, 1, 1] } };
    const { page: p, problems } = await openPage(browser);
    await p.goto(`${strict.url}embed.html#${await encodeState(state)}`);
    await p.waitForFunction(() => (document.querySelector('tgsi-shader')?.frames ?? 0) > 0, undefined, { timeout: 20_000 });
    const px = await p.evaluate(() => {
      const root = document.querySelector('tgsi-shader').shadowRoot;
      const c = root.querySelector('canvas');
      return [c.width, Array.from(c.getContext('2d').getImageData(7, 7, 1, 1).data), getComputedStyle(root.querySelector('.box')).borderTopLeftRadius];
    });
    // round(255 · (0.25, 0.5, 1, 1)) = (64, 128, 255, 255), on a 128×128 canvas; the widget's
    // style sheet applied (its box has the 6 px --tgsi-radius), with no inline style allowed.
    assert.deepEqual(px, [128, [64, 128, 255, 255], '6px']);
    await saveScreenshot(p, 'widget-embed-csp');
    assert.deepEqual(problems, [], 'CSP violations or errors');
    await p.close();
  } finally {
    await strict.close();
  }
});

test('the engine API works without the element', { timeout: 60_000 }, async () => {
  const { page: p, problems } = await openPage(browser);
  await p.goto(`${server.url}api.html`);
  await p.waitForFunction(() => window.apiResult !== undefined, undefined, { timeout: 10_000 });
  const r = await p.evaluate(() => window.apiResult);
  assert.equal(r.error, undefined, r.error);
  assert.match(r.version, /^tgsi-playground \d/);
  assert.deepEqual(r.good, []);
  assert.ok(r.bad.some((d) => d.severity === 'error' && d.line === 3), JSON.stringify(r.bad));
  assert.equal(r.frame.ok, true);
  // (1, 0.5, 0, 1) → round(255 · v) = (255, 128, 0, 255) in each of the 2×2 pixels.
  assert.deepEqual(r.frame.pixels, [255, 128, 0, 255, 255, 128, 0, 255, 255, 128, 0, 255, 255, 128, 0, 255]);
  assert.deepEqual(problems, []);
  await p.close();
});

test('"Open in playground" carries the widget\'s state; reduced motion starts paused with a play button', { timeout: 60_000 }, async () => {
  const { page: p, problems } = await openPage(browser);
  if (p.emulateMedia) await p.emulateMedia({ reducedMotion: 'reduce' });
  await p.goto(`${server.url}link.html`);
  await framesAbove(p, 'linked');
  const href = await p.evaluate(async () => {
    const el = document.getElementById('linked');
    await el.updateLink();
    return el.shadowRoot.querySelector('[part="open-link"]').href;
  });
  assert.ok(href.startsWith('https://example.org/play/index.html#s='), href);
  const state = await decodeState(new URL(href).hash);
  assert.equal(state.fs.trim(), FS_CONST.trim());
  assert.deepEqual(state.constants, { '0:0': [0.5, 0.25, 1, 1] });
  assert.equal(state.textures[0].name, 'gradient');
  assert.equal(state.textures[0].wrap, 'clamp');
  assert.equal(state.textures[0].min, 'nearest');
  if (p.emulateMedia) {
    // With reduced motion the autoplay widget stays still and shows its play button.
    await p.waitForTimeout(800);
    const reduced = await p.evaluate(() => {
      const el = document.getElementById('reduced');
      const bar = el.shadowRoot.querySelector('[part="controls"]');
      return { frames: el.frames, controls: !bar.hidden, button: el.shadowRoot.querySelector('[part~="play"]').textContent };
    });
    assert.deepEqual(reduced, { frames: 1, controls: true, button: 'Play' });
  }
  assert.deepEqual(problems, []);
  await p.close();
});

test('widget.html: every live example draws, only the broken one reports an error, each shows its own markup, the usage code names this module, and the editable one opens its editor', { timeout: 60_000 }, async () => {
  const site = await startServer(0);
  try {
    const { page: p, problems } = await openPage(browser);
    await p.setViewportSize({ width: 1000, height: 5000 });
    await p.goto(`${site.url}widget.html`);
    const ids = await p.evaluate(() => Array.from(document.querySelectorAll('tgsi-shader'), (el) => el.id));
    assert.ok(ids.length >= 9, ids.join(','));
    const working = ids.filter((i) => i !== 'ex-broken');
    await p.waitForFunction((list) => list.every((i) => document.getElementById(i).frames > 0), working, { timeout: 30_000 });
    await p.waitForFunction(() => document.getElementById('ex-broken').shadowRoot?.querySelector('.diagnostics li') !== null, undefined, { timeout: 20_000 });
    const errors = await p.evaluate((list) => list.filter((i) => document.getElementById(i).shadowRoot.querySelector('.diagnostics li')), ids);
    assert.deepEqual(errors, ['ex-broken']);

    // The usage code loads the module this page itself loads, by its absolute URL.
    const usage = await p.evaluate(async () => {
      const text = document.getElementById('usage-code').textContent;
      const src = /<script type="module" src="([^"]+)"><\/script>/.exec(text)?.[1] ?? '';
      return { text, src, page: document.querySelector('head script[type="module"][src$="/tgsi-shader.js"]').src, status: src ? (await fetch(src)).status : 0 };
    });
    assert.equal(usage.src, usage.page, usage.text);
    assert.equal(usage.status, 200);
    assert.match(usage.text, /<tgsi-shader width="160" height="160" label="A colour ramp">\n  <script type="text\/x-tgsi">\n    FRAG\n/);

    // Every example shows its markup, and that markup, parsed, is the element: the same
    // attributes (but the page's id) and the same shader texts (compared line by line, trimmed).
    const examples = await p.evaluate(() => {
      const attrs = (e) => [...e.attributes].filter((a) => a.name !== 'id').map((a) => `${a.name}=${a.value}`).sort();
      const lines = (t) => t.split('\n').map((l) => l.trim()).filter(Boolean);
      return {
        widgets: document.querySelectorAll('#examples tgsi-shader').length,
        shown: [...document.querySelectorAll('#examples .example')].map((ex) => {
          const el = ex.querySelector('tgsi-shader');
          const code = ex.querySelector('pre.markup')?.textContent ?? '';
          const t = document.createElement('template');
          t.innerHTML = code;
          const parsed = t.content.querySelectorAll('tgsi-shader');
          const scripts = (e) => [...e.querySelectorAll('script')].map((s) => [s.type, lines(s.textContent)]);
          return {
            id: el.id, count: parsed.length, code,
            attrs: [attrs(el), parsed[0] ? attrs(parsed[0]) : null],
            scripts: [scripts(el), parsed[0] ? scripts(parsed[0]) : null],
            source: [lines(el.source), parsed[0] ? lines(parsed[0].querySelector('script[type="text/x-tgsi"]').textContent) : null],
          };
        }),
      };
    });
    assert.ok(examples.widgets >= 8, `${examples.widgets} examples`);
    assert.equal(examples.shown.length, examples.widgets, 'an example without its markup');
    for (const ex of examples.shown) {
      assert.equal(ex.count, 1, `${ex.id}: ${ex.code}`);
      assert.deepEqual(ex.attrs[1], ex.attrs[0], `${ex.id}: attributes`);
      assert.deepEqual(ex.scripts[1], ex.scripts[0], `${ex.id}: scripts`);
      assert.deepEqual(ex.source[1], ex.source[0], `${ex.id}: the shader the widget draws`);
    }
    // The markup is indented from its start tag: the first line is the tag, none is deeper than
    // the shader text (the page's own indentation is gone).
    const constants = examples.shown.find((e) => e.id === 'ex-constants').code;
    assert.equal(constants.split('\n')[0], '<tgsi-shader width="128" height="128" constants="0:0=0.9,0.4,0.1,1" label="A constant orange">');
    assert.equal(constants.split('\n').at(-1), '</tgsi-shader>');
    assert.match(constants, /\n  <script type="text\/x-tgsi">\n    FRAG\n/);
    // The examples draw the programs their scripts name (programs/), written in by the page's script.
    const trimmedLines = (/** @type {string} */ t) => t.split('\n').map((l) => l.trim()).filter(Boolean);
    assert.deepEqual(examples.shown.find((e) => e.id === 'ex-constants').source[0], trimmedLines(program('widget/constant')));
    assert.deepEqual(examples.shown.find((e) => e.id === 'ex-mesh').scripts[0].map(([type, lines]) => [type, lines.join('\n')]),
      [['text/x-tgsi-vs', trimmedLines(program('widget/quad.vs')).join('\n')], ['text/x-tgsi', trimmedLines(program('shared/input-colour')).join('\n')]]);
    assert.equal(await p.evaluate(() => document.querySelectorAll('[data-program]').length), 0, 'a program name left in the page');

    // The editable example opens its editor (the bundled one: no bare module names to resolve).
    await p.evaluate(() => document.getElementById('ex-editable').shadowRoot.querySelector('[part~="edit"]').click());
    await p.waitForFunction(() => {
      const root = document.getElementById('ex-editable').shadowRoot;
      return root.querySelector('.cm-editor') !== null || root.querySelector('.diagnostics li') !== null;
    }, undefined, { timeout: 30_000 });
    const editor = await p.evaluate(() => {
      const root = document.getElementById('ex-editable').shadowRoot;
      return { text: root.querySelector('.cm-content')?.textContent ?? '', diagnostics: root.querySelector('.diagnostics').textContent };
    });
    assert.equal(editor.diagnostics, '');
    assert.match(editor.text, /MOV OUT\[0\], IN\[0\]\.yxzw/);
    assert.deepEqual(problems, []);
    await p.close();
  } finally {
    await site.close();
  }
});

test('size budgets: the widget without its editor is at most 40 KB of gzipped JS, its engine at most 250 KB gzipped', async () => {
  const gz = async (file) => gzipSync(await readFile(path.join(pkgDir, file)), { level: 9 }).length;
  // The element's module and the chunks it imports statically (not the lazily loaded editor), and the worker.
  const element = await readFile(path.join(pkgDir, 'tgsi-shader.js'), 'utf8');
  const statics = [...element.matchAll(/from\s*"\.\/([^"]+\.js)"/g)].map((m) => m[1]);
  assert.ok(!statics.some((f) => f.startsWith('edit')), `the editor is imported statically: ${statics}`);
  let js = (await gz('tgsi-shader.js')) + (await gz('worker.js'));
  for (const f of new Set(statics)) js += await gz(f);
  js += await gz('pkg/tgsi.js');
  assert.ok(js <= 40 * 1024, `widget JS is ${js} bytes gzipped (budget 40 KB)`);
  const wasm = await gz('pkg/tgsi_bg.wasm');
  assert.ok(wasm <= 250 * 1024, `widget wasm is ${wasm} bytes gzipped (budget 250 KB)`);
  const files = await readdir(pkgDir);
  for (const f of ['package.json', 'README.md', 'tgsi-shader.d.ts', 'engine.d.ts', 'engine.js']) assert.ok(files.includes(f), `the package lacks ${f}`);
  const pkg = JSON.parse(await readFile(path.join(pkgDir, 'package.json'), 'utf8'));
  assert.equal(pkg.name, 'tgsi-shader');
  assert.equal(pkg.exports['./engine'].default, './engine.js');
});
