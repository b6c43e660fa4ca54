# The sample Sphinx project of tests/e2e/sphinx.test.mjs: Mesa's tgsi.rst, unchanged, with an
# `opcode` object type like Mesa's, plus a page of tgsi-shader directives and tgsi code blocks.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "_exts"))

project = "sphinx-tgsi sample"
extensions = ["opcodes", "sphinx_tgsi"]
tgsi_opcode_lane_tables = True
html_theme = "alabaster"
exclude_patterns = ["_build"]
# Offline: the formulas stay TeX text instead of loading MathJax from a CDN.
html_static_path = ["_static"]
mathjax_path = "no-mathjax.js"
# A favicon of its own: without one the browser asks the server for /favicon.ico (a 404).
html_favicon = "favicon.svg"
