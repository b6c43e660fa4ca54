// @ts-check
// Tabs over the canvas for every buffer the frame writes: one per colour target the fragment
// shader writes (COLOR[n]) and the depth buffer (as greyscale: black near, white far). Only the
// selected buffer is converted and sent by the engine (render option `target`).

/** @typedef {{count: number, depthTest: boolean, writesDepth: boolean, target?: number | string}} TargetInfo */

export class TargetTabs {
  /**
   * root: the tab list's element; onSelect() after the user picks another buffer.
   * @param {HTMLElement} root
   * @param {() => void} onSelect
   */
  constructor(root, onSelect) {
    this.root = root;
    this.onSelect = onSelect;
    /** @type {number | 'depth'} */
    this.selected = 0;
    this.signature = '';
  }

  /**
   * Shows the tabs a frame's buffers call for (none for a single colour target without depth);
   * a selection the new frame no longer has goes back to COLOR[0]. Returns whether it did.
   * @param {TargetInfo | null} info
   */
  update(info) {
    const count = Math.max(1, info?.count ?? 1);
    const depth = Boolean(info?.depthTest || info?.writesDepth);
    const tabs = [...Array.from({ length: count }, (_, i) => i), ...(depth ? ['depth'] : [])];
    let reset = false;
    if (!tabs.includes(this.selected)) { this.selected = 0; reset = true; }
    const signature = `${tabs.join(',')}|${this.selected}`;
    if (signature === this.signature) return reset;
    this.signature = signature;
    this.root.hidden = tabs.length < 2;
    this.root.replaceChildren(...tabs.map((t) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.setAttribute('role', 'tab');
      b.id = `target-${t}`;
      b.dataset.target = String(t);
      b.textContent = t === 'depth' ? 'Depth' : `COLOR[${t}]`;
      b.title = t === 'depth' ? 'The depth buffer as greyscale (black = 0 near, white = 1 far; only draws with a depth test write it)' : `Render target ${t}`;
      b.setAttribute('aria-selected', String(t === this.selected));
      b.addEventListener('click', () => {
        if (this.selected === t) return;
        this.selected = /** @type {number | 'depth'} */ (t);
        this.signature = '';
        this.update(info);
        this.onSelect();
      });
      return b;
    }));
    return reset;
  }
}
