// @ts-check
// The programs shown to people, by name: the one copy of each is a file of programs/ (a name is
// its path there without `.tgsi`: `examples/cube.vs`, `lessons/loops.solution`), which the web
// build turns into programs.gen.js (scripts/build-programs.mjs). The gallery, the lessons, the
// stage starters, widget.html and the tests read them here.

import { PROGRAMS } from './programs.gen.js';

/** @type {Readonly<Record<string, string>>} */
const BY_NAME = PROGRAMS;

/** Every program name (the web's sets: not programs/reference, which the crate reads). */
export const PROGRAM_NAMES = Object.keys(BY_NAME);

/**
 * The text of the program `name`; throws when there is none, so a wrong name fails where the
 * module that names it is loaded.
 * @param {string} name
 * @returns {string}
 */
export function program(name) {
  if (!Object.hasOwn(BY_NAME, name)) throw new Error(`no program named ${JSON.stringify(name)} in programs/`);
  return BY_NAME[name];
}
