// @ts-check
// The playground state (shaders, mesh, size, constants, texture choices) as a share link and
// as an autosave. Link format: `#s=<version>.<base64url of deflate-raw JSON>`; the version
// lets old links keep working when the state grows (missing fields take their defaults).

export const STATE_VERSION = 1;
const STORAGE_KEY = 'tgsi-playground/state';

/**
 * The shared state: shaders, settings, constants and texture choices (what a link keeps).
 * @typedef {{fs: string, vs: string, useVs: boolean, mesh: string, size: number,
 *   constants: Record<string, number[]>, textures: Record<string, any>, example: string | null}} PlaygroundState
 */

/**
 * Fields every state has; older links lack some and get these.
 * @returns {PlaygroundState}
 */
export function defaultState() {
  return { fs: '', vs: '', useVs: false, mesh: 'fullscreen', size: 256, constants: {}, textures: {}, example: null };
}

/**
 * Fills missing fields and drops unknown ones, whatever version the data came from.
 * @param {any} data
 * @returns {PlaygroundState}
 */
export function normalizeState(data) {
  const base = defaultState();
  if (!data || typeof data !== 'object') return base;
  const out = { ...base };
  for (const key of Object.keys(base)) {
    if (data[key] !== undefined && typeof data[key] === typeof base[key] || (key === 'example' && typeof data[key] === 'string')) {
      out[key] = data[key];
    }
  }
  if (![128, 256, 512, 1024].includes(out.size)) out.size = 256;
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

async function pipeThrough(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/** The URL fragment (without `#`) that encodes `state`. */
export async function encodeState(state) {
  const json = new TextEncoder().encode(JSON.stringify({ ...state }));
  const packed = await pipeThrough(json, new CompressionStream('deflate-raw'));
  return `s=${STATE_VERSION}.${toBase64Url(packed)}`;
}

/** Decodes a URL fragment; `null` when it holds no (readable) state. */
export async function decodeState(fragment) {
  const m = /^#?s=(\d+)\.([A-Za-z0-9_-]+)$/.exec(fragment ?? '');
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

export function saveLocal(state) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ version: STATE_VERSION, state }));
  } catch {
    // Storage full or disabled: the share link still works.
  }
}

export function loadLocal() {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw);
    return normalizeState(parsed?.state);
  } catch {
    return null;
  }
}
