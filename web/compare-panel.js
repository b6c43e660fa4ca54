// @ts-check
// The Compare mode (the header's Compare button): two editors, A (it starts as the playground's
// shader) and B, compared by the engine as `tgsi diff` compares them (`compareShaders`, run by a
// render worker under the pool's watchdog): the verdict and the report (the command line's
// text), for fragment shaders the map of how far apart each pixel of the two pictures is, and a
// click on the map shows that pixel in both, with both traces side by side. The panel computes
// nothing itself: it lays out the engine's answers.

import { ShaderEditor } from './editor.js';
import { openDialog } from './ui.js';
import { $ } from './dom.js';
import { FAR, mapColour } from './compare-colours.js';

/** The pictures' side: small enough that a shader that loops forever stops quickly. */
export const COMPARE_SIZE = 64;
const TRIALS = 1000;
/**
 * Wires the Compare button and dialog.
 * @param {{ engine: any, pool: any, currentFs: () => string, describe: (text: string) => any }} deps
 */
export function wireCompare({ engine, pool, currentFs, describe }) {
  /** @type {{ a: ShaderEditor, b: ShaderEditor } | null} */
  let editors = null;
  let runs = 0;
  let timer = 0;
  /** @type {any} */
  let lastMap = null;
  /** @type {[number, number] | null} */
  let picked = null;
  const canvas = /** @type {HTMLCanvasElement} */ ($('compare-map'));

  const options = () => ({
    size: COMPARE_SIZE,
    trials: TRIALS,
    seed: Number(/** @type {HTMLInputElement} */ ($('compare-seed')).value) || 1,
    exactNan: /** @type {HTMLInputElement} */ ($('compare-exact-nan')).checked,
  });
  const texts = () => ({ a: editors?.a.text('fs') ?? '', b: editors?.b.text('fs') ?? '' });

  function paint() {
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    const size = lastMap?.size ?? COMPARE_SIZE;
    canvas.width = size;
    canvas.height = size;
    if (!lastMap) {
      ctx.clearRect(0, 0, size, size);
      return;
    }
    const image = ctx.createImageData(size, size);
    lastMap.ulps.forEach((/** @type {number} */ u, /** @type {number} */ i) => {
      const [r, g, b] = mapColour(u);
      image.data.set([r, g, b, 255], i * 4);
    });
    ctx.putImageData(image, 0, 0);
    if (picked) {
      ctx.strokeStyle = '#40c0ff';
      ctx.lineWidth = 1;
      ctx.strokeRect(picked[0] - 1.5, picked[1] - 1.5, 4, 4);
    }
  }

  async function run() {
    if (!editors) return;
    const id = ++runs;
    const { a, b } = texts();
    $('compare-verdict').textContent = 'Comparing…';
    $('compare-verdict').dataset.state = 'busy';
    const result = await pool.inspect('compare', { a, b, options: options() }, {});
    if (id !== runs) return;
    // Only on the texts they are about (an edit since then brings its own run).
    const now = texts();
    if (now.a === a) editors.a.setDiagnostics('fs', result.diagnosticsA ?? []);
    if (now.b === b) editors.b.setDiagnostics('fs', result.diagnosticsB ?? []);
    const verdict = $('compare-verdict');
    lastMap = result.map ?? null;
    picked = null;
    $('compare-pixel').textContent = '';
    if (!result.ok) {
      verdict.dataset.state = 'error';
      verdict.textContent = `Not compared: ${result.error ?? 'the engine failed'}`;
      $('compare-report').textContent = '';
    } else {
      verdict.dataset.state = result.same ? 'same' : 'differs';
      const pixels = lastMap ? ` ${lastMap.differing} of ${lastMap.size * lastMap.size} pixels of the ${lastMap.size}×${lastMap.size} full-screen picture differ${lastMap.differing ? ` (the largest by ${lastMap.largest >= FAR ? 'a sign, an infinity or a NaN' : `${lastMap.largest} ulp${lastMap.largest === 1 ? '' : 's'}`})` : ''}.` : '';
      verdict.textContent = `${result.same ? 'No difference found.' : 'A and B differ.'}${pixels}`;
      $('compare-report').textContent = result.report;
    }
    $('compare-legend').hidden = !lastMap;
    canvas.hidden = !lastMap;
    canvas.dataset.differing = String(lastMap?.differing ?? 0);
    canvas.dataset.runs = String(Number(canvas.dataset.runs ?? 0) + 1);
    paint();
  }

  function later() {
    clearTimeout(timer);
    timer = window.setTimeout(run, 250);
  }

  function makeEditors() {
    const opcodes = engine.opcodes();
    const words = engine.vocabulary();
    const make = (/** @type {string} */ id, /** @type {string} */ label) => {
      const editor = new ShaderEditor($(id), opcodes, words, describe, () => later());
      editor.view.contentDOM.setAttribute('aria-label', label);
      return editor;
    };
    editors = { a: make('compare-a', 'Shader A'), b: make('compare-b', 'Shader B') };
  }

  async function pixel(/** @type {MouseEvent} */ event) {
    if (!lastMap) return;
    const r = canvas.getBoundingClientRect();
    const size = lastMap.size;
    const x = Math.min(size - 1, Math.max(0, Math.floor((event.clientX - r.left) / r.width * size)));
    const y = Math.min(size - 1, Math.max(0, Math.floor((event.clientY - r.top) / r.height * size)));
    picked = [x, y];
    paint();
    const { a, b } = texts();
    const out = $('compare-pixel');
    out.textContent = `Tracing pixel (${x}, ${y}) in both…`;
    const result = await pool.inspect('compare', { a, b, options: { ...options(), pixel: [x, y] } }, {});
    out.textContent = result.ok ? result.report : `Not traced: ${result.error ?? 'the engine failed'}`;
    out.dataset.pixel = `${x},${y}`;
    out.dataset.same = String(result.same === true);
  }

  // The legend's swatches in the map's own colours.
  for (const [cls, ulps] of /** @type {[string, number][]} */ ([['same', 0], ['near', 1], ['far', 2 ** 31], ['sign', FAR]])) {
    const swatch = /** @type {HTMLElement | null} */ (document.querySelector(`#compare-legend .swatch.${cls}`));
    if (swatch) swatch.style.background = `rgb(${mapColour(ulps).join(' ')})`;
  }
  $('open-compare').addEventListener('click', () => {
    if (!editors) makeEditors();
    const fs = currentFs();
    // A is the playground's shader now; B keeps what was typed there, or starts as a copy.
    editors?.a.setText('fs', fs);
    if (!editors?.b.text('fs')) editors?.b.setText('fs', fs);
    openDialog('compare');
    run();
  });
  $('compare-seed').addEventListener('change', later);
  $('compare-exact-nan').addEventListener('change', later);
  canvas.addEventListener('click', (e) => { pixel(e); });
}
