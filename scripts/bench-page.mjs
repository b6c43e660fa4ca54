// Measures the playground page's frame time in headless Chromium (or TGSI_BROWSER's engine): renders each named corpus
// fragment shader (fragment-only mode, uv inputs as the corpus vertex shader gives them) at the
// chosen size with the page's Web Workers, while animating, and prints the median ms per frame,
// the engine's part of it (the slowest band in its worker) and where the rest goes (the hops to
// and from the workers, copying the bands into one picture: render-pool.js `parts`).
// With --inspect it measures the inspector instead: inspecting a pixel (trace + panel update)
// at --size (512 by default) and one position of the instruction scrubber at 256x256, from the
// user's action to the panel or overlay showing the result (median of several).
// With --engines each shader is measured with the page's engine switch on "interpreter" and on
// "compiled", alternating every second on one animating page (frames counted when the badge
// shows the engine asked for); `--example ID` adds an
// example of web/examples.js; --compile-time measures, in the page, how long a generated
// 1000-instruction fragment shader takes from text to a compiled module (the engine's
// `jitModule`: parse, check, code generation; then `WebAssembly.compile`); --first-picture
// measures cold loads of the page to its first frame (the page marks it `first-frame`) and the
// median time of each step of its start (the page's other marks: web/boot.js).
//
//   node scripts/bench-page.mjs [--size 512] [--seconds 4] [--inspect] [--engines]
//     [--example ID] [--compile-time] [--first-picture] [SHADER.tgsi ...]
//
// Needs the built page (bash scripts/build-wasm.sh && bash scripts/build-web.sh) and the browser: Chromium, or
// TGSI_BROWSER=firefox or webkit under `node tests/e2e/sessions.mjs --` (as npm test runs them).

import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { launchBrowser, startServer, ROOT } from '../tests/e2e/support.mjs';

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  // The header comment above is the usage.
  const text = await readFile(new URL(import.meta.url), 'utf8');
  console.log(text.split('\n').filter((l) => l.startsWith('//')).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
  process.exit(0);
}
/** Stops with a one-line reason and exit status 2 (as the CLI does for bad arguments). */
const usageError = (/** @type {string} */ message) => {
  console.error(`bench-page: ${message} (--help for usage)`);
  process.exit(2);
};
const option = (/** @type {string} */ name, /** @type {string | null} */ fallback) => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = args[i + 1];
  if (value === undefined || value.startsWith('--')) usageError(`--${name} needs a value`);
  args.splice(i, 2);
  return value;
};
const inspect = args.includes('--inspect');
if (inspect) args.splice(args.indexOf('--inspect'), 1);
const engines = args.includes('--engines');
if (engines) args.splice(args.indexOf('--engines'), 1);
const compileTime = args.includes('--compile-time');
if (compileTime) args.splice(args.indexOf('--compile-time'), 1);
const firstPicture = args.includes('--first-picture');
if (firstPicture) args.splice(args.indexOf('--first-picture'), 1);
const example = option('example', null);
const size = Number(option('size', '512'));
const seconds = Number(option('seconds', '4'));
if (!Number.isInteger(size) || size < 1) usageError('--size takes a positive whole number of pixels');
if (!(seconds > 0)) usageError('--seconds takes a positive number');
const unknown = args.find((a) => a.startsWith('-'));
if (unknown) usageError(`unknown option ${unknown}`);
const missing = [];
for (const file of args) {
  try {
    await access(file);
  } catch {
    missing.push(file);
  }
}
if (missing.length) usageError(`cannot read ${missing.join(', ')}`);
const corpus = path.join(ROOT, 'tests', 'corpus', 'softpipe');
const files = args.length || example || compileTime || firstPicture ? args : ['01_arith.tgsi', '26_mandelbrot.tgsi'].map((f) => path.join(corpus, f));
/** What to draw: corpus files by path, examples by id. */
const shaders = [...files.map((file) => ({ name: path.basename(file), file })), ...(example ? [{ name: `example ${example}`, example }] : [])];

const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Inspector latency on the loaded page: pixel traces at the page size, scrubbing at 256². */
async function measureInspector(page) {
  const traces = [];
  for (let i = 0; i < 12; i += 1) {
    const x = (37 * i + 11) % size;
    const y = (53 * i + 7) % size;
    traces.push(await page.evaluate(async ([x, y]) => {
      const t0 = performance.now();
      await window.tgsiPlayground.inspect(x, y);
      // The panel is built synchronously after the trace arrives; wait for it to be painted.
      await new Promise((r) => requestAnimationFrame(() => r(null)));
      return performance.now() - t0;
    }, [x, y]));
  }
  await page.locator('#size').selectOption('256');
  await page.waitForTimeout(1500);
  await page.locator('#view-mode').selectOption('value');
  await page.waitForTimeout(1000);
  const positions = await page.evaluate(() => Number(document.querySelector('#probe-pc').max) + 1);
  const scrubs = [];
  for (let pc = 0; pc < Math.min(positions, 24); pc += 1) {
    scrubs.push(await page.evaluate(async (pc) => {
      const overlay = document.querySelector('#overlay');
      const before = Number(overlay.dataset.probes ?? 0);
      const slider = document.querySelector('#probe-pc');
      const t0 = performance.now();
      slider.value = String(pc);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      while (Number(overlay.dataset.probes ?? 0) <= before) await new Promise((r) => setTimeout(r, 1));
      return performance.now() - t0;
    }, pc));
  }
  return `inspect a pixel at ${size}x${size}: median ${median(traces).toFixed(1)} ms (max ${Math.max(...traces).toFixed(1)}); ` +
    `scrub one position at 256x256: median ${median(scrubs).toFixed(1)} ms (max ${Math.max(...scrubs).toFixed(1)}, ${scrubs.length} positions)`;
}

/**
 * A fragment shader of `n` instructions (then END): float and integer arithmetic cycling over
 * eight temporaries, every result feeding later ones, the last one written to the colour.
 */
function longShader(n, seed) {
  const ops = ['ADD', 'MUL', 'MAD', 'MIN', 'MAX', 'DP3', 'FRC', 'SLT', 'UADD', 'XOR', 'AND', 'USHR', 'I2F', 'F2I', 'LRP', 'CMP'];
  const sources = { MAD: 3, LRP: 3, CMP: 3, FRC: 1, I2F: 1, F2I: 1 };
  const lines = ['FRAG', 'DCL IN[0], GENERIC[0], PERSPECTIVE', 'DCL OUT[0], COLOR', 'DCL TEMP[0..7]',
    `IMM[0] FLT32 { 0.5000, 1.2500, -0.7500, ${(seed % 97) + 2}.0000 }`,
    '  0: MOV TEMP[0], IN[0]', '  1: MOV TEMP[1], IMM[0]'];
  for (let i = 2; i < n - 1; i += 1) {
    const op = ops[(i * 7 + seed) % ops.length];
    const r = (k) => `TEMP[${(i * 3 + k * 5 + seed) % 8}]`;
    const srcs = Array.from({ length: sources[op] ?? 2 }, (_, k) => `${r(k + 1)}.${'xyzw'[(i + k) % 4].repeat(2)}yx`);
    lines.push(`${String(i).padStart(4)}: ${op} TEMP[${i % 8}], ${srcs.join(', ')}`);
  }
  lines.push(`${String(n - 1).padStart(4)}: MOV OUT[0], TEMP[${(n - 2) % 8}]`, `${String(n).padStart(4)}: END`);
  return lines.join('\n') + '\n';
}

/** Median milliseconds of text → generated module (jitModule) and of WebAssembly.compile. */
async function measureCompile(page) {
  const runs = [];
  // Seed 0 warms up (the engine module's import, first calls); it is not counted.
  for (let seed = 0; seed <= 9; seed += 1) {
    const run = await page.evaluate(async (text) => {
      const engine = await import(new URL('web/pkg/tgsi.js', location.href).href);
      const t0 = performance.now();
      const generated = engine.jitModule(text, null, { width: 16, height: 16 });
      const t1 = performance.now();
      if (!generated.ok) return { error: generated.reason };
      await WebAssembly.compile(generated.bytes);
      const t2 = performance.now();
      return { generate: t1 - t0, compile: t2 - t1, instructions: generated.instructions, bytes: generated.bytes.length };
    }, longShader(1000, seed));
    if (seed > 0) runs.push(run);
  }
  const failed = runs.find((r) => r.error);
  if (failed) return `not compiled: ${failed.error}`;
  const gen = median(runs.map((r) => r.generate));
  const comp = median(runs.map((r) => r.compile));
  const total = median(runs.map((r) => r.generate + r.compile));
  return `${runs[0].instructions} instructions, ${runs[0].bytes} bytes of wasm: text → module (parse, check, codegen) median ${gen.toFixed(1)} ms, ` +
    `WebAssembly.compile median ${comp.toFixed(1)} ms, together median ${total.toFixed(1)} ms (max ${Math.max(...runs.map((r) => r.generate + r.compile)).toFixed(1)}, ${runs.length} programs)`;
}

/** Opens the page with `engine` chosen (null: as it comes) and draws `shader` at the benchmark size. */
async function openWith(shader, engine) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(server.url);
  await page.waitForSelector('#engine-version[data-state="ready"]', { timeout: 30_000 });
  await page.locator('#size').selectOption(String(size));
  if (engine) await page.locator('#engine').selectOption(engine);
  if (shader.example) {
    await page.evaluate((id) => window.tgsiPlayground.loadExample(id), shader.example);
  } else {
    const text = await readFile(shader.file, 'utf8');
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(text);
  }
  await page.waitForTimeout(1500);
  if (engine === 'compiled') {
    await page.waitForFunction(() => document.querySelector('#engine-badge')?.dataset.engine === 'compiled', null, { timeout: 30_000 });
  }
  return page;
}

/**
 * Both engines on one animating page, switched every second so that the machine's load weighs
 * on both alike; a frame time counts when the badge shows the engine asked for.
 */
async function measureEngines(shader) {
  const page = await openWith(shader, 'compiled');
  await page.locator('#play').click();
  /** @type {Record<string, number[]>} */
  const samples = { interpreter: [], compiled: [] };
  const end = Date.now() + 2 * seconds * 1000;
  for (let round = 0; Date.now() < end; round += 1) {
    const engine = round % 2 ? 'interpreter' : 'compiled';
    await page.locator('#engine').selectOption(engine);
    await page.waitForTimeout(400);
    const until = Date.now() + 1000;
    while (Date.now() < until) {
      await page.waitForTimeout(100);
      const [label, drawn] = await page.evaluate(() => [/** @type {HTMLElement | null} */ (document.querySelector('#frame-time'))?.dataset.ms, document.querySelector('#engine-badge')?.dataset.engine]);
      const ms = parseFloat(label ?? '');
      if (Number.isFinite(ms) && drawn === engine) samples[engine].push(ms);
    }
  }
  await page.close();
  const line = (/** @type {string} */ engine) => {
    const m = samples[engine].length ? median(samples[engine]) : NaN;
    return `${engine} median ${m.toFixed(1)} ms/frame (${(1000 / m).toFixed(1)} fps, ${samples[engine].length} samples)`;
  };
  const ratio = median(samples.interpreter) / median(samples.compiled);
  return `${shader.name} ${size}x${size}: ${line('interpreter')}; ${line('compiled')}; compiled / interpreter ${ratio.toFixed(2)}x fps`;
}

const server = await startServer(0);
const browser = await launchBrowser({ optimizingWasm: true });
try {
  if (firstPicture) {
    // A cold load: a fresh context (no cache) each time, the page's default shader.
    const times = [];
    /** The page's marks of its start (web/boot.js), ms from navigation start, per load. */
    /** @type {Record<string, number[]>} */
    const steps = {};
    for (let i = 0; i < 7; i += 1) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(server.url);
      await page.waitForSelector('#output[data-renders]', { timeout: 30_000 });
      const load = await page.evaluate(() => {
        const at = (/** @type {PerformanceEntry | undefined} */ e) => e?.startTime;
        const marks = performance.getEntriesByType('mark');
        const workers = marks.filter((m) => m.name === 'worker-ready').map((m) => m.startTime);
        const bundle = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/web/app.js'));
        return {
          drawn: at(performance.getEntriesByName('first-frame')[0]) ?? performance.now(),
          steps: {
            'app.js fetched': bundle?.responseEnd,
            'engine compiled': at(performance.getEntriesByName('engine-compiled')[0]),
            'first worker ready': workers.length ? Math.min(...workers) : undefined,
            'last worker ready': workers.length ? Math.max(...workers) : undefined,
            'page engine ready': at(performance.getEntriesByName('engine-ready')[0]),
            'page built': at(performance.getEntriesByName('page-built')[0]),
            'first frame asked': at(performance.getEntriesByName('first-frame-asked')[0]),
          },
        };
      });
      times.push(load.drawn);
      for (const [k, v] of Object.entries(load.steps)) if (Number.isFinite(v)) (steps[k] ??= []).push(/** @type {number} */ (v));
      await context.close();
    }
    console.log(`first picture, cold load of the page (navigation start to the default shader's first frame on the canvas): median ${median(times).toFixed(0)} ms over ${times.length} loads (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)}); budget 500 ms`);
    // Where the loads went, as medians of each step (a worker is ready once its engine is
    // instantiated, and warmed up for the first one).
    console.log(`  steps (median ms from navigation start): ${Object.entries(steps).map(([k, v]) => `${k} ${median(v).toFixed(0)}`).join(', ')}`);
  }
  if (compileTime) {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.waitForSelector('#engine-version[data-state="ready"]', { timeout: 30_000 });
    console.log(`compile time: ${await measureCompile(page)}`);
    await page.close();
  }
  for (const shader of shaders) {
    if (engines && !inspect) {
      console.log(await measureEngines(shader));
      continue;
    }
    const page = await openWith(shader, null);
    if (inspect) {
      console.log(`${shader.name}: ${await measureInspector(page)}`);
      await page.close();
      continue;
    }
    await page.locator('#play').click();
    const samples = [];
    const engineSamples = [];
    /** @type {Record<string, number[]>} */
    const partSamples = {};
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      await page.waitForTimeout(250);
      const { label, engine, parts } = await page.evaluate(() => {
        const el = /** @type {HTMLElement} */ (document.querySelector('#frame-time'));
        return { label: el.dataset.ms, engine: el.dataset.engineMs, parts: el.dataset.parts };
      });
      try {
        const p = JSON.parse(parts ?? '{}');
        for (const k of Object.keys(p)) if (Number.isFinite(p[k])) (partSamples[k] ??= []).push(p[k]);
      } catch { /* not drawn yet */ }
      const ms = parseFloat(label ?? '');
      if (Number.isFinite(ms)) samples.push(ms);
      const e = parseFloat(engine ?? '');
      if (Number.isFinite(e)) engineSamples.push(e);
    }
    const m = samples.length ? median(samples) : NaN;
    const e = engineSamples.length ? median(engineSamples) : NaN;
    // The engine's part: the slowest band's time in its worker (bands run side by side).
    console.log(`${shader.name} ${size}x${size}: median ${m.toFixed(1)} ms/frame (${(1000 / m).toFixed(1)} fps, ${samples.length} samples); the engine's part ${e.toFixed(1)} ms (frame / engine ${(m / e).toFixed(2)}x)`);
    // The rest (render-pool.js `parts`): the hops to and from the slowest band's worker and the
    // copies into the frame's picture; what is left is the page's own work between frames.
    console.log(`  the rest: ${Object.entries(partSamples).map(([k, v]) => `${k} ${median(v).toFixed(2)} ms`).join(', ')}`);
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
