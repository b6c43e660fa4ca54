// The programs shown to people (programs/, the one copy of each): web/programs.gen.js is what
// scripts/build-programs.mjs makes of the files now, no program is there twice, every file of
// the web's sets is used by the gallery, a lesson, the stage starters or widget.html, and each
// validates as the tests of its users expect, in the page's engine (web/pkg). The crate's own
// sets, programs/reference and programs/reference-examples, are checked by the native tests
// `reference::every_reference_program_file_is_a_rendered_example` and
// `reference::every_reference_example_is_a_program_file_and_every_file_an_example`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MODULE_PATH, WEB_SETS, programsModule, readPrograms } from '../../../scripts/build-programs.mjs';
import { GALLERY } from '../../../web/programs.gen.js';
import { PROGRAM_NAMES, program } from '../../../web/programs.js';
import { LESSONS } from '../../../web/learn/lessons.js';
import { STARTERS } from '../../../web/stage-panel.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** Every set of programs/: the web's and the crate's. */
const SETS = readdirSync(path.join(ROOT, 'programs'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

/** The names of the programs widget.html's examples name (their scripts' data-program). */
function widgetPageNames() {
  const html = readFileSync(path.join(ROOT, 'widget.html'), 'utf8');
  return [...html.matchAll(/<script type="text\/x-tgsi(?:-vs)?" data-program="([^"]+)"><\/script>/g)].map((m) => m[1]);
}

/** The page's engine, in Node. */
async function engine() {
  const glue = await import('../../../web/pkg/tgsi.js');
  glue.initSync({ module: readFileSync(path.join(ROOT, 'web/pkg/tgsi_bg.wasm')) });
  return glue;
}

/** @param {{code: string, severity: string, line?: number, column?: number}[]} found */
const described = (found) => found.map((d) => `${d.severity} ${d.code} at ${d.line}:${d.column}`);

test('web/programs.gen.js is what scripts/build-programs.mjs makes of programs/ now', () => {
  assert.equal(readFileSync(path.join(ROOT, MODULE_PATH), 'utf8'), programsModule(ROOT),
    `${MODULE_PATH} is out of date: run scripts/build-web.sh (or node scripts/build-programs.mjs)`);
  assert.deepEqual([...WEB_SETS, 'reference', 'reference-examples'].sort(), SETS, 'a set of programs/ that no one reads');
});

test('no program is in programs/ twice (white space aside), and the folders hold programs only', () => {
  /** @type {Map<string, string>} */
  const seen = new Map();
  for (const [name, text] of readPrograms(ROOT, SETS)) {
    const folded = text.replace(/\s+/g, ' ').trim();
    assert.ok(!seen.has(folded), `${name} is ${seen.get(folded)} again`);
    seen.set(folded, name);
    assert.match(text, /^(FRAG|VERT|GEOM|COMP)\n[\s\S]*\n$/, `${name}: a program starts with its stage and ends with a line break`);
  }
  assert.ok(seen.size >= 80, `only ${seen.size} programs`);
  for (const set of SETS) {
    const others = readdirSync(path.join(ROOT, 'programs', set)).filter((f) => !f.endsWith('.tgsi') && f !== 'examples.json');
    assert.deepEqual(others, [], `programs/${set} holds more than programs`);
  }
});

test('every program of the web\u2019s sets is shown by the gallery, a lesson, a stage starter or widget.html', () => {
  /** @type {Map<string, string>} */
  const byText = new Map(PROGRAM_NAMES.map((name) => [program(name), name]));
  /** @type {Map<string, string>} program name → a user */
  const used = new Map();
  /** @param {string} name @param {string} user */
  const use = (name, user) => { program(name); if (!used.has(name)) used.set(name, user); };
  /** @param {string} text @param {string} user */
  const useText = (text, user) => {
    const name = byText.get(text);
    assert.ok(name, `${user} is not a program of programs/`);
    use(name, user);
  };
  for (const ex of GALLERY) for (const stage of ['fs', 'vs', 'gs', 'cs']) if (ex[stage] !== undefined) use(ex[stage], `example ${ex.id}`);
  for (const lesson of LESSONS) {
    useText(lesson.start, `lesson ${lesson.id}'s start`);
    useText(lesson.solution, `lesson ${lesson.id}'s solution`);
    if (lesson.fs !== undefined) useText(lesson.fs, `lesson ${lesson.id}'s fragment shader`);
  }
  for (const [stage, text] of Object.entries(STARTERS)) useText(text, `the ${stage} starter`);
  const pageNames = widgetPageNames();
  assert.ok(pageNames.length >= 9, `widget.html names ${pageNames.length} programs`);
  for (const name of pageNames) use(name, 'widget.html');
  assert.deepEqual(PROGRAM_NAMES.filter((name) => !used.has(name)), [], 'programs no one shows');
});

test('every program validates as its users\u2019 tests expect', async () => {
  const { link, validate } = await engine();
  /** @param {string} text */
  const errors = (text) => validate(text).filter((/** @type {any} */ d) => d.severity === 'error');
  // The gallery: no diagnostics but the example's expected codes (tests/e2e/editor.test.mjs).
  for (const ex of GALLERY) {
    const allowed = (/** @type {any} */ d) => !(ex.expectCodes ?? []).includes(d.code);
    for (const stage of ['fs', 'vs', 'gs', 'cs']) {
      if (ex[stage] === undefined) continue;
      assert.deepEqual(described(validate(program(ex[stage])).filter(allowed)), [], `example ${ex.id}: ${ex[stage]}`);
    }
    if (ex.vs !== undefined && ex.gs === undefined) {
      const linked = link(program(ex.vs), program(ex.fs));
      assert.deepEqual(described([...linked.vs, ...linked.fs].filter(allowed)), [], `example ${ex.id}: linking ${ex.vs} to ${ex.fs}`);
    }
  }
  // The lessons: each solution is clean (linked to the fixed fragment shader for a vertex
  // lesson) and each starting program draws (tests/e2e/learn.test.mjs): no error.
  for (const lesson of LESSONS) {
    const solution = lesson.stage === 'vs' ? (({ vs, fs }) => [...vs, ...fs])(link(lesson.solution, lesson.fs)) : validate(lesson.solution);
    assert.deepEqual(described(solution), [], `lesson ${lesson.id}: the solution`);
    assert.deepEqual(described(errors(lesson.start)), [], `lesson ${lesson.id}: the starting program`);
  }
  for (const [stage, text] of Object.entries(STARTERS)) assert.deepEqual(described(validate(text)), [], `the ${stage} starter`);
  // widget.html: every example draws clean but the broken one (tests/e2e/widget.test.mjs).
  for (const name of new Set(widgetPageNames())) {
    const found = validate(program(name));
    if (name === 'widget/broken') assert.deepEqual(described(errors(program(name))).map((d) => d.replace(/ \S+ at/, ' at')), ['error at 3:18'], name);
    else assert.deepEqual(described(found), [], name);
  }
});
