// @ts-check
// Page chrome: output tabs, dialogs (examples, about), the opcode reference generated from the
// engine's table, the theme and the keyboard shortcuts.

import { $ } from './dom.js';

const THEME_KEY = 'tgsi-playground/theme';

export function installTabs() {
  const tabs = [['tab-formatted', 'view-formatted'], ['tab-agal', 'view-agal']];
  for (const [tabId, viewId] of tabs) {
    $(tabId).addEventListener('click', () => {
      for (const [t, v] of tabs) {
        $(t).setAttribute('aria-selected', String(t === tabId));
        $(v).hidden = v !== viewId;
      }
    });
  }
}

function applyTheme(theme) {
  document.documentElement.dataset.theme = theme;
  try { localStorage.setItem(THEME_KEY, theme); } catch { /* not kept: fine */ }
}

export function openDialog(id) {
  const d = $(id);
  if (!d.open) d.showModal();
}

export function toggleTheme() {
  applyTheme(document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark');
}

export function wireDialogs() {
  let theme = null;
  try { theme = localStorage.getItem(THEME_KEY); } catch { /* default */ }
  if (!theme) theme = matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
  applyTheme(theme);
  $('toggle-theme').addEventListener('click', toggleTheme);
  $('open-gallery').addEventListener('click', () => openDialog('gallery'));
  $('open-about').addEventListener('click', () => openDialog('about'));
  for (const button of document.querySelectorAll('dialog [data-close]')) {
    button.addEventListener('click', () => button.closest('dialog').close());
  }
}

export function buildGallery(list, examples, onPick) {
  list.replaceChildren(...examples.map((ex) => {
    const li = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'gallery-item';
    button.dataset.example = ex.id;
    const title = document.createElement('strong');
    title.textContent = ex.title;
    const note = document.createElement('span');
    note.textContent = ex.note;
    const thumb = document.createElement('canvas');
    thumb.className = 'thumb';
    thumb.width = 72;
    thumb.height = 72;
    thumb.setAttribute('aria-hidden', 'true');
    button.append(thumb, title, note);
    button.addEventListener('click', () => onPick(ex.id));
    li.append(button);
    return li;
  }));
}

/** The opcode reference: one entry per opcode with its summary, formula and operand counts. */
export function buildReference(container, filter, opcodes) {
  const entries = opcodes.map((op) => {
    const item = document.createElement('section');
    item.className = 'opcode-entry';
    item.id = `opcode-${op.name}`;
    const h = document.createElement('h4');
    h.textContent = op.name;
    const meta = document.createElement('span');
    meta.className = 'muted';
    meta.textContent = ` ${op.category} · ${op.numDst} dst, ${op.numSrc} src${op.legacy ? ' · legacy' : ''}${op.stages?.length ? ` · ${op.stages.join(' ')}` : ''}`;
    h.append(meta);
    const summary = document.createElement('p');
    summary.textContent = op.summary + (op.replacement ? ` (replacement: ${op.replacement})` : '');
    item.append(h, summary);
    if (op.formula) {
      const pre = document.createElement('pre');
      pre.textContent = op.formula;
      item.append(pre);
    }
    return item;
  });
  container.replaceChildren(...entries);
  filter.addEventListener('input', () => {
    const q = filter.value.trim().toUpperCase();
    for (const [i, op] of opcodes.entries()) {
      entries[i].hidden = q !== '' && !op.name.includes(q) && !op.summary.toUpperCase().includes(q);
    }
  });
}

export function installShortcuts({ playPause, tab, copyLink }) {
  document.addEventListener('keydown', (e) => {
    if (e.key === 'F1') { e.preventDefault(); openDialog('about'); return; }
    if (!e.altKey || e.ctrlKey || e.metaKey) return;
    const actions = {
      p: playPause,
      1: () => tab('fs'),
      2: () => tab('vs'),
      e: () => openDialog('gallery'),
      l: copyLink,
      t: toggleTheme,
    };
    const action = actions[e.key.toLowerCase()];
    if (action) { e.preventDefault(); action(); }
  });
}

/** Left/Right arrows move between the tabs of every tablist (WAI-ARIA tabs pattern). */
export function installTabArrows() {
  for (const list of document.querySelectorAll('[role="tablist"]')) {
    list.addEventListener('keydown', (/** @type {KeyboardEvent} */ e) => {
      if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
      const tabs = /** @type {HTMLElement[]} */ ([...list.querySelectorAll('[role="tab"]')]);
      const i = tabs.indexOf(/** @type {HTMLElement} */ (document.activeElement));
      if (i < 0) return;
      const next = tabs[(i + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
      next.focus();
      next.click();
      e.preventDefault();
    });
  }
}

/** Writes `text` on an example's gallery card in place of a picture (a compute example draws none). */
export function labelThumbnail(/** @type {string} */ id, /** @type {string} */ text) {
  const thumb = /** @type {HTMLCanvasElement | null} */ (document.querySelector(`#gallery-list [data-example="${id}"] .thumb`));
  const ctx = thumb?.getContext('2d');
  if (!thumb || !ctx) return;
  ctx.fillStyle = '#23262c';
  ctx.fillRect(0, 0, thumb.width, thumb.height);
  ctx.fillStyle = '#9ecbff';
  ctx.font = 'bold 16px monospace';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, thumb.width / 2, thumb.height / 2);
  thumb.dataset.drawn = 'true';
}
