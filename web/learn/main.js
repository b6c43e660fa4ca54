// @ts-check
// The "Learn TGSI" page (learn/index.html): a list of lessons, each with its text, a live editor
// holding the learner's program, the picture it draws next to the goal's picture, and a Check
// button that runs the lesson's goal check (checker.js) on the real engine. Progress and typed
// texts stay in localStorage (progress.js). Bundled into web/learn/app.js by scripts/build-web.sh.

import init, * as wasm from '../pkg/tgsi.js';
import { ShaderEditor } from '../editor.js';
import { referenceUrl, setReferenceBase } from '../reference-link.js';
import { LESSONS } from './lessons.js';
import { checkProgram, goalAt, renderOptions, shadersOf } from './checker.js';
import { MAX_SAVED_TEXT, loadProgress, saveProgress } from './progress.js';
import { defaultState, encodeState } from '../state.js';

/** @typedef {import('./lessons.js').Lesson} Lesson */

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

// This bundle is web/learn/app.js: the reference site is two folders up, at the site's root.
setReferenceBase(new URL('../../reference/', import.meta.url));

/** How long after the last key the picture is drawn again. */
const REDRAW_MS = 250;

const ids = LESSONS.map((l) => l.id);
const storage = (() => {
  try { return globalThis.localStorage ?? null; } catch { return null; }
})();
const progress = loadProgress(storage, ids);

/** @type {any} */
let engine = null;
/** @type {ShaderEditor | null} */
let editor = null;
/** @type {Lesson} */
let lesson = LESSONS[0];
let redrawTimer = /** @type {any} */ (null);

/** Draws RGBA8 pixels (top row first) into a canvas of their size. */
function paint(/** @type {HTMLCanvasElement} */ canvas, /** @type {number} */ width, /** @type {number} */ height, /** @type {Uint8ClampedArray<ArrayBuffer>} */ rgba) {
  canvas.width = width;
  canvas.height = height;
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
  ctx.putImageData(new ImageData(rgba, width, height), 0, 0);
}

/** The goal's picture, from the lesson's formula; pixels the goal ignores are hatched grey. */
function paintGoal() {
  const n = lesson.check.size;
  const rgba = new Uint8ClampedArray(n * n * 4);
  for (let y = 0; y < n; y += 1) {
    for (let x = 0; x < n; x += 1) {
      const want = goalAt(lesson, x, y);
      const grey = (x + y) % 2 ? 96 : 128;
      const c = want ? want.map((v) => Math.round(v * 255)) : [grey, grey, grey, 255];
      rgba.set(c, (y * n + x) * 4);
    }
  }
  paint(/** @type {HTMLCanvasElement} */ ($('goal-picture')), n, n, rgba);
}

/** Draws the learner's program as it is now (no goal check). */
function redraw() {
  if (!engine || !editor) return;
  const text = editor.text('fs');
  const diags = safe(() => engine.validate(text), []);
  editor.setDiagnostics('fs', diags);
  const { fs, vs } = shadersOf(lesson, text);
  const frame = safe(() => engine.renderPage(fs, vs, renderOptions(lesson)), null);
  const note = $('picture-note');
  const canvas = /** @type {HTMLCanvasElement} */ ($('picture'));
  if (frame?.ok) {
    paint(canvas, frame.width, frame.height, new Uint8ClampedArray(frame.pixels));
    note.textContent = '';
  } else {
    const e = (frame?.diagnostics ?? diags).find((/** @type {any} */ d) => d.severity === 'error');
    note.textContent = e ? `line ${e.line}, column ${e.column}: ${e.code} ${e.message}` : (frame?.error ?? 'The program could not be drawn.');
  }
  canvas.dataset.renders = String(Number(canvas.dataset.renders ?? 0) + 1);
  updateInspectLink().catch((err) => console.warn(err));
}

/** The size of the playground picture a lesson opens in: the smallest the playground draws. */
const INSPECT_SIZE = 128;
let linkVersion = 0;

/**
 * Points "Inspect in playground" at the playground holding the learner's program as it is now,
 * with the lesson's other shader, mesh and textures (a share link, web/state.js).
 */
async function updateInspectLink() {
  if (!editor) return;
  const version = ++linkVersion;
  const { fs, vs } = shadersOf(lesson, editor.text('fs'));
  const state = {
    ...defaultState(), fs, vs: vs ?? '', useVs: vs !== null, mesh: lesson.mesh ?? 'fullscreen',
    size: INSPECT_SIZE, textures: structuredClone(lesson.textures ?? {}),
  };
  const fragment = await encodeState(state);
  if (version !== linkVersion) return;
  const link = /** @type {HTMLAnchorElement} */ ($('inspect-link'));
  link.href = `../#${fragment}`;
  link.dataset.lesson = lesson.id;
  link.dataset.version = String(version);
}

/** Runs a call into the engine, with a fallback if it throws (it reports, never throws, by design). */
function safe(/** @type {() => any} */ f, /** @type {any} */ fallback) {
  try { return f(); } catch (err) { console.warn(err); return fallback; }
}

function save() {
  // Lessons passed in another tab since this one loaded stay passed.
  for (const id of loadProgress(storage, ids).done) progress.done.add(id);
  if (!saveProgress(storage, progress)) $('storage-note').textContent = 'This browser did not let the page keep your progress.';
}

/** Shows a verdict under the editor. */
function showResult(/** @type {{ok: boolean, message: string}} */ verdict) {
  const box = $('result');
  box.dataset.status = verdict.ok ? 'pass' : 'fail';
  box.replaceChildren();
  const head = document.createElement('strong');
  head.textContent = verdict.ok ? 'Goal reached. ' : 'Not yet. ';
  const body = document.createElement('span');
  body.textContent = verdict.message;
  box.append(head, body);
  if (!verdict.ok) {
    const hint = document.createElement('p');
    hint.className = 'hint';
    hint.textContent = `Hint: ${lesson.hint}`;
    box.append(hint);
  }
}

/**
 * Checks a text against a lesson's goal (the page's Check button, and the tests).
 * @param {string} id
 * @param {string} text
 */
function check(id, text) {
  const target = LESSONS.find((l) => l.id === id);
  if (!target || !engine) return { ok: false, reason: 'unknown', message: `no lesson "${id}" or no engine yet` };
  const { picture, verdicts, ...verdict } = safe(() => checkProgram(engine, target, text),
    { ok: false, reason: 'engine', message: 'The engine failed while checking.' });
  return verdict;
}

/** Shows where the picture differs from the goal (magenta), or hides that figure. */
function paintDifferences(/** @type {Uint8Array | undefined} */ verdicts) {
  const figure = $('differences');
  figure.hidden = !verdicts;
  if (!verdicts) return;
  const n = lesson.check.size;
  const rgba = new Uint8ClampedArray(n * n * 4);
  verdicts.forEach((v, i) => {
    const grey = ((i % n) + Math.floor(i / n)) % 2 ? 96 : 128;
    rgba.set(v === 2 ? [255, 0, 255, 255] : v === 1 ? [40, 40, 40, 255] : [grey, grey, grey, 255], i * 4);
  });
  paint(/** @type {HTMLCanvasElement} */ ($('difference-picture')), n, n, rgba);
}

function onCheck() {
  if (!editor || !engine) return;
  const full = safe(() => checkProgram(engine, lesson, editor?.text('fs') ?? ''),
    { ok: false, reason: 'engine', message: 'The engine failed while checking.' });
  const { picture, verdicts, ...verdict } = full;
  showResult(verdict);
  paintDifferences(verdict.ok ? undefined : verdicts);
  if (verdict.ok && !progress.done.has(lesson.id)) {
    progress.done.add(lesson.id);
    save();
    listLessons();
  }
}

/** The lesson list in the sidebar, with a mark on the lessons passed. */
function listLessons() {
  const list = $('lessons');
  list.replaceChildren(...LESSONS.map((l, i) => {
    const item = document.createElement('li');
    const link = document.createElement('a');
    link.href = `#${l.id}`;
    link.dataset.lesson = l.id;
    link.textContent = `${i + 1}. ${l.title}`;
    if (l.id === lesson.id) link.setAttribute('aria-current', 'page');
    if (progress.done.has(l.id)) {
      link.dataset.done = 'true';
      link.title = 'done';
    }
    item.append(link);
    return item;
  }));
  $('progress-count').textContent = `${progress.done.size} of ${LESSONS.length} lessons done`;
}

/** Opens a lesson: its text, the learner's saved text (or the starting program), the goal. */
function open(/** @type {string} */ id) {
  lesson = LESSONS.find((l) => l.id === id) ?? LESSONS[0];
  const index = LESSONS.indexOf(lesson);
  progress.current = lesson.id;
  save();
  $('lesson').dataset.lesson = lesson.id;
  $('lesson-title').textContent = `${index + 1}. ${lesson.title}`;
  $('lesson-text').innerHTML = lesson.text; // the lessons' own HTML (lessons.js), not user input
  $('lesson-goal').textContent = lesson.goal;
  const refs = $('lesson-refs');
  refs.replaceChildren('Opcodes in this lesson: ');
  lesson.opcodes.forEach((op, i) => {
    const a = document.createElement('a');
    a.href = referenceUrl(op);
    a.textContent = op;
    refs.append(...(i ? [', ', a] : [a]));
  });
  const other = $('other-stage');
  other.hidden = lesson.stage !== 'vs';
  $('other-stage-text').textContent = lesson.stage === 'vs' ? lesson.fs ?? '' : '';
  $('editor-label').textContent = lesson.stage === 'vs' ? 'Your vertex shader' : 'Your fragment shader';
  $('result').dataset.status = 'idle';
  $('result').replaceChildren();
  paintDifferences(undefined);
  /** @type {HTMLButtonElement} */ ($('prev')).disabled = index === 0;
  /** @type {HTMLButtonElement} */ ($('next')).disabled = index === LESSONS.length - 1;
  editor?.setText('fs', progress.code.get(lesson.id) ?? lesson.start);
  listLessons();
  paintGoal();
  redraw();
}

function onEdit(/** @type {string} */ _tab, /** @type {string} */ text) {
  if (text === lesson.start) progress.code.delete(lesson.id);
  else progress.code.set(lesson.id, text);
  $('storage-note').textContent = text.length > MAX_SAVED_TEXT
    ? `This program is longer than ${MAX_SAVED_TEXT / 1024} KB: the page keeps it only until you leave.` : '';
  save();
  updateInspectLink().catch((err) => console.warn(err));
  clearTimeout(redrawTimer);
  redrawTimer = setTimeout(redraw, REDRAW_MS);
}

/** Replaces the learner's text by an edit (so Ctrl+Z brings theirs back); onEdit saves and redraws. */
function replaceText(/** @type {string} */ text) {
  const view = editor?.view;
  if (!view) return;
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
  view.focus();
}

function lessonFromHash() {
  const id = decodeURIComponent(location.hash.slice(1));
  return ids.includes(id) ? id : null;
}

async function main() {
  const label = $('engine-version');
  try {
    await init({ module_or_path: new URL('../pkg/tgsi_bg.wasm', import.meta.url) });
    engine = wasm;
  } catch (err) {
    label.textContent = 'engine failed to load';
    label.dataset.state = 'error';
    console.error(err);
    return;
  }
  const describe = (/** @type {string} */ t) => safe(() => engine.describe(t), null);
  editor = new ShaderEditor($('editor'), engine.opcodes(), engine.vocabulary(), describe, onEdit);
  $('check').addEventListener('click', onCheck);
  // Ctrl+Enter in the editor checks (caught before CodeMirror, which would insert a line).
  $('editor').addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey)) return;
    e.preventDefault();
    e.stopPropagation();
    onCheck();
  }, true);
  $('reset').addEventListener('click', () => replaceText(lesson.start));
  $('solution').addEventListener('click', () => replaceText(lesson.solution));
  $('prev').addEventListener('click', () => { location.hash = LESSONS[Math.max(0, LESSONS.indexOf(lesson) - 1)].id; });
  $('next').addEventListener('click', () => { location.hash = LESSONS[Math.min(LESSONS.length - 1, LESSONS.indexOf(lesson) + 1)].id; });
  window.addEventListener('hashchange', () => { const id = lessonFromHash(); if (id && id !== lesson.id) open(id); });
  open(lessonFromHash() ?? progress.current ?? LESSONS[0].id);
  // For the end-to-end tests and the curious: the checker the Check button uses.
  /** @type {any} */ (window).tgsiLearn = { lessons: ids, check, open, current: () => lesson.id };
  label.textContent = engine.version();
  label.dataset.state = 'ready';
}

// The playground's theme choice (web/ui.js keeps it under this key), if it is one.
try {
  const theme = localStorage.getItem('tgsi-playground/theme');
  const light = globalThis.matchMedia?.('(prefers-color-scheme: light)').matches;
  document.documentElement.dataset.theme = theme === 'light' || theme === 'dark' ? theme : light ? 'light' : 'dark';
} catch { /* the default theme */ }
main();
