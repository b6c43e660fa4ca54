// sphinx-tgsi without a browser: what a documentation build reports. A shader that does not
// validate fails the build (exit status 1) at its .rst file and line, so do a bad constant and a
// vertex shader that does not link; a parallel build fails the same way; non-HTML builders print
// the source; the Pygments lexer is found by its alias through Pygments' plugin entry point.
// Sphinx is the pinned one `scripts/setup.sh --only sphinx` installs in target/docs-venv/.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const VENV_BIN = path.join(ROOT, 'target/docs-venv/bin');
const BAD = path.join(ROOT, 'tests/docs-tools/sphinx-bad');

let scratch;

/**
 * Runs a command; resolves to its exit status and its output (stdout and stderr together).
 * @param {string} cmd
 * @param {string[]} args
 * @returns {Promise<{status: number, output: string}>}
 */
function run(cmd, args, input = '') {
  return new Promise((resolve) => {
    const child = execFile(cmd, args, { cwd: ROOT, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      resolve({ status: err ? Number(err.code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
    child.stdin?.end(input);
  });
}

const sphinx = (/** @type {string[]} */ args) => run(path.join(VENV_BIN, 'sphinx-build'), ['-E', '-q', ...args]);

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'tgsi-sphinx-node-'));
});

after(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

test('a shader that does not validate fails the build at its file and line', async () => {
  const r = await sphinx(['-b', 'html', BAD, path.join(scratch, 'bad')]);
  assert.equal(r.status, 1, r.output);
  // index.rst: the directive at line 4, options at 5-6, a blank line, the shader from line 8
  // ("FRAG"); its line 3, "0: MOV OUT[0], TEMP[9]", is the file's line 10, column 18 of the
  // shader's line.
  assert.match(r.output, /sphinx-bad\/index\.rst:10: ERROR: TGSI shader \[V005\]: 3:18: source register TEMP\[9\] is not declared/);
  assert.match(r.output, /1 TGSI error\(s\) in index: the build fails/);
});

test('a parallel build checks in every reader and fails the same way', async () => {
  // Nine documents (Sphinx reads in parallel from six), each with a good shader; the last one
  // has a second, bad one: title 1-2, blank 3, the first directive 4 with its shader 6-8, blank
  // 9, the second directive 10, blank 11, its shader from 12, so its line 3 is the file's 14.
  const dir = path.join(scratch, 'parallel');
  await cp(BAD, dir, { recursive: true });
  const good = '.. tgsi-shader::\n\n   FRAG\n   DCL OUT[0], COLOR\n     0: END\n';
  const names = Array.from({ length: 9 }, (_, i) => `doc${i}`);
  await writeFile(path.join(dir, 'index.rst'), `Parallel\n========\n\n.. toctree::\n\n${names.map((n) => `   ${n}`).join('\n')}\n`);
  for (const [i, n] of names.entries()) {
    const bad = i === names.length - 1
      ? '\n.. tgsi-shader::\n\n   FRAG\n   DCL OUT[0], COLOR\n     0: MOV OUT[0], TEMP[9]\n     1: END\n'
      : '';
    await writeFile(path.join(dir, `${n}.rst`), `${n}\n${'='.repeat(n.length)}\n\n${good}${bad}`);
  }
  const r = await sphinx(['-j', '2', '-b', 'html', dir, path.join(scratch, 'parallel-out')]);
  assert.equal(r.status, 1, r.output);
  assert.match(r.output, /doc8\.rst:14: ERROR: TGSI shader \[V005\]: 3:18: source register TEMP\[9\] is not declared/);
  assert.equal((r.output.match(/ERROR: TGSI/g) ?? []).length, 1, r.output);
  assert.match(r.output, /1 TGSI error\(s\) in doc8: the build fails/);
});

test('a bad constant, a shader file that does not link and an unknown opcode are reported', async () => {
  const dir = path.join(scratch, 'more');
  await cp(BAD, dir, { recursive: true });
  await writeFile(path.join(dir, 'vs.tgsi'), 'VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n  0: MOV OUT[0], IN[0]\n  1: END\n');
  await writeFile(path.join(dir, 'fs.tgsi'), 'FRAG\nDCL IN[0], GENERIC[3], PERSPECTIVE\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n');
  // Line numbers: 1 title, 2 underline, 3 blank, 4 first directive, 9 second, 13 the role.
  await writeFile(path.join(dir, 'index.rst'), [
    'More', '====', '',
    '.. tgsi-shader:: fs.tgsi', '   :vs: vs.tgsi', '   :mesh: quad', '   :width: 16', '',
    '.. tgsi-shader::', '   :constants: 0:0=1,0,zero,1', '', '   FRAG', '   DCL OUT[0], COLOR', '     0: MOV OUT[0], CONST[0][0]', '     1: END', '',
    'See :tgsi-op:`NOPE`.', '',
  ].join('\n'));
  const r = await sphinx(['-b', 'html', dir, path.join(scratch, 'more-out')]);
  assert.equal(r.status, 1, r.output);
  // The link error names the fragment shader's input (fs.tgsi line 2), reported at the directive.
  assert.match(r.output, /index\.rst:4: ERROR: TGSI link \[L001\]: 2:12: fragment input GENERIC\[3\] is not written by the vertex shader/);
  assert.match(r.output, /index\.rst:9: ERROR: TGSI constants \[constant\]: bad constant value 'zero'/);
  // CONST[0][0] used without a declaration: the shader's line 3 is the file's line 14.
  assert.match(r.output, /index\.rst:14: ERROR: TGSI shader \[V005\]/);
  assert.match(r.output, /index\.rst:17: WARNING: :tgsi-op: NOPE is not a TGSI opcode the reference knows/);
});

test('non-HTML builders print the shader source', async () => {
  const dir = path.join(scratch, 'text');
  await cp(BAD, dir, { recursive: true });
  await writeFile(path.join(dir, 'index.rst'), 'Text\n====\n\n.. tgsi-shader::\n   :hide-source:\n\n   FRAG\n   DCL OUT[0], COLOR\n     0: END\n');
  const r = await sphinx(['-b', 'text', dir, path.join(scratch, 'text-out')]);
  assert.equal(r.status, 0, r.output);
  const text = await readFile(path.join(scratch, 'text-out', 'index.txt'), 'utf8');
  assert.match(text, /FRAG\n\s+DCL OUT\[0\], COLOR\n\s+0: END/);
  assert.doesNotMatch(text, /tgsi-shader/);
});

test('Pygments finds the tgsi lexer by its alias and tells the words apart', async () => {
  const r = await run(path.join(VENV_BIN, 'pygmentize'), ['-l', 'tgsi', '-f', 'raw'],
    'FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nIMM[0] FLT32 { 0.5, 0x3f800000, 0.0, 1.0 }\n  0: MAD_SAT OUT[0].xy, IN[0], -IMM[0].xxxx, |IN[0]| ; c\n');
  assert.equal(r.status, 0, r.output);
  const tokens = r.output.trim().split('\n').map((l) => l.split('\t')).filter(([t]) => !/Whitespace|Token\.Text$/.test(t));
  /** @param {string} value */
  const kind = (value) => tokens.find(([, v]) => v === `'${value}'`)?.[0];
  // From the engine's vocabulary: processor and DCL/IMM keywords, an opcode (its _SAT form too),
  // register files, a semantic, an interpolation and an immediate type as modifiers.
  assert.equal(kind('FRAG'), 'Token.Keyword');
  assert.equal(kind('DCL'), 'Token.Keyword');
  assert.equal(kind('MAD_SAT'), 'Token.Name.Function');
  assert.equal(kind('IN'), 'Token.Keyword.Type');
  assert.equal(kind('GENERIC'), 'Token.Name.Constant');
  assert.equal(kind('PERSPECTIVE'), 'Token.Keyword.Pseudo');
  assert.equal(kind('FLT32'), 'Token.Keyword.Pseudo');
  assert.equal(kind('0x3f800000'), 'Token.Literal.Number.Hex');
  assert.equal(kind('0.5'), 'Token.Literal.Number.Float');
  assert.equal(kind('0:'), 'Token.Name.Label');
  assert.equal(kind('.xy'), 'Token.Name.Attribute');
  assert.equal(kind('; c'), 'Token.Comment.Single');
});
