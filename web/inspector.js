// @ts-check
// The inspector: what the shader did for one pixel, step by step, for the four pixels of its
// 2×2 quad; the heat map (instructions per pixel) and the image at instruction N. Every value
// shown comes from the engine's trace or probe of the frame on the canvas (the same prepared
// job in the same worker: `tracePixel`, `probeFrame`); this module only lays them out. The
// register state at a step is the trace's writes replayed up to that step, so stepping back
// and forward always shows the same state.

import { referenceUrl } from './reference-link.js';

/** The quad's pixels in the order every per-lane array of a trace uses. */
export const LANES = ['top-left', 'top-right', 'bottom-left', 'bottom-right'];

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The float an unsigned 32-bit pattern holds. */
export function bitsToFloat(/** @type {number} */ bits) {
  u32[0] = bits >>> 0;
  return f32[0];
}

/**
 * One 32-bit value as the chosen view shows it; `type` (the engine's operand type) picks the
 * natural view when `view` is 'auto'.
 * @param {number} bits
 * @param {string} view float | hex | int | uint | auto
 * @param {string} [type]
 */
export function formatBits(bits, view, type = 'float') {
  const v = view === 'auto' ? ({ int: 'int', uint: 'uint', int64: 'int', uint64: 'uint', double: 'hex' }[type] ?? 'float') : view;
  if (v === 'hex') return `0x${(bits >>> 0).toString(16).padStart(8, '0')}`;
  if (v === 'int') return String(bits | 0);
  if (v === 'uint') return String(bits >>> 0);
  const f = bitsToFloat(bits);
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (Object.is(f, -0)) return '-0';
  return String(Number(f.toPrecision(7)));
}

/**
 * The register channels after step `at` (-1: before the first step), in the order they were
 * first written, and the channels step `at` wrote.
 * @param {any} trace the engine's trace JSON
 * @param {number} at
 * @returns {{values: Map<string, {lanes: number[], type: string}>, changed: Set<string>}}
 */
export function stateAt(trace, at) {
  const values = new Map();
  const changed = new Set();
  const last = Math.min(at, trace.steps.length - 1);
  for (let i = 0; i <= last; i += 1) {
    for (const w of trace.steps[i].writes) {
      const key = `${w.reg}.${w.chan}`;
      values.set(key, { lanes: w.after, type: w.type });
      if (i === last) changed.add(key);
    }
  }
  return { values, changed };
}

/**
 * The first step after `from` for which `test(step)` holds, or -1.
 * @param {any} trace
 * @param {number} from
 * @param {(step: any) => boolean} test
 */
export function nextStop(trace, from, test) {
  for (let i = from + 1; i < trace.steps.length; i += 1) if (test(trace.steps[i])) return i;
  return -1;
}

/**
 * The innermost loop around instruction `pc`, from the instruction list of `describe`: the
 * index and line of its BGNLOOP, or null outside every loop. (A subroutine called from a loop
 * is not inside it here.)
 * @param {{opcode: string, line: number}[]} instructions
 * @param {number} pc
 * @returns {{pc: number, line: number} | null}
 */
export function enclosingLoop(instructions, pc) {
  /** @type {number[]} */
  const open = [];
  for (let i = 0; i < Math.min(pc, instructions.length); i += 1) {
    if (instructions[i].opcode === 'BGNLOOP') open.push(i);
    else if (instructions[i].opcode === 'ENDLOOP') open.pop();
  }
  if (instructions[pc]?.opcode === 'BGNLOOP') open.push(pc);
  const at = open.at(-1);
  return at === undefined ? null : { pc: at, line: instructions[at].line };
}

/**
 * The register channel value-after-N watches for instruction `inst` of `describe`: the first
 * channel it writes that a probe can watch (TEMP, OUT, ADDR), or null.
 * @param {{writes?: string[]} | undefined} inst
 */
export function watchedDestination(inst) {
  return inst?.writes?.find((w) => /^(TEMP|OUT|ADDR)\[/.test(w)) ?? null;
}

/** A colour ramp (dark blue → teal → yellow) for t in [0, 1]. */
function ramp(/** @type {number} */ t) {
  const stops = [[13, 8, 135], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
  const x = Math.min(Math.max(t, 0), 1) * (stops.length - 1);
  const i = Math.min(Math.floor(x), stops.length - 2);
  const f = x - i;
  return stops[i].map((a, c) => Math.round(a + (stops[i + 1][c] - a) * f));
}

/** CSS for the ramp, for the legend. */
export const RAMP_CSS = 'linear-gradient(to right, rgb(13,8,135), rgb(33,145,140), rgb(94,201,98), rgb(253,231,37))';

/**
 * Paints a probe result as false colour: the heat map (instructions per pixel) or the watched
 * value (numbers by `view`). Returns the legend's range. Pixels no fragment covers stay
 * transparent; fragments that never ran the instruction are grey.
 * @param {ImageData} image
 * @param {any} probe the engine's probeFrame result
 * @param {'heat' | 'value'} mode
 * @param {string} view
 */
export function paintProbe(image, probe, mode, view) {
  const n = probe.width * probe.height;
  const number = (/** @type {number} */ i) => {
    if (mode === 'heat') return probe.counts[i];
    const bits = probe.values[i];
    if (view === 'int') return bits | 0;
    if (view === 'uint' || view === 'hex') return bits >>> 0;
    return bitsToFloat(bits);
  };
  let min = Infinity;
  let max = -Infinity;
  let nonFinite = 0;
  for (let i = 0; i < n; i += 1) {
    if (probe.state[i] !== 2 && !(mode === 'heat' && probe.state[i] === 1)) continue;
    const v = number(i);
    if (!Number.isFinite(v)) { nonFinite += 1; continue; }
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const span = max > min ? max - min : 1;
  const d = image.data;
  for (let i = 0; i < n; i += 1) {
    const s = probe.state[i];
    const o = i * 4;
    if (s === 0) { d[o] = 0; d[o + 1] = 0; d[o + 2] = 0; d[o + 3] = 0; continue; }
    if (s === 1 && mode === 'value') {
      // Not reached: a grey checker, so it cannot be mistaken for a value.
      const x = i % probe.width;
      const y = Math.floor(i / probe.width);
      const g = ((x >> 2) + (y >> 2)) % 2 ? 90 : 120;
      d[o] = g; d[o + 1] = g; d[o + 2] = g; d[o + 3] = 255;
      continue;
    }
    const v = number(i);
    const [r, g, b] = Number.isFinite(v) ? ramp((v - min) / span) : [255, 0, 255];
    d[o] = r; d[o + 1] = g; d[o + 2] = b; d[o + 3] = 255;
  }
  return { min: min === Infinity ? 0 : min, max: max === -Infinity ? 0 : max, nonFinite };
}

/** Small DOM helper: an element with a class and text. */
function el(/** @type {string} */ tag, /** @type {string} */ cls = '', /** @type {string} */ text = '') {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text) e.textContent = text;
  return e;
}

const TEXTURE_OPS = /^(TEX|TXB|TXL|TXP|TXD|TXF|TG4|LODQ|TEX2|TXB2|TXL2|TEX_LZ|TXF_LZ|SAMPLE)/;

/**
 * The trace panel: the step the user stands on, the quad's lanes, stepping and running.
 * `dom` holds the panel's elements (index.html); `editor` highlights lines and holds the
 * breakpoints.
 */
export class TraceView {
  /**
   * @param {Record<string, any>} dom
   * @param {any} editor
   */
  constructor(dom, editor) {
    this.dom = dom;
    this.editor = editor;
    /** @type {any} */ this.trace = null;
    /** @type {string[]} */ this.labels = LANES;
    /** The editor tab of the traced shader. */
    this.tab = 'fs';
    this.at = -1;
    this.view = 'auto';
    dom.first.addEventListener('click', () => this.go(-1));
    dom.back.addEventListener('click', () => this.go(this.at - 1));
    dom.step.addEventListener('click', () => this.go(this.at + 1));
    dom.end.addEventListener('click', () => this.go(this.trace ? this.trace.steps.length - 1 : -1));
    dom.runBreak.addEventListener('click', () => this.runToBreakpoint());
    dom.runCursor.addEventListener('click', () => this.runTo((s) => s.line === this.editor.cursorLine(), 'the cursor line'));
    dom.runNaN.addEventListener('click', () => this.runToNonFinite());
  }

  /**
   * Shows a new trace from its start: a pixel's (lanes are the quad's pixels) or a vertex's
   * (`trace.vertex` set; lanes are the four vertices run together).
   */
  show(/** @type {any} */ trace, /** @type {number} */ at = -1) {
    this.trace = trace;
    this.tab = trace.vertex != null ? 'vs' : 'fs';
    this.labels = trace.vertex != null
      ? [0, 1, 2, 3].map((i) => `vertex ${trace.first + i}`)
      : LANES;
    this.at = Math.max(-1, Math.min(at, trace.steps.length - 1));
    this.dom.root.hidden = false;
    document.body.dataset.tracing = 'true';
    this.render();
  }

  clear() {
    this.trace = null;
    this.dom.root.hidden = true;
    document.body.dataset.tracing = 'false';
    this.editor.showTraceLine(null);
  }

  /**
   * Scrolls the page as little as it must so that the step's instruction and the lanes (their
   * headers and the rows this step wrote) are on the screen, never past the panel's top (its
   * step buttons stay); the picture beside them stays.
   */
  reveal() {
    const { root, quad } = this.dom;
    if (root.hidden) return;
    const rows = quad.querySelectorAll('tr.changed');
    const top = root.getBoundingClientRect().top;
    let bottom = (quad.tHead ?? quad).getBoundingClientRect().bottom;
    // On a phone the lanes are two bands: the last cell of each written row is lowest.
    for (const td of quad.querySelectorAll('tr.changed td, thead th')) bottom = Math.max(bottom, td.getBoundingClientRect().bottom);
    if (rows.length === 0) bottom = Math.max(bottom, quad.getBoundingClientRect().bottom);
    const margin = 8;
    const view = window.innerHeight;
    let by = 0;
    if (bottom > view - margin) by = bottom - (view - margin);
    // Never past the panel's top; lanes above the screen: back up to the panel's top.
    if (by > 0 && top - by < margin) by = Math.max(0, top - margin);
    if (by === 0 && (quad.tHead ?? quad).getBoundingClientRect().top < 0) by = top - margin;
    if (Math.abs(by) >= 1) window.scrollBy(0, by);
  }

  /**
   * The step where the traced pixel last ran instruction `pc` (what the value-after-N picture
   * shows for it), or -1.
   */
  lastStepAt(/** @type {number} */ pc) {
    const t = this.trace;
    if (!t) return -1;
    for (let i = t.steps.length - 1; i >= 0; i -= 1) {
      if (t.steps[i].pc === pc && t.steps[i].exec_mask[t.lane ?? 0]) return i;
    }
    return -1;
  }

  /** Moves to step `i` (clamped; -1 is before the first). */
  go(/** @type {number} */ i) {
    if (!this.trace) return;
    this.at = Math.max(-1, Math.min(i, this.trace.steps.length - 1));
    this.dom.message.textContent = '';
    this.render();
    this.reveal();
  }

  /** Runs forward to the next step that `test` accepts; says so when there is none. */
  runTo(/** @type {(s: any) => boolean} */ test, /** @type {string} */ what) {
    if (!this.trace) return;
    const i = nextStop(this.trace, this.at, test);
    if (i < 0) {
      this.go(this.trace.steps.length - 1);
      this.dom.message.textContent = `No further step reaches ${what}: the trace ends here.`;
      return;
    }
    this.go(i);
  }

  runToBreakpoint() {
    const lines = this.editor.breakpoints(this.tab);
    if (lines.size === 0) {
      this.dom.message.textContent = 'No breakpoints: click in the gutter left of a line number to set one.';
      return;
    }
    this.runTo((s) => lines.has(s.line), 'a breakpoint');
  }

  runToNonFinite() {
    const lane = this.trace?.lane ?? 0;
    this.runTo((s) => s.nonfinite[lane], 'a NaN or an infinity in this pixel');
    const s = this.trace?.steps[this.at];
    if (s?.nonfinite[lane]) this.dom.message.textContent = `Step ${this.at + 1} made a NaN or an infinity in this pixel.`;
  }

  render() {
    const t = this.trace;
    if (!t) return;
    const { dom } = this;
    const lane = t.lane;
    const steps = t.steps;
    const step = this.at >= 0 ? steps[this.at] : null;
    const labels = this.labels;
    dom.title.textContent = t.vertex != null
      ? `Vertex ${t.vertex} of the mesh, run together with vertices ${t.first} to ${t.first + 3}`
      : `Pixel (${t.pixel[0]}, ${t.pixel[1]}): the ${LANES[lane]} pixel of the quad at (${t.quad[0]}, ${t.quad[1]})`;
    dom.position.textContent = `step ${this.at + 1} of ${steps.length}${t.truncated ? ` (trace truncated at ${steps.length} steps)` : ''}`;
    dom.root.dataset.at = String(this.at);
    dom.back.disabled = this.at < 0;
    dom.first.disabled = this.at < 0;
    dom.step.disabled = this.at >= steps.length - 1;
    dom.end.disabled = this.at >= steps.length - 1;
    this.editor.showTraceLine(step ? step.line : null);

    // The instruction.
    const info = dom.instruction;
    info.replaceChildren();
    if (!step) {
      info.append(el('div', 'trace-text', 'Before the first instruction: every register is 0. Step to run it.'));
    } else {
      const head = el('div', 'trace-text');
      head.append(el('span', 'trace-line', `line ${step.line}`), el('code', '', step.text));
      if (typeof step.opcode === 'string') {
        const ref = /** @type {HTMLAnchorElement} */ (el('a', 'trace-ref', `${step.opcode} reference`));
        ref.href = referenceUrl(step.opcode);
        ref.target = '_blank';
        ref.rel = 'noopener';
        head.append(ref);
      }
      if (step.iteration != null) head.append(el('span', 'trace-iter', `loop iteration ${step.iteration}`));
      info.append(head);
      const active = step.exec_mask[lane];
      const why = step.off[lane];
      const self = el('div', active ? 'trace-active' : 'trace-inactive',
        active ? 'This pixel ran this instruction.' : `This pixel did not run it: ${why ?? 'inactive'}.`);
      info.append(self);
      if (step.kill_mask[lane]) info.append(el('div', 'trace-killed', 'This pixel has been discarded (KILL): the canvas keeps the background here.'));
      const changedMask = step.exec_after.some((/** @type {boolean} */ a, /** @type {number} */ i) => a !== step.exec_mask[i]);
      if (changedMask) {
        const lanes = step.exec_after.map((/** @type {boolean} */ a, /** @type {number} */ i) => `${labels[i]} ${a ? 'on' : 'off'}`).join(', ');
        info.append(el('div', 'trace-decision', `Decision: after it, ${lanes}.`));
      }
      if (/^DD[XY]/.test(step.text)) {
        info.append(el('div', 'trace-note', step.text.startsWith('DDX')
          ? 'DDX is a difference between the source in neighbouring pixels of the quad (left and right): compare the source row below with the result. Helper pixels outside the triangle still run so this difference exists.'
          : 'DDY is a difference between the source in neighbouring pixels of the quad (above and below): compare the source row below with the result. Helper pixels outside the triangle still run so this difference exists.'));
      }
    }

    // The quad: what the step read, what it wrote (before → after) and every register so far,
    // one column per lane (web/style.css turns it into a 2×2 of lane blocks on a phone).
    /** @type {{th: HTMLElement, cells: HTMLElement[], cls: string, reg?: string, section?: string}[]} */
    const rows = [];
    const cell = (/** @type {string} */ text, /** @type {number} */ i, /** @type {string} */ extra = '') => {
      const td = el('td', `${i === lane ? 'lane-self' : ''} ${extra}`.trim(), text);
      td.dataset.lane = String(i);
      if (step && !step.exec_mask[i]) td.classList.add('lane-off');
      return td;
    };
    const label = (/** @type {string} */ tag, /** @type {string} */ text) => {
      const th = el('th');
      if (tag) th.append(el('span', 'tag', tag));
      th.append(tag ? ` ${text}` : text);
      return th;
    };
    const sections = new Set();
    const add = (/** @type {string} */ section, /** @type {string} */ cls, /** @type {HTMLElement} */ th, /** @type {HTMLElement[]} */ cells, /** @type {string | undefined} */ reg = undefined) => {
      rows.push({ th, cells, cls, reg, section: sections.has(section) ? undefined : section });
      sections.add(section);
    };
    const { values, changed } = stateAt(t, this.at);
    if (step) {
      for (const src of step.sources) {
        // A broadcast (.xxxx) reads one value per lane; otherwise each channel on its own line.
        const same = [0, 1, 2, 3].every((i) => src.values.every((/** @type {number[]} */ c) => c[i] === src.values[0][i]));
        const cells = [0, 1, 2, 3].map((i) => {
          if (same) return cell(formatBits(src.values[0][i], this.view, src.type), i);
          const td = cell('', i);
          'xyzw'.split('').forEach((c, k) => {
            const line = el('span', 'chan', formatBits(src.values[k][i], this.view, src.type));
            line.dataset.c = c;
            td.append(line);
          });
          return td;
        });
        add('reads', 'trace-source', label('reads', src.operand), cells);
      }
      if (step.sample) {
        const cells = [0, 1, 2, 3].map((i) => {
          const td = cell(step.sample.words[i], i, 'words');
          // The footprint: each texel read, as its colour, with its weight.
          const taps = el('div', 'taps');
          for (const level of step.sample.lanes[i].levels) {
            for (const tap of level.taps) {
              const sw = el('span', 'swatch tap');
              const [r, g, b, a] = tap.value.map((/** @type {number} */ v) => Math.min(Math.max(v ?? 0, 0), 1));
              sw.style.background = `rgba(${Math.round(r * 255)},${Math.round(g * 255)},${Math.round(b * 255)},${a})`;
              sw.style.opacity = String(0.35 + 0.65 * tap.weight * level.weight);
              sw.title = `level ${level.level}, texel (${tap.x}, ${tap.y}) × ${tap.weight * level.weight}`;
              taps.append(sw);
            }
          }
          td.append(taps);
          return td;
        });
        add('reads', 'trace-sampler', label('reads', 'sampler'), cells);
      }
      if (step.derivative && step.writes.length && step.sources.length) {
        // The engine says which two pixels each result is the difference of.
        const c = 'xyzw'.indexOf(step.writes[0].chan);
        const cells = [0, 1, 2, 3].map((i) => {
          const [a, b] = step.derivative[i];
          const v = step.sources[0].values[c];
          return cell(`${labels[a]} − ${labels[b]}: ${formatBits(v[a], this.view)} − ${formatBits(v[b], this.view)}`, i, 'words');
        });
        add('writes', 'trace-derivative', label('', `${step.writes[0].reg}.${step.writes[0].chan} =`), cells);
      }
      if (TEXTURE_OPS.test(step.text) && step.writes.length) {
        const cells = [0, 1, 2, 3].map((i) => {
          const rgba = ['x', 'y', 'z', 'w'].map((c) => {
            const w = step.writes.find((/** @type {any} */ x) => x.chan === c);
            return w ? Math.min(Math.max(bitsToFloat(w.after[i]), 0), 1) : 0;
          });
          const td = cell('', i);
          const sw = el('span', 'swatch');
          sw.style.background = `rgba(${rgba.slice(0, 3).map((v) => Math.round(v * 255)).join(',')},${rgba[3]})`;
          td.append(sw);
          return td;
        });
        add('writes', 'trace-sample', label('', 'sampled colour'), cells);
      }
      // What this step wrote: each channel as before → after.
      for (const w of step.writes) {
        const key = `${w.reg}.${w.chan}`;
        const v = values.get(key);
        if (!v) continue;
        const cells = [0, 1, 2, 3].map((i) => {
          const td = cell(formatBits(v.lanes[i], this.view, v.type), i);
          if (step.exec_mask[i] && w.before) td.dataset.before = formatBits(w.before[i], this.view, v.type);
          return td;
        });
        add('writes', 'changed', label('writes', key), cells, key);
      }
    }
    for (const [key, v] of values) {
      if (changed.has(key)) continue;
      add('registers', '', label('', key), [0, 1, 2, 3].map((i) => cell(formatBits(v.lanes[i], this.view, v.type), i)), key);
    }

    const table = dom.quad;
    table.replaceChildren();
    const head = el('tr');
    head.append(el('th', '', 'register'));
    const band = rows.length + 1;
    labels.forEach((name, i) => {
      const self = t.vertex != null ? ' (this vertex)' : ' (this pixel)';
      const th = el('th', i === lane ? 'lane-self' : '', name + (i === lane ? self : ''));
      th.dataset.lane = String(i);
      // The phone layout's place: lanes 0, 1 side by side, then 2, 3 under them.
      th.style.setProperty('--nr', String(Math.floor(i / 2) * band + 1));
      th.style.setProperty('--nc', String((i % 2) + 1));
      if (t.helpers?.[i]) th.title = 'outside the primitive: a helper pixel (runs for DDX/DDY, never stored)';
      head.append(th);
    });
    const thead = el('thead');
    thead.append(head);
    table.append(thead);
    const body = el('tbody');
    const titles = { reads: 'reads: the operands of this instruction', writes: 'writes: before → after', registers: 'registers so far' };
    rows.forEach((row, k) => {
      if (row.section) {
        const tr = el('tr', 'trace-section');
        const th = el('th', '', /** @type {Record<string, string>} */ (titles)[row.section]);
        th.setAttribute('colspan', '5');
        tr.append(th);
        body.append(tr);
      }
      const tr = el('tr', row.cls);
      if (row.reg) tr.dataset.reg = row.reg;
      tr.append(row.th);
      row.cells.forEach((td, i) => {
        td.style.setProperty('--nr', String(Math.floor(i / 2) * band + k + 2));
        td.style.setProperty('--nc', String((i % 2) + 1));
        td.dataset.label = row.th.textContent ?? '';
        tr.append(td);
      });
      body.append(tr);
    });
    table.append(body);

    // At the end: what the pixel's outputs hold.
    dom.outputs.replaceChildren();
    if (this.at === steps.length - 1) {
      for (const o of t.outputs) {
        const v = o.bits.map((/** @type {number} */ b) => formatBits(b, this.view, 'float')).join(', ');
        dom.outputs.append(el('div', 'trace-output', `${o.reg} (${o.semantic ?? 'output'}${o.semantic_index != null ? `[${o.semantic_index}]` : ''}) = (${v})`));
      }
    }
  }
}

/**
 * Fills a table with every vertex's inputs and outputs (the engine's `vertexTable`), at most
 * `limit` rows; clicking a row (or Enter on it) calls `pick(index)`.
 * @param {HTMLTableElement} table
 * @param {any} data
 * @param {(index: number) => void} pick
 */
export function renderVertexTable(table, data, pick, limit = 300) {
  table.replaceChildren();
  const head = el('tr');
  head.append(el('th', '', '#'));
  for (let r = 0; r < data.inputRegisters; r += 1) head.append(el('th', '', `IN[${r}]`));
  for (let r = 0; r < data.outputRegisters; r += 1) head.append(el('th', '', `OUT[${r}]`));
  const thead = el('thead');
  thead.append(head);
  const body = el('tbody');
  const channels = (/** @type {Float32Array} */ a, /** @type {number} */ at) => [0, 1, 2, 3].map((c) => formatBits(new Uint32Array(a.buffer, a.byteOffset, a.length)[at + c], 'float'));
  for (let v = 0; v < Math.min(data.count, limit); v += 1) {
    const tr = el('tr');
    tr.dataset.vertex = String(v);
    tr.tabIndex = 0;
    tr.append(el('th', '', String(v)));
    // Each cell names its register (`data-label`: a phone shows it beside the value) and reads
    // `(x, y, z, w)`; a narrow column breaks it only between the xy and zw halves.
    const cell = (/** @type {string} */ label, /** @type {string[]} */ [x, y, z, w]) => {
      const td = el('td');
      td.dataset.label = label;
      td.append(el('span', 'half', `(${x}, ${y},`), ' ', el('span', 'half', `${z}, ${w})`));
      return td;
    };
    for (let r = 0; r < data.inputRegisters; r += 1) tr.append(cell(`IN[${r}]`, channels(data.inputs, (v * data.inputRegisters + r) * 4)));
    for (let r = 0; r < data.outputRegisters; r += 1) tr.append(cell(`OUT[${r}]`, channels(data.outputs, (v * data.outputRegisters + r) * 4)));
    tr.addEventListener('click', () => pick(v));
    tr.addEventListener('keydown', (e) => { if (e.key === 'Enter') pick(v); });
    body.append(tr);
  }
  table.append(thead, body);
}
