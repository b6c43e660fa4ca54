// The compiled-output pane: the formatted text equals `tgsi fmt --style mesa`, the AGAL download
// equals the bytes of `tgsi agal`, and a shader AGAL cannot express gets a clear message.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { launchBrowser, saveScreenshot, startServer } from './support.mjs';
import { openPlayground, runTgsi, settle, typeShader } from './playground.mjs';

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

const SHADER = `FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL CONST[0][0]
DCL TEMP[0]
IMM[0] FLT32 { 0.5000, 1.0000, 0.0000, 0.0000 }
  0: MUL TEMP[0], IN[0], CONST[0][0]
  1: ADD TEMP[0].xy, TEMP[0], IMM[0].xxxx
  2: MOV OUT[0].xyz, TEMP[0]
  3: MOV OUT[0].w, IMM[0].yyyy
  4: END
`;

test('the formatted view equals tgsi fmt --style mesa', { timeout: 60_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  await typeShader(page, SHADER.replace(/\n {2}/g, '\n'));
  await settle(page);
  const out = await runTgsi(['fmt', '--style', 'mesa', 'fs.tgsi'], { 'fs.tgsi': SHADER.replace(/\n {2}/g, '\n') });
  await out.cleanup();
  assert.equal(await page.locator('#formatted').textContent(), out.stdout);
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});

test('the AGAL download equals tgsi agal, and unexportable shaders say why', { timeout: 60_000 }, async () => {
  const { page, problems } = await openPlayground(browser, server);
  await typeShader(page, SHADER);
  await settle(page);
  await page.locator('#tab-agal').click();
  await page.waitForSelector('#agal-message[data-state="ok"]');
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#agal-download').click()]);
  const got = await readFile(await download.path());
  const out = await runTgsi(['agal', 'fs.tgsi', '-o', 'fs.agal'], { 'fs.tgsi': SHADER });
  const expected = await out.read('fs.agal');
  await out.cleanup();
  assert.ok(expected.length > 0);
  assert.deepEqual([...got], [...expected], 'the downloaded .agal differs from tgsi agal');
  // AGAL has a hex dump whose first byte is the 0xa0 magic of agal.md.
  assert.match(await page.locator('#agal-hex').textContent(), /^000000 {2}a0 /);
  assert.ok((await page.locator('#agal-asm').textContent()).length > 0, 'no assembly');
  await saveScreenshot(page, 'outputs-agal');

  // Integer bit operations have no AGAL equivalent: the export explains instead.
  await typeShader(page, 'FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL TEMP[0]\n  0: F2U TEMP[0], IN[0]\n  1: XOR TEMP[0], TEMP[0], TEMP[0].yxzw\n  2: U2F OUT[0], TEMP[0]\n  3: END\n');
  await page.waitForSelector('#agal-message[data-state="error"]');
  assert.match(await page.locator('#agal-message').textContent(), /cannot be exported/);
  assert.equal(await page.locator('#agal-download').isDisabled(), true);
  assert.deepEqual(problems, [], 'the page reported problems');
  await page.close();
});
