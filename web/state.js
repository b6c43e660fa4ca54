// @ts-check
// The playground state (shaders, mesh, size, constants, texture choices) as a share link and
// as an autosave. Link format: `#s=<version>.<base64url of deflate-raw JSON>`; the version
// lets old links keep working when the state grows (missing fields take their defaults).

import { defaultStages, normalizeStages } from './stage-state.js';
import { WRAPS } from './textures.js';

export const STATE_VERSION = 1;
const STORAGE_KEY = 'tgsi-playground/state';

/**
 * A user image as a link carries it: the picture (a PNG, WebP or JPEG data URL of at most
 * MAX_LINK_IMAGE_BYTES; `lossy` when it is not the exact texels) or, for one too big, the
 * marker `omitted` saying what was left out.
 * @typedef {{data: string, lossy?: boolean} | {omitted: {bytes: number, width: number, height: number}}} LinkImage
 */

/**
 * The shared state: shaders, settings, constants (`constants` for every stage, `vsConstants` /
 * `fsConstants` / `gsConstants` for one stage, set after the shared ones), custom vertices (the JSON text, used
 * when `mesh` is `custom`), texture choices and user images (what a link keeps).
 * @typedef {{fs: string, vs: string, useVs: boolean, mesh: string, size: number,
 *   constants: Record<string, number[]>, vsConstants: Record<string, number[]>, fsConstants: Record<string, number[]>,
 *   gsConstants: Record<string, number[]>,
 *   vertices: string, textures: Record<string, any>, images: Record<string, LinkImage>, example: string | null,
 *   engine: Engine}
 *   & import('./stage-state.js').StageState} PlaygroundState
 */

/**
 * Which engine draws the fragment shader: the compiled module when it is ready (`auto`), always
 * the interpreter, or the compiled module asked for by name (docs/playground.md, "Engine").
 * @typedef {'auto' | 'interpreter' | 'compiled'} Engine
 */
export const ENGINES = /** @type {const} */ (['auto', 'interpreter', 'compiled']);

/**
 * Fields every state has; older links lack some and get these.
 * @returns {PlaygroundState}
 */
export function defaultState() {
  return {
    fs: '', vs: '', useVs: false, mesh: 'fullscreen', size: 256, constants: {}, vsConstants: {}, fsConstants: {}, gsConstants: {},
    vertices: '', textures: {}, images: {}, example: null, engine: 'auto', ...defaultStages(),
  };
}

/** Largest decoded state a link or the autosave may hold (the engine's own input limit is smaller). */
export const MAX_STATE_BYTES = 4 * 1024 * 1024;
/** Longest share link fragment read at all. */
export const MAX_LINK_CHARS = 2 * 1024 * 1024;

/**
 * Longest custom vertices text a state keeps: room for the engine's 65 536 vertices at about 48
 * characters each, within the whole state's MAX_STATE_BYTES (the page warns when it is over).
 */
export const MAX_VERTICES_CHARS = 3 * 1024 * 1024;
/** Largest user image a link carries, as compressed image bytes (a bigger one becomes a marker). */
export const MAX_LINK_IMAGE_BYTES = 64 * 1024;
/** User images one state carries (each of them is up to MAX_LINK_IMAGE_BYTES). */
export const MAX_LINK_IMAGES = 8;
const IMAGE_URL = /^data:image\/(png|webp|jpeg);base64,[A-Za-z0-9+/]+={0,2}$/;
const MAX_IMAGE_URL_CHARS = 'data:image/webp;base64,'.length + 4 * Math.ceil(MAX_LINK_IMAGE_BYTES / 3);

const SIZES = [128, 256, 512, 1024];
const TEXTURE_FIELDS = {
  name: /^[a-z][a-z -]{0,31}$/, min: /^(nearest|linear)$/, mag: /^(nearest|linear)$/,
  mip: /^(none|nearest|linear)$/, wrap: new RegExp(`^(${WRAPS.join('|')})$`),
  // The `shadow` sampler word of the widget's `textures` attribute (depth comparison).
  compare: /^LEQUAL$/,
};

/**
 * A constant register's values as a link may carry them: one to four finite numbers.
 * @param {any} v
 */
function constantValues(v) {
  if (!Array.isArray(v) || v.length === 0 || v.length > 4) return null;
  const out = v.map(Number);
  return out.every(Number.isFinite) ? out : null;
}

/**
 * A constants map (`{"buffer:index": [x, y, z, w]}`) from a link: well-formed keys and values
 * only, at most 4096 registers.
 * @param {any} data
 * @returns {Record<string, number[]>}
 */
function constantMap(data) {
  /** @type {Record<string, number[]>} */
  const out = {};
  if (!data || typeof data !== 'object' || Array.isArray(data)) return out;
  for (const [key, v] of Object.entries(data).slice(0, 4096)) {
    const values = constantValues(v);
    if (/^\d{1,2}:\d{1,4}$/.test(key) && values) out[key] = values;
  }
  return out;
}

/**
 * A user image from a link: a data URL of a PNG, WebP or JPEG within the size limit, or the
 * marker of one left out (whole numbers within bounds).
 * @param {any} v
 * @returns {LinkImage | null}
 */
function linkImage(v) {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  if (typeof v.data === 'string') {
    if (v.data.length > MAX_IMAGE_URL_CHARS || !IMAGE_URL.test(v.data)) return null;
    return v.lossy === true ? { data: v.data, lossy: true } : { data: v.data };
  }
  const o = v.omitted;
  if (!o || typeof o !== 'object') return null;
  const whole = (/** @type {any} */ n, /** @type {number} */ max) => (Number.isInteger(n) && n >= 0 && n <= max ? n : null);
  const bytes = whole(o.bytes, 1 << 30);
  const width = whole(o.width, 1 << 16);
  const height = whole(o.height, 1 << 16);
  if (bytes === null || width === null || height === null) return null;
  return { omitted: { bytes, width, height } };
}

/**
 * A texture binding from a link: known fields with known values only.
 * @param {any} b
 */
function textureBinding(b) {
  if (!b || typeof b !== 'object' || Array.isArray(b)) return null;
  /** @type {Record<string, any>} */
  const out = {};
  for (const [key, pattern] of Object.entries(TEXTURE_FIELDS)) {
    if (typeof b[key] === 'string' && pattern.test(b[key])) out[key] = b[key];
  }
  const bias = Number(b.lodBias);
  if (Number.isFinite(bias) && Math.abs(bias) <= 16) out.lodBias = bias;
  return out;
}

/**
 * Fills missing fields and drops unknown or malformed ones, whatever version (or hand) the data
 * came from: a link is input from anyone, so every field is checked for its type and range.
 * @param {any} data
 * @returns {PlaygroundState}
 */
export function normalizeState(data) {
  const out = defaultState();
  if (!data || typeof data !== 'object') return out;
  Object.assign(out, normalizeStages(data));
  if (typeof data.fs === 'string') out.fs = data.fs;
  if (typeof data.vs === 'string') out.vs = data.vs;
  if (typeof data.useVs === 'boolean') out.useVs = data.useVs;
  if (typeof data.mesh === 'string' && /^[a-z]{1,32}$/.test(data.mesh)) out.mesh = data.mesh;
  if (SIZES.includes(data.size)) out.size = data.size;
  if (ENGINES.includes(data.engine)) out.engine = data.engine;
  if (typeof data.example === 'string' && /^[a-z0-9-]{1,64}$/.test(data.example)) out.example = data.example;
  out.constants = constantMap(data.constants);
  out.vsConstants = constantMap(data.vsConstants);
  out.fsConstants = constantMap(data.fsConstants);
  out.gsConstants = constantMap(data.gsConstants);
  if (typeof data.vertices === 'string' && data.vertices.length <= MAX_VERTICES_CHARS) out.vertices = data.vertices;
  if (data.images && typeof data.images === 'object' && !Array.isArray(data.images)) {
    let kept = 0;
    for (const [unit, v] of Object.entries(data.images).slice(0, 32)) {
      const image = linkImage(v);
      if (!/^\d{1,2}$/.test(unit) || Number(unit) > 31 || !image) continue;
      // Past the count limit, pictures are dropped and markers kept (they are small).
      if ('data' in image && kept >= MAX_LINK_IMAGES) continue;
      if ('data' in image) kept += 1;
      out.images[unit] = image;
    }
  }
  if (data.textures && typeof data.textures === 'object' && !Array.isArray(data.textures)) {
    for (const [unit, b] of Object.entries(data.textures).slice(0, 32)) {
      const binding = textureBinding(b);
      if (/^\d{1,2}$/.test(unit) && Number(unit) <= 31 && binding) out.textures[unit] = binding;
    }
  }
  return out;
}

function toBase64Url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/**
 * Runs bytes through a (de)compression stream, stopping with an error once the output passes
 * `limit` bytes: a small link must not be able to inflate into gigabytes.
 * @param {BlobPart} bytes
 * @param {TransformStream} stream
 * @param {number} [limit]
 */
async function pipeThrough(bytes, stream, limit = MAX_STATE_BYTES) {
  const reader = new Blob([bytes]).stream().pipeThrough(stream).getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw new Error(`more than ${limit} bytes`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) { out.set(c, at); at += c.length; }
  return out;
}

/**
 * What a link or the autosave keeps of a state: all of it, but for vertex data over its limit
 * (left out, so the shaders and the rest still fit and come back).
 * @param {PlaygroundState} state
 */
function keptState(state) {
  return typeof state.vertices === 'string' && state.vertices.length > MAX_VERTICES_CHARS ? { ...state, vertices: '' } : { ...state };
}

/** The URL fragment (without `#`) that encodes `state`. */
export async function encodeState(state) {
  const json = new TextEncoder().encode(JSON.stringify(keptState(state)));
  const packed = await pipeThrough(json, new CompressionStream('deflate-raw'));
  return `s=${STATE_VERSION}.${toBase64Url(packed)}`;
}

/** Decodes a URL fragment; `null` when it holds no (readable) state. */
export async function decodeState(fragment) {
  if (typeof fragment !== 'string' || fragment.length > MAX_LINK_CHARS) return null;
  const m = /^#?s=(\d{1,6})\.([A-Za-z0-9_-]+)$/.exec(fragment);
  if (!m) return null;
  const version = Number(m[1]);
  if (version < 1 || version > STATE_VERSION) return null;
  try {
    const json = await pipeThrough(fromBase64Url(m[2]), new DecompressionStream('deflate-raw'));
    return normalizeState(JSON.parse(new TextDecoder().decode(json)));
  } catch {
    return null;
  }
}

/**
 * Keeps the state across reloads: in this tab's session storage (so two tabs never overwrite each
 * other's work) and in local storage (so a new tab starts from the last edit anywhere).
 * Returns whether any storage took it.
 * @param {PlaygroundState} state
 */
export function saveLocal(state) {
  const text = JSON.stringify({ version: STATE_VERSION, state: keptState(state) });
  let saved = false;
  for (const storage of stores()) {
    try {
      storage.setItem(STORAGE_KEY, text);
      saved = true;
    } catch {
      // Storage full or disabled: the caller says so; the share link still works.
    }
  }
  return saved;
}

/** The storage key of the autosave (another tab's save shows up as a `storage` event for it). */
export const SAVE_KEY = STORAGE_KEY;

/** The state this tab saved last, else the last one saved in any tab; null if none. */
export function loadLocal() {
  for (const storage of stores()) {
    try {
      const raw = storage.getItem(STORAGE_KEY);
      if (!raw || raw.length > MAX_STATE_BYTES) continue;
      return normalizeState(JSON.parse(raw)?.state);
    } catch {
      // Disabled storage or damaged data: try the next.
    }
  }
  return null;
}

/** Session storage first, then local storage; either may be missing or refuse access. */
function stores() {
  /** @type {Storage[]} */
  const out = [];
  for (const name of ['sessionStorage', 'localStorage']) {
    try {
      const s = /** @type {any} */ (globalThis)[name];
      if (s) out.push(s);
    } catch {
      // Access denied (storage disabled for this site).
    }
  }
  return out;
}
