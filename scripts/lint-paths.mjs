// @ts-check
// Fails when a tracked file names a path outside the repository: the repository stands alone, so
// nothing in it may read (or tell a reader to look at) a folder beside it.
//
//   node scripts/lint-paths.mjs [ROOT]
//
// ROOT (default: this repository) must be a git work tree; its tracked files (`git ls-files`) are
// read, except CHANGELOG.md (history), package-lock.json and binary files. Reported, as
// `file:line: reason`, with exit status 1:
//   * an absolute path under the machine's work folder (`WORK`), or to a folder or file beside
//     ROOT (an entry of its parent folder: a clone in /tmp may still name /tmp/scratch files);
//   * a relative path (`../x`, `a/../../x`) that resolves outside ROOT. It is resolved from
//     - the crate's folder (the nearest folder above with a Cargo.toml) when the line uses
//       CARGO_MANIFEST_DIR, and for other Rust strings (cargo runs tests there), or from the
//       file's own folder on a Rust `#[path]`, `include_str!` or `include_bytes!` line;
//     - ROOT when it follows $ROOT / ${ROOT} / ROOT (any spelling of a root or repo variable);
//     - the file's folder in JavaScript, HTML, CSS, JSON and TOML (imports, links, path
//       dependencies) and in a Markdown link `](...)`;
//     - ROOT in the rest of a Markdown file (commands and paths in text run from ROOT), unless
//       from the file's folder it names something under a top-level entry of the repository
//       (tracked, or listed in .gitignore: built output such as reference/);
//     - both in any other file (shell, Python, text): it must stay inside from both;
//   * a root variable joined with a `..` argument (path.join of ROOT and `..`, and the like).
// A line that says `lint-paths: allow` is skipped (for text about such paths, as in this file).
// URLs are skipped.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The machine's work folder, where the repository's siblings live. */
const WORK = ['', 'work', ''].join('/');
/** Files never read: history, generated lock files. */
const SKIPPED = new Set(['CHANGELOG.md', 'package-lock.json']);

/** A path-like token containing `../`, with what comes before it on the same token. */
const RELATIVE = /[^\s'"`()<>[\]{},;=|]*\.\.\/[^\s'"`()<>[\]{},;|]*/g;
/** Files whose relative paths are relative to their own folder. */
const FILE_RELATIVE = /\.(?:m?js|ts|html|css|json|toml)$/;
/** A root or repository variable spelled in a shell, JS or Python way. */
const ROOT_VAR = /(?:^|[^A-Za-z0-9_])\$?\{?[A-Za-z_]*(?:ROOT|REPO|root|repo|Root|Repo)[A-Za-z_]*\}?\/(.*)$/;
/** Some other variable or command substitution before the path: `$HERE/`, `${DIR}/`, `$(dirname "$0")/`. */
const OTHER_VAR = /(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\))\/(.*)$/;
/** A root variable joined with `..`: climbing out of the root one argument at a time. */
const ROOT_JOIN = /(?:ROOT|REPO|root|repo)\w*\s*,\s*['"]\.\.['"]/;

/**
 * One finding.
 * @typedef {{ file: string, line: number, reason: string }} Finding
 */

/**
 * True when `target` is `root` or inside it.
 * @param {string} root
 * @param {string} target
 */
function inside(root, target) {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The nearest folder at or above `dir` (inside `root`) holding a Cargo.toml, or `root`.
 * @param {string} root
 * @param {string} dir
 */
function crateDir(root, dir) {
  for (let d = dir; inside(root, d); d = path.dirname(d)) {
    if (existsSync(path.join(d, 'Cargo.toml'))) return d;
    if (d === root) break;
  }
  return root;
}

/** @type {Map<string, string[]>} */
const siblings = new Map();

/**
 * The entries beside `root` in its parent folder (none when the parent is `/`), read once.
 * @param {string} root
 */
function siblingsOf(root) {
  let names = siblings.get(root);
  if (!names) {
    const parent = path.dirname(root);
    try {
      names = parent === '/' ? [] : readdirSync(parent).filter((n) => n !== path.basename(root));
    } catch {
      names = [];
    }
    siblings.set(root, names);
  }
  return names;
}

/**
 * The findings of one line of a file.
 * @param {string} root absolute path of the repository
 * @param {string} file path of the file relative to `root`
 * @param {string} text the line
 * @param {Set<string>} topLevel the repository's top-level names (tracked or ignored)
 * @returns {string[]} reasons
 */
export function lineFindings(root, file, text, topLevel) {
  /** @type {string[]} */
  const out = [];
  const parent = path.dirname(root);
  const folder = path.dirname(path.join(root, file));
  const rust = file.endsWith('.rs');
  const manifest = text.includes('CARGO_MANIFEST_DIR');
  const fileRelative = rust && /#\[path|include_str!|include_bytes!/.test(text) && !manifest;

  if (text.includes('lint-paths: allow')) return out;
  if (text.includes(WORK)) out.push(`absolute path under ${WORK}`);
  else {
    const beside = siblingsOf(root).find((name) => text.includes(`${parent}/${name}`));
    if (beside !== undefined) out.push(`absolute path to ${parent}/${beside}, beside the repository`);
  }
  if (ROOT_JOIN.test(text)) out.push("joins '..' onto the repository root");

  for (const match of text.matchAll(RELATIVE)) {
    let token = match[0];
    if (token.includes('://')) continue; // a URL
    /** @type {string[]} */
    let bases;
    const anchored = ROOT_VAR.exec(token);
    if (anchored) {
      bases = [root];
      token = anchored[1];
    } else if (rust) {
      bases = [fileRelative ? folder : crateDir(root, folder)];
      token = token.replace(/^\/+/, '');
    } else if (token.startsWith('/')) {
      continue; // an absolute path (or one after a variable we cannot know): handled above
    } else if (OTHER_VAR.test(token)) {
      bases = [folder]; // some other variable: most often the script's own folder
      token = /** @type {RegExpExecArray} */ (OTHER_VAR.exec(token))[1];
    } else if (FILE_RELATIVE.test(file)) {
      bases = [folder];
    } else if (file.endsWith('.md')) {
      const link = text.slice(0, match.index).endsWith('](');
      const named = path.resolve(folder, token.replace(/[#?].*$/, ''));
      const top = path.relative(root, named).split(path.sep)[0];
      bases = [link || (inside(root, named) && topLevel.has(top)) ? folder : root];
    } else {
      bases = [folder, root];
    }
    for (const base of bases) {
      const target = path.resolve(base, token);
      if (!inside(root, target)) {
        const from = base === root ? 'the repository root' : path.relative(root, base) || '.';
        out.push(`${match[0]} leaves the repository (from ${from})`);
        break;
      }
    }
  }
  return out;
}

/**
 * True when the bytes look binary (a NUL in the first 8000 bytes, as git decides).
 * @param {Buffer} bytes
 */
function binary(bytes) {
  return bytes.subarray(0, 8000).includes(0);
}

/**
 * Every finding in the tracked files of `root`.
 * @param {string} root
 * @returns {Finding[]}
 */
export function lint(root) {
  const listed = execFileSync('git', ['-C', root, 'ls-files', '-z'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const files = listed.split('\0').filter(Boolean);
  const topLevel = new Set(files.map((f) => f.split('/')[0]));
  try {
    for (const line of readFileSync(path.join(root, '.gitignore'), 'utf8').split('\n')) {
      const name = line.trim().replace(/^\//, '').split('/')[0];
      if (name && !name.startsWith('#') && !name.includes('*')) topLevel.add(name);
    }
  } catch {
    // no .gitignore
  }
  /** @type {Finding[]} */
  const findings = [];
  for (const file of files) {
    if (SKIPPED.has(path.basename(file))) continue;
    let bytes;
    try {
      bytes = readFileSync(path.join(root, file));
    } catch {
      continue; // listed but deleted in the work tree
    }
    if (binary(bytes)) continue;
    const lines = bytes.toString('utf8').split('\n');
    lines.forEach((text, i) => {
      for (const reason of lineFindings(root, file, text, topLevel)) findings.push({ file, line: i + 1, reason });
    });
  }
  return findings;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
  const findings = lint(root);
  for (const f of findings) console.log(`${f.file}:${f.line}: ${f.reason}`);
  if (findings.length) {
    console.log(`lint-paths: ${findings.length} path(s) leave the repository; the repository must stand alone`);
    process.exit(1);
  }
  console.log('lint-paths: no path leaves the repository');
}
