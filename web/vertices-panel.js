// @ts-check
// The vertex-data editor of the `custom` mesh: the vertices file (the softpipe oracle's format,
// docs/render.md "Custom vertices") as a table — attributes, vertices, draws, front face and
// provoking vertex — and as JSON text, kept in sync. The text is what the state keeps and the
// engine reads (the wasm `vertices` option); the table is a view of it while it parses as JSON,
// and edits in the table write the text again. The engine's findings (R006–R008, with line and
// column in the text) are listed next to the editor.

import { setChildren, setData } from './dom.js';

/** The mesh selector's value that draws the vertices text. */
export const CUSTOM_MESH = 'custom';

/** Rows of vertices the table lists (the JSON view holds all of them). */
export const TABLE_ROWS = 256;

const MODES = ['TRIANGLES', 'TRIANGLE_STRIP', 'TRIANGLE_FAN'];
const KINDS = ['f', 'i', 'u'];
const KNOWN = ['attributes', 'vertices', 'draws', 'front_face', 'provoking_vertex'];

/**
 * A vertices file as the table edits it.
 * @typedef {{name: string, location: number, components: number, kind: string}} Attribute
 * @typedef {{mode: string, first: number | string, count: number | string}} DrawCall
 * @typedef {{attributes: Attribute[], vertices: Record<string, any[]>[], draws: DrawCall[],
 *   front_face: string, provoking_vertex: string, rest: Record<string, any>}} VertexModel
 */

/** The text a new custom mesh starts with: one triangle, a colour per vertex. */
export const DEFAULT_VERTICES = formatVertices({
  attributes: [
    { name: 'a_pos', location: 0, components: 2, kind: 'f' },
    { name: 'a_color', location: 1, components: 3, kind: 'f' },
  ],
  vertices: [
    { a_pos: [-0.8, -0.8], a_color: [1, 0, 0] },
    { a_pos: [0.8, -0.8], a_color: [0, 1, 0] },
    { a_pos: [0, 0.8], a_color: [0, 0, 1] },
  ],
  draws: [{ mode: 'TRIANGLES', first: 0, count: 3 }],
  front_face: 'CCW',
  provoking_vertex: 'LAST',
  rest: {},
});

/**
 * What a frame request needs for the state's geometry: a built-in mesh, or the vertices text.
 * @param {{useVs: boolean, mesh: string, vertices: string}} state
 * @returns {{mesh: string} | {vertices: string}}
 */
export function meshRequest(state) {
  if (!state.useVs) return { mesh: 'fullscreen' };
  if (state.mesh === CUSTOM_MESH) return { vertices: state.vertices || DEFAULT_VERTICES };
  return { mesh: state.mesh };
}

/**
 * The table's model of a vertices text, or why the table cannot show it (the engine says
 * exactly what is wrong; this only has to know whether the shape is one a table can show).
 * @param {string} text
 * @returns {{model: VertexModel} | {problem: string}}
 */
export function parseVertices(text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return { problem: 'The text is not JSON (see the problems below); the table shows it again once it is.' };
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return { problem: 'A vertices file is one JSON object.' };
  const list = (/** @type {any} */ v) => (Array.isArray(v) && v.every((x) => x && typeof x === 'object' && !Array.isArray(x)) ? v : null);
  const attributes = list(data.attributes ?? []);
  const vertices = list(data.vertices ?? []);
  const draws = list(data.draws ?? []);
  if (!attributes || !vertices || !draws) return { problem: '"attributes", "vertices" and "draws" must be lists of objects for the table.' };
  /** @type {Record<string, any>} */
  const rest = {};
  for (const [k, v] of Object.entries(data)) if (!KNOWN.includes(k)) rest[k] = v;
  return {
    model: {
      attributes: attributes.map((a) => ({ ...a })),
      vertices: vertices.map((v) => ({ ...v })),
      draws: draws.map((d) => ({ ...d })),
      front_face: typeof data.front_face === 'string' ? data.front_face : 'CCW',
      provoking_vertex: typeof data.provoking_vertex === 'string' ? data.provoking_vertex : 'LAST',
      rest,
    },
  };
}

/**
 * The text of a model: one line per attribute, vertex and draw, so the JSON view stays
 * readable and its line numbers point at one vertex each.
 * @param {VertexModel} m
 */
export function formatVertices(m) {
  /** @type {(v: any) => string} */
  const one = (v) => {
    if (Array.isArray(v)) return `[${v.map(one).join(', ')}]`;
    if (v && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${one(x)}`).join(', ')}}`;
    return JSON.stringify(v) ?? 'null';
  };
  const list = (/** @type {any[]} */ items) => (items.length ? `[\n${items.map((x) => `    ${one(x)}`).join(',\n')}\n  ]` : '[]');
  const lines = [
    `  "attributes": ${list(m.attributes)}`,
    `  "vertices": ${list(m.vertices)}`,
    `  "draws": ${list(m.draws)}`,
    `  "front_face": ${JSON.stringify(m.front_face)}`,
    `  "provoking_vertex": ${JSON.stringify(m.provoking_vertex)}`,
    ...Object.entries(m.rest).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`),
  ];
  return `{\n${lines.join(',\n')}\n}\n`;
}

/** A table cell's text as a JSON value: a number, the raw-bits string, or the text as typed. */
function cellValue(/** @type {string} */ text) {
  const t = text.trim();
  if (/^0x[0-9a-f]{8}$/i.test(t)) return t;
  const n = Number(t);
  return t !== '' && Number.isFinite(n) ? n : t;
}

/**
 * @param {string} tag
 * @param {Record<string, string>} [attrs]
 * @param {(Node | string)[]} [children]
 */
function el(tag, attrs = {}, children = []) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

/**
 * @param {string[]} options
 * @param {string} value
 * @param {string} label
 */
function selectOf(options, value, label) {
  const s = /** @type {HTMLSelectElement} */ (el('select', { 'aria-label': label }, options.map((o) => el('option', { value: o }, [o]))));
  if (!options.includes(value)) s.append(el('option', { value }, [value]));
  s.value = value;
  return s;
}

/**
 * @param {string} value
 * @param {string} label
 * @param {string} [type]
 */
function inputOf(value, label, type = 'text') {
  const i = /** @type {HTMLInputElement} */ (el('input', { type, 'aria-label': label, spellcheck: 'false' }));
  i.value = value;
  return i;
}

/**
 * The editor: `root` holds the view tabs, the table, the JSON text and the problem list (ids
 * in index.html); `onText(text)` hears every change of the text, from either view.
 */
export class VerticesPanel {
  /**
   * @param {HTMLElement} root
   * @param {(text: string) => void} onText
   */
  constructor(root, onText) {
    this.root = root;
    this.onText = onText;
    const q = (/** @type {string} */ s) => /** @type {HTMLElement} */ (root.querySelector(s));
    this.text = /** @type {HTMLTextAreaElement} */ (q('#vertices-json'));
    this.table = q('#vertices-table');
    this.note = q('#vertices-table-note');
    this.problems = q('#vertices-problems');
    this.sizeNote = q('#vertices-size-note');
    this.tabs = /** @type {HTMLButtonElement[]} */ ([...root.querySelectorAll('[data-vertices-view]')]);
    for (const tab of this.tabs) tab.addEventListener('click', () => this.showView(tab.dataset.verticesView ?? 'table'));
    /** Redraws the table a moment after typing in the JSON pauses (it may have many rows). */
    this.tableTimer = 0;
    this.text.addEventListener('input', () => {
      this.onText(this.text.value);
      clearTimeout(this.tableTimer);
      this.tableTimer = setTimeout(() => this.renderTable(), 150);
    });
    this.showView('table');
  }

  /**
   * Says when the text is longer than links and the autosave keep (`limit` characters).
   * @param {number} limit
   */
  checkSize(limit) {
    const over = this.text.value.length > limit;
    this.sizeNote.hidden = !over;
    this.sizeNote.textContent = over
      ? `This vertex data is over ${Math.round(limit / (1024 * 1024))} MB: it is drawn, but share links and the autosave do not keep it.`
      : '';
  }

  /** Shows the table (`table`) or the JSON text (`json`). */
  showView(/** @type {string} */ view) {
    for (const tab of this.tabs) tab.setAttribute('aria-selected', String(tab.dataset.verticesView === view));
    q(this.root, '#vertices-table-view').hidden = view !== 'table';
    q(this.root, '#vertices-json-view').hidden = view !== 'json';
    if (view === 'table') this.renderTable();
  }

  /** Puts a text from the state into the editor (a link, the autosave, the default). */
  setText(/** @type {string} */ text) {
    if (this.text.value === text) return;
    this.text.value = text;
    this.renderTable();
  }

  /** A table edit: the model written back as text, sent on, and the table redrawn if asked. */
  commit(/** @type {VertexModel} */ model, redraw = false) {
    this.text.value = formatVertices(model);
    this.onText(this.text.value);
    if (redraw) this.renderTable();
  }

  /** Rebuilds the table from the text (or says why it cannot). */
  renderTable() {
    const parsed = parseVertices(this.text.value);
    this.table.replaceChildren();
    if ('problem' in parsed) {
      this.note.textContent = parsed.problem;
      this.table.dataset.state = 'unreadable';
      return;
    }
    this.table.dataset.state = 'ok';
    const m = parsed.model;
    this.note.textContent = m.vertices.length > TABLE_ROWS ? `The table lists the first ${TABLE_ROWS} of ${m.vertices.length} vertices; the JSON view holds all.` : '';
    this.table.append(this.attributeTable(m), this.vertexTable(m), this.drawTable(m), this.settings(m));
  }

  /** @param {VertexModel} m */
  attributeTable(m) {
    const body = el('tbody');
    m.attributes.forEach((a, i) => {
      const name = inputOf(String(a.name ?? ''), `attribute ${i} name`);
      name.addEventListener('change', () => {
        const old = String(a.name ?? '');
        a.name = name.value;
        for (const v of m.vertices) if (old in v) { v[name.value] = v[old]; delete v[old]; }
        this.commit(m, true);
      });
      const location = inputOf(String(a.location ?? 0), `attribute ${i} location (IN index)`, 'number');
      location.min = '0';
      location.max = '31';
      location.addEventListener('change', () => { a.location = Number(location.value); this.commit(m); });
      const components = selectOf(['1', '2', '3', '4'], String(a.components ?? 4), `attribute ${i} components`);
      components.addEventListener('change', () => {
        a.components = Number(components.value);
        for (const v of m.vertices) {
          const values = Array.isArray(v[a.name]) ? v[a.name] : [];
          v[a.name] = Array.from({ length: a.components }, (_, k) => values[k] ?? (k === 3 ? 1 : 0));
        }
        this.commit(m, true);
      });
      const kind = selectOf(KINDS, String(a.kind ?? 'f'), `attribute ${i} kind`);
      kind.addEventListener('change', () => { a.kind = kind.value; this.commit(m); });
      const remove = el('button', { type: 'button', 'aria-label': `remove attribute ${i}` }, ['✕']);
      remove.addEventListener('click', () => {
        m.attributes.splice(i, 1);
        for (const v of m.vertices) delete v[a.name];
        this.commit(m, true);
      });
      body.append(el('tr', {}, [el('td', {}, [name]), el('td', {}, [location]), el('td', {}, [components]), el('td', {}, [kind]), el('td', {}, [remove])]));
    });
    const add = el('button', { type: 'button', id: 'vertices-add-attribute' }, ['+ attribute']);
    add.addEventListener('click', () => {
      const used = new Set(m.attributes.map((a) => Number(a.location)));
      let location = 0;
      while (used.has(location) && location < 31) location += 1;
      let n = m.attributes.length;
      while (m.attributes.some((a) => a.name === `a_${n}`)) n += 1;
      const a = { name: `a_${n}`, location, components: 4, kind: 'f' };
      m.attributes.push(a);
      for (const v of m.vertices) v[a.name] = [0, 0, 0, 1];
      this.commit(m, true);
    });
    return el('section', { class: 'vertices-part' }, [
      el('h3', {}, ['Attributes']),
      el('table', { class: 'vertices-grid', 'aria-label': 'Attributes' }, [
        el('thead', {}, [el('tr', {}, ['name', 'IN location', 'components', 'kind', ''].map((h) => el('th', {}, [h])))]), body]),
      add,
    ]);
  }

  /** @param {VertexModel} m */
  vertexTable(m) {
    const head = el('tr', {}, [el('th', {}, ['#'])]);
    for (const a of m.attributes) {
      for (let k = 0; k < Number(a.components); k += 1) head.append(el('th', {}, [`${a.name}.${'xyzw'[k] ?? k}`]));
    }
    head.append(el('th', {}, ['']));
    const body = el('tbody');
    m.vertices.slice(0, TABLE_ROWS).forEach((v, r) => {
      const row = el('tr', { 'data-vertex': String(r) }, [el('td', { class: 'muted' }, [String(r)])]);
      for (const a of m.attributes) {
        for (let k = 0; k < Number(a.components); k += 1) {
          const values = Array.isArray(v[a.name]) ? v[a.name] : [];
          const input = inputOf(values[k] === undefined ? '' : String(values[k]), `vertex ${r} ${a.name}.${'xyzw'[k] ?? k}`);
          input.size = 6;
          input.addEventListener('input', () => {
            const list = Array.isArray(v[a.name]) ? v[a.name] : (v[a.name] = []);
            list[k] = cellValue(input.value);
            this.commit(m);
          });
          row.append(el('td', {}, [input]));
        }
      }
      const remove = el('button', { type: 'button', 'aria-label': `remove vertex ${r}` }, ['✕']);
      remove.addEventListener('click', () => { m.vertices.splice(r, 1); this.commit(m, true); });
      row.append(el('td', {}, [remove]));
      body.append(row);
    });
    const add = el('button', { type: 'button', id: 'vertices-add-vertex' }, ['+ vertex']);
    add.addEventListener('click', () => {
      const last = m.vertices.at(-1);
      /** @type {Record<string, any[]>} */
      const v = {};
      for (const a of m.attributes) v[a.name] = last && Array.isArray(last[a.name]) ? [...last[a.name]] : Array.from({ length: Number(a.components) }, () => 0);
      m.vertices.push(v);
      this.commit(m, true);
    });
    return el('section', { class: 'vertices-part' }, [
      el('h3', {}, [`Vertices (${m.vertices.length})`]),
      el('div', { class: 'vertices-scroll' }, [el('table', { class: 'vertices-grid', 'aria-label': 'Vertices' }, [el('thead', {}, [head]), body])]),
      add,
    ]);
  }

  /** @param {VertexModel} m */
  drawTable(m) {
    const body = el('tbody');
    m.draws.forEach((d, i) => {
      const mode = selectOf(MODES, String(d.mode ?? 'TRIANGLES'), `draw ${i} mode`);
      mode.addEventListener('change', () => { d.mode = mode.value; this.commit(m); });
      const first = inputOf(String(d.first ?? 0), `draw ${i} first`, 'number');
      first.min = '0';
      first.addEventListener('input', () => { d.first = cellValue(first.value); this.commit(m); });
      const count = inputOf(String(d.count ?? 0), `draw ${i} count`, 'number');
      count.min = '0';
      count.addEventListener('input', () => { d.count = cellValue(count.value); this.commit(m); });
      const remove = el('button', { type: 'button', 'aria-label': `remove draw ${i}` }, ['✕']);
      remove.addEventListener('click', () => { m.draws.splice(i, 1); this.commit(m, true); });
      body.append(el('tr', {}, [el('td', {}, [mode]), el('td', {}, [first]), el('td', {}, [count]), el('td', {}, [remove])]));
    });
    const add = el('button', { type: 'button', id: 'vertices-add-draw' }, ['+ draw']);
    add.addEventListener('click', () => { m.draws.push({ mode: 'TRIANGLES', first: 0, count: m.vertices.length }); this.commit(m, true); });
    return el('section', { class: 'vertices-part' }, [
      el('h3', {}, ['Draws']),
      el('table', { class: 'vertices-grid', 'aria-label': 'Draws' }, [
        el('thead', {}, [el('tr', {}, ['mode', 'first', 'count', ''].map((h) => el('th', {}, [h])))]), body]),
      add,
    ]);
  }

  /** @param {VertexModel} m */
  settings(m) {
    const front = selectOf(['CCW', 'CW'], m.front_face, 'front face');
    front.id = 'vertices-front-face';
    front.addEventListener('change', () => { m.front_face = front.value; this.commit(m); });
    const provoking = selectOf(['LAST', 'FIRST'], m.provoking_vertex, 'provoking vertex');
    provoking.id = 'vertices-provoking';
    provoking.addEventListener('change', () => { m.provoking_vertex = provoking.value; this.commit(m); });
    return el('div', { class: 'toolbar' }, [
      el('label', { class: 'inline' }, ['front face ', front]),
      el('label', { class: 'inline' }, ['provoking vertex ', provoking]),
    ]);
  }

  /**
   * Lists the engine's findings about the vertices (its `vertices` diagnostics, and R008 for a
   * mesh given twice); a click selects the place in the JSON text.
   * @param {any[]} diagnostics a render result's diagnostics
   */
  showDiagnostics(diagnostics) {
    const mine = diagnostics.filter((d) => d.source === 'vertices' || d.code === 'R008');
    // Every frame reports again: the list is built only when it changed.
    setChildren(this.problems, mine, (d) => {
      const where = d.source === 'vertices' && d.line ? `line ${d.line}, column ${d.column}` : 'vertices';
      const button = el('button', { type: 'button' }, [
        el('span', { class: 'where' }, [where]), ' ', el('span', { class: 'msg' }, [d.message]), ' ', el('span', { class: 'code' }, [d.code]),
      ]);
      const li = el('li', { class: `problem ${d.severity}`, 'data-code': d.code, 'data-line': String(d.line ?? 0), 'data-column': String(d.column ?? 0) }, [button]);
      if (d.source === 'vertices' && d.span) button.addEventListener('click', () => this.select(d.span.start, d.span.end));
      return li;
    });
    setData(this.root, 'problems', String(mine.length));
  }

  /** Shows the JSON text with a span (byte offsets of the UTF-8 text) selected. */
  select(/** @type {number} */ start, /** @type {number} */ end) {
    this.showView('json');
    const bytes = new TextEncoder().encode(this.text.value);
    const chars = (/** @type {number} */ b) => new TextDecoder().decode(bytes.subarray(0, b)).length;
    this.text.focus();
    this.text.setSelectionRange(chars(start), chars(Math.max(start, end)));
  }
}

/**
 * @param {HTMLElement} root
 * @param {string} selector
 */
function q(root, selector) {
  return /** @type {HTMLElement} */ (root.querySelector(selector));
}
