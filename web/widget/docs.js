// @ts-check
// widget.html's own script: each example's program (a file of programs/, named by its
// <script>'s data-program) written into that script, the usage snippet with this server's
// absolute module URL, and next to every live example the markup that makes it, written out from
// the element itself (its attributes and its <script> children), so the text shown cannot
// disagree with the widget. The page loads this module before the element's, so the widgets
// read their programs once they are in place.

import { program } from '../programs.js';
import { WIDGET_MODULE_PATH } from './snippets.js';

/** @param {string} text */
function escapeAttribute(text) {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * The HTML of a <tgsi-shader> element as it stands in the page (without its `id`, which only
 * this page uses), indented from its own start tag.
 * @param {Element} el
 */
export function markupOf(el) {
  const attrs = [...el.attributes].filter((a) => a.name !== 'id')
    .map((a) => (a.value === '' ? ` ${a.name}` : ` ${a.name}="${escapeAttribute(a.value)}"`)).join('');
  const lines = `<${el.localName}${attrs}>${el.innerHTML}</${el.localName}>`.split('\n');
  // The lines after the start tag keep the page's indentation: take away the closing tag's.
  const rest = lines.slice(1).filter((l) => l.trim());
  const cut = Math.min(...rest.map((l) => /** @type {RegExpMatchArray} */ (l.match(/^[ \t]*/))[0].length));
  return [lines[0], ...lines.slice(1).map((l) => l.slice(Number.isFinite(cut) ? cut : 0))]
    .filter((l, i, all) => l.trim() || (i > 0 && i < all.length - 1)).join('\n');
}

/**
 * Writes the program a `<script data-program="NAME">` names into it, indented two spaces deeper
 * than the script's own line as if written there by hand, and drops the attribute: the markup
 * shown is then the markup a reader writes.
 * @param {Element} script
 */
function fillProgram(script) {
  const before = script.previousSibling?.nodeType === Node.TEXT_NODE ? script.previousSibling.textContent ?? '' : '';
  const indent = /** @type {RegExpMatchArray} */ (before.match(/[ \t]*$/))[0];
  const lines = program(script.getAttribute('data-program') ?? '').replace(/\n$/, '').split('\n');
  script.textContent = `\n${lines.map((l) => (l ? `${indent}  ${l}` : l)).join('\n')}\n${indent}`;
  script.removeAttribute('data-program');
}

/** Fills the examples' programs, the usage snippet and the examples' markup. */
function main() {
  for (const script of document.querySelectorAll('tgsi-shader > script[data-program]')) fillProgram(script);
  const moduleUrl = new URL(WIDGET_MODULE_PATH, new URL('.', location.href)).href;
  for (const code of document.querySelectorAll('[data-module-url]')) code.textContent = moduleUrl;
  const basic = document.getElementById('ex-basic');
  const usage = document.getElementById('usage-code');
  if (basic && usage) usage.textContent = `<script type="module" src="${moduleUrl}"></script>\n\n${markupOf(basic)}`;
  for (const el of document.querySelectorAll('.example > tgsi-shader')) {
    const pre = document.createElement('pre');
    pre.className = 'markup';
    pre.setAttribute('aria-label', 'The markup of this example');
    const code = document.createElement('code');
    code.textContent = markupOf(el);
    pre.append(code);
    el.after(pre);
  }
}

main();
