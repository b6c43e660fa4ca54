// @ts-check
// The page's elements by id, and writes to the page that skip values already shown: an animating
// page sets the same texts and attributes every frame, and each real change costs the browser
// style, layout and paint work on the cores the render workers need.

/**
 * The page's element with this id. Typed loosely: the ids and their element kinds are fixed by
 * index.html, which the end-to-end tests load.
 * @param {string} id
 * @returns {any}
 */
export const $ = (id) => document.getElementById(id);

/**
 * @param {HTMLElement} el
 * @param {string} text
 */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/**
 * @param {HTMLElement} el
 * @param {string} key a `dataset` key
 * @param {string} value
 */
export function setData(el, key, value) {
  if (el.dataset[key] !== value) el.dataset[key] = value;
}

/** What each list shows (JSON of its entries), so an unchanged list is not built again. */
const shownEntries = new WeakMap();

/**
 * Fills `el` with one child per entry (`make`), unless it already shows these entries.
 * @template T
 * @param {HTMLElement} el
 * @param {T[]} entries
 * @param {(entry: T) => Node} make
 */
export function setChildren(el, entries, make) {
  const shown = JSON.stringify(entries);
  if (shownEntries.get(el) === shown) return;
  shownEntries.set(el, shown);
  el.replaceChildren(...entries.map(make));
}
