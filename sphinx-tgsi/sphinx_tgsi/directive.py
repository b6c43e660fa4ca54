"""The ``tgsi-shader`` directive: a live ``<tgsi-shader>`` widget, checked when the docs build.

.. code-block:: rst

   .. tgsi-shader::
      :width: 160
      :height: 160
      :editable:

      FRAG
      DCL IN[0], GENERIC[0], PERSPECTIVE
      DCL OUT[0], COLOR
        0: MOV OUT[0], IN[0]
        1: END

The options are the widget's attributes (web/widget/package/README.md, "Attributes"). The
shader is the content, or a file named by the argument (relative to the document, like
``literalinclude``). HTML builds get the widget and, unless ``:hide-source:``, the highlighted
source under it; other builders get the source only.
"""

from __future__ import annotations

import html
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from . import validate

logger = logging.getLogger(__name__)

MAX_SIZE = 1024


def _size(value: str) -> int:
    n = directives.positive_int(value)
    if n > MAX_SIZE:
        raise ValueError(f"at most {MAX_SIZE} pixels")
    return n


def _time(value: str) -> str:
    float(value)  # raises ValueError for a non-number
    return value.strip()


def _constants(value: str) -> list[str]:
    """``B:I=X,Y,Z,W`` items separated by ``;`` or new lines (the CLI's ``--const`` syntax)."""
    return [c.strip() for c in value.replace("\n", ";").split(";") if c.strip()]


def _choice(*values: str):
    return lambda v: directives.choice(v, values)


#: Option -> how it is read. Flags become attributes without a value.
OPTION_SPEC = {
    "width": _size,
    "height": _size,
    "mesh": _choice("fullscreen", "quad", "cube", "sphere"),
    "constants": _constants,
    "textures": directives.unchanged_required,
    "time": _time,
    "vs": directives.path,
    "label": directives.unchanged_required,
    "theme": _choice("light", "dark", "auto"),
    "poster": directives.uri,
    "playground": directives.uri,
    "editable": directives.flag,
    "inspect": directives.flag,
    "agal": directives.flag,
    "controls": directives.flag,
    "autoplay": directives.flag,
    "paused": directives.flag,
    # Runs the clock with the play controls: `autoplay` + `controls`.
    "animate": directives.flag,
    "hide-source": directives.flag,
    "class": directives.class_option,
}

#: Options that are the widget's attributes with the same name and value.
PLAIN_ATTRIBUTES = ("width", "height", "mesh", "textures", "time", "label", "theme", "poster", "playground")
FLAG_ATTRIBUTES = ("editable", "inspect", "agal", "controls", "autoplay", "paused")


def _script(kind: str, text: str) -> str:
    # Script content is raw text in HTML: "</" would end it early (TGSI never holds it).
    body = text.rstrip().replace("</", "<\\/")
    return f'<script type="{kind}">\n{body}\n</script>'


def widget_html(fs: str, vs: str | None, attributes: dict[str, str | None], classes: list[str]) -> str:
    """The markup of a ``<tgsi-shader>`` element (also used for the opcode entries' examples)."""
    attrs = "".join(
        f" {name}" if value is None else f' {name}="{html.escape(value, quote=True)}"'
        for name, value in attributes.items()
    )
    children = _script("text/x-tgsi", fs)
    if vs:
        children += _script("text/x-tgsi-vs", vs)
    cls = " ".join(["tgsi-widget", *classes])
    return f'<div class="{html.escape(cls)}"><tgsi-shader{attrs}>{children}</tgsi-shader></div>'


def report(directive: SphinxDirective, what: str, diagnostics: list[dict], first_line: int | None) -> int:
    """Logs each error at its .rst line (``first_line``: the file line of the shader's line 1;
    None for a shader from another file, whose own line is in the message). Returns the count."""
    errors = [d for d in diagnostics if d.get("severity") == "error"]
    source, line = directive.get_source_info()
    for d in errors:
        at = line
        if first_line is not None and d.get("line"):
            at = first_line + int(d["line"]) - 1
        where = f"{d['line']}:{d['column']}" if d.get("line") else ""
        code = f" [{d['code']}]" if d.get("code") else ""
        message = f"TGSI {what}{code}: {where + ': ' if where else ''}{d['message']}"
        logger.error(message, location=(directive.env.docname, at), type="tgsi", subtype="invalid")
        validate.record(directive.env, directive.env.docname, message)
    return len(errors)


class TgsiShader(SphinxDirective):
    """``.. tgsi-shader:: [FILE]`` with the shader as content (or in FILE)."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = OPTION_SPEC

    def _read(self, name: str) -> tuple[str, str]:
        rel, path = self.env.relfn2path(name, self.env.docname)
        self.env.note_dependency(rel)
        return rel, Path(path).read_text(encoding="utf-8")

    def run(self) -> list[nodes.Node]:
        if self.arguments and self.content:
            raise self.error("tgsi-shader: give the shader as content or as a file argument, not both")
        fs_first_line: int | None = None
        if self.arguments:
            try:
                fs_name, fs = self._read(self.arguments[0])
            except OSError as err:
                raise self.error(f"tgsi-shader: cannot read {self.arguments[0]}: {err}") from err
        elif self.content:
            fs = "\n".join(self.content) + "\n"
            fs_name = None
            # content_offset is the 0-based line of the content's first line.
            fs_first_line = self.content_offset + 1
        else:
            raise self.error("tgsi-shader: no shader (give it as content or as a file argument)")

        vs = None
        if "vs" in self.options:
            try:
                _, vs = self._read(self.options["vs"])
            except OSError as err:
                raise self.error(f"tgsi-shader: cannot read the vertex shader {self.options['vs']}: {err}") from err

        constants = self.options.get("constants", [])
        if self.config.tgsi_validate:
            answer = validate.checker(self.env.app).check(fs, vs, constants)
            what = f"shader {fs_name}" if fs_name else "shader"
            report(self, what, answer["fs"], fs_first_line)
            report(self, f"vertex shader {self.options.get('vs')}", answer.get("vs", []), None)
            report(self, "link", answer.get("link", []), None)
            report(self, "constants", answer.get("constants", []), None)

        attributes: dict[str, str | None] = {}
        for name in PLAIN_ATTRIBUTES:
            if name in self.options:
                attributes[name] = str(self.options[name])
        if constants:
            attributes["constants"] = ";".join(constants)
        for name in FLAG_ATTRIBUTES:
            if name in self.options:
                attributes[name] = None
        if "animate" in self.options:
            attributes.setdefault("autoplay", None)
            attributes.setdefault("controls", None)

        raw = nodes.raw("", widget_html(fs, vs, attributes, self.options.get("class", [])), format="html")
        only_html = addnodes.only(expr="html")
        only_html += raw
        # The widget's own source: no Run button (the widget above runs it).
        source = nodes.literal_block(fs, fs, language="tgsi", classes=["tgsi-widget-source"])
        self.set_source_info(source)
        result: list[nodes.Node] = [only_html]
        if "hide-source" in self.options:
            other = addnodes.only(expr="not html")
            other += source
            result.append(other)
        else:
            result.append(source)
        return result
