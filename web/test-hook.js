// @ts-check
// The hook the end-to-end tests drive the page through (`window.tgsiPlayground`): small and
// read-mostly, over the page's state (web/main.js passes what it reads).

/**
 * Installs `window.tgsiPlayground`.
 * @param {{app: import('./main.js').PageApp, store: typeof import('./store.js').store,
 *   examples: typeof import('./examples.js').EXAMPLES, loadExample: (id: string) => void,
 *   copyLink: () => Promise<string>, inspector: ReturnType<typeof import('./page-inspector.js').createPageInspector>}} page
 */
export function installTestHook({ app, store, examples, loadExample, copyLink, inspector }) {
  /** @type {any} */ (window).tgsiPlayground = {
    examples,
    loadExample: (/** @type {string} */ id) => loadExample(id),
    copyLink: () => copyLink(),
    /** Frames abandoned because an edit came while they were still drawing. */
    get abandoned() { return app.pool?.abandoned ?? 0; },
    /** Render workers replaced after they failed. */
    get replacedWorkers() { return app.pool?.replaced ?? 0; },
    /** Frames drawn again on fresh workers after a worker failed while drawing them. */
    get retriedFrames() { return app.pool?.retried ?? 0; },
    /**
     * For tests: the next `times` frames (a retry counts) make a worker fail, as a crashed or
     * out-of-memory worker would.
     */
    failNextFrame: (times = 1) => { if (app.pool) app.pool.crashNext = times; },
    get state() { return store.state; },
    get editor() { return app.editor; },
    get descriptions() { return app.descriptions; },
    get trace() { return inspector.trace; },
    /** The shader text and size of the frame on the canvas. */
    get rendered() {
      const r = app.lastRequest;
      return r ? { fs: r.fs, vs: r.vs, mesh: r.mesh, gs: r.gs, target: r.target, width: r.width, constants: r.constants, vsConstants: r.vsConstants, fsConstants: r.fsConstants, gsConstants: r.gsConstants, vertices: r.vertices, imageVersion: r.imageVersion } : null;
    },
    get imagesRestored() { return app.imagesRestored; },
    get probe() { return inspector.probe; },
    /** The latest compute run (the engine's `compute` result) and geometry listing. */
    get computed() { return app.computed; },
    get primitives() { return app.primitives; },
    inspect: (/** @type {number} */ x, /** @type {number} */ y) => inspector.inspectPixel(x, y),
    inspectVertex: (/** @type {number} */ i) => inspector.inspectVertex(i),
    textureSupport: true,
  };
}
