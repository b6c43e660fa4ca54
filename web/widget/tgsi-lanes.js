// @ts-check
// <tgsi-lanes op="ADD">: one opcode's live lane table, as the opcode reference shows it, for any
// page (documentation built by sphinx-tgsi, hand-written HTML). The four lanes of one quad run
// the opcode's reference program in the full engine; each lane's inputs are editable and its
// result is compared with the hand-derived value (web/lane-tables.js builds the table).
//
// The opcode's data is the reference's `data.json` entry: inline as a
// `<script type="application/json">` child (what sphinx-tgsi writes: no fetch, works from
// file://), or the entry named by `op` in the array at the `data` attribute's URL (by default
// the reference data beside this module: the package's reference.json). The table is
// built when the element comes near the viewport. Events: `ready` (the table is live), `error`.

import { sharedEngine } from './engine.js';
import { REFERENCE_DATA } from './locations.js';
import { laneTable, texLaneTable } from '../lane-tables.js';

/** @typedef {import('../lane-tables.js').RefEntry} RefEntry */

const LANES_CSS = `
:host {
  --tgsi-fg: #1d1f23; --tgsi-muted: #5c6370; --tgsi-accent: #0b62c4; --tgsi-error: #b3261e;
  --tgsi-border: #d0d4da; --tgsi-ok: #1a7f37;
  --tgsi-font: system-ui, sans-serif; --tgsi-mono: ui-monospace, SFMono-Regular, Menlo, monospace;
  display: block; max-width: 100%; overflow-x: auto; color: var(--tgsi-fg); font: 14px/1.4 var(--tgsi-font);
  container-type: inline-size;
}
:host([theme="dark"]) {
  --tgsi-fg: #e6e6e6; --tgsi-muted: #9aa0aa; --tgsi-accent: #6cb4ff; --tgsi-error: #ff7b72;
  --tgsi-border: #30343c; --tgsi-ok: #56d364;
}
:host([hidden]) { display: none; }
[hidden] { display: none !important; }
.caption { margin: 0 0 4px; color: var(--tgsi-muted); font-size: 12px; }
table { border-collapse: collapse; }
th, td { border: 1px solid var(--tgsi-border); padding: 2px 6px; text-align: left; vertical-align: top; }
th { font-weight: 600; }
input { font: 12px var(--tgsi-mono); width: 12ch; color: inherit; background: transparent;
  border: 1px solid var(--tgsi-border); border-radius: 3px; padding: 1px 3px; }
input:focus-visible { outline: 2px solid var(--tgsi-accent); outline-offset: 1px; }
.computed .channel, .computed .pair, .result .channel { display: block; font: 12px var(--tgsi-mono); }
.result .channel { white-space: nowrap; }
.computed .pair { color: var(--tgsi-accent); }
.expected { font: 12px var(--tgsi-mono); }
.verdict { min-width: 4.5em; }
.verdict[data-same="true"] { color: var(--tgsi-ok); }
.verdict[data-same="false"] { color: var(--tgsi-error); }
.verdict[data-same="edited"] { color: var(--tgsi-muted); font-style: italic; }
.lane-status:empty { display: none; }
.lane-status, .problem { color: var(--tgsi-error); margin: 4px 0 0; }
table.tex tbody.lane { border-top: 2px solid var(--tgsi-border); }
table.tex td.lane-no { font-weight: bold; }
table.tex td.inputs label { display: flex; gap: 0.3rem; align-items: baseline; white-space: nowrap; }
table.tex td.inputs label span { color: var(--tgsi-muted); font-size: 11px; }
table.tex input { width: calc(var(--input-chars, 20) * 1ch); }
table.tex td.lod { font-size: 12px; min-width: 8rem; max-width: 13rem; }
table.tex td.check .expected, table.tex td.check .verdict { display: block; }
table.tex thead tr.taps-row th { font-weight: normal; font-size: 12px; color: var(--tgsi-muted); }
table.tex tr.taps-row td { border-top-style: dashed; }
.texels { margin: 0; padding: 0; list-style: none; font: 11px var(--tgsi-mono); columns: 16rem; column-gap: 1.5rem; }
.texels li { break-inside: avoid; padding-left: 2ch; text-indent: -2ch; overflow-wrap: anywhere; }
/* A narrow column (a phone, a documentation theme's text column): each lane is a block with its
   cells one under the other, each named by its column. */
@container (max-width: 34rem) {
  table, tbody, tr, td { display: block; }
  thead { display: none; }
  table { width: 100%; }
  tbody tr, tbody.lane { border: 1px solid var(--tgsi-border); border-radius: 4px; margin-bottom: 6px; padding: 2px 0; }
  td { border: none; padding: 1px 6px; }
  table:not(.tex) td[data-label] { display: grid; grid-template-columns: 6.5em minmax(0, 1fr); gap: 6px; align-items: baseline; }
  td[data-label]::before { content: attr(data-label); color: var(--tgsi-muted); font-size: 11px; }
  table.tex td[data-label]::before { display: block; }
  td.lane-no { font-weight: bold; }
  td.lane-no::before { content: "lane "; }
  td.verdict:empty { display: none; }
  .result .channel { white-space: normal; }
  input { width: 100%; max-width: 24ch; box-sizing: border-box; }
  table.tex tr.lane-row { display: block; }
  table.tex tr.taps-row td { border-top: 1px dashed var(--tgsi-border); }
}
`;

/** @type {CSSStyleSheet | null} */
let sheet = null;
/** @type {IntersectionObserver | null} */
let observer = null;
/** Fetched data files by absolute URL (every element naming the same file shares one fetch). */
const dataFiles = new Map();

/**
 * The reference entries at a URL.
 * @param {string} url
 * @returns {Promise<RefEntry[]>}
 */
function dataFile(url) {
  if (!dataFiles.has(url)) {
    dataFiles.set(url, fetch(url).then((res) => {
      if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
      return res.json();
    }));
  }
  return dataFiles.get(url);
}

export class TgsiLanes extends HTMLElement {
  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(LANES_CSS);
    }
    root.adoptedStyleSheets = [sheet];
    this.box = document.createElement('div');
    this.box.setAttribute('part', 'box');
    this.box.textContent = 'Lane table: loading…';
    root.append(this.box);
    /** @type {Promise<void> | null} */
    this.building = null;
  }

  connectedCallback() {
    observer ??= new IntersectionObserver((seen) => {
      for (const s of seen) {
        if (!s.isIntersecting) continue;
        /** @type {IntersectionObserver} */ (observer).unobserve(s.target);
        /** @type {TgsiLanes} */ (s.target).build();
      }
    }, { rootMargin: '300px' });
    observer.observe(this);
  }

  disconnectedCallback() {
    observer?.unobserve(this);
  }

  /** The opcode's entry: the inline JSON child, else the `data` file's entry named by `op`. */
  async entry() {
    const op = (this.getAttribute('op') ?? '').toUpperCase();
    const inline = this.querySelector('script[type="application/json"]');
    if (inline) {
      /** @type {RefEntry} */
      const e = JSON.parse(inline.textContent ?? '');
      if (op && e.name !== op) throw new Error(`the inline data is for ${e.name}, not ${op}`);
      return e;
    }
    const src = this.getAttribute('data') ?? REFERENCE_DATA;
    const all = await dataFile(new URL(src, document.baseURI).href);
    const e = all.find((x) => x.name === op);
    if (!e) throw new Error(`${op || 'no op attribute'}: not in ${src}`);
    return e;
  }

  /** Builds the live table once (also callable directly, in view or not); resolves when done. */
  build() {
    this.building ??= (async () => {
      try {
        const e = await this.entry();
        const engine = await sharedEngine('full').api();
        const made = e.tex ? texLaneTable(e, engine) : laneTable(e, engine);
        if (!made) throw new Error(`${e.name} has no lane table`);
        const caption = document.createElement('p');
        caption.className = 'caption';
        caption.setAttribute('part', 'caption');
        caption.textContent = `${e.name}: the four lanes of one 2×2 quad, run live; edit an input to rerun.`;
        made[0].setAttribute('part', 'table');
        this.box.replaceChildren(caption, ...made);
        this.dataset.state = 'live';
        this.dispatchEvent(new CustomEvent('ready', { detail: { op: e.name } }));
      } catch (err) {
        const p = document.createElement('p');
        p.className = 'problem';
        p.textContent = `Lane table: ${err instanceof Error ? err.message : String(err)}`;
        this.box.replaceChildren(p);
        this.dataset.state = 'error';
        this.dispatchEvent(new CustomEvent('error', { detail: { message: p.textContent } }));
      }
    })();
    return this.building;
  }

  /** The table's element (for tests and hosts). */
  get table() {
    return this.shadowRoot?.querySelector('table') ?? null;
  }
}

if (!customElements.get('tgsi-lanes')) customElements.define('tgsi-lanes', TgsiLanes);
