// @ts-check
// The colours of the Compare mode's map (compare-panel.js): one place for the map and its
// legend.

/** Ulps given as "a sign, an infinity or a NaN differs" (`diff::values::distance`). */
export const FAR = 4294967295;

/**
 * One pixel's colour on the map: grey the same; yellow (1 ulp) to red (2^31 ulps) on a log
 * scale; magenta where a sign, an infinity or a NaN differs.
 * @param {number} ulps
 * @returns {[number, number, number]}
 */
export function mapColour(ulps) {
  if (ulps === 0) return [58, 61, 68];
  if (ulps >= FAR) return [230, 0, 230];
  const t = Math.min(1, Math.log2(ulps) / 31);
  return [Math.round(255 - 35 * t), Math.round(220 - 190 * t), Math.round(30 * t)];
}

