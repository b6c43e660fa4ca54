// @ts-check
// The inspector's wiring on the playground page: traces of a pixel or a vertex, probes (the
// value after instruction N, the heat map) and the overlay on the canvas, all of the frame on
// the canvas (`app.lastRequest`), asked of the render pool's first worker. The views themselves
// (trace table, probe colours, vertex table) are inspector.js.

import { $ } from './dom.js';
import { RAMP_CSS, TraceView, enclosingLoop, paintProbe, renderVertexTable, watchedDestination } from './inspector.js';

/**
 * @typedef {object} PageParts  what the page's entry point (main.js) lends the inspector
 * @property {import('./main.js').PageApp} app  the page's own state (main.js `app`): pool, editor, request, trace view
 * @property {typeof import('./store.js').store} store
 * @property {HTMLCanvasElement} canvas   the picture (#output)
 * @property {(text: string) => any} describe      the engine's summary of a shader's text
 * @property {(on: boolean) => void} setPlaying    pauses the animation (freeze-frame)
 * @property {(tab: any) => void} selectEditorTab  shows an editor tab (a vertex trace shows VS)
 */

/**
 * The inspector's operations, bound to the page's parts.
 * @param {PageParts} parts
 */
export function createPageInspector({ app, store, canvas, describe, setPlaying, selectEditorTab }) {
  /** What the inspector holds itself: nothing else reads or writes it. */
  const own = {
    /** @type {TraceView | null} */ traceView: null,
    /** The inspected pixel (x from the left, y from the top) and the keyboard cursor. */
    /** @type {{x: number, y: number} | null} */ inspected: null,
    cursor: { x: 0, y: 0 },
    /** The last probe result shown on the overlay, and whether another is wanted. */
    /** @type {import('./engine-results.js').ProbeResult | null} */ probe: null,
    probing: false,
    probeAgain: false,
    /** The vertex inputs of the frame the vertex table lists (`vertexInputs`); null: not listed. */
    /** @type {string | null} */ verticesOf: null,
    /** Counts vertex-table requests: only the latest one's answer is shown. */
    verticesRun: 0,
  };

  /** What decides a frame's vertex table: its vertex shader, geometry and constants. */
  function vertexInputs(/** @type {any} */ request) {
    return JSON.stringify([request.vs, request.mesh, request.vertices, request.vsConstants]);
  }

  /** The overlay canvas: a probe's false colours and the inspected quad's outline. */
  function paintOverlay() {
    const overlay = $('overlay');
    const size = canvas.width;
    if (overlay.width !== size) { overlay.width = size; overlay.height = size; }
    const ctx = overlay.getContext('2d');
    ctx.clearRect(0, 0, size, size);
    const mode = $('view-mode').value;
    const legend = $('probe-legend');
    if (mode !== 'image' && own.probe?.ok && own.probe.width === size) {
      const image = new ImageData(size, size);
      const view = $('value-format').value;
      const range = paintProbe(image, own.probe, mode, view === 'auto' ? 'float' : view);
      ctx.putImageData(image, 0, 0);
      legend.hidden = false;
      const show = (/** @type {number} */ v) => (mode === 'heat' ? String(v) : Number(v.toPrecision(6)).toString());
      $('probe-min').textContent = show(range.min);
      $('probe-max').textContent = show(range.max);
      $('probe-ramp').style.background = RAMP_CSS;
      const flat = mode === 'value' && range.min === range.max ? `every pixel that ran it holds ${show(range.min)}; ` : '';
      $('probe-summary').textContent = mode === 'heat'
        ? `instructions run: ${own.probe.total} in all, ${own.probe.max} at most in one pixel`
        : `${flat}grey: pixels that never ran this instruction${range.nonFinite ? `; magenta: ${range.nonFinite} NaN or infinite` : ''}`;
    } else {
      legend.hidden = true;
    }
    if (own.inspected) {
      const qx = own.inspected.x & ~1;
      // Quads start at even window rows, counted from the bottom.
      const qy = size - 2 - ((size - 1 - own.inspected.y) & ~1);
      ctx.strokeStyle = '#ffcf40';
      ctx.lineWidth = Math.max(1, size / 256);
      ctx.strokeRect(qx, qy, 2, 2);
      ctx.fillStyle = 'rgba(255, 207, 64, 0.55)';
      ctx.fillRect(own.inspected.x, own.inspected.y, 1, 1);
    }
  }

  /** Why an inspector call gave no answer: its first error, or the worker's failure. */
  function failure(/** @type {any} */ result) {
    const d = (result?.diagnostics ?? []).find((/** @type {any} */ e) => e.severity === 'error');
    return d?.message ?? result?.error ?? 'unknown error';
  }

  /**
   * Traces pixel (x, y) of the frame on the canvas (y from the top) and shows the trace; `reveal`:
   * scroll the lanes into view (a click does; a redraw after an edit does not move the page).
   */
  /**
   * The latest trace asked for (a pixel's or a vertex's): an answer to an older one is returned
   * to its caller but not shown. The pool answers in order today; this keeps the panel right if
   * it ever does not.
   */
  let traceRun = 0;

  async function inspectPixel(/** @type {number} */ x, /** @type {number} */ y, reveal = true) {
    if (!app.pool || !app.lastRequest || !own.traceView) return null;
    const run = ++traceRun;
    if ($('freeze-frame').checked && app.playing) setPlaying(false);
    own.inspected = { x, y };
    own.cursor = { x, y };
    paintOverlay();
    const inspectStatus = $('inspect-status');
    inspectStatus.textContent = `Tracing pixel (${x}, ${y})…`;
    const result = await app.pool.inspect('trace', app.lastRequest, { x, y });
    if (run !== traceRun) return result;
    if (!result?.ok) {
      inspectStatus.textContent = `Pixel (${x}, ${y}) could not be traced: ${failure(result)}`;
      own.traceView.clear();
      return result;
    }
    const stopped = result.trace.stopped;
    const count = result.trace.steps.length;
    const steps = `${count} step${count === 1 ? '' : 's'}`;
    // A short trace takes well under a tenth of a millisecond: "0.0 ms" would read as nothing.
    const ms = result.ms < 0.05 ? 'under 0.1' : result.ms.toFixed(1);
    inspectStatus.textContent = stopped
      ? `Stopped at line ${stopped.line}: ${stopped.message}. The trace shows the ${steps} up to there.`
      : `Traced in ${ms} ms: ${steps}.`;
    own.traceView.view = $('value-format').value;
    own.traceView.show(result.trace);
    // Over the value after instruction N: the step whose value that picture shows for the pixel.
    if ($('view-mode').value === 'value') {
      const pc = Number($('probe-pc').value);
      const at = own.traceView.lastStepAt(pc);
      if (at >= 0) own.traceView.go(at);
      else own.traceView.dom.message.textContent = `This pixel never ran instruction ${pc}: the picture shows it grey.`;
      refreshProbeControls();
    }
    if (reveal) own.traceView.reveal();
    $('trace-engines').hidden = false;
    showEngines();
    return result;
  }

  /** The latest request for the engines table (an older answer is not shown). */
  let enginesRun = 0;

  /** The inspected quad in each engine (the engine's `pixelBackends`), while its panel is open. */
  async function showEngines() {
    const panel = /** @type {HTMLDetailsElement} */ ($('trace-engines'));
    if (!panel.open || panel.hidden || !app.pool || !app.lastRequest || !own.inspected) return;
    const table = $('trace-engines-table');
    const { x, y } = own.inspected;
    const id = ++enginesRun;
    // The last table stays while the same pixel is run again (a new frame re-inspects it).
    if (table.dataset.pixel !== `${x},${y}`) table.textContent = `Running the quad of pixel (${x}, ${y}) in each engine…`;
    table.dataset.busy = 'true';
    const result = await app.pool.inspect('backends', app.lastRequest, { x, y });
    if (id !== enginesRun) return;
    table.textContent = result?.ok ? result.text : `Not run: ${failure(result)}`;
    table.dataset.pixel = `${x},${y}`;
    delete table.dataset.busy;
  }

  /** Traces vertex `index` of the mesh through the vertex shader of the frame on the canvas. */
  async function inspectVertex(/** @type {number} */ index) {
    if (!app.pool || !app.lastRequest || !own.traceView) return null;
    const run = ++traceRun;
    const inspectStatus = $('inspect-status');
    // The engines' panel is about a pixel's quad.
    $('trace-engines').hidden = true;
    inspectStatus.textContent = `Tracing vertex ${index}…`;
    const result = await app.pool.inspect('vertex', app.lastRequest, { index });
    if (run !== traceRun) return result;
    if (!result?.ok) {
      inspectStatus.textContent = `Vertex ${index} could not be traced: ${failure(result)}`;
      return result;
    }
    inspectStatus.textContent = `Traced vertex ${index} in ${result.ms.toFixed(1)} ms: ${result.trace.steps.length} steps.`;
    selectEditorTab('vs');
    own.traceView.view = $('value-format').value;
    own.traceView.show(result.trace);
    own.traceView.reveal();
    return result;
  }

  /** Shows every vertex's inputs and outputs. */
  async function showVertices() {
    const request = app.lastRequest;
    if (!app.pool || !request) return;
    const run = ++own.verticesRun;
    if (request.vs === null) {
      // No vertex stage on the canvas: nothing to list (the section is hidden too).
      own.verticesOf = null;
      $('vertex-table').replaceChildren();
      return;
    }
    own.verticesOf = vertexInputs(request);
    const result = await app.pool.inspect('vertices', request, {});
    if (run !== own.verticesRun) return;
    if (!result?.ok) {
      // A table of another frame would mislead: the rows go and the status says why.
      $('vertex-table').replaceChildren();
      $('inspect-status').textContent = `No vertex table: ${failure(result)}`;
      return;
    }
    renderVertexTable($('vertex-table'), result, (i) => { inspectVertex(i); });
    $('inspect-status').textContent = `${result.count} vertices${result.count > 300 ? ' (the first 300 listed)' : ''}.`;
  }

  /** Asks for a probe of the frame on the canvas; while one runs, only the latest wish waits. */
  function scheduleProbe() {
    if (own.probing) { own.probeAgain = true; return; }
    runProbe();
  }

  async function runProbe() {
    const mode = $('view-mode').value;
    if (mode === 'image' || !app.pool || !app.lastRequest) { paintOverlay(); return; }
    own.probing = true;
    const watch = mode === 'value' ? { pc: Number($('probe-pc').value), register: $('probe-register').value } : null;
    const result = await app.pool.inspect('probe', app.lastRequest, { watch });
    own.probing = false;
    own.probe = result;
    const inspectStatus = $('inspect-status');
    if (!result?.ok) {
      inspectStatus.textContent = `Nothing to show: ${failure(result)}`;
    } else if (!own.inspected) {
      inspectStatus.textContent = `Computed in ${result.ms.toFixed(1)} ms.`;
    }
    paintOverlay();
    $('overlay').dataset.probes = String(Number($('overlay').dataset.probes ?? 0) + 1);
    if (own.probeAgain) { own.probeAgain = false; runProbe(); }
  }

  /** The scrubber's range and labels follow the fragment shader's instructions. */
  function refreshProbeControls() {
    const summary = describe(store.state.fs);
    const instructions = summary?.instructions ?? [];
    const slider = $('probe-pc');
    slider.max = String(Math.max(0, instructions.length - 1));
    if (Number(slider.value) > instructions.length - 1) slider.value = String(Math.max(0, instructions.length - 1));
    const pc = Number(slider.value);
    const i = instructions[pc];
    $('probe-pc-label').textContent = i ? `${slider.value}: ${i.opcode} (line ${i.line})` : '';
    // The register follows what the instruction writes, until the user types one.
    const destination = watchedDestination(i);
    if ($('probe-follow').checked && destination && $('probe-register').value !== destination) $('probe-register').value = destination;
    showProbeLoop(instructions, pc);
    const regs = [];
    for (const d of summary?.declarations ?? []) {
      if (!['TEMP', 'OUT', 'IN', 'ADDR'].includes(d.file)) continue;
      for (let r = d.first; r <= Math.min(d.last, d.first + 31); r += 1) for (const c of 'xyzw') regs.push(`${d.file}[${r}].${c}`);
    }
    $('probe-registers').replaceChildren(...regs.map((r) => { const o = document.createElement('option'); o.value = r; return o; }));
    return i;
  }

  /**
   * Says which pass of which loop the value after instruction `pc` shows: each pixel's last pass,
   * and for the traced pixel its number (from its trace).
   * @param {{opcode: string, line: number}[]} instructions
   * @param {number} pc
   */
  function showProbeLoop(instructions, pc) {
    const note = $('probe-loop');
    const loop = enclosingLoop(instructions, pc);
    note.hidden = !loop;
    if (!loop) { note.textContent = ''; return; }
    let text = `Instruction ${pc} is inside the loop at line ${loop.line}: each pixel shows its value after the last pass it made.`;
    const trace = own.traceView?.trace;
    if (trace && trace.vertex == null && app.lastRequest?.fs === store.state.fs) {
      const at = own.traceView?.lastStepAt(pc) ?? -1;
      const pass = at >= 0 ? trace.steps[at].iteration : null;
      text += at < 0
        ? ` Pixel (${trace.pixel[0]}, ${trace.pixel[1]}) never ran it.`
        : ` Pixel (${trace.pixel[0]}, ${trace.pixel[1]}): pass ${pass} of the loop at line ${loop.line} (step ${at + 1} of its trace).`;
    } else {
      text += ' Click a pixel to see which pass that was there.';
    }
    note.textContent = text;
  }

  function wireInspector() {
    $('trace-engines').addEventListener('toggle', () => { showEngines(); });
    own.traceView = new TraceView({
      root: $('trace-view'), title: $('trace-title'), position: $('trace-position'), message: $('trace-message'),
      instruction: $('trace-instruction'), quad: $('trace-quad'), outputs: $('trace-outputs'),
      first: $('trace-first'), back: $('trace-back'), step: $('trace-step'), end: $('trace-end'),
      runBreak: $('trace-run-break'), runCursor: $('trace-run-cursor'), runNaN: $('trace-run-nan'),
    }, app.editor);
    const pick = (/** @type {MouseEvent} */ e) => {
      const r = canvas.getBoundingClientRect();
      const x = Math.min(canvas.width - 1, Math.max(0, Math.floor(((e.clientX - r.left) / r.width) * canvas.width)));
      const y = Math.min(canvas.height - 1, Math.max(0, Math.floor(((e.clientY - r.top) / r.height) * canvas.height)));
      inspectPixel(x, y);
    };
    canvas.addEventListener('click', pick);
    canvas.addEventListener('keydown', (/** @type {KeyboardEvent} */ e) => {
      const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
      const m = /** @type {Record<string, number[]>} */ (moves)[e.key];
      if (m) {
        e.preventDefault();
        const step = e.shiftKey ? 8 : 1;
        own.cursor = {
          x: Math.min(canvas.width - 1, Math.max(0, own.cursor.x + m[0] * step)),
          y: Math.min(canvas.height - 1, Math.max(0, own.cursor.y + m[1] * step)),
        };
        own.inspected = { ...own.cursor };
        paintOverlay();
      } else if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        inspectPixel(own.cursor.x, own.cursor.y);
      }
    });
    $('view-mode').addEventListener('change', () => {
      const mode = $('view-mode').value;
      $('probe-controls').hidden = mode !== 'value';
      // From a pixel's trace: the value after the instruction the trace stands on.
      const tv = own.traceView;
      if (mode === 'value' && tv?.trace && tv.trace.vertex == null && tv.at >= 0) $('probe-pc').value = String(tv.trace.steps[tv.at].pc);
      refreshProbeControls();
      if (mode !== 'image' && $('freeze-frame').checked && app.playing) setPlaying(false);
      scheduleProbe();
    });
    $('probe-pc').addEventListener('input', () => {
      const i = refreshProbeControls();
      if (i) app.editor.showTraceLine(i.line);
      scheduleProbe();
    });
    // Typing a register of one's own stops following the instruction's destination.
    $('probe-register').addEventListener('input', () => { $('probe-follow').checked = false; });
    $('probe-register').addEventListener('change', () => { $('probe-follow').checked = false; scheduleProbe(); });
    $('probe-follow').addEventListener('change', () => { refreshProbeControls(); scheduleProbe(); });
    $('show-vertices').addEventListener('click', () => { showVertices(); });
    $('value-format').addEventListener('change', () => {
      if (own.traceView) { own.traceView.view = $('value-format').value; own.traceView.render(); }
      paintOverlay();
    });
  }

  /** A new frame of other shaders: the inspected pixel is traced again (its panel kept shut). */
  function reinspect() {
    if (own.inspected) inspectPixel(own.inspected.x, own.inspected.y, false);
  }

  /** A frame reached the canvas: a listed vertex table follows its vertex inputs. */
  function followFrame(/** @type {any} */ request) {
    if (own.verticesOf !== null && own.verticesOf !== vertexInputs(request)) showVertices();
  }

  return {
    paintOverlay, inspectPixel, inspectVertex, scheduleProbe, refreshProbeControls, wireInspector, reinspect, followFrame,
    /** Whether the panel is wired (`wireInspector` has run). */
    get wired() { return own.traceView !== null; },
    /** The trace on the panel and the probe on the overlay (for the test hook). */
    get trace() { return own.traceView?.trace ?? null; },
    get probe() { return own.probe; },
  };
}
