// @ts-check
// The examples gallery: small shaders that each show one thing TGSI can do. Fragment-only
// examples are drawn on the fullscreen triangle, where every GENERIC input carries the
// picture's uv (0,0 at the bottom-left corner, 1,1 at the top-right). The built-in uniforms
// live in CONST[15]: [0] = (width, height, 1/width, 1/height), [1] = (time, delta, frame, 0),
// [2] = (mouse x, mouse y, button down, 0).
//
// The programs and the list are files of programs/examples/ (examples.json: ids, titles, notes,
// meshes, textures, constants, expected codes, compute inputs, and the programs by name); this
// module puts the programs' texts in place of their names.

import { GALLERY } from './programs.gen.js';
import { program } from './programs.js';

/**
 * An example as examples.json lists it. `constants` maps `buffer:index` to four floats;
 * `textures` maps a unit to a built-in texture name (see textures.js) and its sampler settings;
 * `fs`, `vs`, `gs` and `cs` name programs.
 * @typedef {{
 *   id: string, title: string, note: string,
 *   fs: string, vs?: string, gs?: string, cs?: string,
 *   mesh?: string, stage?: 'geometry' | 'compute', needs?: 'texture', expectCodes?: string[],
 *   constants?: Record<string, number[]>,
 *   textures?: Record<string, Record<string, string>>,
 *   compute?: { grid: number[], block: number[] | null, shared: number, resources: Record<string, string | number>[] },
 * }} GalleryEntry
 */

/** The gallery: each example with its programs' texts. */
export const EXAMPLES = GALLERY.map((entry) => {
  const example = { ...entry };
  for (const stage of /** @type {const} */ (['fs', 'vs', 'gs', 'cs'])) {
    if (entry[stage] !== undefined) example[stage] = program(entry[stage]);
  }
  return example;
});

export const DEFAULT_EXAMPLE = 'rainbow';
