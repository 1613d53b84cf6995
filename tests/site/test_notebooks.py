"""Every downloadable notebook runs top to bottom in a real Jupyter kernel.

A reader downloads ``<name>.ipynb`` from a tutorial page (in any language), opens it in
Jupyter and runs all cells. Here each notebook from ``_build/html/<lang>/_downloads`` runs
in a fresh IPython kernel of the current interpreter (so against the working tree's
agentmsg), in an empty temporary folder, with a 60 s limit per cell.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest

from _checkout import TUTORIALS
from _languages import IN_PROGRESS, shown_text
from _notebooks import kernel_dir, notebook, run_notebook
from agentmsg_docs.languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
LANGS = tuple(language.code for language in LANGUAGES)
#: Seconds each notebook took, printed at the end of the session by ``timings``.
TIMINGS: dict[str, float] = {}

__all__ = ["kernel_dir"]  # a fixture of _notebooks


@pytest.fixture(scope="module", autouse=True)
def timings() -> Iterator[None]:
    """Print how long the notebooks took (``pytest -s`` shows it; so does the report)."""
    yield
    if TIMINGS:
        total = sum(TIMINGS.values())
        print(f"\n{len(TIMINGS)} notebooks ran in {total:.1f}s:")
        for name, seconds in sorted(TIMINGS.items()):
            print(f"  {name:32} {seconds:5.1f}s")


class TestDownloadedNotebooks:
    """The notebooks readers download run without an error, in every language."""

    @pytest.mark.parametrize("lang", LANGS)
    @pytest.mark.parametrize("name", TUTORIALS)
    def test_runs_top_to_bottom(
        self, built_site: Path, kernel_dir: Path, tmp_path: Path, lang: str, name: str
    ) -> None:
        """Each code cell runs in order without raising, in an empty folder, against the
        working tree's agentmsg; nothing is written outside that folder."""
        path = notebook(built_site, lang, name)
        before = set(os.listdir(ROOT))
        started = time.monotonic()
        executed = run_notebook(path, tmp_path)
        TIMINGS[f"{lang}/{name}"] = time.monotonic() - started

        code_cells = [cell for cell in executed.cells if cell.cell_type == "code"]
        errors = [
            output.get("ename")
            for cell in code_cells
            for output in cell.get("outputs", [])
            if output.get("output_type") == "error"
        ]
        assert [] == errors
        imported = "".join(output.get("text", "") for output in code_cells[-1].outputs).strip()
        assert str(ROOT / "src" / "agentmsg" / "__init__.py") == imported
        assert before == set(os.listdir(ROOT))

    @pytest.mark.parametrize("lang", LANGS)
    @pytest.mark.parametrize("name", TUTORIALS)
    def test_declares_a_python3_kernel(self, built_site: Path, lang: str, name: str) -> None:
        """The notebook asks for the standard ``python3`` kernel, which Jupyter has."""
        nb = nbformat.read(notebook(built_site, lang, name), as_version=4)
        assert "python3" == nb.metadata["kernelspec"]["name"]
        nbformat.validate(nb)


class TestDisplayLanguage:
    """A zh_CN or es notebook shows its cards in its language; the English one is as the
    tutorial is."""

    @pytest.mark.parametrize("lang", LANGS)
    @pytest.mark.parametrize("name", TUTORIALS)
    def test_first_cells_set_the_language(self, built_site: Path, lang: str, name: str) -> None:
        """A notebook opens with its title cell; in a translation, a translated Markdown
        line (its English in a language in progress that lacks it) and the code that sets
        the display language follow it, and the English notebook goes on with the
        tutorial's own cells."""
        nb = nbformat.read(notebook(built_site, lang, name), as_version=4)
        code = f'import agentmsg\n\nagentmsg.set_display_language("{lang}")'
        first = [(cell.cell_type, cell.source) for cell in nb.cells[:3]]
        assert ("markdown", True) == (first[0][0], first[0][1].startswith("# "))
        if lang == "en":
            assert "set_display_language" not in json.dumps(first)
        else:
            english = "Run the next cell to show the chat cards in this notebook's language."
            if lang in IN_PROGRESS:  # its catalog's line, or the English one
                line_ok = first[1][1] == shown_text(lang, {"en": english}, "sphinx")
            else:
                line_ok = bool(first[1][1]) and first[1][1] != english
            assert ("markdown", True, ("code", code)) == (first[1][0], line_ok, first[2])
