"""Every downloadable notebook runs top to bottom in a real Jupyter kernel, and shows
what it saved.

A reader downloads ``<name>.ipynb`` from a tutorial page (in any language), opens it in
Jupyter and runs all cells. Here each notebook from ``_build/html/<lang>/_downloads`` runs
in a fresh IPython kernel of the current interpreter (so against the working tree's
agentmsg), in an empty temporary folder, with a 60 s limit per cell, once: its outputs are
compared with the ones the notebook carries (which the build took from its one run of
the example). One notebook also runs in a new virtual environment without agentmsg,
whose first cell installs it from the wheel of the working tree, offline.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import pytest
from sphinx.errors import ExtensionError

import agentmsg
from _checkout import TUTORIALS
from _languages import IN_PROGRESS, shown_text
from _notebooks import kernel_dir, notebook, run_notebook
from agentmsg_docs.gallery.cards import style_once
from agentmsg_docs.gallery.downloads import (
    INSTALL_MESSAGE,
    INSTALL_NOTE,
    Captured,
    cell_outputs,
    install_cell,
    load_catalog,
)
from agentmsg_docs.i18n.languages import LANGUAGES
from agentmsg_docs.lite.build import build_agentmsg_wheel
from agentmsg_docs.lite.runner import EXAMPLES, data_files

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


@dataclass(frozen=True)
class Run:
    """A downloaded notebook, executed."""

    saved: nbformat.NotebookNode  #: the notebook as downloaded
    executed: nbformat.NotebookNode  #: the same after the run, its outputs the run's
    imported: str  #: the file of the agentmsg the kernel imported
    wrote_outside: bool  #: whether the repository's top folder changed during the run


#: The tutorials' data folders (``docs/examples/media/``...), which JupyterLite serves
#: beside the notebooks and the build's run of the examples finds beside the scripts.
DATA_FOLDERS = sorted({name.split("/")[0] for name in data_files()})


def reads_data(path: Path) -> bool:
    """Whether the code of notebook *path* names one of :data:`DATA_FOLDERS`."""
    nb = nbformat.read(path, as_version=4)
    code = "\n".join(cell.source for cell in nb.cells if cell.cell_type == "code")
    return any(f'"{folder}"' in code or f'"{folder}/' in code for folder in DATA_FOLDERS)


@pytest.fixture(scope="module")
def executed(
    built_site: Path, kernel_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Callable[..., Run]:
    """Runs notebook *name* of *lang* once per module (:func:`run_notebook`, seeded as
    the build seeds the example) in its own folder, empty or, with ``data=True``, holding
    the tutorials' data folders; later calls reuse the run."""
    runs: dict[tuple[str, str, bool], Run] = {}

    def run(lang: str, name: str, *, data: bool = False) -> Run:
        if (lang, name, data) not in runs:
            path = notebook(built_site, lang, name)
            workdir = tmp_path_factory.mktemp(f"{lang}-{name}")
            for folder in DATA_FOLDERS if data else ():
                shutil.copytree(EXAMPLES / folder, workdir / folder)
            before = set(os.listdir(ROOT))
            started = time.monotonic()
            done, imported = run_notebook(path, workdir, seed=name)
            TIMINGS[f"{lang}/{name}{' (data)' if data else ''}"] = time.monotonic() - started
            saved = nbformat.read(path, as_version=4)
            runs[lang, name, data] = Run(saved, done, imported, before != set(os.listdir(ROOT)))
        return runs[lang, name, data]

    return run


def shown(nb: nbformat.NotebookNode) -> list[tuple[int, list[dict[str, Any]]]]:
    """What each code cell of *nb* shows, by cell index: its printed text (standard
    output and error, each joined); a result's data without its plain-text fallback where
    it has HTML (the page shows the HTML alone, and so does a notebook front end); no
    execution counts; and the cards' style sheet once in the notebook
    (:func:`agentmsg_docs.gallery.cards.style_once`)."""
    cells: list[tuple[int, list[dict[str, Any]]]] = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        outputs: list[dict[str, Any]] = []
        for output in cell.outputs:
            kind = output.output_type
            if kind == "stream":
                if not outputs or outputs[-1]["output_type"] != kind:
                    outputs.append({"output_type": kind, "stdout": "", "stderr": ""})
                outputs[-1][output.name] += output.text
            elif kind == "error":
                outputs.append({"output_type": kind, "ename": output.ename})
            else:
                data = dict(output.data)
                if "text/html" in data:
                    data.pop("text/plain", None)
                outputs.append({"output_type": kind, "data": data})
        cells.append((index, outputs))
    html = [
        out["data"] for _, outputs in cells for out in outputs if "text/html" in out.get("data", {})
    ]
    for data, text in zip(html, style_once([data["text/html"] for data in html]), strict=True):
        data["text/html"] = text
    return cells


def interleaved(box: str, stdout: str, stderr: str) -> str:
    """*stdout* and *stderr* as one box of text: in the order of *box* where *box* is an
    interleaving of their lines (Jupyter sends each stream on its own, so which came
    first between the two is lost), else one after the other.

    >>> interleaved("a\\nwarn\\nb\\n", "a\\nb\\n", "warn\\n")
    'a\\nwarn\\nb\\n'
    >>> interleaved("b\\na\\n", "a\\nb\\n", "")
    'a\\nb\\n'
    """
    lines, out, err = (text.splitlines(keepends=True) for text in (box, stdout, stderr))
    reachable = {(0, 0)}  # lines of stdout and stderr that can make the box's first lines
    for line in lines:
        reachable = {
            step
            for i, j in reachable
            for step, ok in (
                ((i + 1, j), i < len(out) and out[i] == line),
                ((i, j + 1), j < len(err) and err[j] == line),
            )
            if ok
        }
    return box if (len(out), len(err)) in reachable else stdout + stderr


def as_page_shows(
    saved: list[tuple[int, list[dict[str, Any]]]], fresh: list[tuple[int, list[dict[str, Any]]]]
) -> tuple[list[tuple[int, list[dict[str, Any]]]], list[tuple[int, list[dict[str, Any]]]]]:
    """*saved* and *fresh* (:func:`shown`) with each cell's printed text in one box, as
    the page shows it (sphinx-gallery captured standard output and error together, and
    the notebook saves that box as one stream): the fresh run's two streams in the
    order of the saved box where they fit it (:func:`interleaved`)."""

    def boxes(
        cells: list[tuple[int, list[dict[str, Any]]]], order: dict[int, str]
    ) -> list[tuple[int, list[dict[str, Any]]]]:
        return [
            (
                index,
                [
                    {
                        "output_type": "stream",
                        "text": interleaved(order.get(index, ""), out["stdout"], out["stderr"]),
                    }
                    if out["output_type"] == "stream"
                    else out
                    for out in outputs
                ],
            )
            for index, outputs in cells
        ]

    saved_boxes = boxes(saved, {})
    order = {
        index: out["text"] for index, outputs in saved_boxes for out in outputs if "text" in out
    }
    return saved_boxes, boxes(fresh, order)


class TestDownloadedNotebooks:
    """The notebooks readers download run without an error, in every language, and show
    again what they carry."""

    @pytest.mark.parametrize("lang", LANGS)
    @pytest.mark.parametrize("name", TUTORIALS)
    def test_runs_top_to_bottom(self, executed: Callable[..., Run], lang: str, name: str) -> None:
        """Each code cell runs in order without raising, in an empty folder, against the
        working tree's agentmsg; nothing is written outside that folder."""
        run = executed(lang, name)
        errors = [
            output.get("ename")
            for cell in run.executed.cells
            if cell.cell_type == "code"
            for output in cell.get("outputs", [])
            if output.get("output_type") == "error"
        ]
        assert [] == errors
        assert str(ROOT / "src" / "agentmsg" / "__init__.py") == run.imported
        assert not run.wrote_outside

    @pytest.mark.parametrize("lang", LANGS)
    @pytest.mark.parametrize("name", TUTORIALS)
    def test_run_shows_the_saved_outputs(
        self, built_site: Path, executed: Callable[..., Run], lang: str, name: str
    ) -> None:
        """Run (seeded as the build runs the example, beside the data files the example
        found), every code cell shows what the notebook carries: the same printed text
        and the same cards, in its language."""
        run = executed(lang, name, data=reads_data(notebook(built_site, lang, name)))
        expected, actual = as_page_shows(shown(run.saved), shown(run.executed))
        assert expected == actual

    @pytest.mark.parametrize("lang", LANGS)
    @pytest.mark.parametrize("name", TUTORIALS)
    def test_carries_what_the_page_shows(self, built_site: Path, lang: str, name: str) -> None:
        """Before anything runs, the notebook holds outputs: printed text in every
        tutorial, and a chat card in every tutorial whose page shows one, in the
        notebook's language (the card's HTML is marked with it), with no execution count
        (no kernel ran this notebook)."""
        nb = nbformat.read(notebook(built_site, lang, name), as_version=4)
        outputs = [out for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs]
        page = (built_site / lang / "tutorial" / f"{name}.html").read_text(encoding="utf-8")
        cards = [
            out for out in outputs if "agentmsg-card" in out.get("data", {}).get("text/html", "")
        ]
        assert (True, "agentmsg-card" in page) == (
            any(out.output_type == "stream" for out in outputs),
            bool(cards),
        )
        counts = {cell.execution_count for cell in nb.cells if cell.cell_type == "code"}
        counts |= {out.get("execution_count") for out in outputs}
        assert {None} == counts

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
        """A notebook opens with its title cell and the cell that installs agentmsg; in a
        translation, a translated Markdown line (its English in a language in progress
        that lacks it) and the code that sets the display language follow them, and the
        English notebook goes on with the tutorial's own cells."""
        nb = nbformat.read(notebook(built_site, lang, name), as_version=4)
        code = f'import agentmsg\n\nagentmsg.set_display_language("{lang}")'
        first = [(cell.cell_type, cell.source) for cell in nb.cells[:1] + nb.cells[2:4]]
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


def catalog_text(lang: str, english: str) -> str:
    """*english* as the notebooks of *lang* write it: its translation in the language's
    ``sphinx.po``, else the English."""
    if lang == "en":
        return english
    return load_catalog(ROOT / "locales" / lang / "LC_MESSAGES" / "sphinx.po").get(english, english)


class TestInstallCell:
    """The first code cell installs agentmsg where it is missing, and only there."""

    @pytest.mark.parametrize("lang", LANGS)
    @pytest.mark.parametrize("name", TUTORIALS)
    def test_installs_this_version(self, built_site: Path, lang: str, name: str) -> None:
        """Right after the title, the notebook's first code cell installs the agentmsg
        version the site documents, its comment and message in the notebook's language
        (translated in a complete language)."""
        nb = nbformat.read(notebook(built_site, lang, name), as_version=4)
        note, message = (catalog_text(lang, text) for text in (INSTALL_NOTE, INSTALL_MESSAGE))
        if lang not in {"en", *IN_PROGRESS}:
            assert (INSTALL_NOTE, INSTALL_MESSAGE) != (note, message[: len(INSTALL_MESSAGE)])
            assert note != INSTALL_NOTE and message != INSTALL_MESSAGE
        expected = install_cell(agentmsg.__version__, note, message)
        assert ("code", expected, []) == (
            nb.cells[1].cell_type,
            nb.cells[1].source,
            nb.cells[1].outputs,
        )
        assert f'"agentmsg=={agentmsg.__version__}"' in nb.cells[1].source

    @pytest.mark.parametrize("lang", LANGS)
    def test_does_nothing_where_agentmsg_imports(
        self, executed: Callable[..., Run], lang: str
    ) -> None:
        """In a Python that has agentmsg (here the working tree's), the cell shows nothing
        and installs nothing: the kernel still imports the working tree's agentmsg."""
        run = executed(lang, TUTORIALS[0])
        cell = run.executed.cells[1]
        assert ("code", [], str(ROOT / "src" / "agentmsg" / "__init__.py")) == (
            cell.cell_type,
            cell.outputs,
            run.imported,
        )


@pytest.fixture
def fresh_kernel(tmp_path: Path) -> Iterator[tuple[str, Path, Path]]:
    """A Jupyter kernel in a new virtual environment without agentmsg, whose pip installs
    from a folder holding the wheel hatchling builds from the working tree, and from
    nothing else (``PIP_NO_INDEX``, ``PIP_FIND_LINKS``, no pip configuration file).

    The kernel itself (ipykernel and what it needs) comes from this environment through
    a folder of links to its packages, agentmsg's left out. Yields the kernel's name, the
    new environment's ``site-packages`` and its Python.
    """
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    build_agentmsg_wheel(wheels, dict(os.environ))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = "import sysconfig; print(sysconfig.get_path('purelib'))"
    site_packages = Path(
        subprocess.run(
            [python, "-c", purelib], capture_output=True, text=True, check=True
        ).stdout.strip()
    )
    kernel_packages = tmp_path / "kernel-packages"
    kernel_packages.mkdir()
    for entry in Path(sysconfig.get_path("purelib")).iterdir():
        if "agentmsg" not in entry.name.lower() and entry.suffix != ".pth":
            (kernel_packages / entry.name).symlink_to(entry)
    (site_packages / "agentmsg-test-kernel.pth").write_text(
        f"{kernel_packages}\n", encoding="utf-8"
    )

    name = "agentmsg-test-fresh-venv"
    spec = tmp_path / "jupyter" / "kernels" / name
    spec.mkdir(parents=True)
    env = {
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": str(wheels),
        "PIP_CONFIG_FILE": os.devnull,
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PYTHONPATH": "",
        "JUPYTER_PLATFORM_DIRS": "1",
    }
    argv = [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    kernel = {"argv": argv, "display_name": "fresh venv", "language": "python", "env": env}
    (spec / "kernel.json").write_text(json.dumps(kernel), encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
        patch.setenv("JUPYTER_PLATFORM_DIRS", "1")
        yield name, site_packages, python


@pytest.mark.slow
class TestFreshEnvironment:
    """Opened in a Jupyter whose Python has no agentmsg, a downloaded notebook installs
    it and runs (one notebook, one new environment: it costs a wheel and a venv)."""

    def test_installs_agentmsg_and_runs(
        self, built_site: Path, fresh_kernel: tuple[str, Path, Path], tmp_path: Path
    ) -> None:
        """The first code cell says, in the notebook's language, that it installs
        agentmsg, and installs the version the site documents from the wheel; every cell
        after it runs against that installed agentmsg."""
        kernel, site_packages, python = fresh_kernel
        missing = subprocess.run([python, "-c", "import agentmsg"], capture_output=True, env={})
        assert 0 != missing.returncode  # the environment really lacks agentmsg
        lang, name = "es", "tools"
        workdir = tmp_path / "work"
        workdir.mkdir()
        executed, imported = run_notebook(notebook(built_site, lang, name), workdir, kernel=kernel)

        errors = [
            output.get("ename")
            for cell in executed.cells
            if cell.cell_type == "code"
            for output in cell.outputs
            if output.output_type == "error"
        ]
        message = catalog_text(lang, INSTALL_MESSAGE) % agentmsg.__version__
        said = "".join(output.get("text", "") for output in executed.cells[1].outputs)
        version = subprocess.run(
            [python, "-c", "import importlib.metadata as m; print(m.version('agentmsg'))"],
            capture_output=True,
            text=True,
            env={},
            check=True,
        ).stdout.strip()
        assert ([], f"{message}\n", str(site_packages / "agentmsg" / "__init__.py")) == (
            errors,
            said,
            imported,
        )
        assert agentmsg.__version__ == version


class TestCellOutputs:
    """What the page shows under a code cell becomes the outputs a run in Jupyter gives."""

    def test_printed_text_and_html(self) -> None:
        """Printed text becomes a stream (ending in a newline, as ``print`` writes it) and
        the last value's HTML its result, with no execution count."""
        captured = Captured('print("hi")\nmsg', "hi", "<article>card</article>")
        expected = [
            {"name": "stdout", "output_type": "stream", "text": "hi\n"},
            {
                "data": {"text/html": "<article>card</article>"},
                "execution_count": None,
                "metadata": {},
                "output_type": "execute_result",
            },
        ]
        assert expected == cell_outputs(captured, "x.py, line 3")

    def test_value_shown_as_text_is_refused(self) -> None:
        """A cell that ends with a value shown as text (its repr in the text box, after
        what it printed) stops the build, naming the cell: the box cannot be split into
        the stream and the result a run gives."""
        with pytest.raises(ExtensionError, match=r"^x\.py, line 3: the cell ends with a value"):
            cell_outputs(Captured('print("hi")\ncount', "hi\n\n3", None), "x.py, line 3")

    def test_call_ending_a_cell_prints(self) -> None:
        """A cell that ends with a call (``check(...)``, which returns ``None``) shows
        printed text only."""
        outputs = cell_outputs(Captured("check(a, b)", "unanswered: []", None), "x.py, line 3")
        assert [{"name": "stdout", "output_type": "stream", "text": "unanswered: []\n"}] == outputs
