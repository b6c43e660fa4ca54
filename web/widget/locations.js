// @ts-check
// Where the widget finds its engines, relative to this module. The npm package lays its files
// out the same way (scripts/build-package.mjs swaps in its own copy of this file).

/** The lean engine (rendering and checking only), built by scripts/build-wasm.sh. */
export const LEAN_ENGINE = new URL('./pkg/tgsi.js', import.meta.url).href;

/** The full engine (inspector, AGAL export, the editor's vocabulary): loaded only when used. */
export const FULL_ENGINE = new URL('../pkg/tgsi.js', import.meta.url).href;

/** The render worker. */
export const WORKER = new URL('./worker.js', import.meta.url);

/**
 * The editor (CodeMirror and the playground's TGSI language), loaded only when a reader clicks
 * "Edit": the bundle scripts/build-web.sh makes of edit.js (the browser cannot resolve the
 * editor's package imports itself).
 */
export const EDITOR = new URL('./edit.bundle.js', import.meta.url).href;

/**
 * The full playground page, for "Open in playground" (a widget's `playground` attribute
 * overrides it; the npm package has none of its own, so there the link shows only with it).
 * @type {string | null}
 */
export const PLAYGROUND = new URL('../../index.html', import.meta.url).href;

/** The opcode reference's data (`tgsi reference` writes it), <tgsi-lanes>'s default source. */
export const REFERENCE_DATA = new URL('../../reference/data.json', import.meta.url).href;
