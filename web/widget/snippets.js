// @ts-check
// A playground state as embed code: the <tgsi-shader> attributes it stands for, an element
// snippet and an iframe snippet. The playground's Embed dialog and the iframe page (embed.js)
// both use it, so the two embeds always mean the same thing.

import { bindingWords } from '../textures.js';

/**
 * Where a playground server serves the element's module, from the site's root: the one script
 * path the Embed dialog, widget.html, the README and the package's README name.
 */
export const WIDGET_MODULE_PATH = 'web/widget/tgsi-shader.js';

/** The iframe embed page, from the site's root. */
export const EMBED_PAGE_PATH = 'embed.html';

/** Where the npm package's module is, for a page next to `node_modules/`. */
export const PACKAGE_MODULE_PATH = 'node_modules/tgsi-shader/tgsi-shader.js';

/**
 * Whether shaders are animated: one of them declares the time register of the built-in
 * constants (`CONST[15][1]`: time, time delta, frame), the only input that changes from frame
 * to frame in a widget. Reads the engine's `describe` summaries (null for a shader that does not
 * parse) and its `builtinLayout()`.
 * @param {({constants: [number, number][]} | null)[]} summaries
 * @param {{buffer: number, slots: {index: number, name: string}[]}} layout
 */
export function readsTime(summaries, layout) {
  const time = layout.slots.find((s) => s.name === 'time');
  if (!time) return false;
  return summaries.some((s) => (s?.constants ?? []).some(([b, i]) => b === layout.buffer && i === time.index));
}

/** @param {string} text */
function escapeHtml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * The widget attributes for a playground state (`state.js`'s PlaygroundState); `controls`
 * (play, time slider, reset) for an animated one (`readsTime`) only.
 * @param {any} state
 * @param {{animated?: boolean}} [options]
 * @returns {Record<string, string>}
 */
export function widgetAttributes(state, { animated = false } = {}) {
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
  if (animated) attrs.controls = '';
  return attrs;
}

/**
 * The element snippet: a comment saying where the module comes from, the module import (the
 * absolute URL of `WIDGET_MODULE_PATH` on `site`) and the element with its sources inline.
 * @param {any} state
 * @param {string} site absolute URL of the playground's root (ending in /)
 * @param {{animated?: boolean}} [options]
 */
export function elementSnippet(state, site, options = {}) {
  const moduleUrl = new URL(WIDGET_MODULE_PATH, site).href;
  const attrs = Object.entries(widgetAttributes(state, options))
    .map(([k, v]) => (v === '' ? ` ${k}` : ` ${k}="${escapeHtml(v)}"`)).join('');
  const vs = state.useVs && state.vs.trim() ? `\n  <script type="text/x-tgsi-vs">\n${escapeScript(state.vs)}  </script>` : '';
  const note = `<!-- <tgsi-shader> served by the TGSI Playground at ${escapeComment(new URL(site).href)} (it works from any site).\n     With the npm package tgsi-shader or a copy on your own site, point src at that copy's tgsi-shader.js,\n     e.g. ${PACKAGE_MODULE_PATH}. -->\n`;
  return `${note}<script type="module" src="${escapeHtml(moduleUrl)}"></script>\n<tgsi-shader${attrs}>\n  <script type="text/x-tgsi">\n${escapeScript(state.fs)}  </script>${vs}\n</tgsi-shader>\n`;
}

/**
 * The iframe embed's URL: `EMBED_PAGE_PATH` on `site` with the state's share-link fragment;
 * `?controls` for an animated shader (embed.js reads it).
 * @param {string} site absolute URL of the playground's root
 * @param {string} fragment the share-link fragment (`s=…`)
 * @param {{animated?: boolean}} [options]
 */
export function embedUrl(site, fragment, { animated = false } = {}) {
  return `${new URL(EMBED_PAGE_PATH, site).href}${animated ? '?controls' : ''}#${fragment}`;
}

/**
 * The iframe snippet for the embed page, sized for the widget (and its controls bar, when it
 * has one).
 * @param {string} site absolute URL of the playground's root
 * @param {string} fragment the share-link fragment (`s=…`)
 * @param {number} size
 * @param {{animated?: boolean}} [options]
 */
export function iframeSnippet(site, fragment, size, options = {}) {
  const url = embedUrl(site, fragment, options);
  const { width, height } = iframeSize(size, options);
  return `<!-- the TGSI Playground's iframe embed, served by ${escapeComment(new URL(site).href)} -->\n<iframe src="${escapeHtml(url)}" width="${width}" height="${height}" title="TGSI shader" loading="lazy" style="border:0"></iframe>\n`;
}

/**
 * The iframe's size for a `size` px widget on the embed page: the canvas with the widget's
 * border and padding and the page's margin (24 px), the footer's link (56 px high with the
 * widget's gaps), and the controls bar (36 px more, and room for its slider and buttons on one
 * line), with a little to spare for other fonts.
 * @param {number} size
 * @param {{animated?: boolean}} [options]
 */
export function iframeSize(size, { animated = false } = {}) {
  return animated ? { width: Math.max(size + 24, 336), height: size + 92 } : { width: Math.max(size + 24, 176), height: size + 56 };
}

/** Text inside an HTML comment: `--` may not appear there. @param {string} text */
function escapeComment(text) {
  return text.replace(/--/g, '%2D%2D');
}

/** Shader text inside a <script> element: `</script` would end it early. @param {string} text */
function escapeScript(text) {
  const body = text.endsWith('\n') ? text : `${text}\n`;
  return body.replace(/<\/(script)/gi, '<\\/$1');
}
