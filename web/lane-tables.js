// @ts-check
// An opcode's live lane tables, as the reference page (web/reference.js) and the
// <tgsi-lanes> element (web/widget/tgsi-lanes.js) show them: the rows of the reference's data
// (`data.json`, written by `tgsi reference` from crate/src/reference/) run by the full engine's
// `referenceLanes` (the same row parser and quad run as the native tests) or, for texture
// opcodes, `referenceTextureLanes` (the traced sampler on web/textures.js's built-in textures).
// The caller owns when a table is built (near the viewport) and where it goes.

import { makeTexture, textureDescription } from './textures.js';
import { readTextures } from './widget/tgsi-shader.js';

/**
 * @typedef {{program: string, textures: string, rows: string[], level: string}} RefTex
 * @typedef {{program: string, textures: string, caption: string}} RefExample
 * @typedef {{name: string, family: string, summary: string, formula: string, text: string,
 *   program: string | null, rows: string[] | null, dst: string, tex: RefTex | null,
 *   example?: RefExample | null}} RefEntry
 * @typedef {{bits: number, kind: string}} Cell
 */

/** The result types whose channels read as integers first (from the opcode table's `dst`). */
const INTEGER_TYPES = ['int', 'uint', 'int64', 'uint64'];

/**
 * Text of one channel's bits in the order the result's type asks for: integer results
 * `int / hex / float` (uint results read unsigned), others `float / hex / int`.
 * @param {number} bits
 * @param {string} dst the result's type from data.json
 */
export function channelText(bits, dst) {
  const b = new DataView(new ArrayBuffer(4));
  b.setUint32(0, bits >>> 0);
  const f = b.getFloat32(0);
  const float = Object.is(f, -0) ? '-0' : String(f);
  const hex = `0x${(bits >>> 0).toString(16).padStart(8, '0')}`;
  if (dst === 'uint' || dst === 'uint64') return `${bits >>> 0} / ${hex} / ${float}`;
  if (INTEGER_TYPES.includes(dst)) return `${bits | 0} / ${hex} / ${float}`;
  return `${float} / ${hex} / ${bits | 0}`;
}

/** What the computed column shows, for a result type. */
const computedHeading = (/** @type {string} */ dst) =>
  INTEGER_TYPES.includes(dst) ? 'computed (int / hex / float)' : 'computed (float / hex / int)';

/**
 * The channel spans of one lane's result: one `xyzw: …` span when the four channels hold the
 * same bits, else one per channel (the bits in hex as each span's title). `short`: float
 * results as 8 significant digits only (the texture tables' colours).
 * @param {number[]} bits
 * @param {string} dst
 * @param {boolean} [short]
 */
function channelSpans(bits, dst, short = false) {
  const text = (/** @type {number} */ b) => {
    if (!short || INTEGER_TYPES.includes(dst)) return channelText(b, dst);
    const f = new Float32Array(new Uint32Array([b >>> 0]).buffer)[0];
    return String(Number(f.toPrecision(8)));
  };
  const same = bits.every((b) => (b >>> 0) === (bits[0] >>> 0));
  const groups = same ? [['xyzw', bits[0]]] : bits.map((b, c) => ['xyzw'[c], b]);
  return groups.map(([name, b]) => {
    const span = document.createElement('span');
    span.className = 'channel';
    span.dataset.channel = String(name);
    span.textContent = `${name}: ${text(Number(b))}`;
    span.title = `0x${(Number(b) >>> 0).toString(16).padStart(8, '0')}`;
    return span;
  });
}

/**
 * A 64-bit value from its low and high words, read as the expected cell's kind says (double,
 * int64 or uint64); null for 32-bit kinds.
 * @param {string} kind
 * @param {number} lo
 * @param {number} hi
 */
function wideValue(kind, lo, hi) {
  const v = (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
  if (kind === 'F64Lo' || kind === 'NanD') {
    const b = new DataView(new ArrayBuffer(8));
    b.setBigUint64(0, v);
    const d = b.getFloat64(0);
    return Object.is(d, -0) ? '-0' : String(d);
  }
  if (kind === 'I64Lo') return String(BigInt.asIntN(64, v));
  if (kind === 'U64Lo') return String(v);
  return null;
}

/** Whether a computed channel is what the expected cell asks for (as `reference::lanes::matches`). */
function matches(/** @type {Cell} */ cell, /** @type {number} */ bits) {
  const u = bits >>> 0;
  if (cell.kind === 'Any') return true;
  if (cell.kind === 'NanF') return (u & 0x7fc00000) === 0x7fc00000;
  if (cell.kind === 'NanD') return (u & 0x7ff80000) === 0x7ff80000;
  return (cell.bits >>> 0) === u;
}

/**
 * An opcode's live lane table: inputs editable, outputs computed by the engine for the four
 * lanes at once (they are one quad), each compared with the row's hand-derived value. Null when
 * the entry has no lane rows or the engine has no `referenceLanes`.
 * @param {RefEntry} e
 * @param {any} engine  the full engine's exports
 * @returns {[HTMLTableElement, HTMLParagraphElement] | null}  the table and its status line
 */
export function laneTable(e, engine) {
  if (!e.program || !e.rows || typeof engine.referenceLanes !== 'function') return null;
  const program = e.program;
  const rows = e.rows.map((r) => {
    const [ins, exp] = r.split('=>');
    return { inputs: ins.split(',').map((s) => s.trim()).filter(Boolean), expected: (exp ?? '').trim() };
  });
  const sources = Math.max(0, ...rows.map((r) => r.inputs.length));
  const table = document.createElement('table');
  table.className = 'live';
  const head = document.createElement('tr');
  for (const t of ['lane', ...Array.from({ length: sources }, (_, i) => `src${i}`), 'expected', computedHeading(e.dst), '']) {
    const th = document.createElement('th');
    th.textContent = t;
    head.append(th);
  }
  table.createTHead().append(head);
  const body = table.createTBody();
  /** @type {HTMLInputElement[][]} */
  const inputs = [];
  /** @type {HTMLTableCellElement[]} */
  const outCells = [];
  /** @type {HTMLTableCellElement[]} */
  const okCells = [];
  rows.forEach((r, lane) => {
    const tr = body.insertRow();
    tr.dataset.lane = String(lane);
    // Each cell names its column (`data-label`): a narrow layout may show the rows as blocks.
    const laneCell = tr.insertCell();
    laneCell.className = 'lane-no';
    laneCell.textContent = String(lane);
    inputs.push([]);
    for (let s = 0; s < sources; s++) {
      const input = document.createElement('input');
      input.value = r.inputs[s] ?? '0';
      input.setAttribute('aria-label', `lane ${lane} src${s}`);
      input.className = `src${s}`;
      const cell = tr.insertCell();
      cell.dataset.label = `src${s}`;
      cell.append(input);
      inputs[lane].push(input);
    }
    const exp = tr.insertCell();
    exp.className = 'expected';
    exp.dataset.label = 'expected';
    exp.textContent = r.expected;
    const out = tr.insertCell();
    out.className = 'computed';
    out.dataset.label = 'computed';
    outCells.push(out);
    const ok = tr.insertCell();
    ok.className = 'verdict';
    okCells.push(ok);
  });
  const status = document.createElement('p');
  status.className = 'lane-status';
  /** @type {HTMLTableCellElement[]} */
  const expCells = [...body.querySelectorAll('td.expected')].map((td) => /** @type {HTMLTableCellElement} */ (td));
  const recompute = () => {
    // An edited row has no hand-derived value: it runs with `_` (nothing compared).
    const edited = rows.map((r, lane) => inputs[lane].some((i, s) => i.value.trim() !== (r.inputs[s] ?? '0')));
    const texts = rows.map((r, lane) => `${inputs[lane].map((i) => i.value).join(', ')} => ${edited[lane] ? '_' : r.expected}`);
    const result = engine.referenceLanes(e.name, program, texts);
    status.textContent = result.error ? `The program did not run: ${result.error}` : '';
    rows.forEach((_, lane) => {
      const parsed = result.rows[lane];
      const out = outCells[lane];
      out.replaceChildren();
      if (parsed?.Err) {
        out.textContent = parsed.Err;
        okCells[lane].textContent = '';
        return;
      }
      const killed = (result.killed >> lane) & 1;
      const bits = result.outputs[lane] ?? [0, 0, 0, 0];
      expCells[lane].textContent = edited[lane] ? '—' : rows[lane].expected;
      if (killed) out.textContent = 'killed';
      else out.append(...channelSpans(bits, e.dst));
      const expected = edited[lane] ? null : parsed?.Ok?.expected;
      // Channel pairs of 64-bit results: the value of both halves together.
      const pairKinds = { double: 'F64Lo', int64: 'I64Lo', uint64: 'U64Lo' };
      if (!killed && e.dst in pairKinds) {
        for (const c of [0, 2]) {
          const kind = /** @type {Record<string, string>} */ (pairKinds)[e.dst];
          const wide = wideValue(kind, bits[c], bits[c + 1]);
          if (wide != null) {
            const span = document.createElement('span');
            span.className = 'pair';
            span.dataset.pair = c === 0 ? 'xy' : 'zw';
            span.textContent = `${c === 0 ? 'xy' : 'zw'} = ${wide}`;
            out.append(span);
          }
        }
      }
      if (edited[lane]) {
        okCells[lane].textContent = 'edited';
        okCells[lane].dataset.same = 'edited';
        return;
      }
      const same = expected == null ? !!killed : !killed && expected.every((/** @type {Cell} */ cell, /** @type {number} */ c) => matches(cell, bits[c]));
      okCells[lane].textContent = same ? '= expected' : '≠ expected';
      okCells[lane].dataset.same = String(same);
    });
  };
  for (const row of inputs) for (const input of row) input.addEventListener('input', recompute);
  recompute();
  return [table, status];
}

/** A float for the texture tables: at most 4 decimals, no trailing zeros. */
const num = (/** @type {number} */ v) => (Number.isInteger(v) ? String(v) : String(Number(v.toFixed(4))));
/** An RGBA value as `(r g b a)`. */
const rgba = (/** @type {number[]} */ v) => `(${v.map(num).join(' ')})`;

/**
 * The texture descriptions of a `textures` attribute (the widget's syntax), made from the
 * page's built-in textures: `{units, jsons}` for `referenceTextureLanes`.
 * @param {string} attr
 */
function textureJsons(attr) {
  const units = [];
  const jsons = [];
  for (const t of readTextures(attr)) {
    units.push(t.unit);
    jsons.push(textureDescription(makeTexture(t.binding.name), t.binding));
  }
  return { units, jsons };
}

/** Cube faces by the index the sampler's trace gives (the engine's `texture::cube::FACE_NAMES`). */
const CUBE_FACES = ['+X', '-X', '+Y', '-Y', '+Z', '-Z'];

/**
 * What the sampler did for one lane, in words: λ, the LOD and the level(s) read.
 * @param {any} sample  the run's SampleTrace (null for fetches and queries)
 * @param {number} lane
 */
function lodText(sample, lane) {
  const l = sample?.lanes?.[lane];
  if (!l) return '';
  const from = { Implicit: 'from the quad', Gradients: "from this lane's derivatives", Explicit: 'given', Fetch: 'fetch' }[/** @type {string} */ (sample.lod_source)] ?? '';
  const levels = l.levels.map((/** @type {any} */ v) => `level ${v.level}${v.face == null ? '' : ` face ${CUBE_FACES[v.face] ?? v.face}`}${l.levels.length > 1 ? ` ×${num(v.weight)}` : ''}`).join(' + ');
  return `λ ${num(l.lambda)} (${from}) → LOD ${num(l.lod)}${l.magnified ? ', magnified' : ''}: ${levels}`;
}

/**
 * The texels one lane read: per level, each texel (x, y) with its weight and value.
 * @param {any} sample
 * @param {number} lane
 */
function tapsList(sample, lane) {
  const ul = document.createElement('ul');
  ul.className = 'texels';
  const levels = sample?.lanes?.[lane]?.levels ?? [];
  for (const level of levels) {
    for (const t of level.taps) {
      const li = document.createElement('li');
      // The level is named when the lane reads two (the LOD column names a single one).
      li.textContent = `${levels.length > 1 ? `L${level.level} ` : ''}(${t.x}, ${t.y})${t.border ? ' border' : ''} ×${num(t.weight)} = ${rgba(t.value.map((/** @type {number} */ v) => Number(v.toFixed(3))))}`;
      ul.append(li);
    }
  }
  return ul;
}

/**
 * A texture opcode's live lane table: the four lanes of one quad run the opcode on the built-in
 * textures through the engine's traced sampler; per lane the coordinates in (editable), the LOD
 * chosen, the texels read with their weights, and the result. Null when the entry has no
 * texture rows or the engine has no `referenceTextureLanes`.
 * @param {RefEntry} e
 * @param {any} engine  the full engine's exports
 * @returns {[HTMLTableElement, HTMLParagraphElement] | null}  the table and its status line
 */
export function texLaneTable(e, engine) {
  const tex = e.tex;
  if (!tex || typeof engine.referenceTextureLanes !== 'function') return null;
  const { units, jsons } = textureJsons(tex.textures);
  const rows = tex.rows.map((r) => {
    const [ins, exp] = r.split('=>');
    return { inputs: ins.split(/,(?![^(]*\))/).map((s) => s.trim()).filter(Boolean), expected: (exp ?? '').trim() };
  });
  const sources = Math.max(0, ...rows.map((r) => r.inputs.length));
  // Per lane a <tbody data-lane>: one row with the inputs (stacked in one cell), the LOD, the
  // result and the verdict; under it a row across the table with the texels read, which wrap
  // into columns: all of a lane fits the content column without sideways scrolling.
  const table = document.createElement('table');
  table.className = 'live tex';
  // The inputs are as wide as the table's longest value (and a caret), in characters.
  const longest = Math.max(12, ...rows.flatMap((r) => r.inputs.map((i) => i.length)));
  table.style.setProperty('--input-chars', String(longest + 1));
  const labels = ['lane', 'inputs', 'LOD / level', 'result', 'expected'];
  const head = document.createElement('tr');
  for (const t of labels) {
    const th = document.createElement('th');
    th.textContent = t;
    head.append(th);
  }
  const tapsHead = document.createElement('tr');
  tapsHead.className = 'taps-row';
  const tapsTh = document.createElement('th');
  tapsTh.colSpan = labels.length;
  tapsTh.textContent = 'under each lane: the texels read, (x, y) × weight = value';
  tapsHead.append(tapsTh);
  table.createTHead().append(head, tapsHead);
  /** @type {HTMLInputElement[][]} */
  const inputs = [];
  /** @type {Record<string, HTMLElement>[]} */
  const cells = [];
  /** @type {HTMLTableRowElement[]} */
  const tapsRows = [];
  rows.forEach((r, lane) => {
    const body = table.createTBody();
    body.className = 'lane';
    body.dataset.lane = String(lane);
    const tr = body.insertRow();
    tr.className = 'lane-row';
    const laneCell = tr.insertCell();
    laneCell.className = 'lane-no';
    laneCell.textContent = String(lane);
    const ins = tr.insertCell();
    ins.className = 'inputs';
    ins.dataset.label = 'inputs';
    inputs.push([]);
    if (!sources) ins.textContent = 'none';
    for (let s = 0; s < sources; s++) {
      const label = document.createElement('label');
      const name = document.createElement('span');
      name.textContent = `src${s}`;
      const input = document.createElement('input');
      input.value = r.inputs[s] ?? '0';
      input.setAttribute('aria-label', `lane ${lane} src${s}`);
      input.className = `src${s}`;
      input.spellcheck = false;
      label.append(name, input);
      ins.append(label);
      inputs[lane].push(input);
    }
    /** @type {Record<string, HTMLElement>} */
    const c = {};
    for (const [name, label] of [['lod', 'LOD / level'], ['result', 'result']]) {
      c[name] = tr.insertCell();
      c[name].className = name;
      c[name].dataset.label = label;
    }
    // The expected value and the verdict share a cell.
    const check = tr.insertCell();
    check.className = 'check';
    check.dataset.label = 'expected';
    for (const name of ['expected', 'verdict']) {
      c[name] = document.createElement('span');
      c[name].className = name;
      check.append(c[name]);
    }
    const tapsRow = body.insertRow();
    tapsRow.className = 'taps-row';
    const taps = tapsRow.insertCell();
    taps.className = 'taps';
    taps.colSpan = labels.length;
    taps.dataset.label = 'texels read, (x, y) × weight = value';
    c.taps = taps;
    tapsRows.push(tapsRow);
    cells.push(c);
  });
  const status = document.createElement('p');
  status.className = 'lane-status';
  const recompute = () => {
    const edited = rows.map((r, lane) => inputs[lane].some((i, s) => i.value.trim() !== (r.inputs[s] ?? '0')));
    const texts = rows.map((r, lane) => `${inputs[lane].map((i) => i.value).join(', ')} => ${edited[lane] ? '_' : r.expected}`);
    const result = engine.referenceTextureLanes(e.name, tex.program, Uint32Array.from(units), jsons, texts);
    const run = result.run ?? {};
    status.textContent = run.error ? `The program did not run: ${run.error}` : '';
    rows.forEach((r, lane) => {
      const c = cells[lane];
      const parsed = result.rows?.[lane];
      c.expected.textContent = edited[lane] ? '—' : r.expected;
      if (parsed?.Err) {
        c.result.textContent = parsed.Err;
        c.lod.textContent = '';
        c.taps.replaceChildren();
        c.verdict.textContent = '';
        return;
      }
      const bits = run.outputs?.[lane] ?? [0, 0, 0, 0];
      // Fetches and queries filter no texels and leave no trace: their words come with the table.
      c.lod.textContent = run.sample ? lodText(run.sample, lane) : tex.level;
      c.taps.replaceChildren(run.sample ? tapsList(run.sample, lane) : '');
      c.result.replaceChildren(...channelSpans(bits, e.dst, true));
      const same = edited[lane] ? 'edited' : String(run.same?.[lane] === true);
      c.verdict.textContent = same === 'edited' ? 'edited' : same === 'true' ? '= expected' : '≠ expected';
      c.verdict.dataset.same = same;
    });
    // Fetches and queries read no filtered texels: no texel rows then.
    tapsRows.forEach((tr) => { tr.hidden = !tr.querySelector('li'); });
    tapsHead.hidden = tapsRows.every((tr) => tr.hidden);
  };
  for (const row of inputs) for (const input of row) input.addEventListener('input', recompute);
  recompute();
  return [table, status];
}
