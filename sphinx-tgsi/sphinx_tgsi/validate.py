"""Build-time checks of every shader, by the widget's own engine under Node.js.

One Node process per Sphinx process (started on the first shader) answers one JSON line per
request (``validate.mjs``): the same parser and validator that run in the reader's browser, so a
shader that passes here draws there. Errors are logged at the ``.rst`` file and line of the
offending shader line and recorded in the environment; the build then ends with exit status 1
(``fail_build``), after reporting all of them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
from pathlib import Path

from sphinx.errors import ExtensionError
from sphinx.util import logging

from . import assets

logger = logging.getLogger(__name__)
SCRIPT = Path(__file__).resolve().parent / "validate.mjs"


class Checker:
    """A Node process running validate.mjs, started on first use."""

    def __init__(self, node: str, package: Path):
        self.node = node
        self.package = package
        self.proc: subprocess.Popen | None = None
        # The process that started `proc`: a parallel build's forked readers must each start
        # their own (sharing the parent's pipes would mix their requests).
        self.owner = os.getpid()
        self.lock = threading.Lock()

    def _start(self) -> subprocess.Popen:
        exe = shutil.which(self.node) or (self.node if Path(self.node).is_file() else None)
        if exe is None:
            raise ExtensionError(
                f"sphinx-tgsi checks shaders with Node.js, and {self.node!r} was not found: install "
                "Node.js 20 or newer, set tgsi_node to its path, or set tgsi_validate = False"
            )
        return subprocess.Popen(
            [exe, str(SCRIPT), str(self.package)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def check(self, fs: str, vs: str | None, constants: list[str]) -> dict:
        with self.lock:
            if self.owner != os.getpid():
                self.proc, self.owner = None, os.getpid()
            if self.proc is None or self.proc.poll() is not None:
                self.proc = self._start()
            assert self.proc.stdin is not None and self.proc.stdout is not None
            request = json.dumps({"fs": fs, "vs": vs, "constants": constants})
            try:
                self.proc.stdin.write(request + "\n")
                self.proc.stdin.flush()
                line = self.proc.stdout.readline()
            except OSError as err:
                line = ""
                why = str(err)
            else:
                why = ""
            if not line:
                err_text = (self.proc.stderr.read() if self.proc.stderr else "") or why
                self.proc = None
                raise ExtensionError(f"sphinx-tgsi: the shader checker (Node.js) stopped: {err_text.strip()[:2000]}")
            answer = json.loads(line)
            if "error" in answer:
                raise ExtensionError(f"sphinx-tgsi: the shader checker failed: {answer['error']}")
            return answer

    def close(self) -> None:
        if self.proc is not None and self.owner == os.getpid():
            try:
                self.proc.stdin.close()  # type: ignore[union-attr]
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
            self.proc = None


def checker(app) -> Checker:
    existing = getattr(app, "_tgsi_checker", None)
    if existing is None:
        existing = Checker(app.config.tgsi_node, assets.package_dir(app.config))
        app._tgsi_checker = existing
    return existing


def record(env, docname: str, message: str) -> None:
    if not hasattr(env, "tgsi_invalid"):
        env.tgsi_invalid = {}
    env.tgsi_invalid.setdefault(docname, []).append(message)


def purge_doc(app, env, docname: str) -> None:
    getattr(env, "tgsi_invalid", {}).pop(docname, None)


def merge_info(app, env, docnames, other) -> None:
    for docname, messages in getattr(other, "tgsi_invalid", {}).items():
        if docname in docnames:
            for m in messages:
                record(env, docname, m)


def fail_build(app, exception) -> None:
    """At the end: the build fails (exit status 1) if any shader did not validate; each error
    was logged at its file and line while reading (an unchanged document keeps its errors)."""
    c = getattr(app, "_tgsi_checker", None)
    if c is not None:
        c.close()
    invalid = getattr(app.env, "tgsi_invalid", {}) if app.env is not None else {}
    count = sum(len(v) for v in invalid.values())
    if exception is None and count:
        docs = ", ".join(sorted(invalid))
        logger.error(f"sphinx-tgsi: {count} TGSI error(s) in {docs}: the build fails (each is listed above with its file and line)")
        app.statuscode = 1
