// @ts-check
// The iframe embed (embed.html#s=…): one widget with the shaders and settings of a playground
// share link; `?controls` (the Embed dialog adds it for animated shaders) shows the play
// controls, `?theme=light|dark` sets the theme. No inline script, no eval: it works under a
// strict Content-Security-Policy.

import './widget/tgsi-shader.js';
import { decodeState } from './state.js';
import { widgetAttributes } from './widget/snippets.js';

async function main() {
  const host = /** @type {HTMLElement} */ (document.getElementById('embed'));
  const state = await decodeState(location.hash);
  const widget = document.createElement('tgsi-shader');
  if (!state || !state.fs.trim()) {
    const p = document.createElement('p');
    p.className = 'embed-error';
    p.textContent = 'This embed link holds no shader (it is damaged or from a newer version).';
    host.replaceChildren(p);
    return;
  }
  const params = new URLSearchParams(location.search);
  for (const [k, v] of Object.entries(widgetAttributes(state, { animated: params.has('controls') }))) widget.setAttribute(k, v);
  widget.setAttribute('label', 'TGSI shader');
  if (params.get('theme')) widget.setAttribute('theme', params.get('theme') ?? 'auto');
  /** @type {any} */ (widget).source = state.fs;
  if (state.useVs) /** @type {any} */ (widget).vsSource = state.vs;
  host.replaceChildren(widget);
}

main();
