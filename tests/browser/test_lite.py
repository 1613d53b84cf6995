"""The in-browser runtime (``_build/html/lite/``): every tutorial runs in the reader's
browser, in the reader's language, with nothing fetched from outside the site.

Chromium (as in ``test_browser.py``) opens a tutorial page, follows
its "Run in the browser" link, waits for the Pyodide kernel, runs all cells with JupyterLite's
own "Run All" command and compares what each cell shows with ``tests/expected/<tutorial>.txt``.
Every request that leaves 127.0.0.1 is refused and counted (none is allowed); Chromium also
resolves no host name but 127.0.0.1, and Playwright sees the service worker's requests too.

How the outputs are compared:

- the printed text of every cell and the HTML card of a cell whose last value has one, in
  the form ``tests/helpers/_examples.py`` records them;
- ids and timestamps: the docs build runs each tutorial inside
  ``agentmsg.deterministic(seed=<tutorial>)``, the browser does not (the reader runs the
  notebook as downloaded). Where the recorded output has an id of that seeded stream or a
  time of its clock, any id or time matches, but consistently: the same recorded value
  stands for the same value in the browser throughout the notebook;
- a few cells print something else in the browser on purpose: :data:`BROWSER_OUTPUTS`.

Which notebooks (:data:`NOTEBOOKS`): every tutorial in English, and in each translated
language the tutorial whose recorded outputs show the most cards, the one output that
depends on the language. Each run costs about 20 seconds, nearly all of it the kernel's
start, and what else differs between languages is tested without it: every translated
notebook runs top to bottom in a Python kernel (``tests/site/test_notebooks.py``), its
``lite/files`` copy has the English code (``tests/site/test_code_comments.py``), and
every block of every page runs in Pyodide with its cards in the page's language
(``test_runner.py``).

The test reads each cell's outputs from the notebook's model through JupyterLite's
application object, which JupyterLite exposes only when its ``exposeAppInBrowser`` option is
on: the test turns it on in the ``jupyter-lite.json`` it serves to the browser (the site
itself leaves it off).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from _lite import (
    _ANSI,
    LANGS,
    TUTORIALS,
    Matcher,
    Traffic,
    _route,
    expected_sections,
    lite_browser,
    sections,
    seeded_values,
    site_url,
)
from _outputs import EXPECTED, cell_title
from agentmsg_docs.lite.build import LITE_DIR

ROOT = Path(__file__).resolve().parents[2]


pytestmark = [pytest.mark.docs, pytest.mark.browser]

__all__ = ["lite_browser", "site_url"]  # fixtures of _lite


def most_cards(names: list[str]) -> str:
    """The tutorial whose recorded outputs (``tests/expected/``) show the most cards."""
    return max(names, key=lambda name: (EXPECTED / f"{name}.txt").read_text().count("[html]"))


#: Every tutorial in the source language; in each translation, the one with the most cards.
_MOST_CARDS = most_cards(TUTORIALS)
NOTEBOOKS = [(LANGS[0], name) for name in TUTORIALS] + [(lang, _MOST_CARDS) for lang in LANGS[1:]]


#: Seconds to wait: for the kernel to be ready, for all cells to run (a busy 2-core machine).
KERNEL_TIMEOUT = 240
RUN_TIMEOUT = 240

#: Per notebook: seconds from the click to a ready kernel, and to the end of Run All.
TIMINGS: dict[str, tuple[float, float]] = {}


# ----------------------------------------------------------------------------------------
# Running the notebooks in Chromium


@pytest.fixture(scope="module", autouse=True)
def timings() -> Iterator[None]:
    """Print how long the notebooks took (``pytest -s`` shows it)."""
    yield
    if TIMINGS:
        ready = [seconds for seconds, _ in TIMINGS.values()]
        total = sum(seconds for _, seconds in TIMINGS.values())
        median = sorted(ready)[len(ready) // 2]
        print(
            f"\n{len(TIMINGS)} notebooks ran in the browser in {total:.1f}s; kernel ready "
            f"after {min(ready):.1f}s to {max(ready):.1f}s (median {median:.1f}s):"
        )
        for name, (kernel, run) in sorted(TIMINGS.items()):
            print(f"  {name:32} kernel {kernel:5.1f}s  all cells {run:5.1f}s")


_NOTEBOOK = """path => {
  const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  return Boolean(panel && panel.context && panel.context.path === path && panel.context.isReady);
}"""
_KERNEL_READY = """() => {
  const session = window.jupyterapp.shell.currentWidget.sessionContext.session;
  const kernel = session && session.kernel;
  return Boolean(kernel && kernel.status === "idle" && kernel.connectionStatus === "connected");
}"""
_CELLS = """() => {
  const cells = window.jupyterapp.shell.currentWidget.content.model.cells;
  const found = [];
  for (let i = 0; i < cells.length; i++) {
    const cell = cells.get(i);
    if (cell.type === "code") {
      found.push({source: cell.sharedModel.getSource(), count: cell.executionCount,
                  outputs: cell.outputs.toJSON()});
    }
  }
  return found;
}"""
#: Run All is over: every code cell has run, or one failed (the rest then wait for
#: nothing), and the kernel is idle again.
_RUN_OVER = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const cells = panel.content.model.cells;
  let done = true, failed = false;
  for (let i = 0; i < cells.length; i++) {
    const cell = cells.get(i);
    if (cell.type !== "code") continue;
    if (cell.executionCount === null) done = false;
    for (const output of cell.outputs.toJSON()) if (output.output_type === "error") failed = true;
  }
  const kernel = panel.sessionContext.session.kernel;
  return (done || failed) && kernel.status === "idle";
}"""


def run_in_browser(browser: Any, base: str, lang: str, name: str) -> tuple[list[dict], Traffic]:
    """Open *name*'s page in *lang*, follow its "Run in the browser" link, run all cells;
    return the code cells (source, execution count, outputs) and the traffic."""
    traffic = Traffic([], [])
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        context.route("**/*", _route(base, traffic))
        page = context.new_page()
        page.goto(f"{base}{lang}/tutorial/{name}.html")
        started = time.monotonic()
        with page.expect_navigation(url=re.compile(r"/lite/notebooks/")):
            page.click("div.sphx-glr-footer div.agentmsg-lite a")
        path = f"{lang}/{name}.ipynb"
        page.wait_for_function(_NOTEBOOK, arg=path, timeout=KERNEL_TIMEOUT * 1000)
        before = page.evaluate(_CELLS)
        assert [None] * len(before) == [cell["count"] for cell in before], "cells ran before"
        page.wait_for_function(_KERNEL_READY, timeout=KERNEL_TIMEOUT * 1000)
        ready = time.monotonic() - started
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.wait_for_function(_RUN_OVER, timeout=RUN_TIMEOUT * 1000, polling=200)
        TIMINGS[path] = (ready, time.monotonic() - started - ready)
        return page.evaluate(_CELLS), traffic
    finally:
        context.close()


# -- what a cell shows, in the form of tests/expected/ -----------------------------------


# -- matching ids and timestamps ---------------------------------------------------------


def problems(lang: str, name: str, cells: list[dict[str, Any]]) -> list[str]:
    """What differs from the recorded outputs, each naming the notebook and the cell."""
    where = f"{lang}/{name}.ipynb"
    found = []
    for index, cell in enumerate(cells, start=1):
        title = cell_title(cell["source"])
        for output in cell["outputs"]:
            if output["output_type"] == "error":
                trace = _ANSI.sub("", "\n".join(output.get("traceback", [])))[-2000:]
                found.append(
                    f"{where}, code cell {index} (`{title}`) raised {output['ename']}: "
                    f"{output['evalue']}\n{trace}"
                )
        if cell["count"] is None:
            found.append(f"{where}, code cell {index} (`{title}`) did not run")
    if found:
        return found
    expected = expected_sections(name, lang)  # the notebook sets its display language
    actual = sections(cells)
    headings = ([h for h, _ in expected], [h for h, _ in actual])
    if headings[0] != headings[1]:
        return [f"{where}: the cells that show something differ: {headings[0]} != {headings[1]}"]
    matcher = Matcher(name)
    for (heading, body), (_, shown_body) in zip(expected, actual, strict=True):
        if not matcher.match(body, shown_body):
            found.append(
                f"{where}, cell `{heading}` shows something else than "
                f"tests/expected/{name}.txt:\n--- recorded\n{body}\n--- in the browser\n"
                f"{shown_body}"
            )
    return found


class TestRunAll:
    """Each notebook of :data:`NOTEBOOKS`, opened from its page, runs all its cells in
    Chromium with no request leaving 127.0.0.1, and shows the recorded outputs."""

    @pytest.mark.parametrize(("lang", "name"), NOTEBOOKS)
    def test_runs_as_recorded(self, lite_browser: Any, site_url: str, lang: str, name: str) -> None:
        """No cell raises, each shows what ``tests/expected/<name>.txt`` records (see the
        module docstring for ids and times), and zero requests leave the site, while
        the worker's download of Pyodide went through the route (so it sees them all)."""
        cells, traffic = run_in_browser(lite_browser, site_url, lang, name)
        wasm = f"{site_url}{LITE_DIR}/static/pyodide/pyodide.asm.wasm"
        assert ([], [], True) == (
            problems(lang, name, cells),
            traffic.outside,
            wasm in traffic.inside,
        )


class TestMatcher:
    """The comparison itself: seeded values stand for any value, consistently."""

    def test_seeded_id_and_time_match_any(self) -> None:
        """A recorded seeded id and time match another id and time; other text does not
        change, and a seeded id that recurs must recur in the browser too."""
        ids, times = seeded_values("create_message", 2)
        first, second = sorted(ids)
        when = sorted(times)[0]
        matcher = Matcher("create_message")
        other = "Q" * 22
        assert (True, True, False, False) == (
            matcher.match(f"{first} at {when}", f"{other} at 2026-12-01 10:11:12.131"),
            matcher.match(f"again {first}", f"again {other}"),
            matcher.match(f"again {first}", f"again {'R' * 22}"),
            matcher.match(f"{second} says hi", f"{'S' * 22} says bye"),
        )

    def test_seeded_value_may_recur_as_recorded(self) -> None:
        """A seeded time may also show as recorded later on: a cell that opens its own
        ``deterministic()`` block makes the very values the docs build made."""
        (when,) = seeded_values("saving_loading", 1)[1]
        matcher = Matcher("saving_loading")
        assert (True, True, False) == (
            matcher.match(f"made at {when}", "made at 2026-12-01 10:11:12.131"),
            matcher.match(f"again at {when}", f"again at {when}"),
            matcher.match(f"again at {when}", "again at 2026-12-01 10:11:13.000"),
        )

    def test_other_ids_stay_literal(self) -> None:
        """An id that is not of the seeded stream must be the same in the browser."""
        matcher = Matcher("tools")
        assert (True, False) == (
            matcher.match("edoSG7DG8md2IMcScM70PS", "edoSG7DG8md2IMcScM70PS"),
            matcher.match("edoSG7DG8md2IMcScM70PS", "Q" * 22),
        )
