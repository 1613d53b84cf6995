"""Running a downloaded notebook in a real Jupyter kernel: the kernel, the download of a
tutorial, the run (``test_notebooks`` and ``browser/test_runner``)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
KERNEL = "agentmsg-test-python3"
CELL_TIMEOUT = 60


@pytest.fixture(scope="module")
def kernel_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A Jupyter data folder with one kernel, ``sys.executable -m ipykernel_launcher``,
    put first on ``JUPYTER_PATH`` while the module's tests run."""
    folder = tmp_path_factory.mktemp("jupyter")
    spec = folder / "kernels" / KERNEL
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                "display_name": "Python 3 (agentmsg tests)",
                "language": "python",
                "env": {"PYTHONPATH": str(ROOT / "src"), "JUPYTER_PLATFORM_DIRS": "1"},
            }
        ),
        encoding="utf-8",
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(
            "JUPYTER_PATH", os.pathsep.join([str(folder), os.environ.get("JUPYTER_PATH", "")])
        )
        patch.setenv("JUPYTER_PLATFORM_DIRS", "1")
        yield folder


def notebook(site: Path, lang: str, name: str) -> Path:
    """The ``<name>.ipynb`` download of *lang*."""
    found = sorted((site / lang / "_downloads").glob(f"*/{name}.ipynb"))
    assert 1 == len(found), f"{lang}: {len(found)} downloads called {name}.ipynb"
    return found[0]


def run_notebook(path: Path, workdir: Path) -> nbformat.NotebookNode:
    """Run every cell of *path* in a fresh kernel (:data:`KERNEL`) whose working directory
    is *workdir*; return the executed notebook. A cell that raises raises
    ``CellExecutionError``."""
    nb = nbformat.read(path, as_version=4)
    # Afterwards, one more cell reports which agentmsg the kernel imported.
    nb.cells.append(nbformat.v4.new_code_cell("import agentmsg; print(agentmsg.__file__)"))
    client = NotebookClient(
        nb,
        timeout=CELL_TIMEOUT,
        kernel_name=KERNEL,
        resources={"metadata": {"path": str(workdir)}},
    )
    client.execute(cwd=str(workdir))
    return nb
