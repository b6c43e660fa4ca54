"""The test project's ``opcode`` object type, declared the way Mesa's docs/_exts/formatting.py
declares it for tgsi.rst (our own small equivalent): ``.. opcode:: MOV - Move`` is an entry of
objtype ``opcode`` whose name is the part before " - ", and ``:opcode:`MOV``` links to it."""

from sphinx import addnodes


def parse_opcode(env, sig, signode):
    name, _, what = sig.partition(" - ")
    name = name.strip()
    signode += addnodes.desc_name(name, name)
    if what:
        signode += addnodes.desc_annotation(f" - {what.strip()}", f" - {what.strip()}")
    return name


def setup(app):
    app.add_object_type("opcode", "opcode", "%s (TGSI opcode)", parse_opcode)
    app.add_role("ext", ext_role)
    return {"parallel_read_safe": True}


def ext_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """Mesa's ``:ext:`GL_ARB_…``` (an extension's name; Mesa links it to Khronos): a literal here."""
    from docutils import nodes

    return [nodes.literal(rawtext, text)], []
