// @ts-check
// The Constants panel: one editable control per CONST register the shaders declare (four
// numbers, a slider for x and a colour picker for xyz), and the built-in uniforms with their
// registers. Values live in the playground state as `{"buffer:index": [x, y, z, w]}`.
import { setText } from './dom.js';

/**
 * The CONST registers the shaders declare, as sorted `[buffer, index]` pairs, from the engine's
 * `describe` summaries (`null` for a shader that does not parse); the built-in buffer is left
 * out (its values are shown in the built-in uniforms table).
 * @param {({constants: [number, number][]} | null)[]} summaries
 * @param {number} builtinBuffer
 * @returns {[number, number][]}
 */
export function declaredConstants(summaries, builtinBuffer) {
  /** @type {Map<string, [number, number]>} */
  const found = new Map();
  for (const summary of summaries) {
    for (const [buffer, index] of summary?.constants ?? []) {
      if (buffer !== builtinBuffer) found.set(`${buffer}:${index}`, [buffer, index]);
    }
  }
  return [...found.values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

const clamp01 = (v) => Math.min(1, Math.max(0, v));
const toHex = (v) => Math.round(clamp01(v) * 255).toString(16).padStart(2, '0');

function colorOf(values) {
  return `#${toHex(values[0])}${toHex(values[1])}${toHex(values[2])}`;
}

/**
 * Rebuilds the constant controls for the declared registers. `values` is the state's map;
 * `onChange(key, [x,y,z,w])` is called on every edit. With `shared` (a one-stage pane), a
 * register the map lacks shows the shared value, marked as such, and `onClear(key)` gives a
 * set register back to the shared value.
 * @param {HTMLElement} container
 * @param {[number, number][]} registers
 * @param {Record<string, number[]>} values
 * @param {(key: string, values: number[]) => void} onChange
 * @param {{shared?: Record<string, number[]>, onClear?: (key: string) => void, empty?: string, label?: string}} [options]
 */
export function renderConstantControls(container, registers, values, onChange, options = {}) {
  const signature = registers.map(([b, i]) => `${b}:${i}`).join(',');
  if (container.dataset.signature === signature) return;
  container.dataset.signature = signature;
  container.replaceChildren();
  if (registers.length === 0) {
    const p = document.createElement('p');
    p.className = 'muted';
    p.textContent = options.empty ?? 'The shaders declare no CONST registers (besides the built-in uniforms).';
    container.append(p);
    return;
  }
  for (const [buffer, index] of registers) {
    const key = `${buffer}:${index}`;
    const own = key in values;
    const current = (values[key] ?? options.shared?.[key] ?? [0, 0, 0, 0]).slice();
    const row = document.createElement('fieldset');
    row.className = 'const-row';
    row.dataset.key = key;
    if (options.shared) row.dataset.own = String(own);
    const legend = document.createElement('legend');
    legend.textContent = `CONST[${buffer}][${index}]`;
    row.append(legend);
    const inputs = [];
    const slider = document.createElement('input');
    const picker = document.createElement('input');
    const emit = () => {
      if (options.shared) row.dataset.own = 'true';
      onChange(key, current.slice());
    };
    ['x', 'y', 'z', 'w'].forEach((c, k) => {
      const label = document.createElement('label');
      label.className = 'const-field';
      label.textContent = c;
      const input = document.createElement('input');
      input.type = 'number';
      input.step = '0.01';
      input.value = String(current[k]);
      input.setAttribute('aria-label', `CONST[${buffer}][${index}].${c}${options.label ?? ''}`);
      input.dataset.component = c;
      input.addEventListener('input', () => {
        const v = Number(input.value);
        if (!Number.isFinite(v)) return;
        current[k] = v;
        if (k === 0) slider.value = String(v);
        picker.value = colorOf(current);
        emit();
      });
      label.append(input);
      row.append(label);
      inputs.push(input);
    });
    slider.type = 'range';
    slider.min = '-1';
    slider.max = '8';
    slider.step = '0.01';
    slider.value = String(current[0]);
    slider.setAttribute('aria-label', `CONST[${buffer}][${index}].x slider${options.label ?? ''}`);
    slider.addEventListener('input', () => {
      current[0] = Number(slider.value);
      inputs[0].value = slider.value;
      picker.value = colorOf(current);
      emit();
    });
    picker.type = 'color';
    picker.value = colorOf(current);
    picker.setAttribute('aria-label', `CONST[${buffer}][${index}] as a colour${options.label ?? ''}`);
    picker.addEventListener('input', () => {
      const hex = picker.value;
      for (let k = 0; k < 3; k += 1) {
        current[k] = Math.round((parseInt(hex.slice(1 + 2 * k, 3 + 2 * k), 16) / 255) * 1000) / 1000;
        inputs[k].value = String(current[k]);
      }
      slider.value = String(current[0]);
      emit();
    });
    row.append(slider, picker);
    if (options.onClear) {
      const clear = document.createElement('button');
      clear.type = 'button';
      clear.className = 'const-clear';
      clear.textContent = 'use shared';
      clear.title = 'Drop this stage\'s own value: the stage reads the value set for both stages';
      const onClear = options.onClear;
      clear.addEventListener('click', () => onClear(key));
      row.append(clear);
    }
    container.append(row);
  }
}

/** The constant panes: values for both stages (`constants`), or for one stage only. */
export const CONSTANT_STAGES = /** @type {const} */ ({ both: 'constants', vs: 'vsConstants', fs: 'fsConstants', gs: 'gsConstants' });

/**
 * The Constants panel's panes: `both` (every stage: `--const`), `vs`, `fs` and `gs` (one
 * stage's own values, set after the shared ones: `--vs-const`, `--fs-const`, `--gs-const`). Each lists the
 * registers its stage declares; only the pane on show holds controls (so every control's
 * name and selector is unique on the page), the hidden ones are emptied. `onChange(field, key, values)` sets one register of a field
 * (`null` values: drop it, so the stage reads the shared value again); the caller applies it
 * to the current state (the controls outlive the state they were built from).
 * @param {Record<'both' | 'vs' | 'fs' | 'gs', HTMLElement>} panes
 * @param {{fs: any, vs: any, gs?: any, others?: any[]}} summaries the engine's `describe` of each shader (`vs`
 *   and `gs` null without one; `others`: the compute shader, whose constants only the shared pane sets)
 * @param {number} builtinBuffer
 * @param {import('./state.js').PlaygroundState} state
 * @param {(field: 'constants' | 'vsConstants' | 'fsConstants' | 'gsConstants', key: string, values: number[] | null) => void} onChange
 */
const STAGE_WORDS = { vs: 'vertex', fs: 'fragment', gs: 'geometry' };

export function renderStageConstants(panes, summaries, builtinBuffer, state, onChange) {
  for (const pane of Object.values(panes)) {
    if (pane.hidden) { pane.replaceChildren(); delete pane.dataset.signature; }
  }
  if (!panes.both.hidden) {
    const both = declaredConstants([summaries.fs, summaries.vs, summaries.gs, ...(summaries.others ?? [])], builtinBuffer);
    renderConstantControls(panes.both, both, state.constants, (key, values) => onChange('constants', key, values));
  }
  for (const stage of /** @type {const} */ (['vs', 'fs', 'gs'])) {
    if (panes[stage].hidden) continue;
    const field = CONSTANT_STAGES[stage];
    const registers = declaredConstants([summaries[stage]], builtinBuffer);
    const pane = panes[stage];
    renderConstantControls(pane, registers, state[field], (key, values) => onChange(field, key, values), {
      shared: state.constants,
      onClear: (key) => {
        delete pane.dataset.signature;
        onChange(field, key, null);
      },
      label: ` (${STAGE_WORDS[stage]} only)`,
      empty: stage === 'vs' && !summaries.vs ? 'Values for the vertex shader alone: turn on "use vertex shader" first.'
        : stage === 'gs' && !summaries.gs ? 'Values for the geometry shader alone: pick the geometry stage first.'
          : `The ${STAGE_WORDS[stage]} shader declares no CONST registers of its own.`,
    });
  }
}

/**
 * Switches the Constants panel's tabs (`[data-const-stage]` buttons) between the panes.
 * Each visit rebuilds the pane, so its shared values are current.
 * @param {HTMLElement} root the panel
 * @param {Record<'both' | 'vs' | 'fs' | 'gs', HTMLElement>} panes
 * @param {() => void} refresh rebuilds the panes
 */
export function wireConstantTabs(root, panes, refresh) {
  const tabs = /** @type {HTMLElement[]} */ ([...root.querySelectorAll('[data-const-stage]')]);
  for (const tab of tabs) {
    tab.addEventListener('click', () => {
      const stage = /** @type {'both' | 'vs' | 'fs' | 'gs'} */ (tab.dataset.constStage);
      for (const t of tabs) t.setAttribute('aria-selected', String(t === tab));
      for (const [name, pane] of Object.entries(panes)) {
        pane.hidden = name !== stage;
        delete pane.dataset.signature;
      }
      refresh();
    });
  }
}

/**
 * The constants of a frame request from the state's maps.
 * @param {Record<string, number[]>} map
 * @returns {{buffer: number, index: number, values: number[]}[]}
 */
export function constantList(map) {
  return Object.entries(map).map(([key, v]) => {
    const [buffer, index] = key.split(':').map(Number);
    return { buffer, index, values: v.map(Number) };
  });
}

/**
 * Fills the built-in uniforms table: one row per register of the engine's layout
 * (`builtinLayout()`), with this frame's values in its channel order.
 * @param {HTMLTableSectionElement} tbody
 * @param {{width: number, height: number, time: number, timeDelta: number, frame: number, mouse: number[], mouseDown: boolean}} b
 * @param {{buffer: number, slots: {index: number, name: string, channels: string[]}[]}} layout
 */
export function renderBuiltins(tbody, b, layout) {
  /** @type {Record<string, string>} */
  const values = {
    resolution: `${b.width}, ${b.height}, 1/${b.width}, 1/${b.height}`,
    time: `${b.time.toFixed(2)} s, ${b.timeDelta.toFixed(3)} s, ${b.frame}`,
    mouse: `${b.mouse[0].toFixed(0)}, ${b.mouse[1].toFixed(0)}, ${b.mouseDown ? 'down' : 'up'}`,
  };
  const rows = layout.slots.map((s) => [
    `${s.name} (${s.channels.filter((c) => c !== '0').join(', ')})`,
    `CONST[${layout.buffer}][${s.index}]`,
    values[s.name] ?? '',
  ]);
  if (tbody.rows.length !== rows.length) {
    tbody.replaceChildren(...rows.map(() => {
      const tr = document.createElement('tr');
      for (let i = 0; i < 3; i += 1) tr.append(document.createElement('td'));
      return tr;
    }));
  }
  rows.forEach((cells, r) => cells.forEach((c, i) => setText(tbody.rows[r].cells[i], c)));
}
