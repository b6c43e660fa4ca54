// @ts-check
// sphinx-tgsi's page script (in _static/, beside the widget package in _static/tgsi-shader/):
// loads the <tgsi-shader> and <tgsi-lanes> elements where the page has them, and gives each
// highlighted `tgsi` code block that is a whole fragment shader a "Run" button that draws it
// with a live, editable widget under the block (not the source a tgsi-shader directive shows
// under its widget: `.tgsi-widget-source`).

const PACKAGE = new URL('./tgsi-shader/', import.meta.url);
const script = /** @type {HTMLScriptElement | null} */ (document.querySelector('script[data-tgsi-run-buttons]'));
const runButtons = script?.dataset.tgsiRunButtons !== 'false';

/** Whether a block's text is a whole fragment shader (a processor header first). @param {string} text */
export function isFragmentShader(text) {
  const first = text.split('\n').map((l) => l.trim()).find((l) => l && !l.startsWith(';'));
  return first === 'FRAG';
}

let elementLoaded = /** @type {Promise<unknown> | null} */ (null);
function loadElement() {
  elementLoaded ??= import(new URL('tgsi-shader.js', PACKAGE).href);
  return elementLoaded;
}

/** @param {HTMLElement} block  Sphinx's `div.highlight-tgsi` */
function addRunButton(block) {
  const pre = block.querySelector('pre');
  if (!pre) return;
  const text = pre.textContent ?? '';
  if (!isFragmentShader(text)) return;
  const bar = document.createElement('div');
  bar.className = 'tgsi-run-bar';
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'tgsi-run';
  button.textContent = 'Run';
  button.setAttribute('aria-expanded', 'false');
  bar.append(button);
  block.after(bar);
  /** @type {HTMLElement | null} */
  let widget = null;
  button.addEventListener('click', async () => {
    if (widget) {
      widget.hidden = !widget.hidden;
      button.textContent = widget.hidden ? 'Run' : 'Hide';
      button.setAttribute('aria-expanded', String(!widget.hidden));
      return;
    }
    await loadElement();
    const el = document.createElement('tgsi-shader');
    el.setAttribute('width', '192');
    el.setAttribute('height', '192');
    el.setAttribute('editable', '');
    el.setAttribute('label', 'The shader above, running');
    /** @type {any} */ (el).source = text;
    widget = document.createElement('div');
    widget.className = 'tgsi-widget tgsi-run-output';
    widget.append(el);
    bar.after(widget);
    // Widgets draw only in view: the new one comes into view under the block.
    widget.scrollIntoView({ block: 'nearest' });
    button.textContent = 'Hide';
    button.setAttribute('aria-expanded', 'true');
  });
}

if (document.querySelector('tgsi-shader')) loadElement();
if (document.querySelector('tgsi-lanes')) import(new URL('tgsi-lanes.js', PACKAGE).href);
if (runButtons) for (const block of document.querySelectorAll('div.highlight-tgsi:not(.tgsi-widget-source)')) addRunButton(/** @type {HTMLElement} */ (block));
