// @ts-check
// Where an opcode's section of the reference site is: `reference/#NAME` beside web/ (the site
// `tgsi reference` generates). The editor's hover help and the inspector's steps link there.

/**
 * @param {string} name an opcode name from the engine's table
 * @returns {string}
 */
export function referenceUrl(name) {
  return new URL(`../reference/#${encodeURIComponent(name)}`, import.meta.url).href;
}
