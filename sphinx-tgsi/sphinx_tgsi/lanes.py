"""Live lane tables under TGSI opcode entries, and the ``:tgsi-op:`` role.

With ``tgsi_opcode_lane_tables = True``, every entry of an ``opcode`` object type (declared the
way Mesa's ``docs/_exts/formatting.py`` declares it: ``app.add_object_type("opcode", ...)``, so
``.. opcode:: MOV - Move`` is a ``desc`` node of objtype ``opcode``) gets, at the end of its
description, the opcode's live lane table (``<tgsi-lanes>``) and, where the opcode reference
has one, its rendered example (``<tgsi-shader>``): the reference's own data
(``reference.json``), carried inline so the page needs no fetch. An entry that names several
opcodes (``.. opcode:: DDX, DDX_FINE - ...``) gets a table for each one the reference covers.
"""

from __future__ import annotations

import html
import json
import re

from docutils import nodes
from sphinx import addnodes
from sphinx.util import logging

from . import assets
from .directive import widget_html

logger = logging.getLogger(__name__)

_NAME = re.compile(r"[A-Z][A-Z0-9_]*")


def opcode_names(signature: addnodes.desc_signature) -> list[str]:
    """The opcode names an entry's signature declares (its name part, before " - ")."""
    name_nodes = list(signature.findall(addnodes.desc_name))
    text = name_nodes[0].astext() if name_nodes else signature.astext().split(" - ")[0]
    return _NAME.findall(text.upper())


def _inline_json(entry: dict) -> str:
    # Inside <script>: "</" would end it; "<!--" could open an HTML comment.
    return json.dumps(entry, ensure_ascii=False).replace("</", "<\\/").replace("<!--", "<\\!--")


def live_html(entry: dict, with_example: bool) -> str:
    """The lane table (and rendered example) of one reference entry."""
    name = html.escape(entry["name"])
    parts = [
        f'<div class="tgsi-opcode-live" data-op="{name}">',
        f'<tgsi-lanes op="{name}"><script type="application/json">{_inline_json(entry)}</script></tgsi-lanes>',
    ]
    example = entry.get("example") if with_example else None
    if example:
        attributes: dict[str, str | None] = {"width": "128", "height": "128", "label": f"{entry['name']} example"}
        if example.get("textures"):
            attributes["textures"] = example["textures"]
        parts.append('<figure class="tgsi-opcode-example">')
        parts.append(widget_html(example["program"], None, attributes, []))
        parts.append(f'<figcaption>Rendered live: {html.escape(example.get("caption", ""))}.</figcaption></figure>')
    parts.append("</div>")
    return "".join(parts)


def on_doctree_resolved(app, doctree: nodes.document, docname: str) -> None:
    if not app.config.tgsi_opcode_lane_tables or app.builder.format != "html":
        return
    data = assets.reference_data(app.config)
    for desc in doctree.findall(addnodes.desc):
        if desc.get("objtype") != "opcode":
            continue
        contents = [c for c in desc.children if isinstance(c, addnodes.desc_content)]
        if not contents:
            continue
        names: list[str] = []
        for sig in desc.children:
            if isinstance(sig, addnodes.desc_signature):
                names += [n for n in opcode_names(sig) if n not in names]
        covered = [data[n] for n in names if n in data and (data[n].get("rows") or data[n].get("tex"))]
        for entry in covered:
            contents[-1] += nodes.raw("", live_html(entry, app.config.tgsi_opcode_examples), format="html")


def opcode_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``:tgsi-op:`ADD``` -> a link to ADD's section: in the reference at ``tgsi_reference_url``
    when set, else to the project's own ``opcode`` entry (like ``:opcode:``)."""
    env = inliner.document.settings.env
    op = text.strip().upper()
    if not _NAME.fullmatch(op):
        msg = inliner.reporter.error(f":tgsi-op: {text!r} is not an opcode name", line=lineno)
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    try:
        known = assets.reference_data(env.config)
    except Exception:  # noqa: BLE001 - no data: the name is not checked
        known = None
    if known is not None and op not in known:
        logger.warning(f":tgsi-op: {op} is not a TGSI opcode the reference knows", location=(env.docname, lineno), type="tgsi", subtype="opcode")
    literal = nodes.literal(op, op, classes=["tgsi-op"])
    base = env.config.tgsi_reference_url
    if base:
        ref = nodes.reference(rawtext, "", refuri=f"{base}#{op}", internal=False)
        ref += literal
        return [ref], []
    std = env.get_domain("std")
    if "opcode" in std.object_types:
        xref = addnodes.pending_xref(rawtext, refdomain="std", reftype="opcode", reftarget=op, refexplicit=False, refwarn=True)
        xref += literal
        return [xref], []
    logger.warning(":tgsi-op: links nowhere: set tgsi_reference_url or declare an opcode object type", location=(env.docname, lineno), type="tgsi", subtype="opcode")
    return [literal], []
