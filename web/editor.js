// @ts-check
// The code editor: one CodeMirror view that shows either the fragment or the vertex shader
// (each keeps its own editor state, so undo history and diagnostics survive a tab switch).

import { EditorState, StateEffect, StateField, RangeSet } from '@codemirror/state';
import { Decoration, EditorView, GutterMarker, gutter, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching } from '@codemirror/language';
import { autocompletion, completionKeymap, closeBrackets } from '@codemirror/autocomplete';
import { lintGutter, setDiagnostics, lintKeymap } from '@codemirror/lint';
import { searchKeymap, highlightSelectionMatches } from '@codemirror/search';
import { tgsiLanguage, tgsiHighlight, tgsiCompletion, tgsiHover } from './tgsi-lang.js';

/**
 * One place a diagnostic refers to (the declaration a use names, the IF an ENDIF closes).
 * @typedef {{ message: string, line: number, column: number, endLine?: number, endColumn?: number }} EngineRelated
 */
/**
 * A diagnostic as the engine gives it (`JsDiagnostic` in crate/src/diag.rs; docs/diagnostics.md).
 * @typedef {{ code: string, severity: string, message: string, line: number, column: number,
 *   endLine?: number, endColumn?: number, related?: EngineRelated[], notes?: string[], help?: string[] }} EngineDiagnostic
 */

/**
 * Converts engine diagnostics (1-based line/column) to CodeMirror ones (document offsets). The
 * tooltip shows the message, then its notes and help lines; each related place gets its own
 * faint mark (severity `hint`, "IF opened here") and a "see line N" action on the main one.
 * @param {import('@codemirror/state').Text} doc
 * @param {EngineDiagnostic[]} diags
 * @returns {import('@codemirror/lint').Diagnostic[]}
 */
export function toEditorDiagnostics(doc, diags) {
  const pos = (line, column) => {
    const l = doc.line(Math.min(Math.max(line || 1, 1), doc.lines));
    return Math.min(l.from + Math.max((column || 1) - 1, 0), l.to);
  };
  /** @param {{ line: number, column: number, endLine?: number, endColumn?: number }} d */
  const range = (d) => {
    const from = pos(d.line, d.column);
    let to = d.endLine ? pos(d.endLine, d.endColumn) : from;
    if (to <= from) to = Math.min(from + 1, doc.length);
    return { from, to: Math.max(to, from) };
  };
  /** @type {import('@codemirror/lint').Diagnostic[]} */
  const out = [];
  for (const d of diags) {
    const related = d.related ?? [];
    const lines = [
      `${d.code}: ${d.message}`,
      ...(d.notes ?? []).map((n) => `note: ${n}`),
      ...(d.help ?? []).map((h) => `help: ${h}`),
      ...related.map((r) => `line ${r.line}: ${r.message}`),
    ];
    out.push({
      ...range(d),
      severity: d.severity === 'note' ? 'info' : /** @type {'error' | 'warning' | 'info'} */ (d.severity),
      message: lines.join('\n'),
      source: d.code,
      actions: related.map((r) => ({
        name: `see line ${r.line}`,
        apply(view) {
          const at = range(r);
          view.dispatch({ selection: { anchor: at.from, head: at.to }, scrollIntoView: true });
          view.focus();
        },
      })),
    });
    for (const r of related) {
      out.push({ ...range(r), severity: 'hint', message: `${r.message} (${d.code} on line ${d.line})`, source: d.code });
    }
  }
  return out;
}

// ---- breakpoints and the inspector's current line -------------------------------------------

/** Toggles a breakpoint at a document position (the start of its line). */
/** @type {import('@codemirror/state').StateEffectType<number>} */
const toggleBreakpoint = StateEffect.define({ map: (pos, change) => change.mapPos(pos) });
/** Sets (a 1-based line) or clears (null) the line the inspector is at. */
/** @type {import('@codemirror/state').StateEffectType<number | null>} */
const setTraceLine = StateEffect.define();

const breakpointMarker = new (class extends GutterMarker {
  toDOM() {
    const dot = document.createElement('span');
    dot.className = 'breakpoint';
    dot.textContent = '●';
    return dot;
  }
})();

/** The breakpoints of one text: a set of line-start positions, kept in place by edits. */
const breakpointField = StateField.define({
  /** @returns {RangeSet<GutterMarker>} */
  create: () => RangeSet.empty,
  update(set, tr) {
    set = set.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(toggleBreakpoint)) continue;
      let on = false;
      set.between(e.value, e.value, () => { on = true; });
      set = on
        ? set.update({ filter: (from) => from !== e.value })
        : set.update({ add: [breakpointMarker.range(e.value)] });
    }
    return set;
  },
});

const traceLineDecoration = Decoration.line({ attributes: { class: 'cm-trace-line' } });

/** The line the inspector stands on, highlighted. */
const traceLineField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(setTraceLine)) continue;
      const line = e.value;
      if (line == null || line < 1 || line > tr.state.doc.lines) {
        deco = Decoration.none;
      } else {
        deco = Decoration.set([traceLineDecoration.range(tr.state.doc.line(line).from)]);
      }
    }
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

const breakpointGutter = [
  breakpointField,
  gutter({
    class: 'cm-breakpoint-gutter',
    markers: (view) => view.state.field(breakpointField),
    initialSpacer: () => breakpointMarker,
    domEventHandlers: {
      mousedown(view, line) {
        view.dispatch({ effects: toggleBreakpoint.of(line.from) });
        return true;
      },
    },
  }),
];

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
      breakpointGutter,
      traceLineField,
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

  /**
   * Replaces the whole text of the shown tab as one edit, which Undo takes back (a shader
   * picked from a pasted log: the paste stays one Ctrl+Z away).
   * @param {string} text
   */
  replaceText(text) {
    this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: text } });
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

  /** The 1-based lines with a breakpoint in one tab's text. */
  breakpoints(tab = 'fs') {
    const state = tab === this.tab ? this.view.state : this.states[tab];
    const lines = new Set();
    if (!state) return lines;
    state.field(breakpointField).between(0, state.doc.length, (from) => { lines.add(state.doc.lineAt(from).number); });
    return lines;
  }

  /** Sets or clears the breakpoint on a 1-based line of the shown text. */
  toggleBreakpoint(line) {
    const doc = this.view.state.doc;
    if (line < 1 || line > doc.lines) return;
    this.view.dispatch({ effects: toggleBreakpoint.of(doc.line(line).from) });
  }

  /**
   * Highlights the line the inspector stands on (null clears it) and scrolls to it.
   * @param {number | null} line
   */
  showTraceLine(line) {
    const doc = this.view.state.doc;
    this.view.dispatch({ effects: [setTraceLine.of(line)] });
    if (line == null || line < 1 || line > doc.lines) return;
    // Scrolls the editor alone (EditorView.scrollIntoView would scroll the page too, away from
    // the inspector's lanes): the line in view with a line of room.
    const block = this.view.lineBlockAt(doc.line(line).from);
    const scroller = this.view.scrollDOM;
    const offset = this.view.documentTop - scroller.getBoundingClientRect().top + scroller.scrollTop;
    const top = block.top + offset - block.height;
    const bottom = block.bottom + offset + block.height;
    if (top < scroller.scrollTop) scroller.scrollTop = top;
    else if (bottom > scroller.scrollTop + scroller.clientHeight) scroller.scrollTop = bottom - scroller.clientHeight;
  }

  /** The 1-based line of the cursor in the shown text. */
  cursorLine() {
    const state = this.view.state;
    return state.doc.lineAt(state.selection.main.head).number;
  }

  /** Moves the cursor to a 1-based line and column of a tab and focuses the editor. */
  jumpTo(tab, line, column) {
    this.show(tab);
    const doc = this.view.state.doc;
    const l = doc.line(Math.min(Math.max(line, 1), doc.lines));
    const pos = Math.min(l.from + Math.max(column - 1, 0), l.to);
    // Focus first: focusing afterwards lets some engines (WebKitGTK) put back the caret the
    // editor's DOM still shows, undoing the move.
    this.view.focus();
    this.view.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
  }
}
