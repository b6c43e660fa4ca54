// @ts-check
// The one owner of the playground's state (the shaders and settings a link or the autosave
// keeps). Every change goes through `update` or `replace`; subscribers hear about each one.
// Everything else the page holds (engine, editor, workers, clock) is not shared state and lives
// with the module that uses it.

import { defaultState, normalizeState } from './state.js';

/** @typedef {import('./state.js').PlaygroundState} PlaygroundState */
/** @typedef {(state: PlaygroundState, changed: (keyof PlaygroundState)[]) => void} Listener */

/** @type {PlaygroundState} */
let current = defaultState();
/** @type {Set<Listener>} */
const listeners = new Set();

/** @param {(keyof PlaygroundState)[]} changed */
function notify(changed) {
  for (const listener of listeners) listener(current, changed);
}

export const store = {
  /** The current state (treat it as read-only: change it with `update`). */
  get state() {
    return current;
  },
  /**
   * Replaces some fields.
   * @param {Partial<PlaygroundState>} patch
   */
  update(patch) {
    current = { ...current, ...patch };
    notify(/** @type {(keyof PlaygroundState)[]} */ (Object.keys(patch)));
  },
  /**
   * Replaces the whole state (a link, the autosave, an example), normalised.
   * @param {unknown} state
   */
  replace(state) {
    current = normalizeState(state);
    notify(/** @type {(keyof PlaygroundState)[]} */ (Object.keys(current)));
  },
  /**
   * Sets one constant register's four values.
   * @param {string} key `buffer:index`
   * @param {number[]} values
   */
  setConstant(key, values) {
    this.update({ constants: { ...current.constants, [key]: values } });
  },
  /**
   * Sets (or, with `null`, drops) one register of a constants map: the shared one or one
   * stage's own (`vsConstants`, `fsConstants`, `gsConstants`).
   * @param {'constants' | 'vsConstants' | 'fsConstants' | 'gsConstants'} field
   * @param {string} key `buffer:index`
   * @param {number[] | null} values
   */
  setStageConstant(field, key, values) {
    const map = { ...current[field] };
    if (values) map[key] = values; else delete map[key];
    this.update({ [field]: map });
  },
  /**
   * Sets one sampler unit's texture choice.
   * @param {number} unit
   * @param {Record<string, unknown>} binding
   */
  setTexture(unit, binding) {
    this.update({ textures: { ...current.textures, [unit]: binding } });
  },
  /**
   * Calls `listener` after every change; returns the function that unsubscribes it.
   * @param {Listener} listener
   */
  subscribe(listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
