// @ts-check
// Compares engine builds at rendering: loads each wasm-bindgen `--target web` output folder
// (tgsi.js + tgsi_bg.wasm) in node, renders corpus fragment shaders with `renderPage` (one
// whole frame per call, the built-in uniforms changing as on an animating page, so the prepared
// job is reused) and prints the median milliseconds per frame and the module's size.
//
//   node scripts/bench-widget-wasm.mjs [--size 256] [--seconds 2] [--compiled] [--rounds N]
//                                      [DIR ...] [-- SHADER.tgsi ...]
//
// DIRs default to the page's engine (web/pkg) and the widget's lean engine (web/widget/pkg);
// build them with scripts/build-wasm.sh. One thread, no workers: the numbers compare engines,
// not the page. Each frame's pixels go into one kept array (`pixelsInto`), as in the page's
// workers. --compiled draws with the compiling tier: each shader's generated module is compiled
// and registered with the engine first, as a render worker does (an engine without the tier, or
// a shader it does not compile, prints n/a). --rounds N measures the engines in turn N times
// (one line each per round): on a machine whose speed drifts, compare figures of one round.

import { readFile, stat } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = path.join(ROOT, 'tests', 'corpus');

const args = process.argv.slice(2);
/**
 * Removes `--name value` from args and returns the value.
 * @param {string} name
 * @param {string} fallback
 */
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = args[i + 1];
  args.splice(i, 2);
  return value;
};
const size = Number(option('size', '256'));
const seconds = Number(option('seconds', '2'));
const rounds = Number(option('rounds', '1'));
const compiled = args.includes('--compiled');
if (compiled) args.splice(args.indexOf('--compiled'), 1);
const split = args.indexOf('--');
const dirs = (split < 0 ? args : args.slice(0, split)).map((d) => path.resolve(d));
const shaderFiles = split < 0 ? [] : args.slice(split + 1);
if (!dirs.length) dirs.push(path.join(ROOT, 'web', 'pkg'), path.join(ROOT, 'web', 'widget', 'pkg'));

/** A 4×4 RGBA8 texture as the softpipe corpus binds it (texel(i, j): R = 85i, G = 85j). */
const checker = JSON.stringify({
  target: '2D',
  format: 'RGBA8',
  width: 4,
  height: 4,
  texels: Array.from({ length: 16 }, (_, k) => {
    const [i, j] = [k % 4, Math.floor(k / 4)];
    return [i * 85, j * 85, ((i ^ j) & 1) * 255, 255];
  }),
});

/** @typedef {{ name: string, fs: string, textures: { unit: number, description: string }[] }} Case */

/** @returns {Promise<Case[]>} */
async function cases() {
  const softpipe = path.join(CORPUS, 'softpipe');
  const files = shaderFiles.length
    ? shaderFiles
    : ['01_arith.tgsi', '26_mandelbrot.tgsi', '21_tex_linear.tgsi'].map((f) => path.join(softpipe, f));
  return Promise.all(files.map(async (file) => {
    const fs = await readFile(file, 'utf8');
    const textures = /DCL SAMP\[0\]/.test(fs) ? [{ unit: 0, description: checker }] : [];
    return { name: path.basename(file, '.tgsi'), fs, textures };
  }));
}

const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Loads one engine folder: its glue module, instantiated with the module's bytes.
 * @param {string} dir
 */
async function load(dir) {
  const bytes = await readFile(path.join(dir, 'tgsi_bg.wasm'));
  const engine = await import(pathToFileURL(path.join(dir, 'tgsi.js')).href);
  await engine.default({ module_or_path: bytes });
  return { engine, raw: (await stat(path.join(dir, 'tgsi_bg.wasm'))).size, gzip: gzipSync(bytes, { level: 9 }).length };
}

/**
 * Median ms per frame of `c` on `engine` (after a warm-up that lets the JIT tier up).
 * @param {any} engine
 * @param {Case} c
 */
function measure(engine, c) {
  const into = new Uint8Array(size * size * 4);
  /** @param {number} frame */
  const render = (frame) => {
    const r = engine.renderPage(c.fs, null, {
      width: size, height: size, time: frame / 60, timeDelta: 1 / 60, frame, textures: c.textures,
      pixelsInto: into, ...(compiled ? { engine: 'compiled' } : {}),
    });
    if (!r.ok) throw new Error(`${c.name}: ${JSON.stringify(r.diagnostics)}`);
    if (compiled && r.engine !== 'compiled') throw new Error(`${c.name}: drawn by the ${r.engine}`);
  };
  for (let f = 0; f < 5; f += 1) render(f);
  const times = [];
  const end = performance.now() + seconds * 1000;
  for (let f = 5; times.length < 5 || performance.now() < end; f += 1) {
    const t0 = performance.now();
    render(f);
    times.push(performance.now() - t0);
  }
  return median(times);
}

/**
 * Registers `c`'s compiled module with `engine` (render-worker.js `useModule`); whether it did.
 * @param {any} engine
 * @param {Case} c
 */
async function registerCompiled(engine, c) {
  if (typeof engine.jitModule !== 'function') return false;
  const generated = engine.jitModule(c.fs, null, { width: size, height: size, textures: c.textures });
  if (!generated.ok) return false;
  const module = await WebAssembly.compile(generated.bytes);
  return engine.jitRegister(generated.key, new WebAssembly.Instance(module, engine.jitImports() ?? undefined));
}

const list = await cases();
const tier = compiled ? 'the compiling tier' : 'the interpreter';
console.log(`${size}x${size}, ${tier}, median ms per frame over ${seconds} s per shader`);
console.log(['engine', 'raw bytes', 'gzip bytes (zlib -9)', ...list.map((c) => c.name)].join('\t'));
const loaded = [];
for (const dir of dirs) {
  const engine = await load(dir);
  const ready = await Promise.all(list.map((c) => (compiled ? registerCompiled(engine.engine, c) : true)));
  loaded.push({ dir, ...engine, ready });
}
for (let round = 0; round < rounds; round += 1) {
  for (const { dir, engine, raw, gzip, ready } of loaded) {
    const ms = list.map((c, i) => (ready[i] ? measure(engine, c).toFixed(2) : 'n/a'));
    console.log([path.relative(ROOT, dir) || dir, raw, gzip, ...ms].join('\t'));
  }
}
