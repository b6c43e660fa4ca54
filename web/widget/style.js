// @ts-check
// The widget's look, adopted by every shadow root (a constructed style sheet: no inline <style>,
// so hosts with a strict Content-Security-Policy need no 'unsafe-inline'). Hosts restyle it
// with the custom properties below and the ::part() names listed in the package README.

export const WIDGET_CSS = `
:host {
  --tgsi-bg: #15171c; --tgsi-fg: #e6e6e6; --tgsi-muted: #9aa0aa; --tgsi-accent: #6cb4ff;
  --tgsi-error: #ff7b72; --tgsi-border: #30343c; --tgsi-radius: 6px;
  --tgsi-font: system-ui, sans-serif; --tgsi-mono: ui-monospace, SFMono-Regular, Menlo, monospace;
  display: inline-block; vertical-align: top; max-width: 100%;
  color: var(--tgsi-fg); font: 13px/1.4 var(--tgsi-font);
}
:host([theme="light"]) {
  --tgsi-bg: #ffffff; --tgsi-fg: #1d1f23; --tgsi-muted: #5c6370; --tgsi-accent: #0b62c4;
  --tgsi-error: #b3261e; --tgsi-border: #d0d4da;
}
@media (prefers-color-scheme: light) {
  :host(:not([theme])), :host([theme="auto"]) {
    --tgsi-bg: #ffffff; --tgsi-fg: #1d1f23; --tgsi-muted: #5c6370; --tgsi-accent: #0b62c4;
    --tgsi-error: #b3261e; --tgsi-border: #d0d4da;
  }
}
:host([hidden]) { display: none; }
[hidden] { display: none !important; }
.box { background: var(--tgsi-bg); border: 1px solid var(--tgsi-border); border-radius: var(--tgsi-radius);
  padding: 6px; display: flex; flex-direction: column; gap: 6px; max-width: 100%; box-sizing: border-box; }
.frame { position: relative; line-height: 0; }
canvas, .poster { max-width: 100%; height: auto; image-rendering: pixelated; border-radius: calc(var(--tgsi-radius) - 2px); }
.poster { position: absolute; inset: 0; width: 100%; }
canvas:focus-visible, button:focus-visible, a:focus-visible, input:focus-visible, [tabindex]:focus-visible {
  outline: 2px solid var(--tgsi-accent); outline-offset: 2px; }
.bar { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; }
.bar .grow { flex: 1; }
button { font: inherit; color: var(--tgsi-fg); background: transparent; border: 1px solid var(--tgsi-border);
  border-radius: 4px; padding: 2px 8px; cursor: pointer; }
button:hover { border-color: var(--tgsi-accent); }
input[type="range"] { flex: 1; min-width: 60px; accent-color: var(--tgsi-accent); }
a { color: var(--tgsi-accent); }
.muted, .time { color: var(--tgsi-muted); font-variant-numeric: tabular-nums; }
.diagnostics { margin: 0; padding: 0; list-style: none; font: 12px/1.4 var(--tgsi-mono); color: var(--tgsi-error);
  white-space: pre-wrap; overflow-wrap: anywhere; max-height: 10em; overflow: auto; }
.diagnostics:empty { display: none; }
.editor { border: 1px solid var(--tgsi-border); border-radius: 4px; max-height: 22em; overflow: auto; font-size: 12px; }
.agal, .inspector { font: 12px/1.4 var(--tgsi-mono); margin: 0; max-height: 18em; overflow: auto;
  border-top: 1px solid var(--tgsi-border); padding-top: 4px; white-space: pre; }
.inspector table { border-collapse: collapse; }
.inspector td, .inspector th { padding: 1px 6px; text-align: left; vertical-align: top; }
.inspector tr[aria-selected="true"] { background: color-mix(in srgb, var(--tgsi-accent) 25%, transparent); }
.inspector .lane { color: var(--tgsi-accent); font-weight: bold; }
.inspector .off { color: var(--tgsi-muted); }
`;

/** @type {CSSStyleSheet | null} */
let sheet = null;

/** The one shared sheet (made on first use). */
export function widgetSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(WIDGET_CSS);
  }
  return sheet;
}
