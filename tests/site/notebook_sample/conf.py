"""A small Sphinx project whose page uses every reST construct the notebook writer knows.

``tests/site/test_notebook_markdown.py`` builds it in each language: at the end of the
build, the text blocks of ``index.rst`` (separated by ``.. cell`` comments, as a
gallery script's are by ``# %%``) go through ``agentmsg_docs.gallery.notebooks.notebook_markdown``,
and the Markdown cells are written to ``cells.json`` in the output folder. The test puts
``docs/`` on ``PYTHONPATH``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

project = "sample"
release = "9.9"
exclude_patterns = ["cells.json"]


def _write_cells(app: Any, exception: Exception | None) -> None:
    from agentmsg_docs.gallery.notebooks import notebook_markdown

    if exception is None:
        texts = (HERE / "index.rst").read_text(encoding="utf-8").split("\n.. cell\n")
        cells = notebook_markdown(app, "index", texts, "index.rst")
        output = Path(app.outdir, "cells.json")
        output.write_text(json.dumps(cells, ensure_ascii=False, indent=1), encoding="utf-8")


def setup(app: Any) -> None:
    app.connect("build-finished", _write_cells)
