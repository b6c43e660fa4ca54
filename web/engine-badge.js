// @ts-check
// The engine badge next to the canvas: which engine drew the last frame ("interpreter" or
// "compiled"), with why in its tooltip, and the switch that chooses the engine (auto /
// interpreter / compiled, kept in the state). The inspector always runs the interpreter.
import { setData, setText } from './dom.js';

/**
 * What the badge says for one frame.
 * @param {{name: string, compiledBands: number, flushedBands?: number, bands: number, jit: any} | undefined} engine the pool's report
 * @param {string} mode the switch's setting
 * @returns {{text: string, title: string, state: string, preparing?: boolean}} `preparing`: the
 *   module is being prepared, and the page draws the frame again when it is ready
 */
export function engineBadge(engine, mode) {
  const jit = engine?.jit ?? null;
  if (engine?.name === 'compiled') {
    return { text: 'compiled', state: 'compiled', title: 'The fragment shader ran as WebAssembly compiled from it (the inspector still runs the interpreter).' };
  }
  const partly = engine && engine.compiledBands > 0 ? ` (${engine.compiledBands} of ${engine.bands} bands compiled)` : '';
  // With the compiled engine asked for by name, a frame the interpreter drew is marked.
  const state = mode === 'compiled' ? 'fallback' : 'interpreter';
  if (mode === 'interpreter' || jit?.state === 'off') {
    return { text: 'interpreter', state: 'interpreter', title: 'The interpreter draws: chosen with the engine switch.' };
  }
  if (jit?.state === 'refused') {
    return { text: 'interpreter', state, title: `The interpreter draws: this shader is not compiled (${jit.reason}).` };
  }
  if (jit?.state === 'ready' && (engine?.flushedBands ?? 0) > 0) {
    return { text: 'interpreter', state, title: `The interpreter draws: the mesh lies inside the view, where softpipe shades with denormals flushed, and that form of this shader is not compiled${partly}.` };
  }
  if (jit?.state === 'pending' || jit?.state === 'ready') {
    return { text: 'interpreter', state, preparing: true, title: `The interpreter draws while the compiled module is being prepared${partly}.` };
  }
  return { text: 'interpreter', state, title: 'The interpreter draws.' };
}

/**
 * Shows a frame's engine on `badge`.
 * @param {HTMLElement} badge
 * @param {any} engine
 * @param {string} mode
 */
export function showEngine(badge, engine, mode) {
  const b = engineBadge(engine, mode);
  setText(badge, b.text);
  if (badge.title !== b.title) badge.title = b.title;
  setData(badge, 'engine', b.state);
  setData(badge, 'preparing', String(b.preparing === true));
}

/**
 * Empties `badge`: no frame of the current shaders is on the canvas (an error, a stopped frame).
 * @param {HTMLElement} badge
 */
export function clearEngine(badge) {
  setText(badge, '–');
  if (badge.title !== 'No frame of these shaders was drawn.') badge.title = 'No frame of these shaders was drawn.';
  setData(badge, 'engine', 'none');
  setData(badge, 'preparing', 'false');
}

/**
 * Wires the engine switch and the pool's "module ready" signal.
 * @param {{select: HTMLSelectElement, badge: HTMLElement, pool: import('./render-pool.js').RenderPool,
 *   mode: () => string, setMode: (mode: import('./state.js').Engine) => void, redraw: () => void}} parts
 */
export function wireEngine({ select, badge, pool, mode, setMode, redraw }) {
  select.addEventListener('change', () => setMode(/** @type {import('./state.js').Engine} */ (select.value)));
  // A frame the interpreter drew while its module compiled is drawn again with the module (an
  // animation's next frame does that anyway).
  pool.onJitReady = () => {
    if (mode() !== 'interpreter' && badge.dataset.engine !== 'compiled') redraw();
  };
}
