// @ts-check
// The mdBook preprocessor mdbook-tgsi, run by a real mdBook (the pinned 0.4 release) on the
// sample book tests/docs-tools/book/: the HTML holds each widget with the attributes its code
// block or {{#tgsi}} line asked for, each page with a widget loads the element by a path to the
// book's root, the widget's files are in the output, and a book with a broken shader fails to
// build, naming the chapter's line. No browser (tests/e2e/mdbook.test.mjs looks at the widgets).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { PREPROCESSOR, buildSampleBook, mdbookBuild } from '../mdbook-build.mjs';

/** @type {Awaited<ReturnType<typeof buildSampleBook>>} */
let good;
/** @type {Awaited<ReturnType<typeof buildSampleBook>>} */
let bad;

before(async () => {
  good = await buildSampleBook();
  bad = await buildSampleBook({ bad: true });
});

after(async () => {
  for (const b of [good, bad]) if (b) await rm(b.scratch, { recursive: true, force: true });
});

const page = (name) => readFileSync(path.join(good.html, name), 'utf8');

/** The `<tgsi-shader …>` elements of a page: the opening tag and the scripts inside. */
function widgets(html) {
  return [...html.matchAll(/(<tgsi-shader[^>]*>)([\s\S]*?)<\/tgsi-shader>/g)].map(([, tag, body]) => ({
    tag,
    scripts: [...body.matchAll(/<script type="([^"]+)">\n([\s\S]*?)<\/script>/g)].map(([, type, text]) => ({ type, text })),
  }));
}

/** The module scripts that load the element. */
const loaders = (html) => [...html.matchAll(/<script type="module" src="([^"]*tgsi-shader\.js)"><\/script>/g)].map((m) => m[1]);

const BLUE = 'FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 0.2500, 0.5000, 1.0000, 1.0000 }\n  0: MOV OUT[0], IMM[0]\n  1: END\n';

/**
 * A highlighted piece of a source block.
 * @param {string} cls the highlight.js class without its `hljs-`
 * @param {string} text
 */
const span = (cls, text) => `<span class="hljs-${cls}">${text}</span>`;

/**
 * BLUE as the source block under its widget, written out by hand from the mapping in
 * mdbook-tgsi/README.md: FRAG, DCL and IMM are headers (keyword), OUT a register file (name),
 * COLOR a semantic (string), FLT32 an immediate type (a modifier: variable), MOV and END opcodes
 * (title), "0:" and "1:" labels (symbol), the rest numbers; spaces, brackets, commas and braces
 * are plain.
 */
const BLUE_HTML = [
  span('keyword', 'FRAG'),
  `${span('keyword', 'DCL')} ${span('name', 'OUT')}[${span('number', '0')}], ${span('string', 'COLOR')}`,
  `${span('keyword', 'IMM')}[${span('number', '0')}] ${span('variable', 'FLT32')} { ${['0.2500', '0.5000', '1.0000', '1.0000'].map((n) => span('number', n)).join(', ')} }`,
  `  ${span('symbol', '0:')} ${span('title', 'MOV')} ${span('name', 'OUT')}[${span('number', '0')}], ${span('keyword', 'IMM')}[${span('number', '0')}]`,
  `  ${span('symbol', '1:')} ${span('title', 'END')}`,
  '',
].join('\n');

/**
 * The inner HTML of each shader source block of a page (`<pre><code class="nohighlight hljs
 * tgsi-source">`).
 * @param {string} html
 */
const sources = (html) => [...html.matchAll(/<pre><code class="nohighlight hljs tgsi-source">([\s\S]*?)<\/code><\/pre>/g)].map((m) => m[1]);

/**
 * A block's text: its tags taken out and its character references read.
 * @param {string} html
 */
const plainText = (html) => html.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const ORANGE = 'FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 1.0000, 0.2500, 0.0000, 1.0000 }\n  0: MOV OUT[0], IMM[0]\n  1: END\n';

test('the sample book builds', () => {
  assert.equal(good.status, 0, good.output);
  assert.doesNotMatch(good.output, /error|warning: /i);
});

test('code blocks become widgets with their options as attributes; other code stays code', () => {
  const html = page('fence.html');
  const w = widgets(html);
  assert.deepEqual(w.map((x) => x.tag), [
    '<tgsi-shader width="48" height="32" label="A constant colour">',
    '<tgsi-shader width="32" height="32" constants="0:0=1,0.5,0,1" editable label="CONST[0][0]">',
    '<tgsi-shader width="16" height="16" label="In a list">',
  ]);
  assert.deepEqual(w[0].scripts, [{ type: 'text/x-tgsi', text: BLUE }]);
  // The list item's widget is inside its <li>, its indentation gone from the script.
  assert.match(html, /<li>\s*<p>A widget inside a list item[^<]*<\/p>\s*<tgsi-shader width="16"[^>]*>\s*<script type="text\/x-tgsi">\nFRAG\nDCL OUT\[0\], COLOR\n/);
  // The source under the first two (the third is hide-source), highlighted at build time; the
  // spans' text is the shader's text.
  const code = sources(html);
  assert.equal(code.length, 2);
  assert.equal(code[0], BLUE_HTML);
  assert.equal(plainText(code[0]), BLUE);
  // The second one's swizzle, after CONST[0][0] (a register file, then two numbers).
  assert.ok(code[1].includes(`${span('name', 'CONST')}[${span('number', '0')}][${span('number', '0')}]${span('attr', '.xyzw')}`), code[1]);
  // The text block and the markdown block that shows a ```tgsi block are untouched, and they
  // are the only blocks with a language class (a language-tgsi one is what made highlight.js
  // warn that it has no such language).
  assert.match(html, /<code class="language-text">FRAG\n {2}0: END\n<\/code>/);
  assert.match(html, /<code class="language-markdown">```tgsi width=8\nFRAG\n {2}0: END\n```\n<\/code>/);
  assert.deepEqual([...html.matchAll(/\blang(?:uage)?-[\w-]+/g)].map((m) => m[0]), ['language-text', 'language-markdown']);
  // fence.md is at the book's root: the element's module is tgsi-shader/tgsi-shader.js.
  assert.deepEqual(loaders(html), ['tgsi-shader/tgsi-shader.js']);
});

test('{{#tgsi FILE}} includes the file as a widget, with vs= as its vertex shader', () => {
  const html = page('include.html');
  const w = widgets(html);
  assert.deepEqual(w.map((x) => x.tag), ['<tgsi-shader width="64" height="64" mesh="quad" label="Half a quad">']);
  assert.deepEqual(w[0].scripts.map((s) => s.type), ['text/x-tgsi-vs', 'text/x-tgsi']);
  assert.equal(w[0].scripts[0].text, readFileSync(path.join(good.dir, 'src/shaders/half.vs.tgsi'), 'utf8'));
  assert.equal(w[0].scripts[1].text, ORANGE);
  assert.doesNotMatch(html, /vs=|hide-source/);
  // mdBook's own escape: the escaped line is text, without its backslash.
  assert.match(html, /mdBook's own escape: \{\{#tgsi shaders\/orange\.tgsi\}\}<\/p>/);
  // Under the widget, the vertex shader's source, then the fragment shader's.
  assert.deepEqual(sources(html).map(plainText), [readFileSync(path.join(good.dir, 'src/shaders/half.vs.tgsi'), 'utf8'), ORANGE]);
  assert.deepEqual(loaders(html), ['tgsi-shader/tgsi-shader.js']);
});

test('a chapter in a folder loads the element from one folder up and includes files relative to itself', () => {
  const html = page('nested/deep.html');
  assert.deepEqual(loaders(html), ['../tgsi-shader/tgsi-shader.js']);
  const w = widgets(html);
  assert.deepEqual(w.map((x) => x.tag), ['<tgsi-shader width="24" height="24">', '<tgsi-shader width="24" height="24">']);
  assert.equal(w[1].scripts[0].text, ORANGE);
  // Both are hide-source.
  assert.doesNotMatch(html, /<pre>/);
});

test('a page without a widget loads nothing', () => {
  assert.deepEqual(loaders(page('index.html')), []);
});

test("the widget's files are in the book, written to src/ only when they changed", async () => {
  for (const file of ['tgsi-shader.js', 'engine.js', 'worker.js', 'pkg/tgsi.js', 'pkg/tgsi_bg.wasm', 'full/tgsi.js', 'full/tgsi_bg.wasm']) {
    const out = path.join(good.html, 'tgsi-shader', file);
    assert.ok(existsSync(out), `${file} is in the output`);
    assert.deepEqual(readFileSync(out), readFileSync(path.join(good.dir, 'src', 'tgsi-shader', file)), file);
  }
  // The module's own imports (chunk-*.js) are there too.
  const entry = readFileSync(path.join(good.html, 'tgsi-shader', 'tgsi-shader.js'), 'utf8');
  const imports = [...entry.matchAll(/(?:from|import)\s*"\.\/([^"]+)"/g)].map((m) => m[1]);
  assert.ok(imports.length > 0, 'tgsi-shader.js imports files next to it');
  for (const rel of imports) assert.ok(existsSync(path.join(good.html, 'tgsi-shader', rel)), rel);
  // npm's files are not.
  const names = readdirSync(path.join(good.html, 'tgsi-shader'), { recursive: true }).map(String);
  assert.deepEqual(names.filter((n) => /README\.md$|package\.json$|\.d\.ts$/.test(n)), []);
  // A second build leaves the files in src/ alone (mdbook serve rebuilds when src/ changes).
  const src = path.join(good.dir, 'src', 'tgsi-shader', 'tgsi-shader.js');
  const before = statSync(src).mtimeMs;
  const again = await mdbookBuild(good.dir);
  assert.equal(again.status, 0, again.output);
  assert.equal(statSync(src).mtimeMs, before);
});

test('a broken shader fails the build at its line in the chapter, and in an included file', () => {
  assert.notEqual(bad.status, 0, bad.output);
  // tests/docs-tools/book-bad/fence.md: line 1 the title, 2 blank, 3 the sentence, 4 blank,
  // 5 the ```tgsi fence, 6 FRAG, 7 DCL OUT[0], 8 the MOV that reads TEMP[7]; TEMP starts at
  // column 18 of "  0: MOV OUT[0], TEMP[7]" (2 spaces, "0: ", "MOV ", "OUT[0], " before it).
  assert.match(bad.output, /^src\/fence\.md:8:18: error: source register TEMP\[7\] is not declared \[V005\]$/m);
  // book-bad/shaders/broken.tgsi line 5, "  1: ADD OUT[0], TEMP[0], IN[2]": IN[2] at column 27
  // (2 + "1: " 3 + "ADD " 4 + "OUT[0], " 8 + "TEMP[0], " 9 = 26 characters before it); its
  // {{#tgsi}} line is line 12 of fence.md (10 closes the fence, 11 is blank).
  assert.match(bad.output, /^src\/shaders\/broken\.tgsi:5:27: error: source register IN\[2\] is not declared \[V005\]$/m);
  assert.match(bad.output, /^src\/fence\.md:12:1: note: included here$/m);
  assert.ok(!existsSync(path.join(bad.html, 'fence.html')), 'no HTML is written');
});

test('mdbook-tgsi supports html and no other renderer', async () => {
  const status = (renderer) => new Promise((resolve) => {
    execFile(PREPROCESSOR, ['supports', renderer], (err) => resolve(err ? err.code : 0));
  });
  assert.equal(await status('html'), 0);
  assert.equal(await status('markdown'), 1);
  assert.equal(await status('epub'), 1);
});
