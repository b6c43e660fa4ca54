// @ts-check
// The compute panel: the dispatch's grid and block size, shared memory, and the buffers, counter
// buffers and images it binds (initial words editable as text), then each resource before and
// after the run as a table of words (and RGBA8 images as pictures). The run itself is the
// engine's `compute` (crate/src/wasm/stages.rs), in a render worker, like `tgsi run`.

import { IMAGE_FORMATS, MAX_RESOURCES, resourceBytes, texelBytes } from './stage-state.js';

/** @typedef {import('./stage-state.js').ComputeSetup} ComputeSetup */
/** @typedef {import('./stage-state.js').ComputeResource} ComputeResource */

/** Words shown per resource (all of them are computed and kept). */
const SHOWN_WORDS = 512;

/** @param {string} tag @param {Record<string, string>} [attrs] @param {(Node | string)[]} [children] */
function el(tag, attrs = {}, children = []) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const i32 = new Int32Array(f32.buffer);

/**
 * One word in the chosen notation.
 * @param {number} w @param {string} view
 */
export function formatWord(w, view) {
  u32[0] = w;
  if (view === 'hex') return `0x${u32[0].toString(16).padStart(8, '0')}`;
  if (view === 'int') return String(i32[0]);
  if (view === 'float') return String(f32[0]);
  return String(u32[0]);
}

/** @param {Uint8Array} bytes */
function words(bytes) {
  const n = Math.floor(bytes.length / 4);
  return new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + n * 4));
}

/** The label of a resource as the shader names it. */
export function resourceName(/** @type {ComputeResource} */ r) {
  return `${r.kind === 'atomic' ? 'HWATOMIC' : r.kind === 'image' ? 'IMAGE' : 'BUFFER'}[${r.index}]`;
}

/**
 * The engine's options for a dispatch of `setup` (bytes from each resource's words); `errors`
 * lists resources whose text is not all numbers.
 * @param {ComputeSetup} setup
 */
export function computeOptions(setup) {
  const errors = [];
  /** @type {any} */
  // No budget: the engine's default grows with the dispatch's invocations (2^15 per quad of
  // four, at least 2^20), so an endless loop stops promptly at any size.
  const options = { grid: setup.grid, buffers: [], atomics: [], images: [] };
  if (setup.block) options.block = setup.block;
  if (setup.shared > 0) options.shared = setup.shared;
  for (const r of setup.resources) {
    const { bytes, error } = resourceBytes(r, texelBytes(r.format ?? 'R32_UINT'));
    if (error) errors.push(`${resourceName(r)}: ${error}`);
    if (r.kind === 'image') {
      options.images.push({ index: r.index, format: r.format, width: r.width, height: r.height, depth: 1, bytes });
    } else {
      options[r.kind === 'atomic' ? 'atomics' : 'buffers'].push({ index: r.index, bytes });
    }
  }
  return { options, errors };
}

export class ComputePanel {
  /**
   * root: the panel's element; onChange(setup) after every edit of the set-up; onRun() when the
   * Run button is pressed.
   * @param {HTMLElement} root
   * @param {(setup: ComputeSetup) => void} onChange
   * @param {() => void} onRun
   */
  constructor(root, onChange, onRun) {
    this.root = root;
    this.onChange = onChange;
    /** @type {ComputeSetup} */
    this.setup = { grid: [1, 1, 1], block: null, shared: 0, resources: [] };
    this.view = 'uint';
    this.form = el('div', { class: 'compute-setup' });
    this.status = el('div', { id: 'compute-status', class: 'render-status', role: 'status' });
    this.result = el('div', { id: 'compute-result', class: 'compute-result' });
    const run = el('button', { id: 'compute-run', type: 'button' }, ['Run']);
    run.addEventListener('click', onRun);
    const view = /** @type {HTMLSelectElement} */ (el('select', { id: 'compute-view' }, ['uint', 'int', 'float', 'hex'].map((v) => el('option', { value: v }, [v]))));
    view.addEventListener('change', () => { this.view = view.value; this.showResult(this.last); });
    root.replaceChildren(this.form, el('div', { class: 'toolbar' }, [run, el('label', { class: 'inline' }, ['Numbers ', view])]), this.status, this.result);
    /** @type {any} */
    this.last = null;
  }

  /** Shows a set-up (a loaded example, a link). @param {ComputeSetup} setup */
  load(setup) {
    this.setup = structuredClone(setup);
    this.buildForm();
  }

  changed() {
    this.onChange(structuredClone(this.setup));
  }

  buildForm() {
    const s = this.setup;
    /** @param {string} id @param {number | null} value @param {(v: number | null) => void} set @param {string} [placeholder] */
    const num = (id, value, set, placeholder = '') => {
      const input = /** @type {HTMLInputElement} */ (el('input', { id, type: 'number', min: '0', size: '4', value: value === null ? '' : String(value), placeholder }));
      input.addEventListener('change', () => { set(input.value === '' ? null : Math.max(0, Math.floor(Number(input.value)) || 0)); this.changed(); });
      return input;
    };
    const axes = ['x', 'y', 'z'];
    const grid = axes.map((a, i) => num(`compute-grid-${a}`, s.grid[i], (v) => { s.grid[i] = Math.max(1, v ?? 1); }));
    const block = axes.map((a, i) => num(`compute-block-${a}`, s.block?.[i] ?? null, (v) => {
      const b = s.block ?? [1, 1, 1];
      b[i] = Math.max(1, v ?? 1);
      s.block = v === null && i === 0 ? null : b;
    }, i === 0 ? 'shader' : ''));
    const shared = num('compute-shared', s.shared || null, (v) => { s.shared = v ?? 0; }, '64 KiB');
    const rows = s.resources.map((r, k) => this.resourceRow(r, k));
    const add = el('button', { id: 'compute-add', type: 'button' }, ['Add resource']);
    add.addEventListener('click', () => {
      if (s.resources.length >= MAX_RESOURCES) return;
      const used = new Set(s.resources.filter((r) => r.kind === 'buffer').map((r) => r.index));
      let index = 0;
      while (used.has(index)) index += 1;
      s.resources.push({ kind: 'buffer', index, words: '', size: 16 });
      this.buildForm();
      this.changed();
    });
    this.form.replaceChildren(
      el('div', { class: 'toolbar' }, [
        el('label', { class: 'inline' }, ['Grid (blocks) ', ...grid]),
        el('label', { class: 'inline' }, ['Block (invocations) ', ...block]),
        el('label', { class: 'inline' }, ['Shared bytes ', shared]),
      ]),
      el('table', { class: 'compute-resources', 'aria-label': 'Resources' }, [
        el('thead', {}, [el('tr', {}, ['resource', 'index', 'size (words) / image', 'initial words', ''].map((h) => el('th', {}, [h])))]),
        el('tbody', {}, rows),
      ]),
      add,
    );
  }

  /** @param {ComputeResource} r @param {number} k */
  resourceRow(r, k) {
    const s = this.setup;
    const kind = /** @type {HTMLSelectElement} */ (el('select', { 'aria-label': 'kind' }, [['buffer', 'BUFFER'], ['atomic', 'HWATOMIC'], ['image', 'IMAGE']].map(([v, t]) => el('option', { value: v }, [t]))));
    kind.value = r.kind;
    kind.addEventListener('change', () => {
      r.kind = /** @type {any} */ (kind.value);
      if (r.kind === 'image') { r.format ??= 'R32_UINT'; r.width ??= 4; r.height ??= 4; }
      this.buildForm();
      this.changed();
    });
    const index = /** @type {HTMLInputElement} */ (el('input', { type: 'number', min: '0', max: '31', size: '3', value: String(r.index), 'aria-label': 'index' }));
    index.addEventListener('change', () => { r.index = Math.min(31, Math.max(0, Math.floor(Number(index.value)) || 0)); this.changed(); });
    /** @type {HTMLElement} */
    let size;
    if (r.kind === 'image') {
      const format = /** @type {HTMLSelectElement} */ (el('select', { 'aria-label': 'format' }, IMAGE_FORMATS.map((f) => el('option', { value: f }, [f]))));
      format.value = r.format ?? 'R32_UINT';
      format.addEventListener('change', () => { r.format = format.value; this.changed(); });
      const side = (/** @type {'width' | 'height'} */ key) => {
        const input = /** @type {HTMLInputElement} */ (el('input', { type: 'number', min: '1', max: '256', size: '3', value: String(r[key] ?? 1), 'aria-label': key }));
        input.addEventListener('change', () => { r[key] = Math.min(256, Math.max(1, Math.floor(Number(input.value)) || 1)); this.changed(); });
        return input;
      };
      size = el('span', {}, [format, ' ', side('width'), '×', side('height')]);
    } else {
      const input = /** @type {HTMLInputElement} */ (el('input', { type: 'number', min: '0', max: '65536', size: '5', value: String(r.size), 'aria-label': 'size in words' }));
      input.addEventListener('change', () => { r.size = Math.min(65536, Math.max(0, Math.floor(Number(input.value)) || 0)); this.changed(); });
      size = input;
    }
    const text = /** @type {HTMLTextAreaElement} */ (el('textarea', { rows: '2', cols: '32', spellcheck: 'false', 'aria-label': `${resourceName(r)} initial words`, placeholder: 'e.g. 1 2 3 0x10 1.5' }));
    text.value = r.words;
    text.addEventListener('change', () => { r.words = text.value; this.changed(); });
    const remove = el('button', { type: 'button', 'aria-label': `remove ${resourceName(r)}` }, ['✕']);
    remove.addEventListener('click', () => { s.resources.splice(k, 1); this.buildForm(); this.changed(); });
    return el('tr', { 'data-resource': `${r.kind}-${r.index}` }, [el('td', {}, [kind]), el('td', {}, [index]), el('td', {}, [size]), el('td', {}, [text]), el('td', {}, [remove])]);
  }

  /** Says the run is under way, or why it cannot start. @param {string} text @param {string} state */
  say(text, state) {
    this.status.textContent = text;
    this.status.dataset.state = state;
  }

  /**
   * Shows a run's result: each resource before (the set-up's words) and after.
   * @param {any} result the engine's `compute` result, with `before` (the options it ran with)
   */
  showResult(result) {
    this.last = result;
    if (!result) { this.result.replaceChildren(); return; }
    const errors = (result.diagnostics ?? []).filter((/** @type {any} */ d) => d.severity === 'error');
    this.result.dataset.state = result.ok ? 'ok' : 'error';
    this.result.dataset.runs = String(Number(this.result.dataset.runs ?? 0) + 1);
    const stopped = errors.find((/** @type {any} */ d) => /^X0(05|10|11)$/.test(d.code));
    if (result.ok) {
      const block = result.block ? [...result.block].join('×') : '?';
      this.say(`Ran ${[...result.grid].join('×')} blocks of ${block} invocations: ${result.instructions} instructions (${result.work} of work counted per quad, what the budget counts) in ${result.ms.toFixed(1)} ms.`, 'ok');
    } else {
      this.say(stopped ? `Stopped: ${stopped.message}. The tables show the resources as the run left them.`
        : errors.length ? `Not run: ${errors[0].message}` : (result.error ?? 'Not run.'), 'error');
    }
    const before = result.before ?? { buffers: [], atomics: [], images: [] };
    const sections = [];
    for (const [list, kind] of [[result.buffers, 'buffer'], [result.atomics, 'atomic'], [result.images, 'image']]) {
      for (const after of list ?? []) {
        const old = (before[kind === 'atomic' ? 'atomics' : kind === 'image' ? 'images' : 'buffers'] ?? []).find((/** @type {any} */ b) => b.index === after.index);
        sections.push(this.table(kind, after, old?.bytes ?? new Uint8Array(0)));
      }
    }
    this.result.replaceChildren(...sections);
  }

  /**
   * @param {string} kind @param {any} after @param {Uint8Array} beforeBytes
   */
  table(kind, after, beforeBytes) {
    const name = resourceName({ kind: /** @type {any} */ (kind), index: after.index, words: '', size: 0 });
    const a = words(after.bytes);
    const b = words(beforeBytes);
    const rows = [];
    for (let i = 0; i < Math.min(a.length, SHOWN_WORDS); i += 1) {
      const cells = [el('td', {}, [String(i)]), el('td', {}, [i < b.length ? formatWord(b[i], this.view) : '']), el('td', {}, [formatWord(a[i], this.view)])];
      const tr = el('tr', { 'data-after': String(a[i]) }, cells);
      if (i < b.length && b[i] !== a[i]) tr.className = 'changed';
      rows.push(tr);
    }
    const caption = `${name}: ${a.length} words${a.length > SHOWN_WORDS ? ` (the first ${SHOWN_WORDS} shown)` : ''}${kind === 'image' ? `, ${after.format} ${after.width}×${after.height}` : ''}`;
    const parts = [el('h3', {}, [caption]),
      el('div', { class: 'trace-table-wrap' }, [el('table', { class: 'compute-words trace-quad', 'data-resource': `${kind}-${after.index}`, 'aria-label': `${name} before and after` }, [
        el('thead', {}, [el('tr', {}, ['word', 'before', 'after'].map((h) => el('th', {}, [h])))]),
        el('tbody', {}, rows),
      ])])];
    if (kind === 'image' && after.format === 'R8G8B8A8_UNORM' && after.bytes.length === after.width * after.height * 4) {
      const canvas = /** @type {HTMLCanvasElement} */ (el('canvas', { width: String(after.width), height: String(after.height), class: 'compute-image', 'aria-label': `${name} after the run` }));
      canvas.getContext('2d')?.putImageData(new ImageData(new Uint8ClampedArray(after.bytes), after.width, after.height), 0, 0);
      parts.splice(1, 0, canvas);
    }
    return el('section', { class: 'compute-resource' }, parts);
  }
}
