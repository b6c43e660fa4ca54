// @ts-check
// A playground state as embed code: the <tgsi-shader> attributes it stands for, an element
// snippet and an iframe snippet. The playground's Embed dialog and the iframe page (embed.js)
// both use it, so the two embeds always mean the same thing.

import { bindingWords } from '../textures.js';

/** @param {string} text */
function escapeHtml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * The widget attributes for a playground state (`state.js`'s PlaygroundState).
 * @param {any} state
 * @returns {Record<string, string>}
 */
export function widgetAttributes(state) {
  /** @type {Record<string, string>} */
  const attrs = { width: String(state.size), height: String(state.size) };
  if (state.useVs && state.mesh && state.mesh !== 'fullscreen') attrs.mesh = state.mesh;
  const consts = Object.entries(state.constants ?? {})
    .filter(([key, v]) => /^\d+:\d+$/.test(key) && Array.isArray(v))
    .map(([key, v]) => `${key}=${v.map((x) => (Number.isFinite(Number(x)) ? String(Number(x)) : '0')).join(',')}`);
  if (consts.length) attrs.constants = consts.join('; ');
  const textures = Object.entries(state.textures ?? {})
    .filter(([unit]) => /^\d+$/.test(unit))
    .map(([unit, b]) => {
      const name = b?.name && b.name !== 'image file' ? String(b.name) : 'checker';
      return [`${unit}=${name}`, ...bindingWords(b ?? {})].join(',');
    });
  if (textures.length) attrs.textures = textures.join('; ');
  return attrs;
}

/**
 * The element snippet: the module import and the element with its sources inline.
 * @param {any} state
 * @param {string} moduleUrl absolute URL of tgsi-shader.js
 */
export function elementSnippet(state, moduleUrl) {
  const attrs = Object.entries({ ...widgetAttributes(state), controls: '' })
    .map(([k, v]) => (v === '' ? ` ${k}` : ` ${k}="${escapeHtml(v)}"`)).join('');
  const vs = state.useVs && state.vs.trim() ? `\n  <script type="text/x-tgsi-vs">\n${escapeScript(state.vs)}  </script>` : '';
  return `<script type="module" src="${escapeHtml(moduleUrl)}"></script>\n<tgsi-shader${attrs}>\n  <script type="text/x-tgsi">\n${escapeScript(state.fs)}  </script>${vs}\n</tgsi-shader>\n`;
}

/**
 * The iframe snippet for the embed page.
 * @param {string} embedUrl absolute URL of embed.html, with the state's fragment
 * @param {number} size
 */
export function iframeSnippet(embedUrl, size) {
  return `<iframe src="${escapeHtml(embedUrl)}" width="${size + 16}" height="${size + 80}" title="TGSI shader" loading="lazy" style="border:0"></iframe>\n`;
}

/** Shader text inside a <script> element: `</script` would end it early. @param {string} text */
function escapeScript(text) {
  const body = text.endsWith('\n') ? text : `${text}\n`;
  return body.replace(/<\/(script)/gi, '<\\/$1');
}
