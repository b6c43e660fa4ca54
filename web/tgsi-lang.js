// The TGSI language for CodeMirror: a stream tokenizer (opcodes, modifiers, register files,
// semantics, numbers, `;` comments), completion and hover help. The opcode list comes from the
// engine's `opcodes()` table, so highlighting and help always match the parser.

import { StreamLanguage, HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';
import { hoverTooltip } from '@codemirror/view';

export const REGISTER_FILES = ['CONST', 'IN', 'OUT', 'TEMP', 'SAMP', 'ADDR', 'IMM', 'SV', 'IMAGE', 'SVIEW',
  'BUFFER', 'MEMORY', 'CONSTBUF', 'HWATOMIC', 'NULL'];
export const SEMANTICS = ['POSITION', 'COLOR', 'BCOLOR', 'FOG', 'PSIZE', 'GENERIC', 'NORMAL', 'FACE',
  'EDGEFLAG', 'PRIM_ID', 'INSTANCEID', 'VERTEXID', 'STENCIL', 'CLIPDIST', 'CLIPVERTEX', 'TEXCOORD',
  'PCOORD', 'VIEWPORT_INDEX', 'LAYER', 'SAMPLEID', 'SAMPLEPOS', 'SAMPLEMASK', 'INVOCATIONID',
  'HELPER_INVOCATION'];
const HEADERS = ['FRAG', 'VERT', 'GEOM', 'COMP', 'TESS_CTRL', 'TESS_EVAL', 'PROPERTY', 'DCL', 'IMM'];
const MODIFIERS = ['_SAT', '_SATNV', 'PERSPECTIVE', 'LINEAR', 'CONSTANT', 'CENTROID', 'SAMPLE',
  'FLT32', 'UINT32', 'INT32', 'FLT64', 'INVARIANT', 'LOCAL', 'ARRAY'];
const TEXTURE_TARGETS = ['1D', '2D', '3D', 'CUBE', 'RECT', 'SHADOW1D', 'SHADOW2D', 'SHADOWRECT',
  '1D_ARRAY', '2D_ARRAY', 'SHADOWCUBE', 'CUBEARRAY'];

/** Builds the language for a given opcode table (array of `{name, summary, formula}`). */
export function tgsiLanguage(opcodeTable) {
  const opcodes = new Set(opcodeTable.map((o) => o.name));
  const files = new Set(REGISTER_FILES);
  const semantics = new Set(SEMANTICS);
  const headers = new Set(HEADERS);
  const modifiers = new Set(MODIFIERS.concat(TEXTURE_TARGETS));
  return StreamLanguage.define({
    name: 'tgsi',
    startState: () => ({ statementStart: true }),
    token(stream, state) {
      if (stream.sol()) state.statementStart = true;
      if (stream.eatSpace()) return null;
      if (stream.peek() === ';') { stream.skipToEnd(); return 'comment'; }
      if (stream.match(/^-?(0x[0-9a-fA-F]+|\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?)/i)) return 'number';
      if (stream.match(/^\.[xyzwrgba]{1,4}\b/i)) return 'propertyName';
      if (stream.match(/^\d+:/)) return 'labelName';
      const word = stream.match(/^[A-Za-z_][A-Za-z0-9_]*/);
      if (word) {
        const w = word[0].toUpperCase();
        const base = w.replace(/_SAT$/, '');
        const first = state.statementStart;
        state.statementStart = false;
        if (headers.has(w)) return 'keyword';
        // Without the engine's table, the first word of a statement is taken as an opcode.
        if (opcodes.has(w) || opcodes.has(base) || (first && opcodes.size === 0)) return 'operatorKeyword';
        if (files.has(w)) return 'typeName';
        if (semantics.has(w)) return 'atom';
        if (modifiers.has(w)) return 'modifier';
        return 'variableName';
      }
      stream.next();
      state.statementStart = false;
      return null;
    },
    languageData: { commentTokens: { line: ';' } },
  });
}

export const tgsiHighlight = syntaxHighlighting(HighlightStyle.define([
  { tag: t.comment, class: 'tok-comment' },
  { tag: t.number, class: 'tok-number' },
  { tag: t.keyword, class: 'tok-keyword' },
  { tag: t.operatorKeyword, class: 'tok-opcode' },
  { tag: t.typeName, class: 'tok-file' },
  { tag: t.atom, class: 'tok-semantic' },
  { tag: t.modifier, class: 'tok-modifier' },
  { tag: t.propertyName, class: 'tok-swizzle' },
  { tag: t.labelName, class: 'tok-label' },
]));

/** Completion source: opcodes, register files, semantics and modifiers. */
export function tgsiCompletion(opcodeTable) {
  const options = [
    ...opcodeTable.map((o) => ({ label: o.name, type: 'function', detail: o.summary, boost: o.legacy ? -1 : 1 })),
    ...REGISTER_FILES.map((f) => ({ label: f, type: 'type', detail: 'register file' })),
    ...SEMANTICS.map((s) => ({ label: s, type: 'constant', detail: 'semantic' })),
    ...HEADERS.map((h) => ({ label: h, type: 'keyword' })),
    ...MODIFIERS.map((m) => ({ label: m.replace(/^_/, ''), type: 'keyword', detail: 'modifier' })),
  ];
  return (context) => {
    const word = context.matchBefore(/[A-Za-z_][A-Za-z0-9_]*/);
    if (!word || (word.from === word.to && !context.explicit)) return null;
    return { from: word.from, options, validFor: /^[A-Za-z0-9_]*$/ };
  };
}

/** Finds the declaration line of a register (`TEMP[3]`, `IN[0]`, `CONST[0][2]`) in the text. */
export function findDeclaration(text, file, index, buffer) {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i].replace(/;.*/, '').trim();
    if (!/^DCL\s/i.test(line)) continue;
    const m = line.match(/^DCL\s+([A-Z_]+)\[(\d+)\](?:\[(\d+)(?:\.\.(\d+))?\]|(?:\.\.(\d+))?)/i)
      || line.match(/^DCL\s+([A-Z_]+)\[(\d+)(?:\.\.(\d+))?\]/i);
    if (!m || m[1].toUpperCase() !== file) continue;
    let lo;
    let hi;
    if (file === 'CONST' && m[3] !== undefined) {
      if (buffer !== undefined && Number(m[2]) !== buffer) continue;
      lo = Number(m[3]); hi = Number(m[4] ?? m[3]);
    } else {
      lo = Number(m[2]); hi = Number(m[5] ?? m[3] ?? m[2]);
      if (file === 'CONST' && buffer !== undefined && buffer !== 0) continue;
    }
    if (index >= lo && index <= hi) return { line: i + 1, text: line };
  }
  return null;
}

/** Hover help: an opcode's summary and formula; a register's declaration. */
export function tgsiHover(opcodeTable) {
  const byName = new Map(opcodeTable.map((o) => [o.name, o]));
  return hoverTooltip((view, pos) => {
    const line = view.state.doc.lineAt(pos);
    const text = line.text;
    let start = pos - line.from;
    let end = start;
    while (start > 0 && /[A-Za-z0-9_]/.test(text[start - 1])) start -= 1;
    while (end < text.length && /[A-Za-z0-9_]/.test(text[end])) end += 1;
    if (start === end) return null;
    const word = text.slice(start, end).toUpperCase();
    const op = byName.get(word) ?? byName.get(word.replace(/_SAT$/, ''));
    let make = null;
    if (op && !/^\s*DCL\b/i.test(text.slice(0, start))) {
      make = () => {
        const dom = document.createElement('div');
        dom.className = 'hover-opcode';
        const title = document.createElement('strong');
        title.textContent = op.name;
        const summary = document.createElement('div');
        summary.textContent = op.summary;
        dom.append(title, summary);
        if (op.formula) {
          const formula = document.createElement('pre');
          formula.className = 'hover-formula';
          formula.textContent = op.formula;
          dom.append(formula);
        }
        const meta = document.createElement('div');
        meta.className = 'hover-meta';
        meta.textContent = `${op.numDst} dst, ${op.numSrc} src · ${op.category}${op.legacy ? ' · legacy' : ''}${op.agal ? ` · AGAL: ${op.agal}` : ''}`;
        dom.append(meta);
        const more = document.createElement('a');
        more.href = `#opcode-${op.name}`;
        more.className = 'hover-link';
        more.textContent = 'opcode reference';
        more.addEventListener('click', (e) => {
          e.preventDefault();
          const dialog = document.getElementById('about');
          if (dialog && !dialog.open) dialog.showModal();
          document.getElementById(`opcode-${op.name}`)?.scrollIntoView({ block: 'start' });
        });
        dom.append(more);
        return { dom };
      };
    } else if (REGISTER_FILES.includes(word) && text[end] === '[') {
      const rest = text.slice(end).match(/^\[(\d+)\](?:\[(\d+)\])?/);
      if (rest && !/^\s*DCL\b/i.test(text)) {
        const two = rest[2] !== undefined;
        const index = Number(two ? rest[2] : rest[1]);
        const buffer = two ? Number(rest[1]) : undefined;
        const decl = findDeclaration(view.state.doc.toString(), word, index, buffer);
        make = () => {
          const dom = document.createElement('div');
          dom.className = 'hover-register';
          dom.textContent = decl ? `line ${decl.line}: ${decl.text}` : `${word}[${rest[1]}]${two ? `[${rest[2]}]` : ''} is not declared`;
          return { dom };
        };
      }
    }
    if (!make) return null;
    return { pos: line.from + start, end: line.from + end, above: true, create: make };
  });
}
