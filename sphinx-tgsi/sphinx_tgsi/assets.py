"""Where the widget's files are, and putting them into an HTML build's ``_static/``.

The files are the ``tgsi-shader`` npm package (the ``<tgsi-shader>`` and ``<tgsi-lanes>``
elements, the two WebAssembly engines, the reference's data and the language's vocabulary).
``scripts/build-package.mjs`` copies the package into ``sphinx_tgsi/assets/tgsi-shader/`` before
``pip install``; the ``tgsi_assets`` setting points at another copy (e.g.
``node_modules/tgsi-shader``).
"""

from __future__ import annotations

import filecmp
import json
import shutil
from functools import lru_cache
from pathlib import Path

from sphinx.errors import ExtensionError

HERE = Path(__file__).resolve().parent
BUNDLED = HERE / "assets" / "tgsi-shader"
#: Our own page script and style (the Run buttons, the lane tables' frame).
WEB = HERE / "web"
#: Where the package goes in the output, under ``_static/``.
STATIC_NAME = "tgsi-shader"


def package_dir(config) -> Path:
    """The widget package folder this build uses (checked: it must hold the element)."""
    chosen = Path(config.tgsi_assets) if config.tgsi_assets else BUNDLED
    if not (chosen / "tgsi-shader.js").is_file():
        where = (
            f"tgsi_assets = {str(config.tgsi_assets)!r}"
            if config.tgsi_assets
            else f"the installed package ({BUNDLED})"
        )
        raise ExtensionError(
            f"sphinx-tgsi: no tgsi-shader.js in {where}. Build the widget package "
            "(`node scripts/build-package.mjs` in the TGSI Playground repository) before "
            "`pip install sphinx-tgsi/`, or set tgsi_assets to a tgsi-shader package folder "
            "(e.g. node_modules/tgsi-shader)."
        )
    return chosen


@lru_cache(maxsize=4)
def _json(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def reference_data(config) -> dict:
    """The opcode reference's entries by name (the package's reference.json)."""
    path = package_dir(config) / "reference.json"
    if not path.is_file():
        raise ExtensionError(f"sphinx-tgsi: {path} is missing (a tgsi-shader package older than 0.1?)")
    return {e["name"]: e for e in _json(path)}


def vocabulary_file(folder: Path = BUNDLED) -> Path:
    return folder / "vocabulary.json"


def on_builder_inited(app) -> None:
    """HTML builds: our script and style on every page (they load the elements only where used)."""
    if app.builder.format != "html":
        return
    package_dir(app.config)
    app.config.html_static_path.append(str(WEB))
    run = "true" if app.config.tgsi_run_buttons else "false"
    app.add_js_file("sphinx-tgsi.js", type="module", **{"data-tgsi-run-buttons": run})
    app.add_css_file("sphinx-tgsi.css")


def copy_package(app, exception) -> None:
    """After an HTML build: the widget package into ``_static/tgsi-shader/`` (changed files only)."""
    if exception is not None or app.builder.format != "html":
        return
    source = package_dir(app.config)
    target = Path(app.outdir) / "_static" / STATIC_NAME
    for path in source.rglob("*"):
        if path.is_dir():
            continue
        dest = target / path.relative_to(source)
        if dest.is_file() and filecmp.cmp(path, dest, shallow=False):
            continue
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, dest)
