// @ts-check
// User images in share links and the autosave. The page decodes an image file to at most
// 256×256 texels (textures.js); that texture is what the link carries: as a PNG (exact texels)
// when it compresses to MAX_LINK_IMAGE_BYTES, else, for an opaque image, as a lossy WebP or JPEG
// of the same size when that fits, else as a marker ("image not included", with the sizes) that the receiver sees in
// the Textures panel while the checker texture stands in. The texture is never scaled down
// further for the link: a smaller texture would sample differently (another LOD, other texels).

import { MAX_LINK_IMAGE_BYTES } from './state.js';
import { loadImageFile } from './textures.js';

/** @typedef {import('./state.js').LinkImage} LinkImage */

/** The texture's base level as a canvas, top row first (texture rows are stored bottom first). */
function canvasOf(/** @type {{width: number, height: number, data: Uint8Array}} */ level) {
  const canvas = document.createElement('canvas');
  canvas.width = level.width;
  canvas.height = level.height;
  const image = new ImageData(level.width, level.height);
  const row = level.width * 4;
  for (let y = 0; y < level.height; y += 1) image.data.set(level.data.subarray((level.height - 1 - y) * row, (level.height - y) * row), y * row);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas');
  ctx.putImageData(image, 0, 0);
  return canvas;
}

/**
 * @param {HTMLCanvasElement} canvas
 * @param {string} type
 * @param {number} [quality]
 * @returns {Promise<Blob | null>}
 */
function encode(canvas, type, quality) {
  return new Promise((resolve) => canvas.toBlob(resolve, type, quality));
}

async function dataUrl(/** @type {Blob} */ blob) {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${blob.type};base64,${btoa(binary)}`;
}

/**
 * What a link keeps of a decoded user image (a page texture of kind 2d).
 * @param {{levels: {width: number, height: number, data: Uint8Array}[]}} texture
 * @returns {Promise<LinkImage>}
 */
export async function linkImageOf(texture) {
  const level = texture.levels[0];
  const canvas = canvasOf(level);
  const png = await encode(canvas, 'image/png');
  if (png && png.size <= MAX_LINK_IMAGE_BYTES) return { data: await dataUrl(png) };
  // Only an opaque picture may travel with loss: under a canvas, colours are stored
  // premultiplied by alpha, and lossy encoders smear colour under transparent texels, so an
  // image with alpha goes exactly (PNG) or not at all. A browser that cannot write WebP gives
  // a PNG instead: only a real WebP or JPEG counts as the lossy form.
  const opaque = level.data.every((/** @type {number} */ v, /** @type {number} */ i) => i % 4 !== 3 || v === 255);
  for (const type of opaque ? ['image/webp', 'image/jpeg'] : []) {
    const blob = await encode(canvas, type, 0.85);
    if (blob && blob.type === type && blob.size <= MAX_LINK_IMAGE_BYTES) return { data: await dataUrl(blob), lossy: true };
  }
  return { omitted: { bytes: png?.size ?? 0, width: level.width, height: level.height } };
}

/**
 * The texture of an image a link carries (decoded as an image file is).
 * @param {string} url a `data:image/…;base64,` URL (state.js checked its form)
 */
export async function textureOfLinkImage(url) {
  const comma = url.indexOf(',');
  const type = url.slice(5, url.indexOf(';'));
  const binary = atob(url.slice(comma + 1));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return loadImageFile(new Blob([bytes], { type }));
}

/** The words of the "image not included" marker. */
export function markerText(/** @type {{bytes: number, width: number, height: number}} */ o) {
  const kb = Math.ceil(o.bytes / 1024);
  return `Image not included in the link: the ${o.width}×${o.height} image takes ${kb} KB, over the link's ${MAX_LINK_IMAGE_BYTES / 1024} KB limit. The checker texture stands in; load the image file again to use it.`;
}

/**
 * Shows, in each texture row (`fieldset[data-unit]`) set to an image file, whether its image
 * came with the link: the marker for one left out, a note for a lossy copy or for no image at
 * all. Other rows get nothing.
 * @param {HTMLElement} container the Textures panel
 * @param {Record<string, LinkImage>} images
 * @param {Record<string, any>} bindings the state's texture choices
 * @param {Set<string>} held units whose image this page has decoded (the sender's own)
 */
export function markLinkImages(container, images, bindings, held) {
  for (const old of container.querySelectorAll('.image-marker')) old.remove();
  for (const row of container.querySelectorAll('fieldset[data-unit]')) {
    const unit = /** @type {HTMLElement} */ (row).dataset.unit ?? '';
    const image = images[unit];
    if (bindings[unit]?.name !== 'image file') continue;
    const p = document.createElement('p');
    p.className = 'image-marker';
    p.setAttribute('role', 'note');
    if (!image) {
      if (held.has(unit)) continue;
      p.dataset.state = 'missing';
      p.textContent = 'No image file is loaded for this unit: the checker texture stands in.';
    } else if ('omitted' in image) {
      p.dataset.state = 'omitted';
      p.textContent = held.has(unit)
        ? `This image is too big for share links (${Math.ceil(image.omitted.bytes / 1024)} KB, the limit is ${MAX_LINK_IMAGE_BYTES / 1024} KB): a link carries an "image not included" marker instead.`
        : markerText(image.omitted);
    } else if (image.lossy) {
      p.dataset.state = 'lossy';
      p.textContent = 'The link carries this image compressed with loss (its exact texels took more than the limit).';
    } else {
      continue;
    }
    row.append(p);
  }
}
