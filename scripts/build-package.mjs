// Builds the npm package `tgsi-shader` (the <tgsi-shader> element and the engine API) into
// dist/tgsi-shader/ from web/widget/ and the two engines scripts/build-wasm.sh built:
//
//   tgsi-shader.js   the element (ES module; registers <tgsi-shader>)
//   tgsi-lanes.js    the <tgsi-lanes op="ADD"> element: an opcode's live lane table
//   engine.js        the engine API without the element (render, validate, version)
//   worker.js        the render worker both start
//   edit.js          the editor (CodeMirror), loaded only when a reader clicks "Edit"
//   chunk-*.js       code the entry points share
//   pkg/             the lean engine (rendering and checking)
//   full/            the full engine (inspector, AGAL export, the editor's vocabulary)
//   reference.json   the opcode reference's data (reference/data.json): <tgsi-lanes>'s rows
//   vocabulary.json  the language's words from the full engine's `vocabulary()` and opcode
//                    table, for syntax highlighters (sphinx-tgsi's Pygments lexer reads it)
//   *.d.ts, README.md, package.json
//
// The Sphinx extension carries the same files: they are copied to
// sphinx-tgsi/sphinx_tgsi/assets/tgsi-shader/ (not in git), so `pip install sphinx-tgsi/`
// after this build installs them.
//
// Usage: node scripts/build-package.mjs [--pack DIR | --pack-built DIR]  (--pack also runs
// `npm pack` into DIR and prints the tarball's path; --pack-built packs the package as built,
// building it only when dist/tgsi-shader/ has none: what the e2e tests use, so that they never
// rewrite the files that `npm test`'s package step built and other steps read).

import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'dist', 'tgsi-shader');
const WIDGET = path.join(ROOT, 'web', 'widget');
const SPHINX_COPY = path.join(ROOT, 'sphinx-tgsi', 'sphinx_tgsi', 'assets', 'tgsi-shader');

/** Where the package's modules find their files: all side by side at the package root. */
const PACKAGE_LOCATIONS = `
export const LEAN_ENGINE = new URL('./pkg/tgsi.js', import.meta.url).href;
export const FULL_ENGINE = new URL('./full/tgsi.js', import.meta.url).href;
export const WORKER = new URL('./worker.js', import.meta.url);
export const EDITOR = new URL('./edit.js', import.meta.url).href;
export const PLAYGROUND = null;
export const REFERENCE_DATA = new URL('./reference.json', import.meta.url).href;
`;

async function version() {
  const toml = await readFile(path.join(ROOT, 'Cargo.toml'), 'utf8');
  const m = /\[workspace\.package\][^[]*?version\s*=\s*"([^"]+)"/.exec(toml);
  if (!m) throw new Error('no [workspace.package] version in Cargo.toml');
  return m[1];
}

/**
 * The language's words, from the full engine (its parser's own tables): what a highlighter
 * needs to tell opcodes, register files, semantics and modifiers apart.
 */
async function vocabulary() {
  const glue = await import(pathToFileURL(path.join(ROOT, 'web', 'pkg', 'tgsi.js')).href);
  glue.initSync({ module: readFileSync(path.join(ROOT, 'web', 'pkg', 'tgsi_bg.wasm')) });
  return glue.vocabulary();
}

/** `npm pack`s dist/tgsi-shader into `dir` and prints the tarball's path. @param {string} dir */
function pack(dir) {
  mkdirSync(dir, { recursive: true });
  const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: OUT, encoding: 'utf8' });
  console.log(path.join(dir, out.trim().split('\n').pop() ?? ''));
}

async function main() {
  const args = process.argv.slice(2);
  const packDir = args[0] === '--pack' || args[0] === '--pack-built' ? path.resolve(args[1] ?? '.') : null;
  if (args[0] === '--pack-built' && packDir && existsSync(path.join(OUT, 'package.json'))) {
    pack(packDir);
    return;
  }
  for (const dir of ['web/widget/pkg', 'web/pkg']) {
    await readFile(path.join(ROOT, dir, 'tgsi_bg.wasm')).catch(() => {
      throw new Error(`${dir} is missing: run scripts/build-wasm.sh first`);
    });
  }
  await readFile(path.join(ROOT, 'reference', 'data.json')).catch(() => {
    throw new Error('reference/data.json is missing: run scripts/build-reference.sh first');
  });
  await rm(OUT, { recursive: true, force: true });
  await mkdir(OUT, { recursive: true });

  await build({
    entryPoints: {
      'tgsi-shader': path.join(WIDGET, 'tgsi-shader.js'),
      'tgsi-lanes': path.join(WIDGET, 'tgsi-lanes.js'),
      engine: path.join(WIDGET, 'engine.js'),
      worker: path.join(WIDGET, 'worker.js'),
      // The element imports it by its URL (locations.js's EDITOR) on the first "Edit" only.
      edit: path.join(WIDGET, 'edit.js'),
    },
    outdir: OUT,
    bundle: true,
    splitting: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    // Chunks stay beside the entry points: the modules find the engines relative to themselves.
    chunkNames: 'chunk-[hash]',
    logLevel: 'warning',
    legalComments: 'none',
    plugins: [{
      name: 'package-locations',
      setup(b) {
        b.onResolve({ filter: /\/locations\.js$/ }, () => ({ path: 'locations', namespace: 'tgsi-package' }));
        b.onLoad({ filter: /.*/, namespace: 'tgsi-package' }, () => ({ contents: PACKAGE_LOCATIONS, loader: 'js' }));
      },
    }],
  });

  for (const [from, to] of [['web/widget/pkg', 'pkg'], ['web/pkg', 'full']]) {
    await mkdir(path.join(OUT, to));
    for (const f of ['tgsi.js', 'tgsi_bg.wasm', 'tgsi.d.ts']) await cp(path.join(ROOT, from, f), path.join(OUT, to, f));
  }
  for (const f of ['tgsi-shader.d.ts', 'tgsi-lanes.d.ts', 'engine.d.ts', 'README.md']) await cp(path.join(WIDGET, 'package', f), path.join(OUT, f));
  await cp(path.join(ROOT, 'LICENSE'), path.join(OUT, 'LICENSE')).catch(() => {});
  await cp(path.join(ROOT, 'reference', 'data.json'), path.join(OUT, 'reference.json'));
  await writeFile(path.join(OUT, 'vocabulary.json'), `${JSON.stringify(await vocabulary())}\n`);

  const pkg = {
    name: 'tgsi-shader',
    version: await version(),
    description: 'A <tgsi-shader> element: live Mesa TGSI shaders rendered on the CPU in WebAssembly, any number per page',
    license: 'MIT',
    type: 'module',
    main: './tgsi-shader.js',
    types: './tgsi-shader.d.ts',
    exports: {
      '.': { types: './tgsi-shader.d.ts', default: './tgsi-shader.js' },
      './engine': { types: './engine.d.ts', default: './engine.js' },
      './lanes': { types: './tgsi-lanes.d.ts', default: './tgsi-lanes.js' },
      './reference.json': './reference.json',
      './vocabulary.json': './vocabulary.json',
      './package.json': './package.json',
    },
    sideEffects: ['./tgsi-shader.js', './tgsi-lanes.js'],
    files: ['*.js', '*.json', '*.d.ts', 'pkg/', 'full/', 'README.md', 'LICENSE'],
    keywords: ['tgsi', 'mesa', 'gallium', 'shader', 'webassembly', 'web-component', 'custom-element'],
  };
  await writeFile(path.join(OUT, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  console.log(`built ${path.relative(ROOT, OUT)} (tgsi-shader ${pkg.version})`);
  await rm(SPHINX_COPY, { recursive: true, force: true });
  await cp(OUT, SPHINX_COPY, { recursive: true });
  console.log(`copied it to ${path.relative(ROOT, SPHINX_COPY)}`);

  if (packDir) pack(packDir);
}

main().catch((err) => {
  console.error(`build-package: ${err.message}`);
  process.exit(1);
});
