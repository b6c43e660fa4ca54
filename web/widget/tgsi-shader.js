// @ts-check
// <tgsi-shader>: a live TGSI shader in one line of HTML. Import this module once; every
// element on the page shares one engine and its workers (engine.js). It renders on the CPU into a
// 2D canvas, so a page may hold any number of them; only the ones in view draw, and none draw
// while the tab is hidden. A bad shader or a bad attribute shows its message inside the widget
// and fires `error`; nothing is thrown into the host page.

import { WATCHDOG_MS, sharedEngine } from './engine.js';
import { EDITOR, PLAYGROUND } from './locations.js';
import { widgetSheet } from './style.js';
import { BUILTIN_TEXTURES, WRAPS, applyBindingWord, defaultBinding, loadImageFile, makeTexture, textureDescription } from '../textures.js';
import { encodeState } from '../state.js';
import { LANES, formatBits } from '../inspector.js';

/** Largest width or height a widget draws (the playground's largest canvas). */
export const MAX_SIZE = 1024;
const DEFAULT_SIZE = 256;
/** Longest source text a widget takes (the engine's own input limit is larger). */
const MAX_SOURCE_BYTES = 256 * 1024;

const ATTRIBUTES = ['width', 'height', 'mesh', 'constants', 'textures', 'time', 'autoplay', 'paused',
  'controls', 'editable', 'inspect', 'agal', 'poster', 'label', 'theme', 'src', 'vs-src', 'playground'];

/**
 * An element of the shadow tree.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string>} [props] attributes
 * @param {(Node | string)[]} [children]
 * @returns {HTMLElementTagNameMap[K]}
 */
function h(tag, props = {}, children = []) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) el.setAttribute(k, v);
  el.append(...children);
  return el;
}

/**
 * Reads a size attribute: a whole number of pixels in 1..MAX_SIZE.
 * @param {string | null} text
 * @param {string} name
 */
function readSize(text, name) {
  if (text === null || text.trim() === '') return DEFAULT_SIZE;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > MAX_SIZE) {
    throw new Error(`${name}="${text.slice(0, 40)}": give a whole number of pixels from 1 to ${MAX_SIZE}`);
  }
  return n;
}

/**
 * The `textures` attribute: `UNIT=SOURCE[,option…]` items separated by `;` or spaces, where
 * SOURCE is a built-in texture name or an image URL and the options are sampler state
 * (`nearest`, `linear`, `mipmap`, the wrap words of `WRAPS`: `repeat`, `clamp`, `border`,
 * `mirror`, `mirror-clamp`, `mirror-edge`, `mirror-border`, `gl-clamp`, and `shadow`: depth
 * comparison, reference ≤ texel red passes).
 * @param {string | null} text
 * @returns {{unit: number, source: string, binding: Record<string, any>}[]}
 */
export function readTextures(text) {
  const out = [];
  for (const item of (text ?? '').split(/[;\s]+/).filter(Boolean)) {
    const m = /^(\d{1,2})=([^,]+)((?:,[a-z-]+)*)$/.exec(item);
    if (!m || Number(m[1]) > 31) throw new Error(`textures: "${item.slice(0, 60)}" is not UNIT=NAME-OR-URL[,nearest|linear|mipmap|${WRAPS.join('|')}|shadow] with UNIT 0..31`);
    const binding = defaultBinding();
    for (const opt of m[3].split(',').filter(Boolean)) {
      if (!applyBindingWord(binding, opt)) throw new Error(`textures: unknown sampler option "${opt}" in "${item.slice(0, 60)}"`);
    }
    const source = m[2];
    const isName = /^[a-z-]+$/.test(source);
    if (isName && !BUILTIN_TEXTURES.includes(source)) {
      throw new Error(`textures: "${source}" is neither a built-in texture (${BUILTIN_TEXTURES.join(', ')}) nor an image URL`);
    }
    binding.name = isName ? source : 'image file';
    out.push({ unit: Number(m[1]), source, binding });
  }
  return out;
}

/** Images fetched for textures, by absolute URL (shared by every widget). */
const images = new Map();

/** @param {string} url */
function loadImage(url) {
  if (!images.has(url)) {
    images.set(url, fetch(url).then((res) => {
      if (!res.ok) throw new Error(`texture ${url}: HTTP ${res.status}`);
      return res.blob();
    }).then((blob) => loadImageFile(/** @type {any} */ (blob))));
  }
  return images.get(url);
}

/**
 * The texture of an image URL (http, https, data or blob), or a readable Error.
 * @param {number} unit
 * @param {string} source
 */
async function imageTexture(unit, source) {
  let url;
  try {
    url = new URL(source, document.baseURI);
  } catch {
    throw new Error(`textures: "${source.slice(0, 60)}" for unit ${unit} is not a URL`);
  }
  if (!['http:', 'https:', 'data:', 'blob:'].includes(url.protocol)) {
    throw new Error(`textures: unit ${unit} takes http(s), data or blob image URLs, not ${url.protocol}`);
  }
  try {
    return await loadImage(url.href);
  } catch (err) {
    images.delete(url.href);
    throw new Error(`textures: the image for unit ${unit} (${url.href.slice(0, 80)}) could not be loaded: ${String(/** @type {any} */ (err)?.message ?? err)}`);
  }
}

// ---- the shared clock: one animation frame callback for every playing widget ---------------

/** @type {Set<TgsiShader>} */
const playing = new Set();
let ticking = false;
function tick(/** @type {number} */ now) {
  ticking = false;
  for (const w of playing) w.advance(now);
  if (playing.size) { ticking = true; requestAnimationFrame(tick); }
}
function startClock() {
  if (!ticking) { ticking = true; requestAnimationFrame(tick); }
}

/** One observer for all widgets: only widgets in (or near) the viewport draw. */
let observer = /** @type {IntersectionObserver | null} */ (null);
function viewport() {
  observer ??= new IntersectionObserver((entries) => {
    for (const e of entries) /** @type {TgsiShader} */ (e.target).setVisible(e.isIntersecting);
  }, { rootMargin: '100px' });
  return observer;
}

const reducedMotion = () => globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

export class TgsiShader extends HTMLElement {
  static get observedAttributes() { return ATTRIBUTES; }

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [widgetSheet()];
    this.canvas = h('canvas', { part: 'canvas', role: 'img', width: String(DEFAULT_SIZE), height: String(DEFAULT_SIZE) });
    this.posterImg = h('img', { part: 'poster', class: 'poster', alt: '' });
    this.posterImg.hidden = true;
    this.playButton = h('button', { part: 'button play', type: 'button' }, ['Play']);
    this.scrub = h('input', { part: 'scrub', type: 'range', min: '0', max: '10', step: '0.01', value: '0', 'aria-label': 'Time' });
    this.timeLabel = h('span', { class: 'time', part: 'time' }, ['0.00 s']);
    this.resetButton = h('button', { part: 'button reset', type: 'button' }, ['Reset']);
    this.controlsBar = h('div', { class: 'bar', part: 'controls' }, [this.playButton, this.scrub, this.timeLabel, this.resetButton]);
    this.diagnosticsList = h('ul', { class: 'diagnostics', part: 'diagnostics', role: 'status' });
    this.editorBox = h('div', { class: 'editor', part: 'editor' });
    this.editorBox.hidden = true;
    this.inspector = h('div', { class: 'inspector', part: 'inspector', 'aria-live': 'polite' });
    this.inspector.hidden = true;
    this.agalBox = h('pre', { class: 'agal', part: 'agal', 'aria-label': 'AGAL export' });
    this.agalBox.hidden = true;
    this.editButton = h('button', { part: 'button edit', type: 'button' }, ['Edit']);
    this.openLink = h('a', { part: 'open-link', target: '_blank', rel: 'noopener' }, ['Open in playground']);
    this.footer = h('div', { class: 'bar', part: 'footer' }, [this.editButton, h('span', { class: 'grow' }), this.openLink]);
    root.append(h('div', { class: 'box', part: 'box' }, [
      h('div', { class: 'frame', part: 'frame' }, [this.canvas, this.posterImg]),
      this.controlsBar, this.diagnosticsList, this.editorBox, this.inspector, this.agalBox, this.footer,
    ]));

    /** Sources set by script (`source`, `vsSource`) win over the markup. @type {string | null} */
    this.sourceOverride = null;
    /** @type {string | null} */ this.vsOverride = null;
    /** Fetched `src` / `vs-src` texts, by URL. @type {Record<string, Promise<string>>} */
    this.fetched = {};
    this.time = 0;
    this.frames = 0;
    /**
     * The last painted frame's pixel buffer, handed to the engine with the next frame to be
     * drawn into instead of a new array (`pixelsInto`); null while a frame has it.
     * @type {ArrayBuffer | null}
     */
    this.spare = null;
    /** Frames the engine drew into the spare buffer (the test hook reads it). */
    this.framesIntoSpare = 0;
    this.visible = false;
    this.dirty = true;
    this.drawing = false;
    this.lastTick = 0;
    this.lastSources = '';
    /** @type {any} */ this.lastRequest = null;
    /** @type {any} */ this.trace = null;
    this.traceAt = 0;
    this.playing = false;
    this.userPaused = false;
    this.scheduled = false;
    /** @type {string | null} */ this.linkState = null;
    /** @type {any} */ this.editor = null;
    /** @type {any} */ this.editTimer = null;
    /** @type {(() => void) | null} */ this.onVisibility = null;

    this.playButton.addEventListener('click', () => (this.playing ? this.pause() : this.play()));
    this.resetButton.addEventListener('click', () => { this.time = 0; this.requestDraw(); });
    this.scrub.addEventListener('input', () => { this.time = Number(this.scrub.value); this.requestDraw(); });
    this.editButton.addEventListener('click', () => this.openEditor());
    this.canvas.addEventListener('click', (e) => this.inspectAt(e));
    this.canvas.addEventListener('keydown', (e) => this.inspectKey(e));
    this.openLink.addEventListener('pointerenter', () => this.updateLink());
    this.openLink.addEventListener('focus', () => this.updateLink());
  }

  connectedCallback() {
    this.readTime();
    this.syncChrome();
    viewport().observe(this);
    document.addEventListener('visibilitychange', this.onVisibility ??= () => this.requestDraw());
    if (this.hasAttribute('autoplay') && !this.hasAttribute('paused') && !reducedMotion() && !this.userPaused) this.play();
    this.requestDraw();
  }

  disconnectedCallback() {
    viewport().unobserve(this);
    if (this.onVisibility) document.removeEventListener('visibilitychange', this.onVisibility);
    playing.delete(this);
    sharedEngine(this.flavour()).cancel(this);
  }

  attributeChangedCallback(/** @type {string} */ name) {
    if (!this.isConnected) return;
    if (name === 'time') this.readTime();
    if (name === 'autoplay' || name === 'paused') {
      if (this.hasAttribute('autoplay') && !this.hasAttribute('paused') && !reducedMotion()) this.play(); else this.pause();
    }
    this.syncChrome();
    this.requestDraw();
  }

  // ---- public API ----------------------------------------------------------------------------

  /** The fragment shader's TGSI text (an inline `text/x-tgsi` script, `src`, or this property). */
  get source() { return this.sourceOverride ?? this.inline('text/x-tgsi') ?? ''; }
  set source(text) { this.sourceOverride = String(text); this.requestDraw(); }

  /** The vertex shader's TGSI text, or '' for the built-in pass-through. */
  get vsSource() { return this.vsOverride ?? this.inline('text/x-tgsi-vs') ?? ''; }
  set vsSource(text) { this.vsOverride = String(text); this.requestDraw(); }

  play() {
    this.playing = true;
    this.userPaused = false;
    this.lastTick = 0;
    playing.add(this);
    startClock();
    this.syncChrome();
  }

  pause() {
    this.playing = false;
    this.userPaused = true;
    playing.delete(this);
    this.syncChrome();
  }

  /**
   * Draws the frame at time `t` (seconds; default: the current time) now, in view or not.
   * Resolves to `{ok, ms, diagnostics}`.
   * @param {number} [t]
   */
  async renderFrame(t) {
    if (t !== undefined) this.time = Number(t) || 0;
    return this.draw(true);
  }

  /**
   * The current frame as a PNG.
   * @returns {Promise<Blob>}
   */
  toBlob() {
    return new Promise((resolve, reject) => this.canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('no frame to encode'))), 'image/png'));
  }

  // ---- drawing -------------------------------------------------------------------------------

  /** Which engine this widget draws with: the inspector's traces must come from the same one. */
  flavour() { return this.hasAttribute('inspect') ? 'full' : 'lean'; }

  setVisible(/** @type {boolean} */ v) {
    this.visible = v;
    if (!v) sharedEngine(this.flavour()).cancel(this);
    if (v && this.dirty) this.requestDraw();
  }

  /** Draws soon if the widget can be seen; otherwise remembers to draw when it can. */
  requestDraw() {
    this.dirty = true;
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      if (this.visible && document.visibilityState !== 'hidden') this.draw(false);
    });
  }

  /** Called by the shared clock on each animation frame while playing. */
  advance(/** @type {number} */ now) {
    if (!this.visible || this.drawing) return;
    const dt = this.lastTick ? Math.min(0.25, (now - this.lastTick) / 1000) : 0;
    this.lastTick = now;
    this.time += dt;
    this.draw(false);
  }

  /** @param {string} type */
  inline(type) {
    const script = [...this.children].find((c) => c.localName === 'script' && c.getAttribute('type') === type);
    return script ? dedent(script.textContent ?? '') : null;
  }

  /**
   * A source from its URL attribute, fetched once per URL.
   * @param {string} attr
   */
  async fetchedSource(attr) {
    const url = this.getAttribute(attr);
    if (!url) return null;
    const abs = new URL(url, document.baseURI).href;
    this.fetched[abs] ??= fetch(abs).then((res) => {
      if (!res.ok) throw new Error(`${attr}: ${abs} answered HTTP ${res.status}`);
      return res.text();
    });
    return this.fetched[abs];
  }

  /** Everything one frame needs, read from the attributes; throws a readable Error. */
  async request() {
    const fs = this.sourceOverride ?? (await this.fetchedSource('src')) ?? this.inline('text/x-tgsi') ?? '';
    const vs = this.vsOverride ?? (await this.fetchedSource('vs-src')) ?? this.inline('text/x-tgsi-vs') ?? '';
    if (!fs.trim()) throw new Error('no shader: put the TGSI text in a <script type="text/x-tgsi"> child or give src="…"');
    if (fs.length > MAX_SOURCE_BYTES || vs.length > MAX_SOURCE_BYTES) throw new Error(`the shader text is longer than ${MAX_SOURCE_BYTES} characters`);
    const width = readSize(this.getAttribute('width'), 'width');
    const height = readSize(this.getAttribute('height'), 'height');
    const textures = [];
    for (const t of readTextures(this.getAttribute('textures'))) {
      const texture = t.binding.name === 'image file' ? await imageTexture(t.unit, t.source) : makeTexture(t.source);
      textures.push({ unit: t.unit, description: describeTexture(texture, t.binding, t.source) });
    }
    const consts = (this.getAttribute('constants') ?? '').split(/[;\s]+/).filter(Boolean);
    const timeAttr = this.getAttribute('time');
    if (timeAttr !== null && !Number.isFinite(Number(timeAttr))) throw new Error(`time="${timeAttr.slice(0, 40)}": give a number of seconds`);
    const time = this.time;
    return {
      fs, vs: vs.trim() ? vs : null, width, height,
      mesh: this.getAttribute('mesh') || 'fullscreen',
      consts, textures, builtins: { time, timeDelta: 0, frame: this.frames, mouse: [width / 2, height / 2] },
    };
  }

  /** The `time` attribute sets the clock (a bad value is reported when drawing). */
  readTime() {
    const t = Number(this.getAttribute('time') ?? 0);
    if (Number.isFinite(t)) this.time = t;
  }

  /** Draws one frame; resolves to `{ok, ms, diagnostics}` (or `{superseded: true}`). */
  async draw(/** @type {boolean} */ force) {
    if (!force && (!this.visible || document.visibilityState === 'hidden')) return { superseded: true };
    this.dirty = false;
    this.drawing = true;
    let request;
    try {
      request = await this.request();
    } catch (err) {
      this.drawing = false;
      const message = String(/** @type {any} */ (err)?.message ?? err);
      this.showDiagnostics([{ severity: 'error', message }]);
      this.fail(message, []);
      return { ok: false, error: message, diagnostics: [] };
    }
    // The spare goes with the request; a superseded request's is dropped with it.
    const spare = this.spare?.byteLength === request.width * request.height * 4 ? this.spare : null;
    this.spare = null;
    const result = await sharedEngine(this.flavour()).run(this, 'render', request, spare ? { spare } : {});
    this.drawing = false;
    if (result.superseded) {
      // Dropped (out of view, or replaced): draw when it can be seen again.
      this.dirty = true;
      return result;
    }
    const diagnostics = result.diagnostics ?? [];
    const sources = `${request.fs}\u0000${request.vs ?? ''}`;
    if (sources !== this.lastSources) {
      this.lastSources = sources;
      this.emit('compile', { diagnostics });
      this.linkState = null;
      if (this.hasAttribute('agal')) this.showAgal(request.fs);
    }
    this.showDiagnostics(result.error ? [...diagnostics, { severity: 'error', message: result.error }] : diagnostics);
    const errors = diagnostics.filter((/** @type {any} */ d) => d.severity === 'error');
    if (result.pixels && result.pixels.length === request.width * request.height * 4) {
      if (this.canvas.width !== request.width) this.canvas.width = request.width;
      if (this.canvas.height !== request.height) this.canvas.height = request.height;
      const image = new ImageData(new Uint8ClampedArray(result.pixels.buffer, result.pixels.byteOffset, result.pixels.length), request.width, request.height);
      this.canvas.getContext('2d')?.putImageData(image, 0, 0);
      // The canvas copied the pixels: their buffer is free for the next frame.
      this.spare = result.pixels.buffer;
      if (result.intoSpare) this.framesIntoSpare += 1;
      this.posterImg.hidden = true;
      this.frames += 1;
      this.lastRequest = request;
      this.emit('render', { ms: result.ms ?? 0, frame: this.frames, time: request.builtins.time });
    }
    if (errors.length || result.error) {
      this.fail(result.error ?? errors[0].message, diagnostics);
      if (result.stopped || errors.some((/** @type {any} */ d) => /^X0(05|10|11)$/.test(d.code))) this.pause();
    }
    this.timeLabel.textContent = `${request.builtins.time.toFixed(2)} s`;
    if (document.activeElement !== this || this.shadowRoot?.activeElement !== this.scrub) this.scrub.value = String(request.builtins.time % 10);
    if (this.dirty && !this.playing) this.requestDraw();
    return { ok: !errors.length && !result.error, ms: result.ms ?? 0, diagnostics };
  }

  /** @param {string} message @param {any[]} diagnostics */
  fail(message, diagnostics) {
    this.emit('error', { message, diagnostics });
  }

  /** @param {string} type @param {any} detail */
  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  /** Lists diagnostics as text: `line:col: message` (never markup). @param {any[]} diagnostics */
  showDiagnostics(diagnostics) {
    const shown = diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning').slice(0, 20);
    this.diagnosticsList.replaceChildren(...shown.map((d) => {
      const where = d.line ? `${d.source === 'vertex' ? 'VS ' : ''}${d.line}:${d.column ?? 0}: ` : '';
      return h('li', {}, [`${where}${d.severity}${d.code ? ` ${d.code}` : ''}: ${d.message}`]);
    }));
  }

  /** Shows or hides the chrome the attributes ask for. */
  syncChrome() {
    const label = this.getAttribute('label');
    this.canvas.setAttribute('aria-label', label || 'TGSI shader output');
    const showControls = this.hasAttribute('controls') || (this.hasAttribute('autoplay') && reducedMotion());
    this.controlsBar.hidden = !showControls;
    this.playButton.textContent = this.playing ? 'Pause' : 'Play';
    this.playButton.setAttribute('aria-pressed', String(this.playing));
    this.editButton.hidden = !this.hasAttribute('editable');
    this.agalBox.hidden = !this.hasAttribute('agal');
    if (this.hasAttribute('inspect')) {
      this.canvas.tabIndex = 0;
      this.canvas.title = 'Click a pixel to see what the shader did there';
    } else {
      this.canvas.removeAttribute('tabindex');
      this.inspector.hidden = true;
    }
    if (this.frames === 0) {
      // Until the first frame, the canvas takes the size it will have (bad sizes are reported when drawing).
      try {
        this.canvas.width = readSize(this.getAttribute('width'), 'width');
        this.canvas.height = readSize(this.getAttribute('height'), 'height');
      } catch { /* reported by draw() */ }
    }
    const playground = this.playgroundUrl();
    this.openLink.hidden = !playground;
    if (playground && !this.linkState) this.openLink.href = playground;
    const poster = this.getAttribute('poster');
    if (poster && this.frames === 0) { this.posterImg.src = new URL(poster, document.baseURI).href; this.posterImg.hidden = false; }
    if (!poster) this.posterImg.hidden = true;
  }

  // ---- editing, AGAL, inspector, link --------------------------------------------------------

  async openEditor() {
    if (this.editor) { this.editorBox.hidden = !this.editorBox.hidden; return; }
    this.editButton.disabled = true;
    try {
      const [{ mountEditor }, engine] = await Promise.all([import(EDITOR), sharedEngine('full').api()]);
      this.editorBox.hidden = false;
      this.editor = mountEditor(this.editorBox, engine, this.source, (/** @type {string} */ text) => {
        clearTimeout(this.editTimer);
        this.editTimer = setTimeout(() => { this.source = text; }, 150);
      });
      this.editButton.textContent = 'Hide editor';
      this.editButton.addEventListener('click', () => { this.editButton.textContent = this.editorBox.hidden ? 'Edit' : 'Hide editor'; });
    } catch (err) {
      this.showDiagnostics([{ severity: 'error', message: `the editor could not be loaded: ${String(/** @type {any} */ (err)?.message ?? err)}` }]);
    } finally {
      this.editButton.disabled = false;
    }
  }

  /** The AGAL export of the fragment shader, or why there is none. @param {string} fs */
  async showAgal(fs) {
    const engine = await sharedEngine('full').api();
    const r = engine.agalExport(fs, 0);
    this.agalBox.textContent = r.ok
      ? `AGAL ${r.version}\n${r.assembly}`
      : `No AGAL export:\n${(r.diagnostics ?? []).filter((/** @type {any} */ d) => d.severity === 'error').map((/** @type {any} */ d) => `${d.line ?? 0}:${d.column ?? 0}: ${d.message}`).join('\n')}`;
  }

  /** Traces the clicked pixel (with the same engine and request as the frame on the canvas). */
  async inspectAt(/** @type {MouseEvent} */ e) {
    if (!this.hasAttribute('inspect') || !this.lastRequest) return;
    const box = this.canvas.getBoundingClientRect();
    const x = Math.floor(((e.clientX - box.left) / box.width) * this.canvas.width);
    const y = Math.floor(((e.clientY - box.top) / box.height) * this.canvas.height);
    await this.inspectPixel(x, y);
  }

  /**
   * Shows what the shader did for pixel (x, y) (x from the left, y from the top).
   * @param {number} x
   * @param {number} y
   */
  async inspectPixel(x, y) {
    const request = this.lastRequest;
    if (!request) return null;
    const cx = Math.max(0, Math.min(request.width - 1, x));
    const cy = Math.max(0, Math.min(request.height - 1, y));
    const result = await sharedEngine('full').run(this, 'trace', request, { x: cx, y: cy });
    if (result.superseded) return null;
    this.trace = result.ok ? result.trace : { error: result.error ?? (result.diagnostics ?? []).map((/** @type {any} */ d) => d.message).join('; ') };
    this.traceAt = 0;
    this.inspector.hidden = false;
    this.showTrace();
    return result.ok ? result.trace : null;
  }

  inspectKey(/** @type {KeyboardEvent} */ e) {
    if (!this.trace?.steps?.length) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      this.traceAt = Math.max(0, Math.min(this.trace.steps.length - 1, this.traceAt + (e.key === 'ArrowDown' ? 1 : -1)));
      this.showTrace();
    }
  }

  /** The lane panel: each step's instruction and, for the chosen step, every lane's values. */
  showTrace() {
    const t = this.trace;
    if (!t || !t.steps) {
      this.inspector.replaceChildren(h('p', {}, [t?.error ?? 'no trace']));
      return;
    }
    const lane = t.lane ?? 0;
    const head = h('p', {}, [`Pixel (${t.pixel?.[0]}, ${t.pixel?.[1]}): the ${LANES[lane]} pixel of its 2×2 quad. ${t.steps.length} steps. ↑/↓ on the picture steps; click a row.`]);
    const rows = t.steps.map((/** @type {any} */ s, /** @type {number} */ i) => {
      const writes = (s.writes ?? []).map((/** @type {any} */ w) => `${w.reg}.${w.chan} = ${formatBits(w.after[lane], 'auto', w.type)}`).join('  ');
      const row = h('tr', { 'aria-selected': String(i === this.traceAt) }, [
        h('td', { class: 'muted' }, [String(s.line)]), h('td', {}, [s.text ?? '']),
        h('td', { class: s.exec_mask?.[lane] === false ? 'off' : '' }, [s.exec_mask?.[lane] === false ? '(lane off)' : writes]),
      ]);
      row.addEventListener('click', () => { this.traceAt = i; this.showTrace(); });
      return row;
    });
    const step = t.steps[this.traceAt];
    const lanes = h('table', {}, [
      h('tr', {}, [h('th', {}, ['value']), ...LANES.map((name, i) => h('th', { class: i === lane ? 'lane' : '' }, [name]))]),
      ...(step?.sources ?? []).map((/** @type {any} */ src) => h('tr', {}, [h('td', {}, [src.operand]),
        ...[0, 1, 2, 3].map((l) => h('td', { class: l === lane ? 'lane' : '' }, [src.values.map((/** @type {number[]} */ c) => formatBits(c[l], 'auto', src.type)).join(', ')]))])),
      ...(step?.writes ?? []).map((/** @type {any} */ w) => h('tr', {}, [h('td', {}, [`→ ${w.reg}.${w.chan}`]),
        ...[0, 1, 2, 3].map((l) => h('td', { class: step.exec_mask?.[l] ? (l === lane ? 'lane' : '') : 'off' }, [formatBits(w.after[l], 'auto', w.type)]))])),
    ]);
    this.inspector.replaceChildren(head, h('table', { class: 'steps' }, rows), h('p', {}, [`Step ${this.traceAt + 1}: ${step?.text ?? ''}`]), lanes);
  }

  /** The playground page the "Open in playground" link opens, if any. */
  playgroundUrl() {
    const attr = this.getAttribute('playground');
    if (attr) {
      try {
        const url = new URL(attr, document.baseURI);
        return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
      } catch { return null; }
    }
    return PLAYGROUND;
  }

  /** Points "Open in playground" at the playground with this widget's shaders and settings. */
  async updateLink() {
    if (this.frames === 0) {
      // Until the first frame, the canvas takes the size it will have (bad sizes are reported when drawing).
      try {
        this.canvas.width = readSize(this.getAttribute('width'), 'width');
        this.canvas.height = readSize(this.getAttribute('height'), 'height');
      } catch { /* reported by draw() */ }
    }
    const playground = this.playgroundUrl();
    if (this.linkState || !playground) return;
    this.linkState = 'pending';
    try {
      const engine = await sharedEngine('lean').api();
      /** @type {Record<string, number[]>} */
      const constants = {};
      for (const c of (this.getAttribute('constants') ?? '').split(/[;\s]+/).filter(Boolean)) {
        const r = engine.parseConst(c);
        if (r.ok) constants[`${r.buffer}:${r.index}`] = Array.from(/** @type {Float32Array} */ (r.values));
      }
      /** @type {Record<string, any>} */
      const textures = {};
      for (const t of readTextures(this.getAttribute('textures'))) textures[t.unit] = t.binding;
      const vs = this.vsSource;
      const size = Number(this.getAttribute('width')) || DEFAULT_SIZE;
      const fragment = await encodeState({
        fs: this.source, vs, useVs: vs.trim() !== '', mesh: this.getAttribute('mesh') || 'fullscreen',
        size: [128, 256, 512, 1024].find((s) => s >= size) ?? 1024, constants, textures, example: null,
      });
      this.openLink.href = `${playground.split('#')[0]}#${fragment}`;
      this.linkState = 'ready';
    } catch {
      this.linkState = null;
    }
  }
}

/**
 * A texture description for the engine; an image URL's texture is described with its URL as
 * the cache key so the engine's kept job matches from frame to frame.
 * @param {any} texture @param {Record<string, any>} binding @param {string} key
 */
const descriptions = new Map();
function describeTexture(texture, binding, key) {
  const id = `${key}|${JSON.stringify(binding)}`;
  if (!descriptions.has(id)) descriptions.set(id, textureDescription(texture, binding));
  return descriptions.get(id);
}

/** Inline sources are indented like the page around them: remove the common indentation. */
export function dedent(/** @type {string} */ text) {
  const lines = text.replace(/^\s*\n/, '').replace(/\s+$/, '').split('\n');
  const indents = lines.filter((l) => l.trim()).map((l) => /** @type {RegExpMatchArray} */ (l.match(/^[ \t]*/))[0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return `${lines.map((l) => l.slice(cut)).join('\n')}\n`;
}

export { WATCHDOG_MS };

if (!customElements.get('tgsi-shader')) customElements.define('tgsi-shader', TgsiShader);
