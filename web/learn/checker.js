// @ts-check
// The one checker of every lesson's goal (web/learn/lessons.js): it asks the engine whether the
// learner's program is correct TGSI, what instructions it has and whether it exports to AGAL,
// renders it with the real renderer, and compares each pixel with the goal's formula. It never
// reads TGSI text itself. The page calls it with the wasm engine; the tests call it the same way.

import { defaultBinding, makeTexture, textureDescription } from '../textures.js';

/**
 * @typedef {import('./lessons.js').Lesson} Lesson
 * @typedef {import('./lessons.js').Rgba} Rgba
 * @typedef {{describe: (t: string) => any, validate: (t: string) => any[],
 *   renderPage: (fs: string, vs: string | null, options: any) => any,
 *   agalExport: (t: string, version: number) => any}} Engine
 * @typedef {{x: number, y: number, got: Rgba, want: Rgba}} Mismatch
 * @typedef {{ok: boolean, reason: string, message: string,
 *   picture?: {width: number, height: number, pixels: Uint8Array}, mismatches?: number,
 *   first?: Mismatch, verdicts?: Uint8Array}} Verdict
 */

/** How far (in 0..1) a channel may be from the goal: 8-bit rounding plus a little. */
export const TOLERANCE = 1.5 / 255;

/**
 * The instruction budget of a lesson's frame, in quad-instructions (the engine counts each
 * instruction once per 2x2 quad it runs on; a 16x16 check has 64 quads, and the lessons'
 * solutions need at most a few hundred instructions per quad). The page renders on its main
 * thread, so an endless loop must end soon: at this budget in about a fifth of a second,
 * reported as X005.
 */
export const CHECK_BUDGET = 1 << 25;

/**
 * The vertex and fragment shader a lesson renders with the learner's text in its stage.
 * @param {Lesson} lesson
 * @param {string} text
 * @returns {{fs: string, vs: string | null}}
 */
export function shadersOf(lesson, text) {
  return lesson.stage === 'vs' ? { fs: lesson.fs ?? '', vs: text } : { fs: text, vs: null };
}

/**
 * The render options of a lesson's check: its size, mesh and textures.
 * @param {Lesson} lesson
 */
export function renderOptions(lesson) {
  /** @type {Record<string, any>} */
  const options = { width: lesson.check.size, height: lesson.check.size, budget: CHECK_BUDGET };
  if (lesson.mesh) options.mesh = lesson.mesh;
  if (lesson.textures) {
    options.textures = Object.entries(lesson.textures).map(([unit, binding]) => ({
      unit: Number(unit),
      description: textureDescription(makeTexture(binding.name), { ...defaultBinding(), ...binding }),
    }));
  }
  return options;
}

/**
 * The goal's colour at pixel (x, y) (y from the top) of a size×size picture, or null.
 * @param {Lesson} lesson
 * @param {number} x
 * @param {number} y
 * @returns {Rgba | null}
 */
export function goalAt(lesson, x, y) {
  const n = lesson.check.size;
  return lesson.check.expect((x + 0.5) / n, (n - y - 0.5) / n, x, y);
}

/**
 * Compares a picture with the goal. `pixel(x, y)` gives the picture's colour in 0..1.
 * @param {Lesson} lesson
 * @param {(x: number, y: number) => Rgba} pixel
 * `verdicts` holds one byte per pixel (top row first): 0 not compared, 1 as the goal, 2 different.
 * @returns {{mismatches: number, compared: number, first: Mismatch | null, verdicts: Uint8Array}}
 */
export function comparePicture(lesson, pixel) {
  const n = lesson.check.size;
  let mismatches = 0;
  let compared = 0;
  /** @type {Mismatch | null} */
  let first = null;
  const verdicts = new Uint8Array(n * n);
  for (let y = 0; y < n; y += 1) {
    for (let x = 0; x < n; x += 1) {
      const want = goalAt(lesson, x, y);
      if (want === null) continue;
      compared += 1;
      const got = pixel(x, y);
      const differs = want.some((w, c) => !(Math.abs(w - got[c]) <= TOLERANCE));
      verdicts[y * n + x] = differs ? 2 : 1;
      if (differs) {
        mismatches += 1;
        first ??= { x, y, got, want };
      }
    }
  }
  return { mismatches, compared, first, verdicts };
}

const show = (/** @type {Rgba} */ c) => `(${c.map((v) => (Math.round(v * 1000) / 1000).toString()).join(', ')})`;

/**
 * The first error among diagnostics, as "line L, column C: CODE message", or null.
 * @param {any[]} diagnostics
 */
function firstError(diagnostics) {
  const e = (diagnostics ?? []).find((d) => d.severity === 'error');
  if (!e) return null;
  const where = e.line ? `line ${e.line}, column ${e.column}: ` : '';
  return `${where}${e.code} ${e.message}`;
}

/**
 * Counts the instructions of a program by opcode (from the engine's `describe`), END left out.
 * @param {Engine} engine
 * @param {string} text
 * @returns {{total: number, byOpcode: Record<string, number>} | null}
 */
export function instructionCounts(engine, text) {
  const summary = engine.describe(text);
  if (!summary) return null;
  /** @type {Record<string, number>} */
  const byOpcode = {};
  let total = 0;
  for (const ins of summary.instructions ?? []) {
    if (ins.opcode === 'END') continue;
    byOpcode[ins.opcode] = (byOpcode[ins.opcode] ?? 0) + 1;
    total += 1;
  }
  return { total, byOpcode };
}

/**
 * Checks a learner's program against a lesson's goal. Never throws for a bad program: the
 * verdict says what is wrong (`reason`: invalid, too-long, missing-opcode, agal, render, pixels,
 * or passed).
 * @param {Engine} engine
 * @param {Lesson} lesson
 * @param {string} text
 * @returns {Verdict}
 */
export function checkProgram(engine, lesson, text) {
  const goal = lesson.check;
  const fail = (/** @type {string} */ reason, /** @type {string} */ message, extra = {}) => ({ ok: false, reason, message, ...extra });

  const invalid = firstError(engine.validate(text));
  if (invalid) return fail('invalid', `The program has an error at ${invalid}.`);

  const counts = instructionCounts(engine, text);
  if (!counts) return fail('invalid', 'The program could not be read.');
  if (goal.maxInstructions !== undefined && counts.total > goal.maxInstructions) {
    return fail('too-long', `The goal allows at most ${goal.maxInstructions} instructions (END not counted); the program has ${counts.total}.`);
  }
  for (const [opcode, min] of Object.entries(goal.minOpcodes ?? {})) {
    const have = counts.byOpcode[opcode] ?? 0;
    if (have < min) {
      return fail('missing-opcode', `The goal asks for ${min === 1 ? 'a' : `${min} ×`} ${opcode}; the program has ${have}.`);
    }
  }
  if (goal.agalVersion !== undefined) {
    const exported = engine.agalExport(text, goal.agalVersion);
    if (!exported?.ok) {
      return fail('agal', `The program does not export to AGAL ${goal.agalVersion}: ${firstError(exported?.diagnostics) ?? 'the exporter refused it'}.`);
    }
  }

  const { fs, vs } = shadersOf(lesson, text);
  const frame = engine.renderPage(fs, vs, renderOptions(lesson));
  if (!frame?.ok) return fail('render', `The program did not render: ${firstError(frame?.diagnostics) ?? frame?.error ?? 'unknown error'}.`);
  const { width, pixels } = frame;
  const picture = { width, height: frame.height, pixels };
  const { mismatches, compared, first, verdicts } = comparePicture(lesson, (x, y) => {
    const i = (y * width + x) * 4;
    return [pixels[i] / 255, pixels[i + 1] / 255, pixels[i + 2] / 255, pixels[i + 3] / 255];
  });
  if (first) {
    return fail('pixels', `${mismatches} of ${compared} pixels differ from the goal. At column ${first.x}, row ${first.y} (from the top) the picture has ${show(first.got)}, the goal ${show(first.want)}.`,
      { picture, mismatches, first, verdicts });
  }
  return { ok: true, reason: 'passed', message: lesson.success, picture, mismatches: 0 };
}
