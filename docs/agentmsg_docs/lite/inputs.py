"""The inputs of the in-browser runtime (:mod:`agentmsg_docs.lite.build`): where each comes
from, whether it is installed as pinned, and their content hash.

- the language builds' notebooks (``_build/html/<lang>/_downloads/<hash>/<tutorial>.ipynb``)
  and the data folders beside the tutorials (``docs/examples/media/``);
- Pyodide's runtime (the npm package) and the kernel's wheels (PyPI), pinned in
  ``docs/lite/`` and installed by ``make`` into ``.venv/lite/``;
- JupyterLite's pyodide-kernel extension, from the virtual environment.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from agentmsg_docs.lite.pyodide_lock import sha256

__all__ = [
    "APPS",
    "INPUTS",
    "KERNEL_PLUGIN",
    "LITE_DIR",
    "LOCK",
    "PINS",
    "RUNTIME_FILES",
    "Inputs",
    "LiteError",
    "find_inputs",
    "lite_digest",
    "pinned_wheels",
    "source_date_epoch",
    "tutorial_names",
]

ROOT = Path(__file__).resolve().parents[3]
DOCS = ROOT / "docs"
EXAMPLES = DOCS / "examples"
PINS = DOCS / "lite"
"""What is pinned and configured: ``package.json`` and ``package-lock.json`` (Pyodide, from
npm), ``pyodide-wheels.txt`` (the kernel's wheels, from PyPI, with hashes) and
``jupyter-lite.json`` (JupyterLite's settings)."""
INPUTS = Path(sys.prefix) / "lite"
"""Where ``make`` installs the pinned inputs: ``node_modules/pyodide/`` and ``wheels/``."""
LITE_DIR = "lite"
"""The runtime's folder in the site, beside the languages' folders."""
STAMP = "lite"  # _build/stamps/lite.sha256
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
"""What the browser loads from the npm package (the rest are types, maps and demos)."""
LOCK = "pyodide-lock.json"
KERNEL_EXTENSION = "@jupyterlite/pyodide-kernel-extension"
KERNEL_PLUGIN = f"{KERNEL_EXTENSION}:kernel"
KERNEL_WHEELS = ("piplite", "pyodide_kernel", "ipykernel")
"""The kernel's own wheels, shipped inside ``jupyterlite-pyodide-kernel``."""
APPS = ("notebooks", "tree")
"""The JupyterLite apps built: the notebook a tutorial page opens, and the file browser
its logo leads to."""
DISTRIBUTIONS = ("jupyterlite-core", "jupyterlite-pyodide-kernel", "jupyter-server", "hatchling")
"""The installed distributions whose version changes the site."""


class LiteError(Exception):
    """The in-browser runtime could not be built; the message says why and what to do."""


def tutorial_names(examples: Path = EXAMPLES) -> list[str]:
    """The tutorials, by name: one per gallery script in ``docs/examples``."""
    return sorted(path.stem for path in examples.glob("*.py") if path.name != "__init__.py")


# ----------------------------------------------------------------------------------------
# The inputs


@dataclass(frozen=True)
class Inputs:
    """Everything a build of the runtime reads, found and checked."""

    notebooks: dict[tuple[str, str], Path]  #: (lang, tutorial) -> downloaded notebook
    data: list[Path]  #: the folders in docs/examples the tutorials read (media/)
    runtime: Path  #: the npm package ``pyodide``
    wheels: list[Path]  #: the kernel's wheels from PyPI and from jupyterlite-pyodide-kernel
    extension: Path  #: the kernel's JupyterLab extension, in the virtual environment


def _notebooks(
    site: Path, langs: Sequence[str], names: Sequence[str]
) -> dict[tuple[str, str], Path]:
    found: dict[tuple[str, str], Path] = {}
    for lang in langs:
        for name in names:
            matches = sorted((site / lang / "_downloads").glob(f"*/{name}.ipynb"))
            if len(matches) != 1:
                msg = (
                    f"the {lang} build should have written one {name}.ipynb download, "
                    f"not {len(matches)} (in {site / lang / '_downloads'})"
                )
                raise LiteError(msg)
            found[(lang, name)] = matches[0]
    return found


_PIN = re.compile(
    r"^(?P<name>[A-Za-z0-9][\w.-]*)==(?P<version>\S+)\s+--hash=sha256:(?P<hash>[0-9a-f]{64})"
)


def pinned_wheels(pins: Path = PINS / "pyodide-wheels.txt") -> dict[str, str]:
    """The pins of ``pyodide-wheels.txt``: sha256 for each ``name==version``."""
    text = re.sub(r"\\\n\s*", " ", pins.read_text(encoding="utf-8"))
    pinned = {}
    for line in text.splitlines():
        match = _PIN.match(line.strip())
        if match:
            pinned[f"{match['name']}=={match['version']}"] = match["hash"]
    return pinned


_INSTALL_HINT = "`make html` installs it (the `.venv/lite/.installed` step of the Makefile)"


def _runtime() -> Path:
    runtime = INPUTS / "node_modules" / "pyodide"
    wanted = json.loads((PINS / "package.json").read_text(encoding="utf-8"))["dependencies"]
    try:
        have = json.loads((runtime / "package.json").read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError):
        have = None
    if have != wanted["pyodide"] or not all((runtime / f).is_file() for f in RUNTIME_FILES):
        msg = (
            f"Pyodide {wanted['pyodide']} from npm is missing in {runtime} "
            f"(found {have or 'nothing'}); {_INSTALL_HINT}"
        )
        raise LiteError(msg)
    return runtime


def _pypi_wheels() -> list[Path]:
    by_hash = {sha256(path): path for path in sorted((INPUTS / "wheels").glob("*.whl"))}
    missing = [pin for pin, digest in pinned_wheels().items() if digest not in by_hash]
    if missing:
        where = INPUTS / "wheels"
        msg = f"the kernel's wheels {', '.join(missing)} are missing in {where}; {_INSTALL_HINT}"
        raise LiteError(msg)
    return [by_hash[digest] for digest in pinned_wheels().values()]


def _kernel_extension() -> Path:
    extension = Path(sys.prefix) / "share" / "jupyter" / "labextensions" / KERNEL_EXTENSION
    if not (extension / "package.json").is_file():
        msg = f"jupyterlite-pyodide-kernel is not installed in {sys.prefix} (make venv)"
        raise LiteError(msg)
    return extension


def _kernel_wheels(extension: Path) -> list[Path]:
    wheels = []
    for name in KERNEL_WHEELS:
        found = sorted((extension / "static" / "pypi").glob(f"{name}-*-py3-none-any.whl"))
        if len(found) != 1:
            msg = f"jupyterlite-pyodide-kernel should ship one {name} wheel, not {len(found)}"
            raise LiteError(msg)
        wheels.append(found[0])
    return wheels


def find_inputs(site: Path, langs: Sequence[str]) -> Inputs:
    """Find and check every input of the runtime for the built languages *langs*.

    Raises:
        LiteError: A notebook is missing or ambiguous, or a pinned input is not installed
            (or not the pinned one).
    """
    extension = _kernel_extension()
    return Inputs(
        notebooks=_notebooks(site, langs, tutorial_names()),
        data=sorted(p for p in EXAMPLES.iterdir() if p.is_dir() and p.name != "__pycache__"),
        runtime=_runtime(),
        wheels=[*_pypi_wheels(), *_kernel_wheels(extension)],
        extension=extension,
    )


def source_date_epoch() -> int:
    """The timestamp JupyterLite clamps to (at least 1, the smallest it accepts)."""
    value = os.environ.get("SOURCE_DATE_EPOCH", "")
    return max(1, int(value)) if value.isdigit() else 1


def lite_digest(inputs: Inputs) -> str:
    """Content hash of everything the runtime is built from (see the module docstring)."""
    digest = hashlib.sha256()

    def feed(label: str, data: bytes) -> None:
        digest.update(f"{label}\0{len(data)}\0".encode())
        digest.update(data)

    def tree(label: str, root: Path) -> None:
        for path in sorted(root.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                feed(f"{label}/{path.relative_to(root).as_posix()}", path.read_bytes())

    here = Path(__file__).parent
    for module in ("build.py", "inputs.py", "pyodide_lock.py"):  # the code that builds it
        feed(f"builder {module}", (here / module).read_bytes())
    feed("runner.py", (here / "runner.py").read_bytes())
    feed("epoch", str(source_date_epoch()).encode())
    for name in DISTRIBUTIONS:
        feed(f"dist {name}", importlib.metadata.version(name).encode())
    tree("pins", PINS)
    for (lang, name), path in sorted(inputs.notebooks.items()):
        feed(f"notebook {lang}/{name}", path.read_bytes())
    for folder in inputs.data:
        tree(f"data {folder.name}", folder)
    for name in (*RUNTIME_FILES, LOCK):
        feed(f"runtime {name}", (inputs.runtime / name).read_bytes())
    for wheel in inputs.wheels:
        feed(f"wheel {wheel.name}", wheel.read_bytes())
    for name in ("pyproject.toml", "README.md"):
        feed(name, (ROOT / name).read_bytes())
    tree("src", ROOT / "src")
    return digest.hexdigest()
