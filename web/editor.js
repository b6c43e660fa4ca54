// @ts-check
// The code editor: one CodeMirror view that shows either the fragment or the vertex shader
// (each keeps its own editor state, so undo history and diagnostics survive a tab switch).

import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching } from '@codemirror/language';
import { autocompletion, completionKeymap, closeBrackets } from '@codemirror/autocomplete';
import { lintGutter, setDiagnostics, lintKeymap } from '@codemirror/lint';
import { searchKeymap, highlightSelectionMatches } from '@codemirror/search';
import { tgsiLanguage, tgsiHighlight, tgsiCompletion, tgsiHover } from './tgsi-lang.js';

/** Converts engine diagnostics (1-based line/column) to CodeMirror ones (document offsets). */
export function toEditorDiagnostics(doc, diags) {
  const pos = (line, column) => {
    const l = doc.line(Math.min(Math.max(line || 1, 1), doc.lines));
    return Math.min(l.from + Math.max((column || 1) - 1, 0), l.to);
  };
  return diags.map((d) => {
    const from = pos(d.line, d.column);
    let to = d.endLine ? pos(d.endLine, d.endColumn) : from;
    if (to <= from) to = Math.min(from + 1, doc.length);
    return {
      from,
      to: Math.max(to, from),
      severity: d.severity === 'note' ? 'info' : d.severity,
      message: `${d.code}: ${d.message}`,
      source: d.code,
    };
  });
}

export class ShaderEditor {
  /**
   * parent: element to mount in; opcodes: the engine's table; vocabulary: the engine's words
   * (`vocabulary()`); describe: the engine's declaration summary of a text;
   * onChange(tab, text) after every edit.
   */
  constructor(parent, opcodes, vocabulary, describe, onChange) {
    this.onChange = onChange;
    this.tab = 'fs';
    const language = tgsiLanguage(opcodes, vocabulary);
    this.extensions = [
      lineNumbers(),
      highlightActiveLineGutter(),
      history(),
      drawSelection(),
      bracketMatching(),
      closeBrackets(),
      highlightActiveLine(),
      highlightSelectionMatches(),
      language,
      tgsiHighlight,
      autocompletion({ override: [tgsiCompletion(opcodes, vocabulary)] }),
      tgsiHover(opcodes, vocabulary, describe),
      lintGutter(),
      keymap.of([indentWithTab, ...defaultKeymap, ...historyKeymap, ...completionKeymap, ...searchKeymap, ...lintKeymap]),
      EditorView.contentAttributes.of({ 'aria-label': 'Shader source' }),
      EditorView.updateListener.of((u) => {
        if (u.docChanged) this.onChange(this.tab, u.state.doc.toString());
      }),
    ];
    this.states = { fs: EditorState.create({ doc: '', extensions: this.extensions }), vs: null };
    this.view = new EditorView({ state: this.states.fs, parent });
  }

  /** Replaces the text of one tab (a new state: loading an example starts a fresh history). */
  setText(tab, text) {
    const state = EditorState.create({ doc: text ?? '', extensions: this.extensions });
    this.states[tab] = state;
    if (this.tab === tab) this.view.setState(state);
  }

  text(tab) {
    if (tab === this.tab) return this.view.state.doc.toString();
    return this.states[tab]?.doc.toString() ?? '';
  }

  show(tab) {
    if (tab === this.tab) return;
    this.states[this.tab] = this.view.state;
    this.tab = tab;
    this.states[tab] ??= EditorState.create({ doc: '', extensions: this.extensions });
    this.view.setState(this.states[tab]);
  }

  /** Shows engine diagnostics on one tab's text. */
  setDiagnostics(tab, diags) {
    if (tab === this.tab) {
      const list = toEditorDiagnostics(this.view.state.doc, diags);
      this.view.dispatch(setDiagnostics(this.view.state, list));
      return;
    }
    const state = this.states[tab];
    if (!state) return;
    this.states[tab] = state.update(setDiagnostics(state, toEditorDiagnostics(state.doc, diags))).state;
  }

  /** Moves the cursor to a 1-based line and column of a tab and focuses the editor. */
  jumpTo(tab, line, column) {
    this.show(tab);
    const doc = this.view.state.doc;
    const l = doc.line(Math.min(Math.max(line, 1), doc.lines));
    const pos = Math.min(l.from + Math.max(column - 1, 0), l.to);
    this.view.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
    this.view.focus();
  }
}
