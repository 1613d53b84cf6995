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

Pyodide's lock file for the served wheels is written by :mod:`agentmsg_docs.lite.pyodide_lock`.

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

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from agentmsg_docs.build.stamps import forget_stamp, up_to_date, write_stamp
from agentmsg_docs.lite.inputs import (
    APPS,
    KERNEL_PLUGIN,
    LITE_DIR,
    LOCK,
    PINS,
    RUNTIME_FILES,
    Inputs,
    LiteError,
    find_inputs,
    lite_digest,
    source_date_epoch,
    tutorial_names,
)
from agentmsg_docs.lite.pyodide_lock import LockError, lock_entries
from agentmsg_docs.lite.runner import add_freshness

__all__ = [
    "LITE_DIR",
    "LiteError",
    "build_agentmsg_wheel",
    "build_lite",
    "find_inputs",
    "lite_digest",
    "tutorial_names",
]

ROOT = Path(__file__).resolve().parents[3]
STAMP = "lite"  # _build/stamps/lite.sha256


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
    try:
        packages = lock_entries([pyodide / w.name for w in wheels], upstream["info"]["python"])
    except LockError as error:
        raise LiteError(str(error)) from error
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
        f"--source-date-epoch={source_date_epoch()}",
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
    env = {**os.environ, "SOURCE_DATE_EPOCH": str(source_date_epoch())}
    site.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="lite-", dir=site.parent) as folder:
        work = Path(folder)
        project, contents = _prepare(inputs, work, env)
        out = work / "out"
        _jupyter_lite_build(inputs, project, contents, out, env)
        _add_favicons(out)
        try:
            add_freshness(out, contents)
        except LookupError as error:
            raise LiteError(str(error)) from error
        _check(out)
        shutil.rmtree(target, ignore_errors=True)
        os.replace(out, target)
    write_stamp(STAMP, digest)
    size = _size(target) / 1e6
    print(f"== lite: done in {time.monotonic() - started:.1f}s ({size:.1f} MB)", flush=True)
