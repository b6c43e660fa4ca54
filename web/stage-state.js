// @ts-check
// The stage fields of the playground state (what a share link keeps for the stage selector):
// which stage runs (the fragment pipeline, a compute dispatch, or the pipeline with a geometry
// shader), the geometry and compute shader texts, and the compute dispatch's set-up. A link is
// input from anyone: every field is type-checked and bounded here, as state.js does for the rest.

/** @typedef {'pipeline' | 'compute' | 'geometry'} Stage */
/**
 * One resource of a compute dispatch: `BUFFER[index]`, `HWATOMIC[index]` (kind `atomic`) or
 * `IMAGE[index]`; `words` is its initial contents as text (numbers, `0x` hex, floats), `size`
 * its length in 32-bit words (the words given fill it from the start); images have a format and
 * a width and height instead of a size.
 * @typedef {{kind: 'buffer' | 'atomic' | 'image', index: number, words: string, size: number,
 *   format?: string, width?: number, height?: number}} ComputeResource
 */
/**
 * @typedef {{grid: number[], block: number[] | null, shared: number, resources: ComputeResource[]}} ComputeSetup
 * @typedef {{stage: Stage, gs: string, cs: string, compute: ComputeSetup}} StageState
 */

export const STAGES = /** @type {const} */ (['pipeline', 'compute', 'geometry']);
/** Bounds of what a link may ask for (the engine checks its own limits again). */
export const MAX_RESOURCES = 16;
export const MAX_WORDS_TEXT = 64 * 1024;
export const MAX_BUFFER_WORDS = 1 << 16;
export const MAX_IMAGE_SIDE = 256;
export const MAX_GRID = 1024;
export const MAX_BLOCK = 1024;
export const MAX_SHARED_BYTES = 1 << 20;
export const IMAGE_FORMATS = ['R32_UINT', 'R32_SINT', 'R32_FLOAT', 'R32G32B32A32_UINT', 'R32G32B32A32_SINT',
  'R32G32B32A32_FLOAT', 'R8G8B8A8_UNORM', 'R16G16B16A16_FLOAT'];

/** @returns {ComputeSetup} */
export function defaultCompute() {
  return { grid: [1, 1, 1], block: null, shared: 0, resources: [] };
}

/** @returns {StageState} */
export function defaultStages() {
  return { stage: 'pipeline', gs: '', cs: '', compute: defaultCompute() };
}

/**
 * An integer in [min, max], else null.
 * @param {any} v @param {number} min @param {number} max
 */
function int(v, min, max) {
  return Number.isInteger(v) && v >= min && v <= max ? v : null;
}

/**
 * Three sizes in [1, max], else null.
 * @param {any} v @param {number} max
 */
function triple(v, max) {
  if (!Array.isArray(v) || v.length !== 3) return null;
  const out = v.map((x) => int(x, 1, max));
  return out.every((x) => x !== null) ? /** @type {number[]} */ (out) : null;
}

/**
 * A resource from a link: known kinds, bounded numbers and text, else null.
 * @param {any} r
 * @returns {ComputeResource | null}
 */
function resource(r) {
  if (!r || typeof r !== 'object' || Array.isArray(r)) return null;
  if (!['buffer', 'atomic', 'image'].includes(r.kind)) return null;
  const index = int(r.index, 0, 31);
  if (index === null) return null;
  const words = typeof r.words === 'string' && r.words.length <= MAX_WORDS_TEXT ? r.words : '';
  /** @type {ComputeResource} */
  const out = { kind: r.kind, index, words, size: int(r.size, 0, MAX_BUFFER_WORDS) ?? 0 };
  if (r.kind === 'image') {
    out.format = IMAGE_FORMATS.includes(r.format) ? r.format : 'R32_UINT';
    out.width = int(r.width, 1, MAX_IMAGE_SIDE) ?? 1;
    out.height = int(r.height, 1, MAX_IMAGE_SIDE) ?? 1;
  }
  return out;
}

/**
 * The stage fields of `data`, checked; missing or malformed ones take their defaults.
 * @param {any} data
 * @returns {StageState}
 */
export function normalizeStages(data) {
  const out = defaultStages();
  if (!data || typeof data !== 'object') return out;
  if (STAGES.includes(data.stage)) out.stage = data.stage;
  if (typeof data.gs === 'string') out.gs = data.gs;
  if (typeof data.cs === 'string') out.cs = data.cs;
  const c = data.compute;
  if (c && typeof c === 'object' && !Array.isArray(c)) {
    out.compute.grid = triple(c.grid, MAX_GRID) ?? [1, 1, 1];
    out.compute.block = triple(c.block, MAX_BLOCK);
    out.compute.shared = int(c.shared, 0, MAX_SHARED_BYTES) ?? 0;
    if (Array.isArray(c.resources)) {
      out.compute.resources = c.resources.slice(0, MAX_RESOURCES).map(resource).filter((r) => r !== null);
    }
  }
  return out;
}

/**
 * The 32-bit words of a resource's text: decimal integers (negative ones as two's complement),
 * `0x` hex, and numbers with a point or an exponent as float32 bits. Returns the words, or the
 * first token that is none of these.
 * @param {string} text
 * @returns {{words: number[], error: string | null}}
 */
export function parseWords(text) {
  const words = [];
  const f32 = new Float32Array(1);
  const u32 = new Uint32Array(f32.buffer);
  for (const token of text.split(/[\s,;]+/).filter(Boolean)) {
    if (/^0x[0-9a-f]{1,8}$/i.test(token)) {
      words.push(Number.parseInt(token.slice(2), 16) >>> 0);
    } else if (/^-?\d{1,10}$/.test(token) && Number(token) >= -(2 ** 31) && Number(token) < 2 ** 32) {
      words.push(Number(token) >>> 0);
    } else if (/^[-+]?(\d+\.\d*|\.\d+|\d+(\.\d*)?e[-+]?\d+|inf|nan)$/i.test(token)) {
      f32[0] = /inf/i.test(token) ? (token.startsWith('-') ? -Infinity : Infinity) : /nan/i.test(token) ? NaN : Number(token);
      words.push(u32[0]);
    } else {
      return { words, error: `'${token.slice(0, 20)}' is not a number` };
    }
    if (words.length > MAX_BUFFER_WORDS) return { words, error: `more than ${MAX_BUFFER_WORDS} words` };
  }
  return { words, error: null };
}

/**
 * A resource's initial bytes: its words, zero-filled to its size (images: to width × height
 * texels of its format).
 * @param {ComputeResource} r
 * @param {number} bytesPerTexel
 */
export function resourceBytes(r, bytesPerTexel = 4) {
  const { words, error } = parseWords(r.words);
  const size = r.kind === 'image'
    ? (r.width ?? 1) * (r.height ?? 1) * bytesPerTexel / 4
    : Math.max(r.size, words.length);
  const out = new Uint32Array(size);
  out.set(words.slice(0, size));
  return { bytes: new Uint8Array(out.buffer), error };
}

/** Bytes per texel of an image format (as the engine stores it). */
export function texelBytes(/** @type {string} */ format) {
  if (format.startsWith('R32G32B32A32')) return 16;
  if (format === 'R16G16B16A16_FLOAT') return 8;
  return 4;
}
