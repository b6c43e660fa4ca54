// @ts-check
// The TGSI language for CodeMirror: a stream tokenizer (opcodes, modifiers, register files,
// semantics, numbers, `;` comments), completion and hover help. The opcode list comes from the
// engine's `opcodes()` table, so highlighting and help always match the parser.

import { StreamLanguage, HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';
import { hoverTooltip } from '@codemirror/view';
import { referenceUrl } from './reference-link.js';

/**
 * The engine's words (`vocabulary()`: the parser's own tables).
 * @typedef {{opcodes: string[], processors: string[], files: string[], semantics: string[],
 *   textureTargets: string[], returnTypes: string[], interpolations: string[], locations: string[],
 *   memoryKinds: string[], immediateTypes: string[], properties: string[], propertyValues: string[],
 *   memoryQualifiers: string[], keywords: string[]}} Vocabulary
 */

/** @typedef {{name: string, summary: string, formula: string, legacy?: boolean, numDst?: number, numSrc?: number, category?: string, agal?: string}} OpcodeRow */

/**
 * Words shown as modifiers: declaration and immediate words that are neither opcodes, files
 * nor semantics.
 * @param {Vocabulary} v
 */
function modifierWords(v) {
  return [...v.interpolations, ...v.locations, ...v.immediateTypes, ...v.textureTargets, ...v.returnTypes,
    ...v.memoryKinds, ...v.memoryQualifiers, ...v.properties, ...v.propertyValues,
    ...v.keywords.filter((k) => !['DCL', 'IMM', 'PROPERTY'].includes(k))];
}

/**
 * Builds the language from the engine's opcode table and vocabulary.
 * @param {OpcodeRow[]} opcodeTable
 * @param {Vocabulary} vocabulary
 */
export function tgsiLanguage(opcodeTable, vocabulary) {
  const opcodes = new Set(opcodeTable.map((o) => o.name));
  const files = new Set(vocabulary.files);
  const semantics = new Set(vocabulary.semantics);
  const headers = new Set([...vocabulary.processors, 'DCL', 'IMM', 'PROPERTY']);
  const modifiers = new Set(modifierWords(vocabulary));
  return StreamLanguage.define({
    name: 'tgsi',
    startState: () => ({ statementStart: true }),
    token(stream, state) {
      if (stream.sol()) state.statementStart = true;
      if (stream.eatSpace()) return null;
      if (stream.peek() === ';') { stream.skipToEnd(); return 'comment'; }
      // An instruction's label before numbers: the number rule would take the digits of `0:`.
      if (stream.match(/^\d+:/)) return 'labelName';
      if (stream.match(/^-?(0x[0-9a-fA-F]+|\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?)/i)) return 'number';
      if (stream.match(/^\.[xyzwrgba]{1,4}\b/i)) return 'propertyName';
      const word = stream.match(/^[A-Za-z_][A-Za-z0-9_]*/);
      if (word) {
        const w = word[0].toUpperCase();
        const base = w.replace(/_SAT$/, '');
        state.statementStart = false;
        if (headers.has(w)) return 'keyword';
        if (opcodes.has(w) || opcodes.has(base)) return 'operatorKeyword';
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

/**
 * Completion source: opcodes, register files, semantics and the other words of the language.
 * @param {OpcodeRow[]} opcodeTable
 * @param {Vocabulary} vocabulary
 */
export function tgsiCompletion(opcodeTable, vocabulary) {
  const options = [
    ...opcodeTable.map((o) => ({ label: o.name, type: 'function', detail: o.summary, boost: o.legacy ? -1 : 1 })),
    ...vocabulary.files.map((f) => ({ label: f, type: 'type', detail: 'register file' })),
    ...vocabulary.semantics.map((s) => ({ label: s, type: 'constant', detail: 'semantic' })),
    ...[...vocabulary.processors, 'DCL', 'IMM', 'PROPERTY'].map((h) => ({ label: h, type: 'keyword' })),
    ...modifierWords(vocabulary).map((m) => ({ label: m.replace(/^_/, ''), type: 'keyword', detail: 'modifier' })),
  ];
  return (context) => {
    const word = context.matchBefore(/[A-Za-z_][A-Za-z0-9_]*/);
    if (!word || (word.from === word.to && !context.explicit)) return null;
    return { from: word.from, options, validFor: /^[A-Za-z0-9_]*$/ };
  };
}

/**
 * The declaration of a register (`TEMP[3]`, `IN[0]`, `CONST[0][2]`) in a shader, from the
 * engine's `describe` summary: `{line, text}` or `null`.
 * @param {{declarations: {file: string, first: number, last: number, dimension: number | null, line: number}[]} | null} summary
 * @param {string} text
 * @param {string} file
 * @param {number} index
 * @param {number | undefined} buffer
 */
export function findDeclaration(summary, text, file, index, buffer) {
  const d = summary?.declarations.find((x) => x.file === file && index >= x.first && index <= x.last
    && (buffer === undefined || (x.dimension ?? 0) === buffer));
  if (!d) return null;
  return { line: d.line, text: (text.split('\n')[d.line - 1] ?? '').trim() };
}

/**
 * Hover help: an opcode's summary and formula; a register's declaration.
 * @param {OpcodeRow[]} opcodeTable
 * @param {Vocabulary} vocabulary
 * @param {(text: string) => any} describe the engine's declaration summary of a text
 */
export function tgsiHover(opcodeTable, vocabulary, describe) {
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
        // The opcode's section of the reference site (/reference/, beside web/); a new tab keeps
        // the editor as it is.
        const more = document.createElement('a');
        more.href = referenceUrl(op.name);
        more.target = '_blank';
        more.rel = 'noopener';
        more.className = 'hover-link';
        more.textContent = `${op.name} in the opcode reference`;
        dom.append(more);
        return { dom };
      };
    } else if (vocabulary.files.includes(word) && text[end] === '[') {
      const rest = text.slice(end).match(/^\[(\d+)\](?:\[(\d+)\])?/);
      if (rest && !/^\s*DCL\b/i.test(text)) {
        const two = rest[2] !== undefined;
        const index = Number(two ? rest[2] : rest[1]);
        const buffer = two ? Number(rest[1]) : undefined;
        const doc = view.state.doc.toString();
        const decl = findDeclaration(describe(doc), doc, word, index, buffer);
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
