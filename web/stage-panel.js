// @ts-check
// The stage selector: the fragment pipeline (as before), a compute dispatch, or the pipeline with
// a geometry shader between the vertex stage and rasterization. It shows the editor tabs and
// output panels of the chosen stage and lists what the geometry shader emitted.

import { program } from './programs.js';

/** @typedef {import('./stage-state.js').Stage} Stage */

/** What an empty geometry or compute tab starts with when its stage is picked (programs/starters/). */
export const STARTERS = {
  gs: program('starters/geometry.gs'),
  cs: program('starters/compute.cs'),
};

/** Editor tabs of each stage, the first one shown when the stage is picked. */
export const STAGE_TABS = {
  pipeline: ['fs', 'vs'],
  geometry: ['gs', 'fs', 'vs'],
  compute: ['cs'],
};
/** The editor's tabs and their names in the problems list. */
export const TAB_NAMES = { fs: 'fragment', vs: 'vertex', gs: 'geometry', cs: 'compute' };
/** Output-pane elements that belong to the render pipeline (hidden for compute). */
const PIPELINE_ONLY = ['#target-tabs', '.canvas-wrap', '.canvas-controls', '#render-status', '#inspector',
  '#use-vs', '#mesh'];

/** @param {string} id */
const byId = (id) => /** @type {HTMLElement | null} */ (document.getElementById(id));

/**
 * Shows the editor tabs and panels of `stage`.
 * @param {Stage} stage
 */
export function showStage(stage) {
  const tabs = STAGE_TABS[stage];
  for (const tab of ['fs', 'vs', 'gs', 'cs']) {
    const b = byId(`tab-${tab}`);
    if (b) b.hidden = !tabs.includes(tab);
  }
  const pipelineOnly = stage === 'compute';
  for (const selector of PIPELINE_ONLY) {
    const e = document.querySelector(selector);
    // A control hides with its label.
    (e?.closest('label') ?? e)?.classList.toggle('stage-hidden', pipelineOnly);
  }
  const compute = byId('compute-panel');
  if (compute) compute.hidden = stage !== 'compute';
  const geometry = byId('geometry-panel');
  if (geometry) geometry.hidden = stage !== 'geometry';
  document.body.dataset.stage = stage;
}

/**
 * Lists the primitives a geometry shader emitted (the engine's `geometryPrimitives` result):
 * per primitive its stream and vertices, each vertex's OUT registers as floats.
 * @param {HTMLElement} root
 * @param {any} result
 * @param {string[]} outputNames names of the OUT registers (`OUT[0] POSITION`), by register
 */
export function showPrimitives(root, result, outputNames) {
  const status = document.createElement('p');
  status.className = 'muted';
  status.id = 'primitive-summary';
  if (!result?.ok) {
    const error = (result?.diagnostics ?? []).find((/** @type {any} */ d) => d.severity === 'error');
    status.textContent = `No primitives: ${error?.message ?? result?.error ?? 'the geometry shader did not run'}`;
    root.dataset.state = 'error';
    root.replaceChildren(status);
    return;
  }
  const info = result.info ?? {};
  status.textContent = `${result.inputPrimitives} input triangle${result.inputPrimitives === 1 ? '' : 's'} → ${result.count} primitive${result.count === 1 ? '' : 's'} emitted (${info.output ?? '?'}, at most ${info.maxVertices ?? '?'} vertices, ${info.invocations ?? 1} invocation${info.invocations === 1 ? '' : 's'} per input)${result.count > result.primitives.length ? `; the first ${result.primitives.length} listed` : ''}. Stream 0 is drawn.`;
  const items = result.primitives.map((/** @type {any} */ p, /** @type {number} */ k) => {
    const section = document.createElement('section');
    section.className = 'primitive';
    section.dataset.stream = String(p.stream);
    section.dataset.vertices = String(p.vertices.length);
    const title = document.createElement('h3');
    title.textContent = `Primitive ${k}: stream ${p.stream}, ${p.vertices.length} vertices`;
    const table = document.createElement('table');
    table.className = 'trace-quad primitive-table';
    const head = document.createElement('tr');
    for (const h of ['vertex', ...(p.vertices[0] ?? []).map((/** @type {any} */ _, /** @type {number} */ r) => outputNames[r] ?? `OUT[${r}]`)]) {
      const th = document.createElement('th');
      th.textContent = h;
      head.append(th);
    }
    table.append(head);
    p.vertices.forEach((/** @type {number[][]} */ v, /** @type {number} */ i) => {
      const tr = document.createElement('tr');
      tr.dataset.values = JSON.stringify(v);
      for (const text of [String(i), ...v.map((c) => `(${c.map((x) => (x === null ? 'NaN' : +x.toPrecision(6))).join(', ')})`)]) {
        const td = document.createElement('td');
        td.textContent = text;
        tr.append(td);
      }
      table.append(tr);
    });
    section.append(title, table);
    return section;
  });
  root.dataset.state = 'ok';
  root.dataset.count = String(result.count);
  root.replaceChildren(status, ...items);
}

/**
 * Names of a shader's OUT registers from the engine's `describe` summary.
 * @param {any} summary
 */
export function outputNames(summary) {
  /** @type {string[]} */
  const names = [];
  for (const d of summary?.declarations ?? []) {
    if (d.file !== 'OUT') continue;
    for (let r = d.first; r <= Math.min(d.last, d.first + 63); r += 1) names[r] = `OUT[${r}]${d.semantic ? ` ${d.semantic}` : ''}`;
  }
  return names;
}
