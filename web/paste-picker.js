// @ts-check
// Shaders pasted with the log around them (a driver's debug output, several tgsi_dump
// listings, lines with timestamps): the engine finds them (`findShaders`, text::log) and this bar
// above the editor lists them; picking one puts its text, prefixes taken off, in the editor tab
// of its stage as one edit that Undo takes back.

/**
 * @typedef {{processor: string, firstLine: number, lastLine: number, instructions: number,
 *   prefixed: boolean, text: string}} FoundShader
 */

/**
 * Shows the shaders `found` in `bar` (hidden when there are none).
 * @param {HTMLElement} bar
 * @param {FoundShader[]} found
 * @param {(shader: FoundShader) => void} pick
 */
export function showPastePicker(bar, found, pick) {
  const signature = found.map((f) => `${f.processor}:${f.firstLine}-${f.lastLine}`).join(',');
  if (bar.dataset.signature === signature) return;
  bar.dataset.signature = signature;
  bar.hidden = found.length === 0;
  bar.replaceChildren();
  if (found.length === 0) return;
  const intro = document.createElement('span');
  intro.textContent = found.length === 1
    ? 'This text holds a shader among other lines:'
    : `This text holds ${found.length} shaders among other lines:`;
  bar.append(intro);
  found.forEach((f, k) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.index = String(k + 1);
    button.textContent = `${f.processor}, lines ${f.firstLine}\u2013${f.lastLine}`;
    button.title = `Put this ${f.processor} shader (${f.instructions} instruction${f.instructions === 1 ? '' : 's'}${f.prefixed ? ', line prefixes taken off' : ''}) in its editor tab; Undo brings the paste back.`;
    button.addEventListener('click', () => pick(f));
    bar.append(button);
  });
}
