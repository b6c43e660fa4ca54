// Embedding from another site: the playground's Embed dialog writes element and iframe code for
// the shader in its editor; pasted into a page of a second origin (a second server on another
// port of 127.0.0.1 — its own origin), both draw the shader. The element's module, engine,
// worker and editor come from the playground's server across origins (CORS), the worker from a
// same-origin blob: module. Play controls are in the code only for a shader that reads the time.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ARTIFACTS_DIR, ENGINE, ROOT, launchBrowser, openPage, saveScreenshot, startServer } from './support.mjs';
import { openPlayground } from './playground.mjs';
import { defaultState, encodeState } from '../../web/state.js';

// A constant colour: (0.25, 0.5, 1, 1) is round(255 · v) = (64, 128, 255, 255) in RGBA8.
const FS_STATIC = 'FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 0.2500, 0.5000, 1.0000, 1.0000 }\n  0: MOV OUT[0], IMM[0]\n  1: END\n';
// The same colour plus the time in red: at t = 0 it is (64, 128, 255, 255) too; it reads
// CONST[15][1] (time, time delta, frame), so it is animated.
const FS_TIME = 'FRAG\nDCL OUT[0], COLOR\nDCL CONST[15][1]\nIMM[0] FLT32 { 0.2500, 0.5000, 1.0000, 1.0000 }\n  0: ADD OUT[0], IMM[0], CONST[15][1].xxxx\n  1: END\n';
const EXPECTED = [64, 128, 255, 255];

let scratch;
let site;
let host;
let browser;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'tgsi-embed-'));
  // The playground's server, and the host site: a plain folder on a second origin, serving its
  // pages without a Content-Security-Policy (the host's own business).
  site = await startServer(0);
  host = await startServer(0, { root: scratch, headers: { 'Content-Security-Policy': null } });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await host?.close();
  await site?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/**
 * Opens the playground with `fs` (a share link) and its Embed dialog; resolves to the page
 * (kept open: in Firefox and WebKitGTK the snippets name its origin, a proxy of this tab) and the
 * two snippets.
 */
async function embedCode(fs) {
  const state = { ...defaultState(), fs, size: 128 };
  const { page, problems } = await openPlayground(browser, site, { hash: `#${await encodeState(state)}` });
  await page.locator('#open-embed').click();
  await page.waitForFunction(() => document.querySelector('#embed-element').value.includes('<tgsi-shader'), undefined, { timeout: 20_000 });
  const code = await page.evaluate(() => ({
    element: document.querySelector('#embed-element').value,
    iframe: document.querySelector('#embed-iframe').value,
    origin: location.origin,
  }));
  return { page, problems, ...code };
}

/** A page of the host site holding `body`. */
async function hostPage(name, body) {
  await writeFile(path.join(scratch, name), `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>host</title></head><body style="margin: 0">\n${body}</body></html>`);
  return `${host.url}${name}`;
}

/** The first widget of the page: frames, pixel (3, 3), whether its controls show, origins. */
function widgetState(p, id = null) {
  return p.evaluate((i) => {
    const el = i ? document.getElementById(i) : document.querySelector('tgsi-shader');
    const c = el.shadowRoot.querySelector('canvas');
    const script = document.querySelector('script[type="module"]');
    return {
      frames: el.frames,
      size: [c.width, c.height],
      pixel: Array.from(c.getContext('2d').getImageData(3, 3, 1, 1).data),
      controls: !el.shadowRoot.querySelector('[part="controls"]').hidden,
      pageOrigin: location.origin,
      moduleOrigin: new URL(script.src).origin,
    };
  }, id);
}

/**
 * The colour on screen at the middle of the iframe's canvas (the embed page puts it 4 px + the
 * widget's 1 px border and 6 px padding from its corner, so (75, 75) is the middle of a 128 px
 * canvas): a cross-origin frame's document cannot be read, its pixels on the screen can.
 * Screenshots until that pixel is `want` (or 20 s pass), then the last one seen.
 */
async function iframeScreenPixel(p, want) {
  const deadline = Date.now() + 20_000;
  let seen;
  for (;;) {
    const [left, top, dpr] = await p.evaluate(() => {
      const r = document.querySelector('iframe').getBoundingClientRect();
      return [r.left, r.top, devicePixelRatio];
    });
    const png = await p.screenshot();
    // Decoded in the page, which returns the one pixel.
    seen = await p.evaluate(async ([b64, x, y]) => {
      const blob = await (await fetch(`data:image/png;base64,${b64}`)).blob();
      const bitmap = await createImageBitmap(blob, { colorSpaceConversion: 'none', premultiplyAlpha: 'none' });
      const c = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = c.getContext('2d');
      ctx.drawImage(bitmap, 0, 0);
      return Array.from(ctx.getImageData(x, y, 1, 1).data);
    }, [png.toString('base64'), Math.round((left + 75) * dpr), Math.round((top + 75) * dpr)]);
    if (seen.every((v, i) => Math.abs(v - want[i]) <= 2)) return seen;
    if (Date.now() > deadline) {
      await mkdir(ARTIFACTS_DIR, { recursive: true });
      await writeFile(path.join(ARTIFACTS_DIR, 'embed-iframe-unexpected.png'), png);
      return seen;
    }
    // The next look (the frame's document cannot tell us when it has drawn).
    await p.waitForTimeout(200);
  }
}

/**
 * Whether the iframe code's frame holds the whole embed page (no scrolling, nothing cut): the
 * code pasted into a page of the playground's own origin, whose script may look inside the
 * frame. `p` is the playground's tab (in Firefox and WebKitGTK the code names its proxy's
 * origin, which only that tab reaches as the playground's origin).
 */
async function iframeFits(p, code, name) {
  const dir = path.join(ROOT, 'test-artifacts', `embed-fit-${ENGINE}`);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `${name}.html`), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">\n${code}`);
  await p.goto(`${site.url}test-artifacts/embed-fit-${ENGINE}/${name}.html`);
  await p.waitForFunction(() => (document.querySelector('iframe')?.contentDocument?.querySelector('tgsi-shader')?.frames ?? 0) > 0, undefined, { timeout: 30_000 });
  return p.evaluate(() => {
    const frame = document.querySelector('iframe');
    const root = frame.contentDocument.documentElement;
    return { frame: [frame.clientWidth, frame.clientHeight], content: [root.scrollWidth, root.scrollHeight] };
  });
}

const close = (a, b) => a.length === b.length && a.every((v, i) => Math.abs(v - b[i]) <= 2);

test("a static shader's embed code draws on another site: the element and the iframe, no play controls", { timeout: 120_000 }, async () => {
  const { page, problems, element, iframe, origin } = await embedCode(FS_STATIC);
  try {
    // The code names this server absolutely and says which option it is; no controls.
    assert.ok(element.startsWith(`<!-- <tgsi-shader> served by the TGSI Playground at ${origin}/`), element);
    assert.match(element, /npm package tgsi-shader[\s\S]*node_modules\/tgsi-shader\/tgsi-shader\.js/);
    assert.ok(element.includes(`<script type="module" src="${origin}/web/widget/tgsi-shader.js"></script>`), element);
    assert.match(element, /<tgsi-shader width="128" height="128">/);
    assert.doesNotMatch(element, /controls/);
    assert.match(iframe, new RegExp(`<iframe src="${origin.replace(/[.]/g, '\\.')}/embed\\.html#s=1\\.[A-Za-z0-9_-]+" width="\\d+" height="\\d+"`));

    const { page: q, problems: hostProblems } = await openPage(browser);
    await q.goto(await hostPage('element.html', element));
    await q.waitForFunction(() => (document.querySelector('tgsi-shader')?.frames ?? 0) > 0, undefined, { timeout: 30_000 });
    const shown = await widgetState(q);
    assert.notEqual(shown.pageOrigin, shown.moduleOrigin, 'the host page and the module are of one origin');
    assert.equal(shown.moduleOrigin, origin);
    assert.deepEqual(shown.size, [128, 128]);
    assert.deepEqual(shown.pixel, EXPECTED);
    assert.equal(shown.controls, false, 'a static shader shows play controls');
    await saveScreenshot(q, 'embed-element-cross-origin');

    await q.goto(await hostPage('iframe.html', iframe));
    const onScreen = await iframeScreenPixel(q, EXPECTED);
    assert.ok(close(onScreen, EXPECTED), `the iframe shows ${onScreen} at its canvas's middle, not ${EXPECTED}`);
    await saveScreenshot(q, 'embed-iframe-cross-origin');
    assert.deepEqual(hostProblems, [], 'the host pages reported problems');
    await q.close();

    const fit = await iframeFits(page, iframe, 'static');
    assert.ok(fit.content[0] <= fit.frame[0] && fit.content[1] <= fit.frame[1], `the embed page (${fit.content}) does not fit its frame (${fit.frame})`);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

test('an animated shader gets play controls in both embeds; from another site it plays, and an editable widget opens its editor', { timeout: 120_000 }, async () => {
  const { page, problems, element, iframe, origin } = await embedCode(FS_TIME);
  try {
    assert.match(element, /<tgsi-shader width="128" height="128" controls>/);
    const src = /<iframe src="([^"]+)"/.exec(iframe)?.[1].replace(/&amp;/g, '&') ?? '';
    assert.ok(src.startsWith(`${origin}/embed.html?controls#s=1.`), src);

    // The element snippet on the host site, and beside it an editable widget from the same module.
    const editable = `<tgsi-shader id="ed" width="64" height="64" editable>\n  <script type="text/x-tgsi">\n${FS_STATIC}  </script>\n</tgsi-shader>\n`;
    const { page: q, problems: hostProblems } = await openPage(browser);
    await q.goto(await hostPage('animated.html', `${element}\n${editable}`));
    await q.waitForFunction(() => (document.querySelector('tgsi-shader')?.frames ?? 0) > 0, undefined, { timeout: 30_000 });
    const still = await widgetState(q);
    assert.notEqual(still.pageOrigin, still.moduleOrigin);
    // At t = 0 the time adds nothing.
    assert.deepEqual(still.pixel, EXPECTED);
    assert.equal(still.controls, true, 'an animated shader has no play controls');
    // Play: the clock runs and frames follow.
    await q.evaluate(() => document.querySelector('tgsi-shader').shadowRoot.querySelector('[part~="play"]').click());
    await q.waitForFunction(() => document.querySelector('tgsi-shader').time > 0.2 && document.querySelector('tgsi-shader').frames > 2, undefined, { timeout: 30_000 });
    await q.evaluate(() => document.querySelector('tgsi-shader').pause());

    // The editor comes from the playground's server too (a bundle: no bare module names).
    await q.evaluate(() => document.getElementById('ed').shadowRoot.querySelector('[part~="edit"]').click());
    await q.waitForFunction(() => document.getElementById('ed').shadowRoot?.querySelector('.cm-editor') !== null
      || document.getElementById('ed').shadowRoot.querySelector('.diagnostics li') !== null, undefined, { timeout: 30_000 });
    const editor = await q.evaluate(() => ({
      text: document.getElementById('ed').shadowRoot.querySelector('.cm-content')?.textContent ?? '',
      diagnostics: document.getElementById('ed').shadowRoot.querySelector('.diagnostics').textContent,
    }));
    assert.equal(editor.diagnostics, '');
    assert.match(editor.text, /MOV OUT\[0\], IMM\[0\]/);
    await saveScreenshot(q, 'embed-animated-cross-origin');
    assert.deepEqual(hostProblems, [], 'the host page reported problems');
    await q.close();

    // The iframe page reads `?controls`: with it the controls show, without it they do not.
    const u = new URL(src);
    for (const [search, controls] of [[u.search, true], ['', false]]) {
      const { page: r, problems: embedProblems } = await openPage(browser);
      await r.goto(`${site.url}embed.html${search}${u.hash}`);
      await r.waitForFunction(() => (document.querySelector('tgsi-shader')?.frames ?? 0) > 0, undefined, { timeout: 30_000 });
      const shown = await widgetState(r);
      assert.equal(shown.controls, controls, `embed.html${search}`);
      assert.deepEqual(shown.pixel, EXPECTED);
      assert.deepEqual(embedProblems, []);
      await r.close();
    }
    const fit = await iframeFits(page, iframe, 'animated');
    assert.ok(fit.content[0] <= fit.frame[0] && fit.content[1] <= fit.frame[1], `the embed page with controls (${fit.content}) does not fit its frame (${fit.frame})`);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

test("a host page with a strict Content-Security-Policy runs the element code when it names the playground's origin", { timeout: 120_000 }, async () => {
  const { page, problems, element, origin } = await embedCode(FS_STATIC);
  // What README and widget.html say such a host needs: the playground's origin in script-src,
  // connect-src (the wasm) and worker-src (the worker's module, imported by a blob: worker, which
  // worker-src must also allow), and 'wasm-unsafe-eval'; nothing inline, no eval.
  const csp = `default-src 'none'; script-src 'self' ${origin} 'wasm-unsafe-eval'; worker-src blob: ${origin}; connect-src ${origin}; style-src 'self'; img-src 'self' data:`;
  const strict = await startServer(0, { root: scratch, headers: { 'Content-Security-Policy': csp } });
  try {
    await writeFile(path.join(scratch, 'strict.html'), `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>strict host</title></head><body>\n${element}</body></html>`);
    const { page: q, problems: hostProblems } = await openPage(browser);
    await q.goto(`${strict.url}strict.html`);
    await q.waitForFunction(() => (document.querySelector('tgsi-shader')?.frames ?? 0) > 0, undefined, { timeout: 30_000 });
    const shown = await widgetState(q);
    assert.notEqual(shown.pageOrigin, shown.moduleOrigin);
    assert.deepEqual(shown.pixel, EXPECTED);
    assert.deepEqual(hostProblems, [], 'CSP violations or errors on the host page');
    await q.close();
    assert.deepEqual(problems, []);
  } finally {
    await strict.close();
    await page.close();
  }
});

// WebKitGTK's MiniBrowser window is at least 447 px wide (under Xvfb): there the phone is 450 px.
const SIZES = [[1280, 800], [1920, 1080], ENGINE === 'webkit' ? [450, 844] : [390, 844]];

test('widget.html shows each example beside its markup (below it on a phone) and the Embed dialog fits, at three window sizes', { timeout: 240_000 }, async () => {
  const state = { ...defaultState(), fs: FS_TIME, size: 256 };
  const hash = `#${await encodeState(state)}`;
  for (const [width, height] of SIZES) {
    // A fresh window of each size (WebKitGTK's windows do not shrink to a phone's width), one
    // per page (the WebDriver adapter's contexts hold one page each).
    const context = await browser.newContext({ viewport: { width, height } });
    const { page: p, problems } = await openPage(context);
    await p.goto(`${site.url}widget.html#examples`);
    await p.waitForFunction(() => [...document.querySelectorAll('.example')].every((ex) => ex.querySelector('pre.markup')), undefined, { timeout: 20_000 });
    const boxes = await p.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      examples: [...document.querySelectorAll('.example')].map((ex) => {
        const w = ex.querySelector('tgsi-shader').getBoundingClientRect();
        const c = ex.querySelector('pre.markup').getBoundingClientRect();
        return { id: ex.querySelector('tgsi-shader').id, w: [w.left, w.top, w.right, w.bottom], c: [c.left, c.top, c.right, c.bottom] };
      }),
    }));
    assert.ok(boxes.scrollWidth <= width, `${width}x${height}: the page is ${boxes.scrollWidth} px wide`);
    for (const { id, w, c } of boxes.examples) {
      assert.ok(c[2] <= width, `${width}: the markup of ${id} ends at ${c[2]}`);
      if (width >= 1280) {
        assert.ok(c[0] >= w[2], `${width}: the markup of ${id} (${c}) is not beside its widget (${w})`);
        assert.ok(Math.abs(c[1] - w[1]) <= 1, `${width}: the markup of ${id} does not start level with its widget`);
      } else {
        assert.ok(c[1] >= w[3], `${width}: the markup of ${id} (${c}) is not below its widget (${w})`);
      }
    }
    await saveScreenshot(p, `widget-page-${width}x${height}`);
    assert.deepEqual(problems, []);
    await p.close();
    await context.close();

    const dialogContext = await browser.newContext({ viewport: { width, height } });
    const { page: q, problems: playgroundProblems } = await openPlayground(browser, site, { hash, context: dialogContext });
    // The button's own click (the other tests click it as a user does; here the dialog's layout
    // is what is looked at).
    await q.evaluate(() => document.getElementById('open-embed').click());
    await q.waitForFunction(() => document.querySelector('#embed-element').value.includes('<tgsi-shader'), undefined, { timeout: 20_000 });
    const box = await q.evaluate(() => {
      const rect = (sel) => { const r = document.querySelector(sel).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
      return { dialog: rect('#embed-dialog'), element: rect('#embed-element'), iframe: rect('#embed-iframe') };
    });
    assert.ok(box.dialog[0] >= 0 && box.dialog[2] <= width, `${width}: the dialog (${box.dialog}) leaves the window`);
    for (const k of ['element', 'iframe']) assert.ok(box[k][0] >= box.dialog[0] && box[k][2] <= box.dialog[2], `${width}: the ${k} code (${box[k]}) leaves the dialog (${box.dialog})`);
    await q.screenshot({ path: path.join(ARTIFACTS_DIR, `embed-dialog-${width}x${height}.png`) });
    assert.deepEqual(playgroundProblems, []);
    await q.close();
    await dialogContext.close();
  }
});
