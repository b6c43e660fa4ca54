// @ts-check
// The widget's editor, loaded only when a reader clicks "Edit": the playground's own editor
// (CodeMirror with TGSI highlighting, completion and hover from the engine's opcode table).

import { ShaderEditor } from '../editor.js';

/**
 * Mounts an editor holding `text` in `parent` (inside the widget's shadow root); `onChange(text)`
 * after every edit. `engine` is the full engine's exports (opcodes, vocabulary, describe).
 * @param {HTMLElement} parent
 * @param {any} engine
 * @param {string} text
 * @param {(text: string) => void} onChange
 */
export function mountEditor(parent, engine, text, onChange) {
  const describe = (/** @type {string} */ t) => {
    try { return engine.describe(t); } catch { return null; }
  };
  const editor = new ShaderEditor(parent, engine.opcodes(), engine.vocabulary(), describe, (/** @type {string} */ _tab, /** @type {string} */ t) => {
    onChange(t);
    try { editor.setDiagnostics('fs', engine.validate(t)); } catch { /* the widget lists them too */ }
  });
  editor.setText('fs', text);
  try { editor.setDiagnostics('fs', engine.validate(text)); } catch { /* as above */ }
  return editor;
}
