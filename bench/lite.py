"""Section ``lite``: what the in-browser runtime (``_build/html/lite/``) costs.

Built by ``python -m agentmsg_docs html`` in a private copy of the repository (as
``bench/docs_build.py`` does), all three languages:

- size: the bytes of ``lite/`` for the whole site, split into Pyodide's runtime, the
  wheels the kernel loads, the notebooks with their media, and JupyterLite's own app
  (target: at most 45 MB);
- build time: the runtime step of a clean build (as the build reports it), and what the
  step adds to a build, measured as a build where only ``lite/`` is missing minus a build
  where nothing changed (median of the repeats, interleaved);
- the no-op rebuild: a build with nothing changed leaves ``lite/`` alone (target: not
  rebuilt, no byte changed);
- the kernel: seconds from opening a notebook in headless Chromium (Debian's, every
  request outside 127.0.0.1 refused) to an idle Pyodide kernel, cold (a fresh browser
  profile) and warm (the same profile opening a second notebook).
"""

from __future__ import annotations

import hashlib
import re
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from ._common import Check, Options, Row, Section, Table, table_languages
from ._serve import CHROMIUM, local_routes, offline_chromium, served
from .docs_build import build, copy_repository, make_clean

ROOT = Path(__file__).resolve().parent.parent
SIZE_TARGET = 45_000_000
"""The whole site's runtime weighs at most this many bytes."""
NOTEBOOKS = (
    f"{table_languages()[0]}/create_message.ipynb",
    f"{(table_languages()[1:] or table_languages())[0]}/tools.ipynb",  # a translated one
)
"""The notebook opened cold, then the one opened warm in the same profile."""


def lite_seconds(output: str) -> float | None:
    """The runtime step's own seconds, from its ``== lite: done in <s>s`` line."""
    found = re.search(r"^== lite: done in ([\d.]+)s", output, re.M)
    return float(found.group(1)) if found else None


def tree_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


def sizes(lite: Path) -> dict[str, int]:
    """Bytes of ``lite/`` by part."""
    pyodide = lite / "static" / "pyodide"
    parts = {
        "Pyodide runtime and standard library": [
            p for p in pyodide.iterdir() if p.suffix != ".whl" and p.is_file()
        ],
        "wheels the kernel loads (IPython, agentmsg, ...)": sorted(pyodide.glob("*.whl")),
        "notebooks and media (files/, api/contents/)": [
            p
            for folder in (lite / "files", lite / "api" / "contents")
            for p in folder.rglob("*")
            if p.is_file()
        ],
    }
    counted = {p for paths in parts.values() for p in paths}
    parts["JupyterLite's app (notebook, file browser, kernel extension)"] = [
        p for p in lite.rglob("*") if p.is_file() and p not in counted
    ]
    found = {name: sum(p.stat().st_size for p in paths) for name, paths in parts.items()}
    found["total"] = sum(found.values())
    return found


# -- the kernel in Chromium ------------------------------------------------------------


_READY = """path => {
  const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  if (!panel || !panel.context || panel.context.path !== path) return false;
  const session = panel.sessionContext.session;
  const kernel = session && session.kernel;
  return Boolean(kernel && kernel.status === "idle" && kernel.connectionStatus === "connected");
}"""


def kernel_ready_times(site: Path, repeats: int) -> tuple[list[float], list[float], int]:
    """Seconds from opening a notebook to an idle kernel: cold (fresh profile) and warm
    (the same profile, a second notebook); and how many requests left 127.0.0.1."""
    from playwright.sync_api import sync_playwright

    cold: list[float] = []
    warm: list[float] = []
    outside: list[str] = []
    with served(site) as base, sync_playwright() as playwright:
        browser = offline_chromium(playwright)
        handle = local_routes(base, outside)

        try:
            for _ in range(repeats):
                context = browser.new_context()
                try:
                    context.route("**/*", handle)
                    page = context.new_page()
                    for path, times in zip(NOTEBOOKS, (cold, warm), strict=True):
                        started = time.perf_counter()
                        page.goto(f"{base}lite/notebooks/index.html?path={path}")
                        page.wait_for_function(_READY, arg=path, timeout=300_000)
                        times.append(time.perf_counter() - started)
                finally:
                    context.close()
        finally:
            browser.close()
    return cold, warm, len(outside)


# -- the section -------------------------------------------------------------------


def run(options: Options) -> list[Table]:
    repeats = 3 if options.repeats >= 5 else 2
    with tempfile.TemporaryDirectory(prefix="agentmsg-bench-lite-") as tmp:
        repo = copy_repository(Path(tmp) / "repo")
        site = repo / "_build" / "html"
        make_clean(repo)
        clean = build(repo)
        clean_step = lite_seconds(clean.output)
        before = tree_digest(site / "lite")
        noop, only_lite, steps = [], [], []
        for _ in range(repeats):  # interleaved
            noop.append(build(repo))
            shutil.rmtree(site / "lite")
            (repo / "_build" / "stamps" / "lite.sha256").unlink()
            only_lite.append(build(repo))
            steps.append(lite_seconds(only_lite[-1].output) or float("nan"))
        last_noop = build(repo)
        noop.append(last_noop)
        unchanged = tree_digest(site / "lite") == before
        skipped = all("== lite: up to date" in b.output for b in noop)
        weights = sizes(site / "lite")
        chromium = Path(CHROMIUM).is_file()
        try:
            import playwright  # noqa: F401
        except ImportError:
            chromium = False
        cold, warm, outside = kernel_ready_times(site, repeats) if chromium else ([], [], 0)

    def median(values: list[float]) -> float:
        return statistics.median(values) if values else float("nan")

    added = median([b.wall for b in only_lite]) - median([b.wall for b in noop])
    build_table = Table(
        key="lite.build",
        title="In-browser runtime: build time (all languages, after the language builds)",
        unit="s",
        columns=("seconds",),
        compare=False,
        rows=[
            Row("the runtime step of a clean build", {"seconds": clean_step or float("nan")}),
            Row(
                f"the runtime step alone (median of {repeats})",
                {"seconds": median(steps)},
                samples={"seconds": steps},
            ),
            Row(
                "added to a build: only lite/ missing minus nothing changed",
                {"seconds": added},
                samples={"seconds": [b.wall for b in only_lite]},
            ),
            Row(
                f"build with nothing changed (median of {len(noop)})",
                {"seconds": median([b.wall for b in noop])},
                samples={"seconds": [b.wall for b in noop]},
            ),
            Row("clean build, all languages, runtime included", {"seconds": clean.wall}),
        ],
        parameters={"repeats": repeats, "noop_skipped_lite": skipped, "unchanged": unchanged},
        notes=[
            "`python -m agentmsg_docs html` in a private copy of the repository; the step's "
            "own time is what it prints (`== lite: done in ...`): laying out the notebooks, "
            "building agentmsg's wheel with hatchling, writing the lock file and running "
            "`jupyter lite build`.",
            f"nothing changed: the runtime was {'skipped' if skipped else 'REBUILT'} and "
            f"lite/ {'is byte for byte the same' if unchanged else 'CHANGED'}.",
        ],
    )
    build_table.checks.append(
        Check(
            "build with nothing changed leaves lite/ alone",
            f"{'skipped' if skipped else 'rebuilt'}, {'unchanged' if unchanged else 'changed'}",
            "skipped, unchanged",
            skipped and unchanged,
        )
    )
    size_table = Table(
        key="lite.size",
        title="In-browser runtime: size of lite/ for the whole site (every language)",
        unit="B",
        columns=("bytes",),
        compare=False,
        rows=[Row(name, {"bytes": float(value)}) for name, value in weights.items()],
        parameters={"target_at_most": SIZE_TARGET},
        notes=[
            "Uncompressed bytes on disk; a host that compresses (gzip, brotli) sends less: "
            "the wasm and the JavaScript compress well, the wheels and the stdlib zip not.",
        ],
    )
    size_table.checks.append(
        Check(
            "size of lite/",
            f"{weights['total'] / 1e6:.1f} MB",
            f"<= {SIZE_TARGET / 1e6:g} MB",
            weights["total"] <= SIZE_TARGET,
        )
    )
    kernel_table = Table(
        key="lite.kernel",
        title="In-browser runtime: opening a notebook to a ready kernel (headless Chromium)",
        unit="s",
        columns=("median", "min", "max"),
        compare=False,
        rows=[
            Row(
                f"cold: fresh profile, {NOTEBOOKS[0]}",
                {"median": median(cold), "min": min(cold, default=0), "max": max(cold, default=0)},
                samples={"median": cold},
            ),
            Row(
                f"warm: same profile, {NOTEBOOKS[1]}",
                {"median": median(warm), "min": min(warm, default=0), "max": max(warm, default=0)},
                samples={"median": warm},
            ),
        ],
        parameters={"repeats": repeats, "requests_outside": outside, "chromium": chromium},
        notes=[
            "From page.goto() of lite/notebooks/index.html?path=... to the notebook's kernel "
            "idle and connected: loading JupyterLite, Pyodide's 9.6 MB wasm and stdlib, "
            "the preloaded wheels, and starting IPython. Served from 127.0.0.1 by Python's "
            f"http.server; requests outside 127.0.0.1 refused: {outside} made.",
            *(
                []
                if chromium
                else [f"not measured: {CHROMIUM} or the playwright package is missing"]
            ),
        ],
    )
    kernel_table.checks.append(
        Check(
            "requests leaving 127.0.0.1 while the kernel starts",
            str(outside) if chromium else "not measured",
            "0",
            chromium and outside == 0,
        )
    )
    return [build_table, size_table, kernel_table]


SECTION = Section(
    name="lite",
    description="in-browser runtime: size, build time, no-op rebuild, kernel start in Chromium",
    run=run,
)
