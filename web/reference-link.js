// @ts-check
// Where an opcode's section of the reference site is (the site `tgsi reference` generates at
// `reference/` in the site's root). The editor's hover help, the inspector's steps and the
// lessons link there. The root is found from this module's URL, which is the URL of the bundle
// that contains it, so a bundle that lives elsewhere than web/ (web/learn/app.js) says where the
// reference is with `setReferenceBase` before it builds any link.

/** @type {URL | null} */
let base = null;

/**
 * Sets where the reference site is, for a bundle that is not in web/.
 * @param {URL | string} url the reference site's folder
 */
export function setReferenceBase(url) {
  base = new URL(url);
}

/**
 * @param {string} name an opcode name from the engine's table
 * @returns {string}
 */
export function referenceUrl(name) {
  return new URL(`#${encodeURIComponent(name)}`, base ?? new URL('../reference/', import.meta.url)).href;
}
