// @ts-check
// scripts/lint-paths.mjs on small git repositories made here: it passes a clean one, and fails
// (exit 1, `file:line`) on each kind of path that leaves the repository.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const LINT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../scripts/lint-paths.mjs');

/**
 * A git repository holding `files` (path → text), tracked; removed after `body`.
 * @param {Record<string, string>} files
 * @param {(dir: string) => void} body
 */
function withRepo(files, body) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lint-paths-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    }
    execFileSync('git', ['init', '-q', dir]);
    execFileSync('git', ['-C', dir, 'add', '.']);
    body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs the lint on `dir`: its exit status and output.
 * @param {string} dir
 */
function run(dir) {
  const r = spawnSync(process.execPath, [LINT, dir], { encoding: 'utf8' });
  return { status: r.status, out: r.stdout + r.stderr };
}

/** Paths that stay inside: file-relative Rust modules, in-crate data, links between folders. */
const CLEAN = {
  'README.md': 'See [the docs](docs/a.md) and `tests/corpus/softpipe/01_arith.tgsi`.\n',
  'docs/a.md': 'Back to [the README](../README.md); the page links `../reference/#MOV`.\n',
  '.gitignore': '/reference/index.html\n',
  'crate/Cargo.toml': '[package]\nname = "x"\n',
  'crate/tests/native/a.rs':
    '#[path = "../common/inputs.rs"]\nmod inputs;\n' +
    'const C: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/corpus");\n',
  'scripts/a.sh': 'source "$(dirname "$0")/../scripts/common.sh"\nCORPUS="$ROOT/tests/corpus"\n',
  'web/b/c.js': "import { x } from '../d.js';\n",
  'CHANGELOG.md': 'Tests read ' + '..' + '/elsewhere/corpus (history may say so).\n',
};

test('a repository whose paths stay inside passes', () => {
  withRepo(CLEAN, (dir) => {
    const r = run(dir);
    assert.equal(r.status, 0, r.out);
    assert.match(r.out, /no path leaves the repository/);
  });
});

test('each kind of path that leaves the repository fails, with file:line', () => {
  // Written with ^ for "..", and the absolute folder put together, so that this file itself
  // passes the lint it tests.
  /** @type {Record<string, string>} */
  const offending = {
    'docs/b.md': 'Intro.\nThe corpus is in `^/elsewhere/corpus/softpipe/`.\n',
    'crate/tests/native/b.rs': 'const C: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/^/^/elsewhere/corpus");\n',
    'crate/tests/native/c.rs': 'fn f() {}\nconst D: &str = include_str!("^/^/^/^/notes.md");\n',
    'scripts/b.sh': '#!/bin/sh\nCORPUS="${TGSI_CORPUS:-$ROOT/^/elsewhere/corpus}"\n',
    'scripts/c.mjs': "const c = path.join(ROOT, '^', 'elsewhere');\n",
    'tests/d.py': `import sys\nsys.path.insert(0, "/${'work'}/oracle-build")\n`,
  };
  const bad = { ...CLEAN };
  for (const [name, text] of Object.entries(offending)) bad[name] = text.replaceAll('^', '..');
  withRepo(bad, (dir) => {
    const r = run(dir);
    assert.equal(r.status, 1, r.out);
    for (const where of [
      'docs/b.md:2:',
      'crate/tests/native/b.rs:1:',
      'crate/tests/native/c.rs:2:',
      'scripts/b.sh:2:',
      'scripts/c.mjs:1:',
      'tests/d.py:2:',
    ]) {
      assert.ok(r.out.includes(where), `${where} reported:\n${r.out}`);
    }
    for (const clean of ['README.md', 'docs/a.md', 'crate/tests/native/a.rs', 'scripts/a.sh', 'web/b/c.js', 'CHANGELOG.md']) {
      assert.ok(!r.out.includes(`${clean}:`), `${clean} not reported:\n${r.out}`);
    }
  });
});

test('an absolute path fails when it names something beside the repository, not any path in its parent', () => {
  // The repository and a sibling folder in a parent made here (as a clone in /tmp has /tmp as
  // its parent, where scratch paths such as mktemp's are fine).
  const parent = mkdtempSync(path.join(os.tmpdir(), 'lint-paths-parent-'));
  try {
    const dir = path.join(parent, 'repo');
    mkdirSync(path.join(parent, 'elsewhere'));
    mkdirSync(path.join(dir, 'scripts'), { recursive: true });
    writeFileSync(path.join(dir, 'scripts/a.sh'), `#!/bin/sh\ncat "${parent}/elsewhere/notes.md"\n`);
    writeFileSync(path.join(dir, 'scripts/b.sh'), `#!/bin/sh\nmktemp -d "${parent}/scratch.XXXXXX"\n`);
    execFileSync('git', ['init', '-q', dir]);
    execFileSync('git', ['-C', dir, 'add', '.']);
    const r = run(dir);
    assert.equal(r.status, 1, r.out);
    assert.ok(r.out.includes(`scripts/a.sh:2: absolute path to ${parent}/elsewhere, beside the repository`), r.out);
    assert.ok(!r.out.includes('scripts/b.sh:'), r.out);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});
