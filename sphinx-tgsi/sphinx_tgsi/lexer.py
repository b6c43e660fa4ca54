"""A Pygments lexer for TGSI text (alias ``tgsi``), as the playground's editor highlights it.

The words come from the engine: ``vocabulary.json`` in the widget package is the parser's own
tables (opcodes, processors, register files, semantics, declaration and immediate words), so the
highlighting follows the parser. Without that file (a package installed before the widget was
built) the classes are told apart by position instead: the word after an instruction's label is
its opcode, a word before ``[`` a register file.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache

from pygments.lexer import Lexer
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, Text, Whitespace

from . import assets

__all__ = ["TgsiLexer"]


@lru_cache(maxsize=1)
def _words() -> dict[str, frozenset[str]] | None:
    path = assets.vocabulary_file()
    try:
        v = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    headers = set(v.get("processors", [])) | {"DCL", "IMM", "PROPERTY"}
    modifier_lists = [
        "interpolations", "locations", "immediateTypes", "textureTargets", "returnTypes",
        "memoryKinds", "memoryQualifiers", "properties", "propertyValues",
    ]
    modifiers = {w for k in modifier_lists for w in v.get(k, [])}
    modifiers |= {k for k in v.get("keywords", []) if k not in ("DCL", "IMM", "PROPERTY")}
    return {
        "headers": frozenset(headers),
        "opcodes": frozenset(v.get("opcodes", [])),
        "files": frozenset(v.get("files", [])),
        "semantics": frozenset(v.get("semantics", [])),
        "modifiers": frozenset(modifiers),
    }


_TOKEN = re.compile(
    r"""
    (?P<ws>[ \t]+|\r?\n)
  | (?P<comment>;[^\n]*)
  | (?P<hex>-?0x[0-9a-fA-F]+)
  | (?P<float>-?(?:\d+\.\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+))
  | (?P<label>\d+:)
  | (?P<int>-?\d+)
  | (?P<swizzle>\.[xyzwrgbaXYZWRGBA]{1,4}\b)
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>[\[\](){},])
  | (?P<op>[-|+])
  | (?P<other>.)
    """,
    re.VERBOSE,
)

class TgsiLexer(Lexer):
    """TGSI, the text shader IR of Mesa's Gallium drivers (``tgsi_dump`` / ``tgsi_text`` syntax)."""

    name = "TGSI"
    aliases = ["tgsi"]
    filenames = ["*.tgsi"]
    mimetypes = ["text/x-tgsi"]
    url = "https://docs.mesa3d.org/gallium/tgsi.html"

    def get_tokens_unprocessed(self, text):
        words = _words()
        after_label = False
        line_start = True
        for m in _TOKEN.finditer(text):
            kind = m.lastgroup
            value = m.group()
            pos = m.start()
            if kind == "ws":
                if "\n" in value:
                    line_start = True
                    after_label = False
                yield pos, Whitespace if "\n" in value else Text, value
                continue
            if kind == "comment":
                yield pos, Comment.Single, value
            elif kind == "hex":
                yield pos, Number.Hex, value
            elif kind == "float":
                yield pos, Number.Float, value
            elif kind == "label":
                yield pos, Name.Label, value
                after_label = True
                line_start = False
                continue
            elif kind == "int":
                yield pos, Number.Integer, value
            elif kind == "swizzle":
                yield pos, Name.Attribute, value
            elif kind == "word":
                yield pos, self._word(value, words, line_start, after_label, text, m.end()), value
            elif kind == "punct":
                yield pos, Punctuation, value
            elif kind == "op":
                yield pos, Operator, value
            else:
                yield pos, Text, value
            after_label = False
            line_start = False

    @staticmethod
    def _word(value: str, words, line_start: bool, after_label: bool, text: str, end: int):
        w = value.upper()
        base = w[:-4] if w.endswith("_SAT") else w
        if words is None:
            # By position: a line starts with the processor, DCL, IMM or PROPERTY; an
            # instruction's label is followed by its opcode; a register file by "[".
            if text[end:end + 1] == "[":
                return Keyword.Type
            if line_start:
                return Keyword
            return Name.Function if after_label else Name
        if w in words["headers"]:
            return Keyword
        if w in words["opcodes"] or base in words["opcodes"]:
            return Name.Function
        if w in words["files"]:
            return Keyword.Type
        if w in words["semantics"]:
            return Name.Constant
        if w in words["modifiers"]:
            return Keyword.Pseudo
        return Name
