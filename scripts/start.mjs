// @ts-check
// The build of `npm start` (scripts/start.sh serves the page afterwards): installs what is missing
// and builds each artefact once, independent steps side by side. Every step is a no-op when its
// output is current (cargo's own check, the engines' stamps, time stamps), so a start with nothing
// changed takes a few seconds. Logs: target/start-logs/. Exit status 1 when a step failed.

import path from 'node:path';
import { ROOT, runSteps, seconds } from './steps.mjs';

/** @type {import('./steps.mjs').Step[]} */
export const START_STEPS = [
  { id: 'target', label: 'rustup target wasm32-unknown-unknown', command: ['bash', 'scripts/setup.sh', '--only', 'target'] },
  { id: 'npm', label: 'npm ci (esbuild, wasm-opt, tsc, playwright-core)', command: ['bash', 'scripts/setup.sh', '--only', 'npm'] },
  // Only the bind steps need wasm-bindgen: it compiles while cargo builds the engines.
  { id: 'wasm-bindgen-cli', label: 'cargo install wasm-bindgen-cli', command: ['bash', 'scripts/setup.sh', '--only', 'wasm-bindgen'] },
  // The two engines share target/ (and its lock), so they build one after the other.
  { id: 'page-cargo', label: 'cargo build (wasm32, page engine)', command: ['bash', 'scripts/build-wasm.sh', 'page', '--cargo-only'], needs: ['target'] },
  { id: 'widget-cargo', label: 'cargo build (wasm32, widget engine)', command: ['bash', 'scripts/build-wasm.sh', 'widget', '--cargo-only'], needs: ['page-cargo'] },
  { id: 'page-bind', label: 'wasm-bindgen + wasm-opt (page engine → web/pkg)', command: ['bash', 'scripts/build-wasm.sh', 'page', '--bind-only'], needs: ['page-cargo', 'wasm-bindgen-cli', 'npm'] },
  { id: 'widget-bind', label: 'wasm-bindgen + wasm-opt (widget engine → web/widget/pkg)', command: ['bash', 'scripts/build-wasm.sh', 'widget', '--bind-only'], needs: ['widget-cargo', 'wasm-bindgen-cli', 'npm'] },
  { id: 'web', label: 'programs module and esbuild (web/programs.gen.js, web/app.js, web/learn/app.js)', command: ['bash', 'scripts/build-web.sh'], needs: ['npm'] },
  // A debug CLI without the compiling tier's wasmtime, in its own target dir (no lock shared
  // with the engines): about a minute of one core.
  { id: 'reference', label: 'opcode reference (tgsi reference, CLI without jit)', command: ['bash', 'scripts/build-reference.sh'] },
];

if (import.meta.url === `file://${process.argv[1]}`) {
  const t0 = Date.now();
  const results = await runSteps('start', START_STEPS, path.join(ROOT, 'target', 'start-logs'));
  const failed = results.filter((r) => r.outcome !== 'ok');
  if (failed.length) {
    console.log(`[start] ${failed.length} step(s) did not succeed: ${failed.map((r) => r.id).join(', ')} (logs in target/start-logs/)`);
    process.exit(1);
  }
  console.log(`[start] built in ${seconds(Date.now() - t0)}`);
}
