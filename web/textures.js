// @ts-check
// Built-in textures made in the page (checker, gradient, noise, a mip chain whose levels have
// distinct colours, a cube map with one colour per face), image files, and the Textures panel:
// one row per sampler unit the shader declares, with its sampler state.

export const BUILTIN_TEXTURES = ['checker', 'gradient', 'noise', 'mip-levels', 'cube-faces'];
const FILTERS = ['nearest', 'linear'];

function level(width, height, texel) {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) data.set(texel(x, y), (y * width + x) * 4);
  }
  return { width, height, data };
}

/** Distinct colours for mip levels 0, 1, 2, … and for cube faces +x, −x, +y, −y, +z, −z. */
const PALETTE = [[230, 60, 60, 255], [60, 200, 80, 255], [60, 110, 240, 255], [240, 210, 50, 255],
  [200, 70, 220, 255], [60, 210, 220, 255], [250, 250, 250, 255], [120, 120, 120, 255]];

const made = new Map();

/**
 * A built-in texture (made once).
 * @param {string} name
 * @returns {import('./engine-results.js').Texture}
 */
export function makeTexture(name) {
  if (!made.has(name)) made.set(name, buildTexture(name));
  return made.get(name);
}

function buildTexture(name) {
  switch (name) {
    case 'gradient':
      return { kind: '2d', levels: [level(64, 64, (x, y) => [x * 4, y * 4, 128, 255])] };
    case 'noise': {
      let seed = 12345;
      // The C library's 32-bit LCG; Math.imul keeps the product's low 32 bits exact (a plain
      // `*` rounds products past 2^53 and drifts from the sequence).
      const next = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed >>> 24; };
      return { kind: '2d', levels: [level(64, 64, () => { const v = next(); return [v, v, v, 255]; })] };
    }
    case 'mip-levels': {
      const levels = [];
      for (let s = 32, i = 0; s >= 1; s >>= 1, i += 1) levels.push(level(s, s, () => PALETTE[i]));
      return { kind: '2d', levels };
    }
    case 'cube-faces':
      return { kind: 'cube', levels: [], faces: PALETTE.slice(0, 6).map((c) => level(16, 16, () => c)) };
    case 'checker':
    default:
      return { kind: '2d', levels: [level(8, 8, (x, y) => ((x + y) & 1 ? [240, 240, 240, 255] : [40, 40, 48, 255]))] };
  }
}

/**
 * Decodes an image file into a texture (at most 256x256: it travels to every worker).
 * @param {Blob} file
 * @returns {Promise<import('./engine-results.js').Texture>}
 */
export async function loadImageFile(file) {
  const bitmap = await createImageBitmap(file, { colorSpaceConversion: 'none', premultiplyAlpha: 'none' });
  const scale = Math.min(1, 256 / Math.max(bitmap.width, bitmap.height));
  const w = Math.max(1, Math.round(bitmap.width * scale));
  const h = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = new OffscreenCanvas(w, h);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(bitmap, 0, 0, w, h);
  const { data } = ctx.getImageData(0, 0, w, h);
  // Image rows come top first; texture rows go bottom first (t = 0 at the bottom).
  const flipped = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y += 1) flipped.set(data.subarray((h - 1 - y) * w * 4, (h - y) * w * 4), y * w * 4);
  return { kind: '2d', levels: [{ width: w, height: h, data: flipped }] };
}

function texels(level) {
  const out = [];
  for (let i = 0; i < level.data.length; i += 4) out.push([level.data[i], level.data[i + 1], level.data[i + 2], level.data[i + 3]]);
  return out;
}

/**
 * The wrap modes the sampler menu, share links and the widget's `textures` words offer: each
 * word with its GL name in the engine's texture JSON. The same pairs as the engine's
 * `texture::sampler::WRAP_NAMES` (a native test compares them); `clamp` is clamp to edge and
 * `gl-clamp` is legacy GL_CLAMP.
 */
const WRAP_NAMES = {
  repeat: 'REPEAT', clamp: 'CLAMP_TO_EDGE', border: 'CLAMP_TO_BORDER', mirror: 'MIRRORED_REPEAT',
  'mirror-clamp': 'MIRROR_CLAMP', 'mirror-edge': 'MIRROR_CLAMP_TO_EDGE', 'mirror-border': 'MIRROR_CLAMP_TO_BORDER',
  'gl-clamp': 'CLAMP',
};
/** The wrap words, in menu order. */
export const WRAPS = Object.keys(WRAP_NAMES);

/**
 * The engine's JSON texture description (docs/textures.md) of a texture with a binding's
 * sampler state; the same text works with `tgsi render --texture U=FILE.json`.
 */
export function textureDescription(texture, binding) {
  const min = (binding.min ?? 'linear').toUpperCase();
  const mip = binding.mip ?? 'none';
  const sampler = {
    min_filter: mip === 'none' ? min : `${min}_MIPMAP_${mip.toUpperCase()}`,
    mag_filter: (binding.mag ?? 'linear').toUpperCase(),
    wrap: WRAP_NAMES[/** @type {keyof typeof WRAP_NAMES} */ (binding.wrap)] ?? 'REPEAT',
    lod_bias: Number(binding.lodBias) || 0,
  };
  // The `shadow` word: depth comparison, reference <= texel red passes (docs/textures.md).
  if (binding.compare === 'LEQUAL') sampler.compare = 'LEQUAL';
  if (texture.kind === 'cube') {
    const f = texture.faces[0];
    return JSON.stringify({ target: 'CUBE', format: 'RGBA8', width: f.width, height: f.height, sampler,
      images: texture.faces.map((face, i) => ({ face: i, texels: texels(face) })) });
  }
  const base = texture.levels[0];
  return JSON.stringify({ target: '2D', format: 'RGBA8', width: base.width, height: base.height, levels: texture.levels.length, sampler,
    images: texture.levels.map((l, i) => ({ level: i, texels: texels(l) })) });
}

/**
 * The sampler units a shader declares, from the engine's `describe` summary.
 * @param {{samplers: number[]} | null} summary
 * @returns {number[]}
 */
export function declaredSamplers(summary) {
  return (summary?.samplers ?? []).filter((u) => u <= 31);
}

/**
 * A binding's sampler state as the words of the widget's `textures` attribute (`nearest`,
 * `mipmap`, `clamp`, …; the defaults say nothing). `applyBindingWord` reads them back.
 * @param {Record<string, any>} b
 * @returns {string[]}
 */
export function bindingWords(b) {
  const words = [];
  if (b.min === 'nearest') words.push('nearest');
  if (b.mip && b.mip !== 'none') words.push('mipmap');
  if (b.wrap && b.wrap !== 'repeat' && WRAPS.includes(b.wrap)) words.push(b.wrap);
  if (b.compare === 'LEQUAL') words.push('shadow');
  return words;
}

/**
 * Applies one word of the widget's `textures` attribute to a binding; false for an unknown word.
 * @param {Record<string, any>} b
 * @param {string} word
 */
export function applyBindingWord(b, word) {
  if (FILTERS.includes(word)) { b.min = word; b.mag = word; return true; }
  if (word === 'mipmap') { b.mip = 'linear'; return true; }
  if (WRAPS.includes(word)) { b.wrap = word; return true; }
  if (word === 'shadow') { b.compare = 'LEQUAL'; return true; }
  return false;
}

export function defaultBinding() {
  return { name: 'checker', min: 'linear', mag: 'linear', mip: 'none', wrap: 'repeat', lodBias: 0 };
}

function select(label, options, value, onChange) {
  const wrap = document.createElement('label');
  wrap.className = 'inline';
  wrap.textContent = label;
  const s = document.createElement('select');
  for (const o of options) {
    const opt = document.createElement('option');
    opt.value = o;
    opt.textContent = o;
    s.append(opt);
  }
  s.value = value;
  s.addEventListener('change', () => onChange(s.value));
  wrap.append(s);
  return wrap;
}

/**
 * Rebuilds the texture rows. `bindings` is the state's `{unit: binding}`; `onChange(unit,
 * binding)` on every edit; `onFile(unit, file)` when an image is loaded.
 */
export function renderTextureControls(container, units, bindings, onChange, onFile, note) {
  const signature = units.join(',');
  if (container.dataset.signature === signature) return;
  container.dataset.signature = signature;
  container.replaceChildren();
  if (note) {
    const p = document.createElement('p');
    p.className = 'muted';
    p.textContent = note;
    container.append(p);
  }
  if (units.length === 0) {
    const p = document.createElement('p');
    p.className = 'muted';
    p.textContent = 'The shader declares no sampler (DCL SAMP[n]).';
    container.append(p);
    return;
  }
  for (const unit of units) {
    const b = { ...defaultBinding(), ...(bindings[unit] ?? {}) };
    const row = document.createElement('fieldset');
    row.className = 'texture-row';
    row.dataset.unit = String(unit);
    const legend = document.createElement('legend');
    legend.textContent = `SAMP[${unit}]`;
    row.append(legend);
    const set = (key) => (v) => { b[key] = v; onChange(unit, { ...b }); };
    row.append(select('texture', [...BUILTIN_TEXTURES, 'image file'], b.name, set('name')));
    const file = document.createElement('input');
    file.type = 'file';
    file.accept = 'image/*';
    file.setAttribute('aria-label', `Image file for SAMP[${unit}]`);
    file.addEventListener('change', () => { if (file.files?.[0]) onFile(unit, file.files[0]); });
    row.append(file);
    row.append(select('min', FILTERS, b.min, set('min')));
    row.append(select('mag', FILTERS, b.mag, set('mag')));
    row.append(select('mip', ['none', ...FILTERS], b.mip, set('mip')));
    row.append(select('wrap', WRAPS, b.wrap, set('wrap')));
    const bias = document.createElement('label');
    bias.className = 'inline';
    bias.textContent = 'LOD bias';
    const input = document.createElement('input');
    input.type = 'number';
    input.step = '0.5';
    input.value = String(b.lodBias);
    input.addEventListener('input', () => { const v = Number(input.value); if (Number.isFinite(v)) set('lodBias')(v); });
    bias.append(input);
    row.append(bias);
    container.append(row);
  }
}
