"""The in-browser runtime: one JupyterLite site for every language, in ``_build/html/lite/``.

:func:`build_lite` writes it from

- the notebooks of the language builds, the same translated ones readers download
  (``_build/html/<lang>/_downloads/<hash>/<tutorial>.ipynb``), one folder per language
  (``lite/files/<lang>/<tutorial>.ipynb``), with the data folders the tutorials read
  (``docs/examples/media/``) beside them, so that their relative paths work;
- Pyodide's runtime and standard library (the npm ``pyodide`` package) and the wheels the
  kernel needs on top of it (PyPI), pinned with their hashes in ``docs/lite/`` and installed
  by ``make`` into ``.venv/lite/``: never downloaded here;
- agentmsg's own wheel, built from the working tree with hatchling;
- JupyterLite itself (``jupyterlite-core``, ``jupyterlite-pyodide-kernel``, from the
  virtual environment) and the settings in ``docs/lite/jupyter-lite.json``.

Nothing the site loads comes from elsewhere. Pyodide's lock file
(``lite/static/pyodide/pyodide-lock.json``) lists exactly the wheels served beside it, with
their sha256, and the kernel preloads all of them, agentmsg included: ``import agentmsg``
works without an install cell, and an optional import of a package that is not served
(``jsonschema``, whose compiled dependency exists only on Pyodide's CDN) raises
``ImportError`` at once, so the tutorial takes its fallback instead of Pyodide looking for
the package on its CDN.

The site is rebuilt, from scratch, only when one of its inputs changed: their content hash
is kept in ``_build/stamps/lite.sha256``.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from builder.stamps import forget_stamp, up_to_date, write_stamp

__all__ = [
    "LITE_DIR",
    "Inputs",
    "LiteError",
    "build_agentmsg_wheel",
    "build_lite",
    "canonical",
    "find_inputs",
    "lite_digest",
    "lock_entries",
    "pinned_wheels",
    "tutorial_names",
]

ROOT = Path(__file__).resolve().parents[2]
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


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


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
    by_hash = {_sha256(path): path for path in sorted((INPUTS / "wheels").glob("*.whl"))}
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


def _source_date_epoch() -> int:
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

    feed("builder", Path(__file__).read_bytes())
    feed("epoch", str(_source_date_epoch()).encode())
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


# ----------------------------------------------------------------------------------------
# Pyodide's lock file


def canonical(name: str) -> str:
    """A distribution's name as Pyodide's lock file keys it (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _metadata(wheel: zipfile.ZipFile) -> tuple[str, str, list[str], list[str]]:
    """Name, version, ``Requires-Dist`` lines and importable top-level names of a wheel."""
    names = wheel.namelist()
    info = next(n for n in names if re.fullmatch(r"[^/]+\.dist-info/METADATA", n))
    text = wheel.read(info).decode("utf-8")
    header = text.split("\n\n", 1)[0]
    fields: dict[str, list[str]] = {}
    for line in header.splitlines():
        key, _, value = line.partition(":")
        fields.setdefault(key.strip(), []).append(value.strip())
    tops: set[str] = set()
    for name in names:
        first, _, rest = name.partition("/")
        if first.endswith((".dist-info", ".data")):
            continue
        if rest and rest.split("/")[0] and first.isidentifier():
            if f"{first}/__init__.py" in names:
                tops.add(first)
        elif first.endswith(".py") and first[:-3].isidentifier():
            tops.add(first[:-3])
    return fields["Name"][0], fields["Version"][0], fields.get("Requires-Dist", []), sorted(tops)


def _environment(python: str) -> dict[str, str]:
    """Marker values of Pyodide's interpreter (for ``Requires-Dist`` markers)."""
    return {
        "implementation_name": "cpython",
        "os_name": "posix",
        "platform_machine": "wasm32",
        "platform_python_implementation": "CPython",
        "platform_system": "Emscripten",
        "python_full_version": python,
        "python_version": ".".join(python.split(".")[:2]),
        "sys_platform": "emscripten",
        "extra": "",
    }


def lock_entries(wheels: Iterable[Path], python: str) -> dict[str, dict[str, Any]]:
    """Pyodide lock entries for *wheels*, keyed by canonical name.

    Dependencies are read from each wheel's metadata, with markers evaluated for Pyodide's
    interpreter (version *python*, ``sys_platform == "emscripten"``).

    Raises:
        LiteError: A wheel needs a distribution that is not among *wheels*.
    """
    from packaging.requirements import Requirement

    environment = _environment(python)
    entries: dict[str, dict[str, Any]] = {}
    needs: dict[str, list[str]] = {}
    for path in wheels:
        with zipfile.ZipFile(path) as wheel:
            name, version, requires, imports = _metadata(wheel)
        key = canonical(name)
        needs[key] = sorted(
            {
                canonical(requirement.name)
                for requirement in map(Requirement, requires)
                if requirement.marker is None or requirement.marker.evaluate(environment)
            }
        )
        entries[key] = {
            "name": key,
            "version": version,
            "file_name": path.name,
            "install_dir": "site",
            "sha256": _sha256(path),
            "package_type": "package",
            "imports": imports,
            "depends": needs[key],
            "unvendored_tests": False,
        }
    unmet = [
        f"{key} needs {dep}" for key, deps in needs.items() for dep in deps if dep not in entries
    ]
    if unmet:
        msg = (
            f"the kernel's wheels are incomplete: {'; '.join(unmet)} (docs/lite/pyodide-wheels.txt)"
        )
        raise LiteError(msg)
    return dict(sorted(entries.items()))


# ----------------------------------------------------------------------------------------
# The build


def _run(command: Sequence[str], what: str, cwd: Path, env: dict[str, str]) -> str:
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        output = result.stdout[-3000:] + result.stderr[-3000:]
        msg = f"{what} failed (exit {result.returncode}):\n{output}"
        raise LiteError(msg)
    return result.stdout


def build_agentmsg_wheel(outdir: Path, env: dict[str, str]) -> Path:
    """Build agentmsg's wheel from the working tree into *outdir* with hatchling's build
    backend (installed in the virtual environment: nothing is downloaded)."""
    code = "import sys, hatchling.build as backend; print(backend.build_wheel(sys.argv[1]))"
    out = _run([sys.executable, "-c", code, str(outdir)], "building agentmsg's wheel", ROOT, env)
    return outdir / out.strip().splitlines()[-1]


def _prepare(inputs: Inputs, work: Path, env: dict[str, str]) -> tuple[Path, Path]:
    """Lay out JupyterLite's project folder and the contents in *work*; return both."""
    project, contents = work / "project", work / "contents"
    pyodide = project / "static" / "pyodide"
    pyodide.mkdir(parents=True)
    for name in RUNTIME_FILES:
        shutil.copyfile(inputs.runtime / name, pyodide / name)
    wheels = [*inputs.wheels, build_agentmsg_wheel(work / "dist", env)]
    for wheel in wheels:
        shutil.copyfile(wheel, pyodide / wheel.name)
    upstream = json.loads((inputs.runtime / LOCK).read_text(encoding="utf-8"))
    packages = lock_entries([pyodide / wheel.name for wheel in wheels], upstream["info"]["python"])
    lock = {"info": upstream["info"], "packages": packages}
    (pyodide / LOCK).write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n", encoding="utf-8")

    config = json.loads((PINS / "jupyter-lite.json").read_text(encoding="utf-8"))
    kernel = config["jupyter-config-data"]["litePluginSettings"][KERNEL_PLUGIN]
    kernel["loadPyodideOptions"]["packages"] = list(packages)  # every one, agentmsg too
    (project / "jupyter-lite.json").write_text(
        json.dumps(config, indent=2) + "\n", encoding="utf-8"
    )

    for (lang, name), notebook in sorted(inputs.notebooks.items()):
        target = contents / lang / f"{name}.ipynb"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(notebook, target)
    for lang in sorted({lang for lang, _ in inputs.notebooks}):
        for folder in inputs.data:
            shutil.copytree(folder, contents / lang / folder.name)
    return project, contents


def _jupyter_lite_build(
    inputs: Inputs, project: Path, contents: Path, out: Path, env: dict[str, str]
) -> None:
    command = [
        sys.executable,
        "-m",
        "jupyterlite_core",
        "build",
        "--lite-dir",
        str(project),
        "--output-dir",
        str(out),
        "--contents",
        str(contents),
        *(f"--apps={app}" for app in APPS),
        "--no-sourcemaps",
        "--no-unused-shared-packages",
        # Only the kernel's extension, not whatever else the environment has installed.
        "--ignore-sys-prefix",
        f"--LiteBuildConfig.federated_extensions={inputs.extension}",
        f"--source-date-epoch={_source_date_epoch()}",
    ]
    _run(command, "jupyter lite build", project, env)


def _add_favicons(out: Path) -> None:
    """The favicons the notebook page switches between (busy, idle), from jupyter_server:
    JupyterLite copies them only when it reads the environment's extensions, which this
    build turns off."""
    import jupyter_server

    favicons = Path(jupyter_server.__file__).parent / "static" / "favicons"
    shutil.copytree(favicons, out / "static" / "favicons", dirs_exist_ok=True)


def _check(out: Path) -> None:
    """The built site loads Pyodide from itself, and nothing from a CDN."""
    config = json.loads((out / "jupyter-lite.json").read_text(encoding="utf-8"))
    kernel = config["jupyter-config-data"]["litePluginSettings"][KERNEL_PLUGIN]
    if kernel.get("pyodideUrl") != "./static/pyodide/pyodide.mjs":
        msg = f"JupyterLite would load Pyodide from {kernel.get('pyodideUrl')!r}, not from the site"
        raise LiteError(msg)
    for name in (*RUNTIME_FILES, LOCK):
        if not (out / "static" / "pyodide" / name).is_file():
            msg = f"the runtime lacks static/pyodide/{name}"
            raise LiteError(msg)


def _size(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def build_lite(site: Path, langs: Sequence[str]) -> None:
    """Build the in-browser runtime of the built languages *langs* into ``site/lite``.

    Skipped when nothing it reads changed since the last build (``_build/stamps/lite.sha256``).

    Raises:
        LiteError: An input is missing (the message says how to install it) or a step of
            the build failed (with its output).
    """
    site = site.resolve()
    target = site / LITE_DIR
    if not langs:
        return
    inputs = find_inputs(site, langs)
    digest = lite_digest(inputs)
    if up_to_date(STAMP, digest) and (target / "jupyter-lite.json").is_file():
        print("== lite: up to date (no notebook, pin or package changed)", flush=True)
        return
    print(f"== lite: building the in-browser runtime ({', '.join(langs)})", flush=True)
    started = time.monotonic()
    forget_stamp(STAMP)
    env = {**os.environ, "SOURCE_DATE_EPOCH": str(_source_date_epoch())}
    site.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="lite-", dir=site.parent) as folder:
        work = Path(folder)
        project, contents = _prepare(inputs, work, env)
        out = work / "out"
        _jupyter_lite_build(inputs, project, contents, out, env)
        _add_favicons(out)
        _check(out)
        shutil.rmtree(target, ignore_errors=True)
        os.replace(out, target)
    write_stamp(STAMP, digest)
    size = _size(target) / 1e6
    print(f"== lite: done in {time.monotonic() - started:.1f}s ({size:.1f} MB)", flush=True)
