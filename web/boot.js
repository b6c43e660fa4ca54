// @ts-check
// The playground page's first script: index.html loads it `async`, before the page's bundle
// (app.js), which imports it too (esbuild leaves it, engine.js and render-pool.js outside the
// bundle, so both get the same module). It starts the engine's download and compilation and the
// render workers at once. Started from the bundle instead, all three waited for the bundle's
// evaluation. (A worker's first message also waits for the page's thread: main.js's set-up
// lets it through, `letWorkersIn`; docs/perf-log.md, the first picture.)

import { engineModule } from './engine.js';
import { RenderPool } from './render-pool.js';
import { machineCores } from './worker-pool.js';

// The page's start is marked for `scripts/bench-page.mjs --first-picture`: engine-compiled here,
// worker-ready (render-pool.js), engine-ready, page-built, first-frame-asked and first-frame
// (main.js).
engineModule().then(() => performance.mark('engine-compiled'), () => {});

/** The page's render workers: one per core but one, two to four. */
export const renderPool = new RenderPool(engineModule(), Math.min(Math.max(machineCores() - 1, 2), 4));
