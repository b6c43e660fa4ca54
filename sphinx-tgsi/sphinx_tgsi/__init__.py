"""sphinx-tgsi: live TGSI shaders in Sphinx documentation.

- ``.. tgsi-shader::`` — a live ``<tgsi-shader>`` widget, checked when the docs build (a shader
  that does not validate fails the build at its ``.rst`` file and line);
- a Pygments lexer for ``tgsi`` (``.. code-block:: tgsi``), with a "Run" button on HTML pages
  for blocks that are whole shaders;
- ``tgsi_opcode_lane_tables = True`` — a live lane table (and rendered example) under every
  entry of an ``opcode`` object type, as Mesa's ``tgsi.rst`` declares its opcodes;
- ``:tgsi-op:`ADD``` — a link to an opcode's section.

The widget's files go into the build's ``_static/tgsi-shader/``: nothing is fetched from elsewhere.
"""

from __future__ import annotations

from . import assets, directive, lanes, lexer, validate

__version__ = "0.1.0"


def setup(app):
    app.add_config_value("tgsi_opcode_lane_tables", False, "env", bool)
    app.add_config_value("tgsi_opcode_examples", True, "env", bool)
    app.add_config_value("tgsi_reference_url", None, "env")
    app.add_config_value("tgsi_validate", True, "env", bool)
    app.add_config_value("tgsi_node", "node", "env", str)
    app.add_config_value("tgsi_assets", None, "env")
    app.add_config_value("tgsi_run_buttons", True, "html", bool)
    app.add_lexer("tgsi", lexer.TgsiLexer)
    app.add_directive("tgsi-shader", directive.TgsiShader)
    app.add_role("tgsi-op", lanes.opcode_role)
    app.connect("builder-inited", assets.on_builder_inited)
    app.connect("doctree-resolved", lanes.on_doctree_resolved)
    app.connect("env-purge-doc", validate.purge_doc)
    app.connect("env-merge-info", validate.merge_info)
    app.connect("build-finished", assets.copy_package)
    app.connect("build-finished", validate.fail_build)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}

