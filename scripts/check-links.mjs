// Checks the internal links of the static pages: every href/src that points into the site must
// name an existing file, and every #fragment an id (or name) in the page it points to. Links to
// other origins and data:/blob:/mailto: URLs are not followed. Used by tests/e2e/links.test.mjs
// (`npm test`); `node scripts/check-links.mjs` prints the broken links of the repository's pages.

import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The pages checked by default: the playground, the widget pages, the reference and Learn. */
export const PAGES = ['index.html', 'widget.html', 'embed.html', 'reference/index.html', 'learn/index.html'];

/** Attribute values of `href` and `src` in an HTML text (outside shader scripts and <pre>, whose
 * text may show markup). */
function links(html) {
  const text = html
    .replace(/<script type="text\/x-tgsi[^"]*">[\s\S]*?<\/script>/g, '')
    .replace(/<pre[\s>][\s\S]*?<\/pre>/g, '');
  return [...text.matchAll(/\s(?:href|src)\s*=\s*"([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
}

/** Every id and name of an HTML text. */
function anchors(html) {
  return new Set([...html.matchAll(/\s(?:id|name)\s*=\s*"([^"]*)"/g)].map((m) => m[1]));
}

/**
 * The broken internal links of `pages` (paths relative to `root`; missing pages are skipped
 * unless `required`), as "page: link (why)" lines.
 * @param {string} root
 * @param {string[]} pages
 * @param {{required?: boolean}} [options]
 * @returns {string[]}
 */
export function checkLinks(root, pages = PAGES, options = {}) {
  const problems = [];
  const cache = new Map();
  const read = (file) => {
    if (!cache.has(file)) cache.set(file, readFileSync(file, 'utf8'));
    return cache.get(file);
  };
  for (const page of pages) {
    const file = path.join(root, page);
    if (!existsSync(file)) {
      if (options.required) problems.push(`${page}: the page is missing`);
      continue;
    }
    const base = new URL(`http://site/${page}`);
    for (const link of links(read(file))) {
      if (/^(data|blob|mailto|javascript):/i.test(link)) continue;
      let url;
      try {
        url = new URL(link, base);
      } catch {
        problems.push(`${page}: ${link} (not a URL)`);
        continue;
      }
      if (url.origin !== base.origin) continue;
      let target = path.join(root, decodeURIComponent(url.pathname));
      if (url.pathname.endsWith('/')) target = path.join(target, 'index.html');
      if (!existsSync(target)) {
        problems.push(`${page}: ${link} (no such file)`);
        continue;
      }
      if (statSync(target).isDirectory()) target = path.join(target, 'index.html');
      const fragment = decodeURIComponent(url.hash.slice(1));
      if (fragment && /\.html?$/.test(target)) {
        if (!existsSync(target) || !anchors(read(target)).has(fragment)) problems.push(`${page}: ${link} (no id "${fragment}")`);
      }
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const problems = checkLinks(root);
  for (const p of problems) console.log(p);
  process.exit(problems.length ? 1 : 0);
}
