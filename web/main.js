// @ts-check
// Entry point of the playground page: loads the engine, builds the editor and the panels, keeps
// the state (URL fragment and localStorage) and re-renders in workers as the shaders change.

import { engineModule, engineVersion, loadEngine } from './engine.js';
import { ShaderEditor } from './editor.js';
import { RenderPool } from './render-pool.js';
import { renderPool } from './boot.js';
import { MAX_VERTICES_CHARS, SAVE_KEY, decodeState, defaultState, encodeState, loadLocal, saveLocal } from './state.js';
import { store } from './store.js';
import { DEFAULT_EXAMPLE, EXAMPLES } from './examples.js';
import { constantList, renderBuiltins, renderStageConstants, wireConstantTabs } from './constants.js';
import { declaredSamplers, defaultBinding, loadImageFile, makeTexture, renderTextureControls, textureDescription } from './textures.js';
import { download, showAgal, showFormatted } from './outputs.js';
import { buildGallery, buildReference, installShortcuts, installTabArrows, installTabs, labelThumbnail, wireDialogs } from './ui.js';
import { wireEmbedDialog } from './embed-dialog.js';
import { wireCompare } from './compare-panel.js';
// Issue 19, the page's part: custom vertices, per-stage constants, images in links.
import { CUSTOM_MESH, DEFAULT_VERTICES, VerticesPanel, meshRequest } from './vertices-panel.js';
import { linkImageOf, markLinkImages, textureOfLinkImage } from './link-images.js';
import { ComputePanel, computeOptions } from './compute-panel.js';
import { STAGE_TABS, STARTERS, TAB_NAMES, outputNames, showPrimitives, showStage } from './stage-panel.js';
import { defaultCompute } from './stage-state.js';
import { TargetTabs } from './targets.js';
import { clearEngine, showEngine, wireEngine } from './engine-badge.js';
import { installTestHook } from './test-hook.js';
import { $, setChildren, setData, setText } from './dom.js';
import { createPageInspector } from './page-inspector.js';
import { showPastePicker } from './paste-picker.js';
import { FrameText } from './frame-text.js';
import { FrameStart } from './frame-start.js';

const versionLabel = $('engine-version');
const status = $('status');
const canvas = $('output');

/** How long typing must pause before the shaders are checked and drawn again. */
const EDIT_DEBOUNCE_MS = 150;

/** @typedef {import('./engine-results.js').PageDiagnostic} PageDiagnostic */
/**
 * A frame request as the page makes it: the engine's options and the shaders' texts.
 * @typedef {import('./engine-options.js').FrameRequest & {fs: string, vs: string | null, gs: string | null, imageVersion?: number}} PageRequest
 */

/**
 * What this page holds besides the shared state (which `store` owns): the engine and the
 * editor, the worker pool, the latest findings, the animation clock and pointer, decoded
 * images and texture descriptions. Only this module touches it.
 */
const app = {
  /** @type {import('./engine-results.js').Engine | null} */ engine: null,
  /** @type {ShaderEditor | null} */ editor: null,
  /** @type {RenderPool | null} */ pool: null,
  /** @type {RenderPool | null} */ thumbnails: null,
  /** @type {Record<'fs' | 'vs' | 'gs' | 'cs' | 'render', PageDiagnostic[]>} */ diagnostics: { fs: [], vs: [], gs: [], cs: [], render: [] },
  /** The stage selector's panels (stage-panel.js, compute-panel.js, targets.js). */
  /** @type {ComputePanel | null} */ computePanel: null,
  /** @type {TargetTabs | null} */ targetTabs: null,
  /** The latest compute run's result, and the number of the run the page waits for. */
  /** @type {import('./engine-results.js').ComputeResult | null} */ computed: null,
  computeRuns: 0,
  /** @type {import('./engine-results.js').PrimitivesResult | null} */ primitives: null,
  primitivesKey: '',
  /** Decoded image files and link images, by sampler unit. */
  /** @type {Record<number, import('./engine-results.js').Texture>} */ images: {},
  imageVersion: 0,
  /** JSON texture descriptions made so far, by texture and sampler state. */
  /** @type {Map<string, string>} */ descriptions: new Map(),
  /** The engine's built-in uniform layout: `{buffer, slots}`. */
  /** @type {{buffer: number, slots: {index: number, name: string, channels: string[]}[]}} */
  builtins: { buffer: 15, slots: [] },
  playing: false,
  rendering: false,
  needsRender: false,
  underlinedRender: false,
  clock: { time: 0, last: 0, frame: 0 },
  mouse: { x: 0, y: 0, down: false },
  /** @type {import('./engine-results.js').AgalResult | null} */ agal: null,
  /** The request of the frame on the canvas: traces and probes use exactly it. */
  /** @type {PageRequest | null} */ lastRequest: null,
  /** @type {VerticesPanel | null} */ vertices: null,
  /** Images of a link or the autosave decoded so far (tests wait for it). */
  imagesRestored: 0,
};

/** The frame's numbers as text: spaced while playing (frame-text.js). */
const frameText = new FrameText(() => app.playing);
/** When a playing page asks for its next frame (frame-start.js). */
const frameStart = new FrameStart();
/** @typedef {typeof app} PageApp */

// The end-to-end tests drive the page through a small, read-mostly hook (web/test-hook.js).
// The inspector's wiring (page-inspector.js): traces, probes and the overlay of the frame on the
// canvas.
const inspector = createPageInspector({ app, store, canvas, describe, setPlaying, selectEditorTab });
const { paintOverlay, inspectPixel, scheduleProbe, refreshProbeControls, wireInspector } = inspector;

installTestHook({ app, store, examples: EXAMPLES, loadExample, copyLink, inspector });

function paintPlaceholder(target) {
  const ctx = target.getContext('2d');
  if (!ctx) return;
  const cell = 16;
  for (let y = 0; y < target.height; y += cell) {
    for (let x = 0; x < target.width; x += cell) {
      ctx.fillStyle = ((x + y) / cell) % 2 === 0 ? '#2a2d34' : '#23262c';
      ctx.fillRect(x, y, cell, cell);
    }
  }
}

function builtins() {
  const size = store.state.size;
  return { width: size, height: size, time: app.clock.time, timeDelta: app.playing ? 1 / 60 : 0,
    frame: app.clock.frame, mouse: [app.mouse.x, app.mouse.y], mouseDown: app.mouse.down };
}

// ---- diagnostics ---------------------------------------------------------------------------

/** Whether a shader text is a paste holding shaders among other lines (`findShaders`); the
 * last answer is kept (the problems list asks on every frame). */
const logAnswer = { text: /** @type {string | null} */ (null), log: false };
function isLog(/** @type {string} */ text) {
  if (logAnswer.text !== text) {
    let log = false;
    try {
      log = (app.engine?.findShaders?.(text) ?? []).length > 0;
    } catch { /* not a log, as far as the page can tell */ }
    Object.assign(logAnswer, { text, log });
  }
  return logAnswer.log;
}

function checkShaders() {
  const { engine } = app;
  const state = store.state;
  let fs = [];
  let vs = [];
  // A pasted log: each shader it holds checked at the log's lines, as `tgsi check` checks a
  // log (the paste bar offers them), not the log's other lines as TGSI.
  try {
    if (isLog(state.fs) || (state.useVs && isLog(state.vs))) {
      fs = engine.validateLog(state.fs);
      vs = state.useVs ? engine.validateLog(state.vs) : [];
    } else if (state.useVs && state.stage === 'geometry') {
      // The fragment shader's inputs come from the geometry shader: no vertex → fragment link.
      fs = engine.validate(state.fs);
      vs = engine.validate(state.vs);
    } else if (state.useVs) {
      const r = engine.link(state.vs, state.fs);
      fs = r.fs; vs = r.vs;
    } else {
      fs = engine.validate(state.fs);
    }
  } catch (err) {
    console.warn('TGSI Playground: checking failed', err);
  }
  app.diagnostics.fs = fs;
  app.diagnostics.vs = vs;
  app.editor.setDiagnostics('fs', fs);
  app.editor.setDiagnostics('vs', state.useVs ? vs : []);
  // The geometry and compute shaders of the stage selector, checked on their own.
  for (const tab of /** @type {const} */ (['gs', 'cs'])) {
    let found = [];
    try {
      if (STAGE_TABS[state.stage].includes(tab)) found = engine.validateLog(state[tab]);
    } catch (err) {
      console.warn('TGSI Playground: checking failed', err);
    }
    app.diagnostics[tab] = found;
    app.editor.setDiagnostics(tab, found);
  }
  showProblems();
  refreshPastePicker();
}

/** The shaders a pasted log in the shown editor tab holds (`findShaders`), offered above it. */
function refreshPastePicker() {
  let found = [];
  try {
    found = app.engine.findShaders?.(store.state[app.editor.tab] ?? '') ?? [];
  } catch (err) {
    console.warn('TGSI Playground: finding shaders failed', err);
  }
  showPastePicker($('paste-picker'), found, pickPastedShader);
}

/** Puts a shader picked from a paste in the editor tab of its stage, as one undoable edit. */
function pickPastedShader(/** @type {import('./paste-picker.js').FoundShader} */ shader) {
  const tab = /** @type {Record<string, 'fs' | 'vs' | 'gs' | 'cs'>} */ ({ FRAG: 'fs', VERT: 'vs', GEOM: 'gs', COMP: 'cs' })[shader.processor];
  if (!tab) return;
  if (!STAGE_TABS[store.state.stage].includes(tab)) {
    store.update({ stage: tab === 'cs' ? 'compute' : tab === 'gs' ? 'geometry' : 'pipeline' });
    applyStage();
  }
  if (tab === 'vs' && !store.state.useVs) {
    store.update({ useVs: true });
    $('use-vs').checked = true;
    $('mesh').disabled = false;
  }
  selectEditorTab(tab);
  app.editor.replaceText(shader.text);
}

function showProblems() {
  const list = $('problems');
  const tabs = STAGE_TABS[store.state.stage];
  const tabOf = (/** @type {string} */ source) => Object.keys(TAB_NAMES).find((t) => TAB_NAMES[t] === source) ?? null;
  const all = [
    ...tabs.flatMap((tab) => app.diagnostics[tab].map((d) => ({ ...d, tab }))),
    ...app.diagnostics.render.map((d) => ({ ...d, tab: tabOf(d.source) })),
  ];
  // Every animation frame asks again: the list is built only when what it shows changed.
  setChildren(list, all, (d) => {
    const li = document.createElement('li');
    li.className = `problem ${d.severity}`;
    li.dataset.code = d.code;
    const button = document.createElement('button');
    button.type = 'button';
    const where = d.tab && d.line ? `${TAB_NAMES[d.tab]} ${d.line}:${d.column}`
      : d.source === 'vertices' && d.line ? `vertex data ${d.line}:${d.column}` : 'render';
    button.innerHTML = '<span class="sev"></span><span class="where"></span><span class="msg"></span><span class="code"></span>';
    button.querySelector('.sev').textContent = d.severity;
    button.querySelector('.where').textContent = where;
    button.querySelector('.msg').textContent = d.message;
    button.querySelector('.code').textContent = d.code;
    if (d.tab && d.line) {
      li.dataset.line = String(d.line);
      li.dataset.column = String(d.column);
      button.addEventListener('click', () => { selectEditorTab(d.tab); app.editor.jumpTo(d.tab, d.line, d.column); });
    } else if (d.source === 'vertices' && d.span) {
      // A vertex-data finding: its place in the vertex editor's JSON.
      button.addEventListener('click', () => app.vertices?.select(d.span.start, d.span.end));
    } else {
      button.disabled = true;
    }
    li.append(button);
    // Help lines, and a "see line N" link to each place the diagnostic refers to.
    for (const h of d.help ?? []) {
      const help = document.createElement('span');
      help.className = 'help';
      help.textContent = `help: ${h}`;
      li.append(help);
    }
    for (const r of (d.tab ? d.related ?? [] : [])) {
      const see = document.createElement('button');
      see.type = 'button';
      see.className = 'see-line';
      see.textContent = `see line ${r.line}: ${r.message}`;
      see.addEventListener('click', () => { selectEditorTab(d.tab); app.editor.jumpTo(d.tab, r.line, r.column); });
      li.append(see);
    }
    return li;
  });
  const errors = all.filter((d) => d.severity === 'error').length;
  setText($('problem-count'), all.length === 0 ? 'none' : `${errors} error${errors === 1 ? '' : 's'}, ${all.length - errors} other`);
}

// ---- panels --------------------------------------------------------------------------------

/** The last texts `describe` was asked about, with the answers (read-only). */
const described = new Map();

/**
 * What the engine says a shader declares (`null` when it does not parse); kept for the last few
 * texts, since every animation frame asks again for the same one.
 */
function describe(/** @type {string} */ text) {
  if (described.has(text)) return described.get(text);
  let summary = null;
  try {
    summary = app.engine.describe(text);
  } catch (err) {
    console.warn('TGSI Playground: describe failed', err);
  }
  if (described.size >= 8) described.delete(described.keys().next().value);
  described.set(text, summary);
  return summary;
}

function refreshPanels() {
  const state = store.state;
  const compute = state.stage === 'compute';
  // The shared pane lists every CONST the running shaders declare (the compute shader alone in
  // the compute stage); the one-stage panes are the vertex and fragment shaders'.
  const summaries = compute ? { fs: null, vs: null, gs: null, others: [describe(state.cs)] }
    : { fs: describe(state.fs), vs: state.useVs ? describe(state.vs) : null, gs: state.stage === 'geometry' ? describe(state.gs) : null };
  renderStageConstants(constantPanes(), summaries, app.builtins.buffer, state, (field, key, values) => {
    store.setStageConstant(field, key, values);
    if (!values) refreshPanels();
    stateChanged({ render: true });
  });
  renderTextureControls($('textures'), compute ? [] : declaredSamplers(summaries.fs), state.textures, async (unit, binding) => {
    store.setTexture(unit, binding);
    // Another texture than the image: the link no longer needs to carry the image; back to
    // the image this page holds: the link carries it again.
    if (binding.name !== 'image file' && store.state.images[unit]) {
      const images = { ...store.state.images };
      delete images[unit];
      store.update({ images });
    } else if (binding.name === 'image file' && app.images[unit] && !store.state.images[unit]) {
      const image = await linkImageOf(app.images[unit]);
      store.update({ images: { ...store.state.images, [unit]: image } });
    }
    markImages();
    stateChanged({ render: true });
  }, async (unit, file) => {
    try {
      const texture = await loadImageFile(file);
      app.images[unit] = texture;
      app.imageVersion += 1;
      store.setTexture(unit, { ...(store.state.textures[unit] ?? {}), name: 'image file' });
      store.update({ images: { ...store.state.images, [unit]: await linkImageOf(texture) } });
      markImages();
      stateChanged({ render: true });
    } catch (err) {
      status.textContent = `That image could not be read: ${err?.message ?? err}`;
    }
  }, '');
  markImages();
  refreshOutputs();
}

/** The Constants panel's panes: shared values and each stage's own. */
function constantPanes() {
  return { both: $('constants'), vs: $('constants-vs'), fs: $('constants-fs'), gs: $('constants-gs') };
}

/** Marks, in the Textures panel, the images a link left out or carries with loss. */
function markImages() {
  markLinkImages($('textures'), store.state.images, store.state.textures, new Set(Object.keys(app.images)));
}

/** Decodes the images a link or the autosave carries into the textures the page uses. */
async function restoreImages(/** @type {Record<string, import('./state.js').LinkImage>} */ images) {
  for (const [unit, image] of Object.entries(images)) {
    if (!('data' in image)) continue;
    try {
      app.images[Number(unit)] = await textureOfLinkImage(image.data);
      app.imageVersion += 1;
    } catch (err) {
      status.textContent = `The image for SAMP[${unit}] in the link could not be read: ${err?.message ?? err}`;
    }
  }
  app.imagesRestored += 1;
  markImages();
  scheduleRender();
}

function refreshOutputs() {
  const tab = app.editor.tab;
  const text = store.state[tab] ?? store.state.fs;
  if (isLog(text)) {
    // As `tgsi fmt` asks for --index: the log's shaders are offered above the editor.
    $('formatted').textContent = 'This text is a log holding shaders among other lines: pick one above the editor to see it here.';
  } else {
    showFormatted(app.engine, $('formatted'), text);
  }
  app.agal = showAgal(app.engine, {
    message: $('agal-message'), asm: $('agal-asm'), layout: $('agal-layout'), hex: $('agal-hex'), download: $('agal-download'),
  }, text, Number($('agal-version').value));
}

// ---- rendering -----------------------------------------------------------------------------

/** One JSON texture description per declared sampler unit: `[{unit, description}]`. */
function textureRequest(state = store.state) {
  const out = [];
  for (const unit of declaredSamplers(describe(state.fs))) {
    const b = { ...defaultBinding(), ...(state.textures[unit] ?? {}) };
    // An image file is not part of links: without it, the checker stands in.
    const texture = b.name === 'image file' ? (app.images[unit] ?? makeTexture('checker')) : makeTexture(b.name);
    const key = `${unit}|${JSON.stringify(b)}|${b.name === 'image file' ? app.imageVersion : ''}`;
    if (!app.descriptions.has(key)) app.descriptions.set(key, textureDescription(texture, b));
    out.push({ unit, description: app.descriptions.get(key) });
  }
  return out;
}

function constantsRequest(state = store.state) {
  return constantList(state.constants);
}

let renderScheduled = false;
function scheduleRender() {
  if (renderScheduled) return;
  renderScheduled = true;
  queueMicrotask(() => { renderScheduled = false; renderFrame(); });
}

/** Whether a frame was asked for yet (the page's start is marked: boot.js). */
let firstFrameAsked = false;

async function renderFrame() {
  if (document.visibilityState === 'hidden') { app.needsRender = true; return; }
  if (!app.pool) return;
  if (store.state.stage === 'compute') { runCompute(); return; }
  const state = store.state;
  const size = state.size;
  if (canvas.width !== size) { canvas.width = size; canvas.height = size; }
  const b = builtins();
  frameText.set('builtins', () => renderBuiltins($('builtins'), b, app.builtins));
  const request = {
    fs: state.fs,
    vs: state.useVs ? state.vs : null,
    ...meshRequest(state),
    width: size,
    height: size,
    constants: constantsRequest(),
    vsConstants: constantList(state.vsConstants),
    fsConstants: constantList(state.fsConstants),
    gsConstants: state.stage === 'geometry' ? constantList(state.gsConstants) : [],
    imageVersion: app.imageVersion,
    builtins: b,
    textures: textureRequest(),
    gs: state.stage === 'geometry' ? state.gs : null,
    target: app.targetTabs?.selected ?? 0, engine: state.engine,
  };
  app.rendering = true;
  if (!firstFrameAsked) performance.mark('first-frame-asked');
  firstFrameAsked = true;
  const result = await app.pool.render(request);
  if (result.superseded) return;
  app.rendering = false;
  const renderStatus = $('render-status');
  // The renderer repeats the checker's findings; keep only what it adds (run-time errors,
  // render set-up problems).
  const known = [...app.diagnostics.fs, ...app.diagnostics.vs, ...app.diagnostics.gs].map((d) => `${d.code}@${d.line}:${d.column}`);
  // A pasted log's render problems are its other lines read as TGSI: its shaders' own are
  // listed (checkShaders), so these are neither listed nor underlined.
  const fromLog = (/** @type {any} */ d) => Object.keys(TAB_NAMES).some((t) => TAB_NAMES[t] === d.source && isLog(store.state[t] ?? ''));
  app.diagnostics.render = (result.diagnostics ?? []).filter((d) => !known.includes(`${d.code}@${d.line}:${d.column}`) && !fromLog(d));
  app.vertices?.showDiagnostics(result.diagnostics ?? []);
  if (result.stopped || result.error) {
    renderStatus.dataset.state = 'error';
    renderStatus.textContent = result.error ?? 'rendering was stopped';
    canvas.dataset.state = 'stopped';
    noFrame();
  } else if (result.image) {
    // The frame's buffers decide the target tabs; a tab the frame no longer has draws COLOR[0].
    if (app.targetTabs?.update(result.targets)) scheduleRender();
    setData(canvas, 'target', String(request.target));
    canvas.getContext('2d').putImageData(result.image, 0, 0);
    frameStart.shown();
    showEngine($('engine-badge'), result.engine, request.engine);
    // The list follows the inputs (not every animation frame).
    const listed = JSON.stringify([request.gs, request.vs, meshRequest(state), request.constants, request.vsConstants]);
    if (request.gs !== null && listed !== app.primitivesKey) { app.primitivesKey = listed; listPrimitives(request); }
    const stop = (result.diagnostics ?? []).find((d) => d.severity === 'error' && /^X0(05|10|11)$/.test(d.code));
    const fresh = app.lastRequest?.fs !== request.fs || app.lastRequest?.vs !== request.vs;
    app.lastRequest = request;
    if (fresh) inspector.reinspect();
    inspector.followFrame(request);
    if ($('view-mode').value !== 'image' && !app.playing) scheduleProbe();
    setData(canvas, 'state', stop ? 'partial' : 'ok');
    canvas.dataset.renders = String(Number(canvas.dataset.renders ?? 0) + 1);
    // For scripts/bench-page.mjs --first-picture: when the first frame reached the canvas.
    if (canvas.dataset.renders === '1') performance.mark('first-frame');
    const errors = (result.diagnostics ?? []).filter((d) => d.severity === 'error');
    setData(renderStatus, 'state', errors.length ? 'error' : 'ok');
    setText(renderStatus, stop
      ? `Stopped: ${stop.message}. The picture shows what was drawn until then.`
      : errors.length ? errors.map((d) => d.message).join('; ') : '');
    const ms = result.ms;
    frameText.set('frame-time', () => { $('frame-time').textContent = `${ms.toFixed(1)} ms/frame`; });
    // Every frame's figures as numbers (the text above is written at most 10 times a second),
    // for scripts/bench-page.mjs: its time, the engine's part of it (the slowest band in its
    // worker) and the rest's parts.
    $('frame-time').dataset.ms = String(ms);
    $('frame-time').dataset.engineMs = String(result.engineMs ?? '');
    $('frame-time').dataset.parts = JSON.stringify(result.parts ?? {});
  } else {
    const errors = (result.diagnostics ?? []).filter((d) => d.severity === 'error');
    renderStatus.dataset.state = 'error';
    renderStatus.textContent = isLog(request.fs) || (request.vs && isLog(request.vs))
      ? 'Not drawn: the editor holds a log; pick one of its shaders above.'
      : errors.length ? `Not drawn: ${errors[0].message}` : 'Not drawn.';
    canvas.dataset.state = 'error';
    noFrame();
  }
  // Run-time errors (budget, …) are underlined too, next to the checker's findings.
  const forTab = (tab) => app.diagnostics.render.filter((d) => d.line && d.source === TAB_NAMES[tab]);
  if (app.diagnostics.render.length || app.underlinedRender) {
    app.editor.setDiagnostics('fs', [...app.diagnostics.fs, ...forTab('fs')]);
    if (state.useVs) app.editor.setDiagnostics('vs', [...app.diagnostics.vs, ...forTab('vs')]);
    if (state.stage === 'geometry') app.editor.setDiagnostics('gs', [...app.diagnostics.gs, ...forTab('gs')]);
    app.underlinedRender = app.diagnostics.render.length > 0;
  }
  showProblems();
}

/** The picture is not a frame of the current shaders: no frame time, no engine on the badge. */
function noFrame() {
  frameText.cancel('frame-time');
  setText($('frame-time'), '–');
  delete $('frame-time').dataset.ms;
  clearEngine($('engine-badge'));
}

/** Lists what the geometry shader of the frame `request` emitted (the same prepared job). */
async function listPrimitives(/** @type {PageRequest} */ request) {
  if (!app.pool) return;
  const result = await app.pool.inspect('primitives', request, {});
  if (store.state.stage !== 'geometry' || store.state.gs !== request.gs) return;
  app.primitives = result;
  showPrimitives($('primitives'), result, outputNames(describe(request.gs)));
}

/** Runs the compute shader on the panel's resources (in a worker, like a frame). */
async function runCompute() {
  if (!app.pool || !app.computePanel) return;
  const state = store.state;
  const { options, errors } = computeOptions(state.compute);
  if (errors.length) { app.computePanel.say(`Not run: ${errors.join('; ')}`, 'error'); return; }
  options.consts = constantsRequest().map((c) => `${c.buffer}:${c.index}=${c.values.map((v) => String(Number.isFinite(v) ? v : 0)).join(',')}`);
  const run = ++app.computeRuns;
  app.computePanel.say('Running…', 'busy');
  const result = await app.pool.inspect('compute', { cs: state.cs, options }, {});
  // Only the newest run is shown (an edit may have started another meanwhile).
  if (run !== app.computeRuns) return;
  result.before = options;
  app.computed = result;
  app.computePanel.showResult(result);
  app.diagnostics.render = (result.diagnostics ?? []).filter((d) => !app.diagnostics.cs.some((e) => e.code === d.code && e.line === d.line && e.column === d.column));
  app.editor.setDiagnostics('cs', [...app.diagnostics.cs, ...app.diagnostics.render.filter((d) => d.line && d.source === 'compute')]);
  app.underlinedRender = true;
  showProblems();
}

/** A compute example draws no picture: its card shows the stage's name. */
/** Draws each example small into its gallery card, once, with one worker of its own. */
async function drawThumbnails() {
  if (app.thumbnails || !app.pool) return;
  app.thumbnails = new RenderPool(await engineModule(), 1);
  const size = 72;
  for (const ex of EXAMPLES) {
    if (ex.stage === 'compute') { labelThumbnail(ex.id, 'COMP'); continue; }
    const state = { ...defaultState(), fs: ex.fs, vs: ex.vs ?? '', textures: ex.textures ?? {}, constants: ex.constants ?? {} };
    const result = await app.thumbnails.render({
      fs: ex.fs, vs: ex.vs ?? null, gs: ex.gs ?? null, mesh: ex.mesh ?? 'fullscreen', width: size, height: size,
      constants: constantsRequest(state), textures: textureRequest(state),
      builtins: { width: size, height: size, time: 1, timeDelta: 0, frame: 0, mouse: [size / 2, size / 2], mouseDown: false },
    });
    const thumb = /** @type {HTMLCanvasElement | null} */ (document.querySelector(`#gallery-list [data-example="${ex.id}"] .thumb`));
    if (!thumb || !result.image) continue;
    thumb.getContext('2d').putImageData(result.image, 0, 0);
    thumb.dataset.drawn = 'true';
  }
}

// ---- state ---------------------------------------------------------------------------------

let saveTimer = 0;
let saveWarned = false;
/** Saves the state for a reload; says once when the browser will not keep it. */
function autosave() {
  if (saveLocal(store.state) || saveWarned) return;
  saveWarned = true;
  status.textContent = 'This browser does not let the page save your edits (storage is full or disabled): use Copy link to keep them.';
  status.dataset.state = 'warning';
}

function stateChanged({ render = true, check = false } = {}) {
  const b = builtins();
  frameText.set('builtins', () => renderBuiltins($('builtins'), b, app.builtins));
  if (check) checkShaders();
  if (check) refreshPanels();
  if (check && inspector.wired) refreshProbeControls();
  $('vertex-section').hidden = !store.state.useVs;
  $('vertices-panel').hidden = !(store.state.useVs && store.state.mesh === CUSTOM_MESH);
  clearTimeout(saveTimer);
  saveTimer = setTimeout(autosave, 300);
  if (render) scheduleRender();
}

let editTimer = 0;
function onEdit(/** @type {'fs' | 'vs' | 'gs' | 'cs'} */ tab, /** @type {string} */ text) {
  store.update({ [tab]: text, example: null });
  clearTimeout(editTimer);
  // Save at once (a reload right after typing keeps the edit); check and draw after a pause.
  autosave();
  editTimer = setTimeout(() => stateChanged({ check: true }), EDIT_DEBOUNCE_MS);
}

function applyState(/** @type {unknown} */ state) {
  store.replace(state);
  app.editor.setText('fs', store.state.fs);
  app.editor.setText('vs', store.state.vs);
  app.editor.setText('gs', store.state.gs);
  app.editor.setText('cs', store.state.cs);
  applyStage();
  $('use-vs').checked = store.state.useVs;
  $('mesh').disabled = !store.state.useVs;
  $('mesh').value = store.state.mesh;
  $('size').value = String(store.state.size);
  $('engine').value = store.state.engine;
  for (const pane of Object.values(constantPanes())) delete pane.dataset.signature;
  delete $('textures').dataset.signature;
  app.vertices?.setText(store.state.vertices || DEFAULT_VERTICES);
  if (Object.keys(store.state.images).length) restoreImages(store.state.images);
  stateChanged({ check: true });
}

/** Shows the state's stage: its selector, editor tabs and panels. */
function applyStage() {
  const stage = store.state.stage;
  $('stage').value = stage;
  showStage(stage);
  app.computePanel?.load(store.state.compute);
  if (!STAGE_TABS[stage].includes(app.editor.tab)) selectEditorTab(STAGE_TABS[stage][0]);
}

export function loadExample(id) {
  const ex = EXAMPLES.find((e) => e.id === id);
  if (!ex) return;
  applyState({
    ...defaultState(), fs: ex.fs, vs: ex.vs ?? '', useVs: Boolean(ex.vs), mesh: ex.mesh ?? 'fullscreen',
    size: store.state.size, engine: store.state.engine, constants: structuredClone(ex.constants ?? {}), textures: structuredClone(ex.textures ?? {}), example: ex.id,
    stage: ex.stage ?? 'pipeline', gs: ex.gs ?? '', cs: ex.cs ?? '', compute: structuredClone(ex.compute ?? defaultCompute()),
  });
  selectEditorTab(STAGE_TABS[store.state.stage][0]);
  status.textContent = `Example: ${ex.title}. ${ex.note}`;
}

/** The Embed dialog: element and iframe snippets for the current state (widget/snippets.js). */
async function copyLink() {
  const fragment = await encodeState(store.state);
  const url = `${location.origin}${location.pathname}#${fragment}`;
  history.replaceState(null, '', `#${fragment}`);
  app.lastShareUrl = url;
  try {
    await navigator.clipboard.writeText(url);
    notify('Link copied: it restores the shaders, mesh or vertex data, constants, textures and small images.');
  } catch {
    notify(`Share this link: ${url}`);
  }
  return url;
}

let toastTimer = 0;
/** Says `text` in the status line and, for a few seconds, under the header's buttons. */
function notify(/** @type {string} */ text) {
  status.textContent = text;
  const toast = $('toast');
  toast.textContent = text;
  toast.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { toast.hidden = true; }, 6000);
}

function selectEditorTab(tab) {
  // A shortcut for a tab the stage does not show (Alt+2 while computing) does nothing.
  if (!STAGE_TABS[store.state.stage].includes(tab)) return;
  app.editor.show(tab);
  for (const t of Object.keys(TAB_NAMES)) $(`tab-${t}`).setAttribute('aria-selected', String(tab === t));
  refreshOutputs();
  refreshPastePicker();
}

// ---- animation and input -------------------------------------------------------------------

function setPlaying(on) {
  app.playing = on;
  const b = $('play');
  b.setAttribute('aria-pressed', String(on));
  b.textContent = on ? '⏸ Pause' : '▶ Play';
  app.clock.last = performance.now();
  if (on) requestAnimationFrame(tick);
}

function tick(now) {
  if (!app.playing) return;
  // A frame still drawing missed this refresh: the next one starts without waiting.
  if (app.rendering) frameStart.missedRefresh();
  if (document.visibilityState !== 'hidden' && !app.rendering) {
    app.clock.time += Math.min((now - app.clock.last) / 1000, 0.25);
    app.clock.frame += 1;
    app.clock.last = now;
    // Posted after this animation frame's own work (style, layout, paint of the last picture), so
    // that work does not share the cores with the render workers: on a 2-core machine that made a
    // compiled 26_mandelbrot frame about 15 % slower (docs/perf-log.md); and after the
    // compositor's, as long as the pictures are still ready before their refresh (frame-start.js).
    app.rendering = true;
    setTimeout(() => { app.rendering = false; renderFrame(); }, frameStart.next(now));
  } else if (document.visibilityState === 'hidden') {
    app.clock.last = now;
  }
  requestAnimationFrame(tick);
}

function wireControls() {
  $('tab-fs').addEventListener('click', () => selectEditorTab('fs'));
  $('tab-vs').addEventListener('click', () => selectEditorTab('vs'));
  $('tab-gs').addEventListener('click', () => selectEditorTab('gs'));
  $('tab-cs').addEventListener('click', () => selectEditorTab('cs'));
  $('stage').addEventListener('change', () => {
    const stage = $('stage').value;
    /** @type {Record<string, any>} */
    const patch = { stage, example: null };
    // An empty geometry or compute tab starts from a small working shader (and, for compute,
    // one buffer to write); text already there is kept.
    if (stage === 'geometry' && !store.state.gs.trim()) patch.gs = STARTERS.gs;
    if (stage === 'compute' && !store.state.cs.trim()) {
      patch.cs = STARTERS.cs;
      if (store.state.compute.resources.length === 0) patch.compute = { ...store.state.compute, resources: [{ kind: 'buffer', index: 0, words: '', size: 4 }] };
    }
    store.update(patch);
    for (const tab of /** @type {const} */ (['gs', 'cs'])) if (patch[tab]) app.editor.setText(tab, patch[tab]);
    applyStage();
    selectEditorTab(STAGE_TABS[stage][0]);
    stateChanged({ check: true });
  });
  $('use-vs').addEventListener('change', () => {
    store.update({ useVs: $('use-vs').checked });
    $('mesh').disabled = !store.state.useVs;
    stateChanged({ check: true });
  });
  $('mesh').addEventListener('change', () => {
    store.update({ mesh: $('mesh').value });
    // The first custom mesh starts from a coloured triangle, kept in the state from then on.
    if (store.state.mesh === CUSTOM_MESH && !store.state.vertices) store.update({ vertices: DEFAULT_VERTICES });
    stateChanged({});
  });
  $('size').addEventListener('change', () => { store.update({ size: Number($('size').value) }); stateChanged({}); });
  $('play').addEventListener('click', () => setPlaying(!app.playing));
  $('rewind').addEventListener('click', () => { app.clock.time = 0; app.clock.frame = 0; scheduleRender(); });
  $('copy-link').addEventListener('click', () => copyLink());
  wireEmbedDialog();
  $('agal-version').addEventListener('change', refreshOutputs);
  $('agal-download').addEventListener('click', () => {
    if (app.agal?.ok) download(app.agal.bytes, `${app.editor.tab === 'vs' ? 'vertex' : 'fragment'}.agal`);
  });
  const pointer = (e) => {
    const r = canvas.getBoundingClientRect();
    app.mouse.x = ((e.clientX - r.left) / r.width) * canvas.width;
    app.mouse.y = (1 - (e.clientY - r.top) / r.height) * canvas.height;
  };
  canvas.addEventListener('pointerdown', (e) => { app.mouse.down = true; pointer(e); scheduleRender(); });
  canvas.addEventListener('pointermove', (e) => { if (app.mouse.down) { pointer(e); scheduleRender(); } });
  window.addEventListener('pointerup', () => { if (app.mouse.down) { app.mouse.down = false; scheduleRender(); } });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && app.needsRender) { app.needsRender = false; scheduleRender(); }
  });
  // Another tab saved its edits: this tab keeps its own (session storage), and says so.
  window.addEventListener('storage', (e) => {
    if (e.key !== SAVE_KEY) return;
    status.textContent = 'Another tab saved its own edits; this tab keeps yours (a reload here restores them).';
    status.dataset.state = 'info';
  });
  window.addEventListener('hashchange', async () => {
    const s = await decodeState(location.hash);
    if (s) applyState(s);
  });
}

/**
 * Lets the event loop run between parts of the page's set-up. The render workers start beside
 * it (boot.js), but a message to a worker that has just started reaches it only after this
 * thread has handled the worker's start: without these breaks the set-up and the first paint held
 * the workers' instances back by about 100 ms (docs/perf-log.md, the first picture).
 */
function letWorkersIn() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

async function main() {
  paintPlaceholder(canvas);
  try {
    const [engine, version] = await Promise.all([loadEngine(), engineVersion()]);
    app.engine = engine;
    performance.mark('engine-ready');
    versionLabel.textContent = version;
  } catch (err) {
    versionLabel.textContent = 'engine failed to load';
    versionLabel.dataset.state = 'error';
    status.textContent = `The engine could not be loaded: ${err?.message ?? err}`;
    console.error('TGSI Playground: the engine could not be loaded', err);
    return;
  }
  await letWorkersIn();
  const opcodes = app.engine.opcodes();
  app.builtins = app.engine.builtinLayout();
  app.editor = new ShaderEditor($('editor'), opcodes, app.engine.vocabulary(), describe, onEdit);
  app.computePanel = new ComputePanel($('compute-panel'), (setup) => {
    store.update({ compute: setup, example: null });
    stateChanged({});
  }, () => runCompute());
  app.targetTabs = new TargetTabs($('target-tabs'), () => scheduleRender());
  installTabs();
  installTabArrows();
  wireDialogs();
  buildGallery($('gallery-list'), EXAMPLES, (id) => { loadExample(id); $('gallery').close(); });
  // Thumbnails are drawn the first time the gallery opens.
  new MutationObserver(() => { if ($('gallery').open) drawThumbnails(); }).observe($('gallery'), { attributes: true, attributeFilter: ['open'] });
  await letWorkersIn();
  buildReference($('opcode-reference'), $('opcode-filter'), opcodes);
  await letWorkersIn();
  wireControls();
  wireInspector();
  app.vertices = new VerticesPanel($('vertices-panel'), (text) => {
    store.update({ vertices: text });
    app.vertices?.checkSize(MAX_VERTICES_CHARS);
    stateChanged({});
  });
  wireConstantTabs($('constant-stages'), constantPanes(), () => refreshPanels());
  installShortcuts({ playPause: () => setPlaying(!app.playing), tab: selectEditorTab, copyLink });
  await letWorkersIn();
  performance.mark('page-built');
  // Started by boot.js before this bundle ran: its workers set up their instances meanwhile.
  app.pool = renderPool;
  wireEngine({ select: $('engine'), badge: $('engine-badge'), pool: app.pool, mode: () => store.state.engine,
    setMode: (engine) => { store.update({ engine }); stateChanged({}); }, redraw: scheduleRender });
  wireCompare({ engine: app.engine, pool: app.pool, currentFs: () => store.state.fs, describe });
  const restored = (await decodeState(location.hash)) ?? loadLocal();
  if (restored && (restored.fs || restored.vs)) {
    applyState(restored);
    status.textContent = location.hash ? 'Restored from the link.' : 'Restored your last session.';
  } else {
    loadExample(DEFAULT_EXAMPLE);
  }
  versionLabel.dataset.state = 'ready';
}

main();
