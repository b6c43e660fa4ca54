// The editor: diagnostics at the right place (underline and problems list), hover help from the
// opcode table, examples free of diagnostics, reload and share links that keep the work.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, saveScreenshot, skipIn, startServer } from './support.mjs';
import { canvasPixels, listedProblems, openPlayground, readUntil, renderCount, settle, typeShader, underlines, waitForRender } from './playground.mjs';

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

// Line 3 is `DCL OUT[0], COLOUR`: the misspelt semantic starts at column 13, after the 12
// characters of `DCL OUT[0], `.
const SYNTAX_ERROR = 'FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOUR\n  0: MOV OUT[0], IN[0]\n  1: END\n';

test('a syntax error is underlined at its line and column and listed', { timeout: 60_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  await typeShader(page, SYNTAX_ERROR);
  await page.waitForSelector('#problems li.error', { timeout: 10_000 });
  // Typing replaces the text in steps: the emptied document's P001 ("found end of file") may be
  // listed for a moment before the typed text's own problem.
  const listed = await readUntil(page, async () => (await listedProblems(page)).filter((p) => p.severity === 'error'),
    (errors) => errors.length > 0 && errors[0].code !== 'P001', 10_000);
  assert.ok(listed.length >= 1, 'no error listed');
  assert.deepEqual([listed[0].line, listed[0].column], [3, 13], JSON.stringify(listed));
  await page.waitForSelector('.cm-lintRange-error');
  const marks = (await underlines(page)).filter((u) => u.severity === 'error');
  assert.equal(marks[0].line, 3);
  assert.equal(marks[0].column, 13);
  assert.match(marks[0].text, /^COLOUR/);
  // A gutter mark on that line.
  assert.ok(await page.locator('.cm-lint-marker-error').count() >= 1, 'no gutter mark');

  // Clicking the problem moves the cursor there.
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+Home');
  // The list is rebuilt whenever the text is checked, so a WebDriver click can land on a button
  // that was just replaced: click again (at most three times) until the cursor moves.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    await page.locator('#problems li.error button').first().click();
    const moved = await page.waitForFunction(() => {
      const v = window.tgsiPlayground.editor.view;
      return v.state.doc.lineAt(v.state.selection.main.head).number === 3;
    }, undefined, { timeout: 1_500 }).then(() => true, () => false);
    if (moved) break;
  }
  const cursorAt = () => page.evaluate(() => {
    const v = window.tgsiPlayground.editor.view;
    const pos = v.state.selection.main.head;
    const line = v.state.doc.lineAt(pos);
    return [line.number, pos - line.from + 1];
  });
  assert.deepEqual(await cursorAt(), [3, 13]);
  await saveScreenshot(page, 'editor-syntax-error');
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

// Line 4 reads TEMP[5] while line 3 declares only TEMP[0]: the problem carries the engine's help
// line and a link to the declaration it was compared with. (TEMP[0] is used, so no warning
// covers its declaration: CodeMirror would show one mark of the stronger severity there.)
const UNDECLARED = 'FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\n  0: MOV TEMP[0], TEMP[5]\n  1: MOV OUT[0], TEMP[0]\n  2: END\n';

test('a problem shows its help line and links to the place it refers to', { timeout: 60_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  await typeShader(page, UNDECLARED);
  await page.waitForSelector('#problems li.error .see-line', { timeout: 10_000 });
  const listed = (await listedProblems(page)).filter((p) => p.code === 'V005');
  assert.equal(listed.length, 1, JSON.stringify(listed));
  assert.match(listed[0].text, /help: declare it \(for example `DCL TEMP\[5\]`\)/);
  assert.match(listed[0].text, /see line 3: TEMP\[0\] is declared here/);
  // The related place is marked in the editor too (a faint "hint" mark on the declaration).
  await page.waitForSelector('.cm-lintRange-hint');
  const hinted = await page.evaluate(() => document.querySelector('.cm-lintRange-hint').textContent);
  assert.equal(hinted, 'DCL TEMP[0]');
  // Following the link moves the cursor to the declaration, line 3 column 1.
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  for (let attempt = 0; attempt < 3; attempt += 1) {
    await page.locator('#problems li.error .see-line').first().click();
    const moved = await page.waitForFunction(() => {
      const v = window.tgsiPlayground.editor.view;
      return v.state.doc.lineAt(v.state.selection.main.head).number === 3;
    }, undefined, { timeout: 1_500 }).then(() => true, () => false);
    if (moved) break;
  }
  const at = await page.evaluate(() => {
    const v = window.tgsiPlayground.editor.view;
    const pos = v.state.selection.main.head;
    const line = v.state.doc.lineAt(pos);
    return [line.number, pos - line.from + 1];
  });
  assert.deepEqual(at, [3, 1]);
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('every example loads with no diagnostics', { timeout: 120_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  const ids = await page.$$eval('#gallery-list [data-example]', (b) => b.map((x) => x.dataset.example));
  assert.ok(ids.length >= 12, `only ${ids.length} examples`);
  for (const id of ids) {
    await page.keyboard.press('Alt+E');
    await page.locator(`#gallery-list [data-example="${id}"]`).click();
    await settle(page, 400);
    const expected = await page.evaluate((x) => window.tgsiPlayground.examples.find((e) => e.id === x).expectCodes ?? [], id);
    const listed = (await listedProblems(page)).filter((p) => !expected.includes(p.code));
    assert.deepEqual(listed, [], `example ${id} has diagnostics`);
  }
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('a reload keeps unsaved edits', { timeout: 60_000 }, async () => {
  const context = await browser.newContext();
  const { page, problems } = await openPlayground(browser, server, { context });
  const text = 'FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 0.2500, 0.5000, 0.7500, 1.0000 }\n  0: MOV OUT[0], IMM[0]\n  1: END\n';
  await typeShader(page, text);
  await page.reload();
  await page.waitForSelector('#engine-version[data-state="ready"]');
  const restored = await page.evaluate(() => window.tgsiPlayground.editor.text('fs'));
  assert.equal(restored, text);
  assert.deepEqual(problems, [], 'the page reported problems');
  await context.close();
});

test('two tabs keep their own edits across reloads', {
  timeout: 90_000,
  skip: skipIn({ firefox: 'the WebDriver adapter drives one window per profile', webkit: 'the WebDriver adapter drives one window per profile' }),
}, async () => {
  const context = await browser.newContext();
  const { page: a, problems: pa } = await openPlayground(browser, server, { context });
  const { page: b, problems: pb } = await openPlayground(browser, server, { context });
  const shader = (v) => `FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { ${v}, 0.5000, 0.7500, 1.0000 }\n  0: MOV OUT[0], IMM[0]\n  1: END\n`;
  await typeShader(a, shader('0.1000'));
  await settle(a);
  await typeShader(b, shader('0.9000'));
  await settle(b);
  // Tab A is told that another tab saved (the storage event), and keeps its text.
  await a.waitForFunction(() => /Another tab saved its own edits/.test(document.querySelector('#status').textContent), undefined, { timeout: 5_000 });
  // Tab B saved last; tab A reloads and still has its own text.
  await a.reload();
  await a.waitForSelector('#engine-version[data-state="ready"]');
  assert.equal(await a.evaluate(() => window.tgsiPlayground.editor.text('fs')), shader('0.1000'));
  await b.reload();
  await b.waitForSelector('#engine-version[data-state="ready"]');
  assert.equal(await b.evaluate(() => window.tgsiPlayground.editor.text('fs')), shader('0.9000'));
  assert.deepEqual([...pa, ...pb], []);
  await context.close();
});

test('when the browser refuses to store edits, the page says so and keeps working', { timeout: 60_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  // Storage full (or disabled): every write throws, as browsers do.
  await page.evaluate(() => {
    Storage.prototype.setItem = () => { throw new DOMException('the quota has been exceeded', 'QuotaExceededError'); };
  });
  const n = await renderCount(page);
  await typeShader(page, 'FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 1.0000, 0.0000, 1.0000, 1.0000 }\n  0: MOV OUT[0], IMM[0]\n  1: END\n');
  await page.waitForFunction(() => /does not let the page save your edits/.test(document.querySelector('#status').textContent), undefined, { timeout: 5_000 });
  // It still draws: magenta (1, 0, 1, 1 written by hand).
  await waitForRender(page, n);
  await page.waitForFunction(() => window.tgsiPlayground.rendered?.fs.includes('1.0000, 0.0000, 1.0000'), undefined, { timeout: 20_000 });
  assert.deepEqual([...(await canvasPixels(page)).slice(0, 4)], [255, 0, 255, 255]);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a share link restores the shaders, mesh and constants in a fresh page', { timeout: 60_000 }, async () => {
  const first = await browser.newContext();
  const { page, problems } = await openPlayground(browser, server, { context: first });
  await page.locator('#open-gallery').click();
  await page.locator('#gallery-list [data-example="constants"]').click();
  await page.locator('fieldset[data-key="0:2"] input[data-component="x"]').fill('2.5');
  await settle(page, 300);
  const url = await page.evaluate(() => window.tgsiPlayground.copyLink());
  const saved = await page.evaluate(() => window.tgsiPlayground.state);
  await first.close();

  const fresh = await browser.newContext();
  const { page: other, problems: otherProblems } = await openPlayground(browser, server, { context: fresh, hash: new URL(url).hash });
  const state = await other.evaluate(() => window.tgsiPlayground.state);
  assert.equal(state.fs, saved.fs);
  assert.deepEqual(state.constants, saved.constants);
  assert.equal(state.constants['0:2'][0], 2.5);
  assert.equal(await other.locator('fieldset[data-key="0:2"] input[data-component="x"]').inputValue(), '2.5');
  assert.deepEqual([...problems, ...otherProblems], [], 'the pages reported problems');
  await fresh.close();
});

test('an old-format or damaged link falls back without errors', { timeout: 60_000 }, async () => {
  const context = await browser.newContext();
  const { page, problems } = await openPlayground(browser, server, { context, hash: '#s=1.not-deflate' });
  const fs = await page.evaluate(() => window.tgsiPlayground.state.fs);
  assert.match(fs, /^FRAG/);
  assert.deepEqual(problems, [], 'the page reported problems');
  await context.close();
});

test('hovering an opcode shows its formula; hovering a register shows its declaration', { timeout: 60_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  const text = 'FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0]\n  0: MAD TEMP[0], IN[0], IN[0], IN[0]\n  1: MOV OUT[0], TEMP[0]\n  2: END\n';
  await typeShader(page, text);
  const hoverAt = async (needle, offset = 1) => {
    const point = await page.evaluate(([n, o]) => {
      const view = window.tgsiPlayground.editor.view;
      const pos = view.state.doc.toString().indexOf(n) + o;
      const c = view.coordsAtPos(pos);
      return { x: (c.left + c.right) / 2 + 2, y: (c.top + c.bottom) / 2 };
    }, [needle, offset]);
    await page.mouse.move(0, 0);
    await page.mouse.move(point.x, point.y);
    await page.waitForSelector('.cm-tooltip-hover', { timeout: 5_000 });
    const shown = await page.locator('.cm-tooltip-hover').textContent();
    return shown;
  };
  // tgsi.rst, MAD: dst = src0 * src1 + src2, per component.
  const mad = await hoverAt('MAD');
  assert.match(mad, /MAD/);
  assert.match(mad, /src0\S*\s*\*\s*src1\S*\s*\+\s*src2/, `hover text: ${mad}`);
  // The hover links to the opcode's section of the reference site.
  const link = await page.evaluate(() => document.querySelector('.cm-tooltip-hover a.hover-link')?.getAttribute('href'));
  // At the site's root, on the origin the page was loaded from (a WebDriver engine's proxy).
  assert.equal(link, new URL('/reference/#MAD', await page.evaluate(() => location.href)).href);
  await saveScreenshot(page, 'editor-hover');
  // TEMP[0] on line 5 is declared on line 4.
  const reg = await hoverAt('MAD TEMP[0]', 5);
  assert.match(reg, /line 4: DCL TEMP\[0\]/, `hover text: ${reg}`);
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

// The panels and the highlighter take what the engine says the text declares and which words
// it knows: four constant slots for `DCL CONST[0][0..3]` (none for the built-in buffer), the
// sampler unit of `DCL SAMP[2]`, and BLOCK_ID highlighted as a semantic.
test('panels and highlighting come from the engine', { timeout: 60_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  await typeShader(page, 'FRAG\nDCL CONST[0][0..3]\nDCL CONST[15][1]\nDCL SAMP[2]\nDCL SVIEW[2], 2D, FLOAT\nDCL OUT[0], COLOR\n  0: TEX OUT[0], CONST[0][0], SAMP[2], 2D\n  1: ADD OUT[0], OUT[0], CONST[0][3]\n  2: END\n');
  await settle(page);
  const slots = await page.$$eval('#constants .const-row', (rows) => rows.map((r) => r.dataset.key));
  assert.deepEqual(slots, ['0:0', '0:1', '0:2', '0:3']);
  const units = await page.evaluate(() => document.querySelector('#textures')?.textContent ?? '');
  assert.match(units, /2/, 'sampler unit 2 has controls');
  await typeShader(page, 'COMP\nDCL SV[0], BLOCK_ID\nDCL SV[1], GRID_SIZE\nEND\n');
  await settle(page);
  const semantics = await page.$$eval('.tok-semantic', (s) => s.map((x) => x.textContent));
  assert.ok(semantics.includes('BLOCK_ID') && semantics.includes('GRID_SIZE'), JSON.stringify(semantics));
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

// A driver's log with two shaders: virgl's "TGSI received:" before a fragment shader, then a
// vertex shader whose lines carry a timestamp and a context name (text::log, `findShaders`).
const PASTED_LOG = `vrend_create_shader: ctx 3 shader 7
TGSI received:
FRAG
DCL OUT[0], COLOR
IMM[0] FLT32 {    0.2500,     0.5000,     0.7500,     1.0000}
  0: MOV OUT[0], IMM[0]
  1: END
[12:00:01.5] ctx1: VERT
[12:00:01.6] ctx1: DCL IN[0]
[12:00:01.6] ctx1: DCL OUT[0], POSITION
[12:00:01.7] ctx1:   0: MOV OUT[0], IN[0]
[12:00:01.7] ctx1:   1: END
`;

test('a pasted log offers its shaders; a pick goes to its tab as one edit that Undo takes back', { timeout: 60_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  await typeShader(page, PASTED_LOG);
  const buttons = page.locator('#paste-picker:not([hidden]) button');
  await buttons.nth(1).waitFor({ timeout: 10_000 });
  // The paste as the editor holds it once the typing has been taken in (what Undo must bring
  // back; in a WebKitGTK soak run the text read at once still lacked its end).
  await settle(page);
  const pasted = await page.evaluate(() => window.tgsiPlayground.state.fs);
  assert.ok(pasted.trimEnd().endsWith('1: END'), pasted);
  // Lines of the paste, 1-based: FRAG on 3 to END on 7, VERT on 8 to 12.
  assert.deepEqual(await page.$$eval('#paste-picker button', (bs) => bs.map((b) => b.textContent)),
    ['FRAG, lines 3\u20137', 'VERT, lines 8\u201312']);
  // Each shader of the log is checked (both are clean), not the log's other lines as TGSI:
  // nothing listed or underlined, and the picture and the formatted view say what to do.
  assert.deepEqual(await listedProblems(page), []);
  await page.waitForFunction(() => /holds a log/.test(document.querySelector('#render-status').textContent), null, { timeout: 10_000 });
  assert.deepEqual(await underlines(page), []);
  assert.match(await page.locator('#formatted').textContent(), /log holding shaders/);
  await saveScreenshot(page, 'paste-picker');

  // The vertex shader goes to the vertex tab, prefixes off, and the pipeline uses it.
  await buttons.nth(1).click();
  await page.waitForFunction(() => window.tgsiPlayground.state.useVs && window.tgsiPlayground.state.vs.startsWith('VERT'));
  assert.equal(await page.evaluate(() => window.tgsiPlayground.state.vs),
    'VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n0: MOV OUT[0], IN[0]\n1: END\n');
  assert.equal(await page.evaluate(() => window.tgsiPlayground.editor.tab), 'vs');
  // The fragment tab still holds the log: back there, the bar offers its shaders again.
  await page.locator('#tab-fs').click();
  await buttons.nth(1).waitFor({ timeout: 10_000 });
  await buttons.nth(0).click();
  await page.waitForFunction(() => window.tgsiPlayground.state.fs.startsWith('FRAG'));
  assert.equal(await page.evaluate(() => window.tgsiPlayground.state.fs),
    'FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {    0.2500,     0.5000,     0.7500,     1.0000}\n  0: MOV OUT[0], IMM[0]\n  1: END\n');
  await page.waitForSelector('#paste-picker[hidden]', { state: 'attached' });
  await settle(page);
  assert.deepEqual(await listedProblems(page), []);
  // Undo brings the paste back, and the bar with it.
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+Z');
  await page.waitForFunction((log) => window.tgsiPlayground.state.fs === log, pasted);
  await buttons.nth(1).waitFor({ timeout: 10_000 });
  // A shader of a log with an error: reported at the log's line and column, as `tgsi check`
  // reports it (tgsi check --format short: 4:18, V005).
  await typeShader(page, 'some line\nFRAG\nDCL OUT[0], COLOR\n  0: MOV OUT[0], TEMP[3]\n  1: END\n');
  await page.waitForFunction(() => document.querySelector('#problems li.error')?.dataset.code === 'V005', null, { timeout: 10_000 });
  const listed = await listedProblems(page);
  assert.deepEqual(listed.map((p) => [p.code, p.line, p.column]), [['V005', 4, 18]]);
  assert.deepEqual(problems, []);
  await page.close();
});
