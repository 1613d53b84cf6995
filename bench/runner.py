"""Section ``runner``: the in-page runner of the tutorials (``_static/runner/``), side by
side with its floor and with JupyterLite, in one headless Chromium (Debian's, every
request outside 127.0.0.1 refused), on the built site (``make html`` first).

Seconds from a click to the first block's output on ``en/tutorial/create_message.html``:

- (a) the runner: the block's "Run" button;
- (b) the floor: a bare page that calls ``loadPyodide()`` from the same files, loads the
  same agentmsg wheel and runs the same block, after a click on its one button;
- (c) JupyterLite: the page's "Run in the browser" link, to the first code cell's output
  (run with JupyterLite's own command once the kernel is idle).

Cold is a fresh browser profile (empty cache), warm the same profile's second visit.
Targets: (a) at most 1.25 times (b), cold and warm; (a) at most half of (c).
Also: what the page weighs before any interaction (gzip-compressed, as a host that
compresses sends it) and the runner's share of it (target: at most 30 KB), and Lighthouse
(mobile defaults) for ``bench/lighthouse.py``'s three pages: performance at least 96 and
cumulative layout shift at most 0.02.
"""

from __future__ import annotations

import gzip
import json
import re
import statistics
import time
from pathlib import Path
from typing import Any

from ._common import Check, Options, Row, Section, Table
from ._serve import local_routes, offline_chromium, served
from .lighthouse import LIGHTHOUSE, PAGES
from .lighthouse import report as lighthouse_report

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "_build" / "html"
PAGE = "en/tutorial/create_message.html"
NOTEBOOK = "en/create_message.ipynb"
FLOOR = "bench-runner-floor.html"  # served by the route, not written into the site
WEIGHT_TARGET = 30_000
PERFORMANCE_TARGET = 96
CLS_TARGET = 0.02

#: The floor: the least a page can do to run a block with agentmsg in Pyodide.
FLOOR_PAGE = """<!doctype html><html lang="en"><title>floor</title>
<button id="go">Run</button><pre id="out"></pre>
<script type="module">
const code = %s;
document.getElementById("go").addEventListener("click", async () => {
  const { loadPyodide } = await import("./lite/static/pyodide/pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: "./lite/static/pyodide/" });
  await pyodide.loadPackage("agentmsg");
  pyodide.runPython("import io, contextlib; _out = io.StringIO()");
  pyodide.runPython("with contextlib.redirect_stdout(_out):\\n    exec(" + JSON.stringify(code)
                    + ", {'__name__': '__main__'})");
  document.getElementById("out").textContent = pyodide.runPython("_out.getvalue()") || "-";
});
</script></html>"""

_RUNNER_DONE = """() => {
  const out = document.querySelector('.agentmsg-run-output[data-block="0"]');
  return Boolean(out && ["done", "error", "failed"].includes(out.dataset.state));
}"""
_FLOOR_DONE = "() => document.getElementById('out').textContent !== ''"
_KERNEL_IDLE = """path => {
  const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  if (!panel || !panel.context || panel.context.path !== path) return false;
  const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
  return Boolean(kernel && kernel.status === "idle" && kernel.connectionStatus === "connected");
}"""
# The notebook's cell of the page's first block (the cell before it installs agentmsg
# elsewhere and prints nothing in JupyterLite), so that the three ways run the same code.
_RUN_FIRST = """code => {
  const panel = window.jupyterapp.shell.currentWidget;
  const cells = panel.content.widgets;
  const first = cells.findIndex(
    cell => cell.model.type === "code" && cell.model.sharedModel.getSource().trim() === code
  );
  if (first < 0) throw new Error("no cell holds the page's first block");
  panel.content.activeCellIndex = first;
  window.jupyterapp.commands.execute("notebook:run-cell");
  return first;
}"""
_FIRST_OUTPUT = """first => {
  const cell = window.jupyterapp.shell.currentWidget.content.model.cells.get(first);
  return cell.outputs.length > 0;
}"""


def first_block(site: Path) -> str:
    """The code of the page's first block, as the page shows it."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup((site / PAGE).read_text(encoding="utf-8"), "html.parser")
    return soup.select_one("div.highlight-Python pre").get_text()


def click_to_output(site: Path, repeats: int) -> tuple[dict[str, list[float]], int]:
    """Seconds from the click to the first output, by way and visit, and how many
    requests left 127.0.0.1."""
    from playwright.sync_api import sync_playwright

    code = first_block(site)
    floor = FLOOR_PAGE % json.dumps(code)
    times: dict[str, list[float]] = {}
    outside: list[str] = []

    def clicked(page: Any, url: str, button: str, done: str, arg: object = None) -> float:
        """The moment *button* of *url* is clicked, once *done* holds after it."""
        page.goto(url)
        page.wait_for_selector(button)
        started = time.perf_counter()
        page.locator(button).first.click()
        page.wait_for_function(done, arg=arg, timeout=300_000, polling=50)
        return started

    def runner(page: Any, base: str) -> float:
        started = clicked(page, base + PAGE, ".agentmsg-run-bar button", _RUNNER_DONE)
        return time.perf_counter() - started

    def bare(page: Any, base: str) -> float:
        started = clicked(page, base + FLOOR, "#go", _FLOOR_DONE)
        return time.perf_counter() - started

    def lite(page: Any, base: str) -> float:
        started = clicked(page, base + PAGE, "div.agentmsg-lite a", _KERNEL_IDLE, NOTEBOOK)
        first = page.evaluate(_RUN_FIRST, code.strip())
        page.wait_for_function(_FIRST_OUTPUT, arg=first, timeout=300_000, polling=50)
        return time.perf_counter() - started

    ways = {"(a) in-page runner": runner, "(b) bare loadPyodide()": bare, "(c) JupyterLite": lite}
    with served(site) as base, sync_playwright() as playwright:
        browser = offline_chromium(playwright)
        try:
            for _ in range(repeats):
                for way, measure in ways.items():  # interleaved, a fresh profile each
                    context = browser.new_context(viewport={"width": 1280, "height": 900})
                    try:
                        context.route("**/*", local_routes(base, outside, {FLOOR: floor}))
                        page = context.new_page()
                        for visit in ("cold", "warm"):
                            times.setdefault(f"{way}, {visit}", []).append(measure(page, base))
                    finally:
                        context.close()
        finally:
            browser.close()
    return times, len(outside)


def page_weight(site: Path) -> tuple[int, int]:
    """Gzip-compressed bytes the page loads before any interaction, and the runner's
    part of them: its script, its style sheet and its settings in the page."""
    from playwright.sync_api import sync_playwright

    loaded: list[str] = []
    with served(site) as base, sync_playwright() as playwright:
        browser = offline_chromium(playwright)
        try:
            page = browser.new_page()
            page.on("requestfinished", lambda request: loaded.append(request.url))
            page.goto(base + PAGE, wait_until="networkidle")
        finally:
            browser.close()

    def packed(path: Path) -> int:
        return len(gzip.compress(path.read_bytes(), 9)) if path.is_file() else 0

    total = sum(packed(site / url.split("?")[0][len(base) :]) for url in set(loaded))
    html = (site / PAGE).read_text(encoding="utf-8")
    found = re.findall(
        r'<script type="application/json" id="agentmsg-runner">.*?</script>'
        r"|<style>/\* agentmsg's in-page runner.*?</style>",
        html,
        re.S,
    )
    inline = len(gzip.compress("".join(found).encode(), 9))
    own = packed(site / "en" / "_static" / "runner" / "runner.js") + inline
    return total, own


def lighthouse_figures(site: Path) -> dict[str, tuple[float, float]]:
    """Lighthouse's performance score and cumulative layout shift for each of the pages."""
    found = {}
    with served(site) as base:
        for page in PAGES:
            figures = lighthouse_report(base + page, ("performance",))
            found[page] = (
                100 * (figures["categories"]["performance"]["score"] or 0),
                figures["audits"]["cumulative-layout-shift"]["numericValue"],
            )
    return found


def run(options: Options) -> list[Table]:
    if not (SITE / PAGE).is_file() or not (SITE / "lite" / "jupyter-lite.json").is_file():
        raise SystemExit(f"{SITE / PAGE} or lite/ is missing: run `make html` first")
    repeats = 3 if options.repeats >= 5 else 1
    times, outside = click_to_output(SITE, repeats)
    median = {key: statistics.median(values) for key, values in times.items()}
    table = Table(
        key="runner.click",
        title=f"In-page runner: click to the first block's output ({PAGE}, headless Chromium)",
        unit="s",
        columns=("median", "min", "max"),
        compare=False,
        rows=[
            Row(key, {"median": median[key], "min": min(v), "max": max(v)}, samples={"median": v})
            for key, v in times.items()
        ],
        parameters={"repeats": repeats, "requests_outside": outside},
        notes=[
            "Cold: a fresh profile; warm: the same profile's second visit. Served from "
            f"127.0.0.1 by Python's http.server; requests outside refused: {outside} made.",
        ],
    )
    for visit in ("cold", "warm"):
        a, b = median[f"(a) in-page runner, {visit}"], median[f"(b) bare loadPyodide(), {visit}"]
        c = median[f"(c) JupyterLite, {visit}"]
        table.checks.append(Check(f"(a) / (b), {visit}", f"{a / b:.2f}", "<= 1.25", a <= 1.25 * b))
        table.checks.append(Check(f"(a) / (c), {visit}", f"{a / c:.2f}", "<= 0.5", a <= 0.5 * c))
    table.checks.append(Check("requests leaving 127.0.0.1", str(outside), "0", outside == 0))

    total, own = page_weight(SITE)
    weight = Table(
        key="runner.weight",
        title=f"In-page runner: what {PAGE} loads before any interaction (gzip -9)",
        unit="B",
        columns=("bytes",),
        compare=False,
        rows=[Row("the whole page", {"bytes": float(total)}), Row("the runner", {"bytes": own})],
        notes=[
            "Each loaded file compressed alone; the runner: runner.js, runner.css and its "
            "settings in the page."
        ],
    )
    weight.checks.append(
        Check("the runner's part", f"{own / 1000:.1f} KB", "<= 30 KB", own <= WEIGHT_TARGET)
    )
    tables = [table, weight]
    if LIGHTHOUSE.is_file():
        figures = lighthouse_figures(SITE)
        scores = Table(
            key="runner.lighthouse",
            title="In-page runner: Lighthouse (mobile defaults) of the bench's three pages",
            unit="points",
            columns=("performance",),
            compare=False,
            rows=[Row(p, {"performance": score}) for p, (score, _) in figures.items()],
            notes=[f"Cumulative layout shift: {cls:.3f} on {p}" for p, (_, cls) in figures.items()],
        )
        for page, (score, cls) in figures.items():
            scores.checks.append(
                Check(f"performance, {page}", f"{score:.0f}", ">= 96", score >= PERFORMANCE_TARGET)
            )
            scores.checks.append(Check(f"CLS, {page}", f"{cls:.3f}", "<= 0.02", cls <= CLS_TARGET))
        tables.append(scores)
    return tables


SECTION = Section(
    name="runner",
    description="in-page runner: click to output vs bare Pyodide and JupyterLite, weight",
    run=run,
)
