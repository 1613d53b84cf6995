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


def run_notebook(
    path: Path, workdir: Path, *, seed: str | None = None, kernel: str = KERNEL
) -> tuple[nbformat.NotebookNode, str]:
    """Run every cell of *path* in a fresh *kernel* whose working directory is *workdir*;
    return the executed notebook (without the cells added here) and the file of the
    agentmsg the kernel imported. With a *seed*, the cells run inside
    ``agentmsg.deterministic(seed)``, as the docs build runs the example. A cell that
    raises raises ``CellExecutionError``."""
    nb = nbformat.read(path, as_version=4)
    if seed is not None:
        # Kept in a name: a block that is collected would leave (its generator closes).
        code = (
            f"import agentmsg\n_seeded = agentmsg.deterministic(seed={seed!r})\n_seeded.__enter__()"
        )
        nb.cells.insert(0, nbformat.v4.new_code_cell(code))
    # Afterwards, one more cell reports which agentmsg the kernel imported.
    nb.cells.append(nbformat.v4.new_code_cell("import agentmsg; print(agentmsg.__file__)"))
    client = NotebookClient(
        nb,
        timeout=CELL_TIMEOUT,
        kernel_name=kernel,
        resources={"metadata": {"path": str(workdir)}},
    )
    client.execute(cwd=str(workdir))
    imported = "".join(output.get("text", "") for output in nb.cells[-1].outputs).strip()
    nb.cells = nb.cells[1 if seed is not None else 0 : -1]
    return nb, imported
