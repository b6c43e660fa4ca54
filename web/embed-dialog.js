// @ts-check
// The playground's Embed dialog: the `<tgsi-shader>` element code and the iframe code for the
// current state (both from widget/snippets.js, one mapping of the share-link state), with the
// absolute URLs of this server (the embeds work from any site), play controls for animated
// shaders only, what the widget leaves out, and the copy buttons.

import { loadEngine } from './engine.js';
import { encodeState } from './state.js';
import { store } from './store.js';
import { openDialog } from './ui.js';
import { $ } from './dom.js';
import { CUSTOM_MESH } from './vertices-panel.js';
import { elementSnippet, iframeSnippet, readsTime } from './widget/snippets.js';

/** Fills the dialog from the current state and opens it. */
async function openEmbed() {
  const fragment = await encodeState(store.state);
  const site = new URL('.', location.href).href;
  const options = { animated: await animated(store.state) };
  const element = elementSnippet(store.state, site, options);
  const iframe = iframeSnippet(site, fragment, store.state.size, options);
  const el = /** @type {HTMLTextAreaElement} */ ($('embed-element'));
  const fr = /** @type {HTMLTextAreaElement} */ ($('embed-iframe'));
  el.value = element;
  fr.value = iframe;
  // The widget draws the fragment pipeline (a vertex shader and built-in meshes) with shared
  // constants and texture names only.
  const state = store.state;
  const left = [
    state.stage === 'compute' ? 'the compute stage (it embeds the fragment shader)' : '',
    state.stage === 'geometry' ? 'the geometry shader' : '',
    state.useVs && state.mesh === CUSTOM_MESH ? 'the custom vertex data' : '',
    Object.keys(state.vsConstants).length || Object.keys(state.fsConstants).length || Object.keys(state.gsConstants).length ? 'the per-stage constants' : '',
    Object.keys(state.images).length ? 'the image files' : '',
  ].filter(Boolean);
  $('embed-status').textContent = left.length ? `The embed leaves out ${left.join(', ')}: the widget does not read them.` : '';
  openDialog('embed-dialog');
}

/**
 * Whether the shaders the widget draws read the time (the engine's summaries of them).
 * @param {any} state
 */
async function animated(state) {
  const engine = await loadEngine().catch(() => null);
  if (!engine) return false;
  const describe = (/** @type {string} */ text) => {
    try { return engine.describe(text); } catch { return null; }
  };
  const summaries = [describe(state.fs), ...(state.useVs ? [describe(state.vs)] : [])];
  return readsTime(summaries, engine.builtinLayout());
}

async function copyText(/** @type {string} */ text, /** @type {string} */ what) {
  try {
    await navigator.clipboard.writeText(text);
    $('embed-status').textContent = `${what} copied.`;
  } catch {
    $('embed-status').textContent = 'Select the code and copy it.';
  }
}

/** Wires the header's Embed button and the dialog's copy buttons. */
export function wireEmbedDialog() {
  $('open-embed').addEventListener('click', () => openEmbed());
  $('copy-embed-element').addEventListener('click', () => copyText(/** @type {HTMLTextAreaElement} */ ($('embed-element')).value, 'Element code'));
  $('copy-embed-iframe').addEventListener('click', () => copyText(/** @type {HTMLTextAreaElement} */ ($('embed-iframe')).value, 'Iframe code'));
}
