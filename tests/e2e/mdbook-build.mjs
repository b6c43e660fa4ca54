// @ts-check
// Builds the mdbook-tgsi sample book (tests/docs-tools/book/) in a scratch folder with the pinned
// mdBook (target/tools/bin/mdbook, `scripts/setup.sh --only mdbook`) and the workspace's
// preprocessor (target/debug/mdbook-tgsi, `cargo build -p mdbook-tgsi` after the package build),
// for tests/e2e/node/mdbook.test.mjs (the HTML, the files, the failing book) and
// tests/e2e/mdbook.test.mjs (the widgets in the browsers).

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const MDBOOK = path.join(ROOT, 'target', 'tools', 'bin', 'mdbook');
export const PREPROCESSOR = path.join(ROOT, 'target', 'debug', 'mdbook-tgsi');
export const SAMPLE_BOOK = path.join(ROOT, 'tests', 'docs-tools', 'book');
/** Chapters and shaders the failing build copies over the sample book's src/. */
export const BAD_SOURCES = path.join(ROOT, 'tests', 'docs-tools', 'book-bad');

/** Throws, saying how to build them, when mdBook or the preprocessor is missing. */
export function requireTools() {
  if (!existsSync(MDBOOK)) throw new Error(`${path.relative(ROOT, MDBOOK)} is missing: run bash scripts/setup.sh --only mdbook`);
  if (!existsSync(PREPROCESSOR)) throw new Error(`${path.relative(ROOT, PREPROCESSOR)} is missing: run node scripts/build-package.mjs, then cargo build -p mdbook-tgsi`);
}

/**
 * Runs `mdbook build` in `dir` with target/debug first on PATH (book.toml names the preprocessor
 * `mdbook-tgsi`, found there). Resolves to its exit status and its output (stdout and stderr).
 * @param {string} dir
 * @returns {Promise<{ status: number, output: string }>}
 */
export function mdbookBuild(dir) {
  const env = { ...process.env, PATH: `${path.dirname(PREPROCESSOR)}${path.delimiter}${process.env.PATH ?? ''}` };
  return new Promise((resolve) => {
    execFile(MDBOOK, ['build'], { cwd: dir, env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const status = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ status, output: `${stdout}${stderr}` });
    });
  });
}

/**
 * Copies the sample book into a new scratch folder (with `bad`, the failing chapter and its
 * shader over its src/) and builds it. Resolves to the scratch folder, the book's folder in it
 * (`book.toml`, `src/`, and `book/`: the HTML) and the build's status and output.
 * @param {{ bad?: boolean }} [options]
 */
export async function buildSampleBook({ bad = false } = {}) {
  requireTools();
  const scratch = await mkdtemp(path.join(os.tmpdir(), bad ? 'tgsi-mdbook-bad-' : 'tgsi-mdbook-'));
  const dir = path.join(scratch, 'book');
  // Without what a build in place would have left there (its output and the widget's files).
  const leftovers = [path.join(SAMPLE_BOOK, 'book'), path.join(SAMPLE_BOOK, 'src', 'tgsi-shader')];
  await cp(SAMPLE_BOOK, dir, { recursive: true, filter: (from) => !leftovers.includes(from) });
  if (bad) await cp(BAD_SOURCES, path.join(dir, 'src'), { recursive: true });
  const { status, output } = await mdbookBuild(dir);
  return { scratch, dir, html: path.join(dir, 'book'), status, output };
}
