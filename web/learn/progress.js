// @ts-check
// The learner's progress in localStorage: which lessons passed, the text last typed in each, and
// the lesson open last. Whatever the storage holds (nothing, another version, hand-edited junk,
// a browser that refuses storage) is read without throwing: unknown lessons and wrong types are
// dropped, texts are bounded.

/** The storage key. */
export const PROGRESS_KEY = 'tgsi-playground/learn';

/** The longest text kept per lesson (a lesson program is a few hundred bytes). */
export const MAX_SAVED_TEXT = 64 * 1024;

/**
 * @typedef {{done: Set<string>, code: Map<string, string>, current: string | null}} Progress
 */

/** @returns {Progress} */
export function emptyProgress() {
  return { done: new Set(), code: new Map(), current: null };
}

/**
 * Reads the progress for the lessons named `ids` from `storage` (localStorage in the page).
 * @param {Pick<Storage, 'getItem'> | null} storage
 * @param {string[]} ids
 * @returns {Progress}
 */
export function loadProgress(storage, ids) {
  const progress = emptyProgress();
  let raw = null;
  try {
    raw = JSON.parse(storage?.getItem(PROGRESS_KEY) ?? 'null');
  } catch {
    return progress;
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return progress;
  const known = new Set(ids);
  if (Array.isArray(raw.done)) {
    for (const id of raw.done) if (typeof id === 'string' && known.has(id)) progress.done.add(id);
  }
  if (raw.code && typeof raw.code === 'object' && !Array.isArray(raw.code)) {
    for (const [id, text] of Object.entries(raw.code)) {
      if (known.has(id) && typeof text === 'string' && text.length <= MAX_SAVED_TEXT) progress.code.set(id, text);
    }
  }
  if (typeof raw.current === 'string' && known.has(raw.current)) progress.current = raw.current;
  return progress;
}

/**
 * Writes the progress; returns false when the browser refused (full, or storage disabled).
 * @param {Pick<Storage, 'setItem'> | null} storage
 * @param {Progress} progress
 */
export function saveProgress(storage, progress) {
  const code = Object.fromEntries([...progress.code].filter(([, t]) => t.length <= MAX_SAVED_TEXT));
  try {
    storage?.setItem(PROGRESS_KEY, JSON.stringify({ done: [...progress.done], code, current: progress.current }));
    return true;
  } catch {
    return false;
  }
}
