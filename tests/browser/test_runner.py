"""The in-page runner: every code block of every tutorial runs on its page, in Chromium,
offline, in the page's language (``docs/agentmsg_docs/lite/runner.py``, ``_static/runner/``).

One browser for the module and one visit per tutorial and language: the test clicks the
last block's "Run", which runs every block above it first, and compares what each block
shows with ``tests/expected/<tutorial>.txt`` the way ``test_lite.py`` compares the
notebooks (ids and times of the seeded stream match any, consistently). The cards'
labels are recorded in English; for zh_CN and es the expected card is the recorded one's
captured markup (``docs/tutorial/<name>.rst``) rendered in that language, after checking
that its English rendering is the recorded one.

Every request that leaves 127.0.0.1 is refused and counted, as in ``test_lite.py``.
Also here: the stale-copy guard of the site's JupyterLite (``docs/lite/fresh.js``), and a
downloaded zh_CN notebook run in a Jupyter kernel.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from _browser import ALL_WCAG_RULES, AXE, _axe
from _lite import (
    LANGS,
    TUTORIALS,
    Matcher,
    Traffic,
    _route,
    expected_sections,
    lite_browser,
    site_url,
)
from _notebooks import kernel_dir, notebook, run_notebook
from _outputs import cell_title, readable_html

pytestmark = [pytest.mark.docs, pytest.mark.browser]

__all__ = ["kernel_dir", "lite_browser", "site_url"]  # fixtures of _lite, _notebooks

PAGES = [(lang, name) for name in TUTORIALS for lang in LANGS]
#: Milliseconds to wait for Pyodide and a whole page of blocks (a busy 2-core machine).
RUN_TIMEOUT = 300_000

_BLOCKS = """() => Array.from(document.querySelectorAll("div.highlight-Python")).map((box, i) => {
  const out = document.querySelector(`.agentmsg-run-output[data-block="${i}"]`);
  const text = out && out.querySelector(".sphx-glr-script-out pre");
  const html = out && out.querySelector(".rendered_html");
  return {code: box.querySelector("pre").innerText, state: out && out.dataset.state,
          text: text ? text.textContent : "", html: html ? html.innerHTML : null};
})"""
_ALL_DONE = """() => {
  const outs = document.querySelectorAll(".agentmsg-run-output");
  return outs.length > 0 && Array.from(outs).every(
    out => ["done", "error", "failed"].includes(out.dataset.state));
}"""
_BLOCK_DONE = """i => {
  const out = document.querySelector(`.agentmsg-run-output[data-block="${i}"]`);
  return ["done", "error", "failed"].includes(out.dataset.state);
}"""


# -- what the page should show -------------------------------------------------------------


def normal(body: str) -> str:
    """*body* with its HTML part serialized one way: ``innerHTML`` writes the card's
    ``controls`` as ``controls=""`` and its ``&quot;`` in text as ``"``."""
    from bs4 import BeautifulSoup

    text, marker, html = body.partition("[html]\n")
    if not marker:
        return body
    html = str(BeautifulSoup(html, "html.parser"))
    return text + marker + re.sub(r' ([\w-]+)=""', r" \1", html)


def shown_sections(blocks: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """``(heading, body)`` of each block that shows something, as tests/expected/ has it."""
    found = []
    for block in blocks:
        lines = block["text"].rstrip().splitlines()
        if block["html"] is not None:
            lines += ["[html]", *readable_html(block["html"]).splitlines()]
        if lines:
            found.append((cell_title(block["code"]), "\n".join(lines)))
    return found


def differences(lang: str, name: str, blocks: list[dict[str, Any]]) -> list[str]:
    """What the page shows differently from the recorded outputs, per block."""
    where = f"{lang}/tutorial/{name}.html"
    failed = [
        f"{where}, block {i + 1} (`{cell_title(b['code'])}`) ended {b['state']}:\n{b['text']}"
        for i, b in enumerate(blocks)
        if b["state"] != "done"
    ]
    if failed:
        return failed
    expected, actual = expected_sections(name, lang), shown_sections(blocks)
    if [h for h, _ in expected] != [h for h, _ in actual]:
        return [f"{where}: blocks that show something: {expected} != {actual}"]
    matcher = Matcher(name)
    return [
        f"{where}, block `{heading}`:\n--- recorded\n{body}\n--- on the page\n{shown}"
        for (heading, body), (_, shown) in zip(expected, actual, strict=True)
        if not matcher.match(normal(body), normal(shown))
    ]


# -- the browser ---------------------------------------------------------------------------


@pytest.fixture
def visit(lite_browser: Any, site_url: str) -> Iterator[Any]:
    """Opens a page of the site in a fresh context whose requests outside 127.0.0.1 are
    refused; yields ``open(path) -> (page, traffic)``."""
    contexts = []

    def open_page(path: str) -> tuple[Any, Traffic]:
        traffic = Traffic([], [])
        context = lite_browser.new_context(viewport={"width": 1280, "height": 900})
        contexts.append(context)
        context.route("**/*", _route(site_url, traffic))
        page = context.new_page()
        page.goto(site_url + path)
        return page, traffic

    yield open_page
    for context in contexts:
        context.close()


def control(page: Any, index: int, which: int = 0) -> Any:
    """Block *index*'s "Run" (*which* 0) or "Reset" (1) button."""
    return (
        page.locator("div.highlight-Python")
        .nth(index)
        .locator(".agentmsg-run-bar button")
        .nth(which)
    )


def run_block(page: Any, index: int) -> None:
    control(page, index).click()
    page.wait_for_function(_BLOCK_DONE, arg=index, timeout=RUN_TIMEOUT)


class TestEveryBlock:
    """Every block of every tutorial, in every language, runs on its page as recorded."""

    @pytest.mark.parametrize(("lang", "name"), PAGES)
    def test_runs_as_recorded(self, visit: Any, site_url: str, lang: str, name: str) -> None:
        """Running the last block runs them all; each shows its recorded output (cards in
        the page's language), nothing loads before the click and nothing leaves the site."""
        page, traffic = visit(f"{lang}/tutorial/{name}.html")
        page.wait_for_selector(".agentmsg-run-bar")
        before = [url for url in traffic.inside if "/pyodide" in url or "worker.js" in url]
        count = page.locator("div.highlight-Python").count()
        control(page, count - 1).click()
        page.wait_for_function(_ALL_DONE, timeout=RUN_TIMEOUT, polling=250)
        blocks = page.evaluate(_BLOCKS)
        wasm = f"{site_url}lite/static/pyodide/pyodide.asm.wasm"
        assert ([], [], [], True) == (
            before,
            differences(lang, name, blocks),
            traffic.outside,
            wasm in traffic.inside,
        )


class TestInteraction:
    """Editing, errors, the keyboard, Reset and accessibility, on one English page and
    one Chinese page."""

    def test_edited_block_prints_the_change(self, visit: Any) -> None:
        """The reader's edit is what runs."""
        page, _ = visit("en/tutorial/create_message.html")
        page.locator("div.highlight-Python pre").first.fill('print("edited", 6 * 7)')
        run_block(page, 0)
        assert "edited 42" == page.evaluate(_BLOCKS)[0]["text"].strip()

    def test_raising_block_shows_traceback_and_later_blocks_run(self, visit: Any) -> None:
        """A block that raises shows the traceback ending in the error's own text, as
        Python prints it, and the next block still runs."""
        page, _ = visit("en/tutorial/create_message.html")
        code = 'from agentmsg import Msg\nMsg(name="Jarvis", role="robot", content="Hi")'
        page.locator("div.highlight-Python pre").nth(1).fill(code)
        run_block(page, 1)
        run_block(page, 2)
        blocks = page.evaluate(_BLOCKS)
        lines = blocks[1]["text"].strip().splitlines()
        assert (
            "error",
            "Traceback (most recent call last):",
            "MessageError: `role` must be one of 'user', 'assistant', 'system', not 'robot'.",
            "done",
        ) == (
            blocks[1]["state"],
            lines[0],
            re.sub(r"^[\w.]*\.", "", lines[-1]),  # the class's module aside
            blocks[2]["state"],
        )

    def test_keyboard_only(self, visit: Any) -> None:
        """Tab reaches "Run" and Enter runs the block; Shift+Enter in the code runs it."""
        page, _ = visit("zh_CN/tutorial/create_message.html")
        page.wait_for_selector(".agentmsg-run-bar")
        run = control(page, 0)
        for _ in range(200):
            page.keyboard.press("Tab")
            if run.evaluate("button => document.activeElement === button"):
                break
        label = run.text_content()
        page.keyboard.press("Enter")
        page.wait_for_function(_BLOCK_DONE, arg=0, timeout=RUN_TIMEOUT)
        page.locator("div.highlight-Python pre").nth(2).focus()
        page.keyboard.press("Shift+Enter")
        page.wait_for_function(_BLOCK_DONE, arg=2, timeout=RUN_TIMEOUT)
        states = [block["state"] for block in page.evaluate(_BLOCKS)[:3]]
        assert ("运行", ["done", "done", "done"]) == (label, states)

    def test_reset_restarts_python(self, visit: Any) -> None:
        """After Reset, a name defined before is gone: a new Python runs the blocks."""
        page, _ = visit("es/tutorial/create_message.html")
        page.locator("div.highlight-Python pre").first.fill("remembered = 1")
        run_block(page, 0)
        control(page, 0, 1).click()
        page.locator("div.highlight-Python pre").nth(1).fill("print('remembered' in globals())")
        page.locator("div.highlight-Python pre").first.fill("pass")
        run_block(page, 1)
        assert "False" == page.evaluate(_BLOCKS)[1]["text"].strip()

    def test_progress_then_failure_in_the_page_language(self, visit: Any) -> None:
        """When Pyodide cannot be fetched, the block says so in Spanish, with the reason,
        instead of waiting for ever."""
        page, _ = visit("es/tutorial/create_message.html")
        page.context.route("**/pyodide.asm.wasm", lambda route: route.abort("failed"))
        run_block(page, 0)
        block = page.evaluate(_BLOCKS)[0]
        assert ("failed", True, True) == (
            block["state"],
            block["text"].startswith("Python no pudo iniciarse en este navegador ("),
            "Failed to fetch" in block["text"],  # the browser's reason
        )

    def test_axe_with_controls_and_outputs(self, visit: Any) -> None:
        """axe-core finds no WCAG A or AA violation on a page whose blocks ran."""
        if not AXE.is_file():
            pytest.skip(f"axe-core is missing: {AXE}")
        page, _ = visit("zh_CN/tutorial/create_message.html")
        count = page.locator("div.highlight-Python").count()
        run_block(page, count - 1)
        assert [] == _axe(page, ALL_WCAG_RULES)


# -- JupyterLite: no stale copies ----------------------------------------------------------

_SAVED = """async path => {
  const app = window.jupyterapp;
  const panel = app.shell.currentWidget;
  panel.content.model.cells.get(0).sharedModel.setSource("# the reader's edit");
  await panel.context.save();
  return panel.context.path;
}"""
_FIRST_CELL = """() => window.jupyterapp.shell.currentWidget.content.model.cells.get(0)
  .sharedModel.getSource()"""
_READY = """path => {
  const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  return Boolean(panel && panel.context && panel.context.path === path && panel.context.isReady);
}"""


class TestNoStaleCopies:
    """A reader's saved copy never hides a changed tutorial in the site's JupyterLite."""

    def test_changed_tutorial_replaces_the_saved_copy(
        self, lite_browser: Any, site_url: str
    ) -> None:
        """Saved, then reopened unchanged: the copy opens and no notice shows. After a
        rebuild that changed the tutorial (the manifest's hash), the new version opens,
        a notice in the notebook's language links to the reader's copy, which is kept."""
        path = "zh_CN/create_message.ipynb"
        url = f"{site_url}lite/notebooks/index.html?path={path}"
        manifest_url = f"{site_url}lite/agentmsg-contents.json"
        changed = {"on": False}
        traffic = Traffic([], [])
        context = lite_browser.new_context(viewport={"width": 1280, "height": 900})
        inner = _route(site_url, traffic)

        def handle(route: Any) -> None:
            if changed["on"] and route.request.url.split("?")[0] == manifest_url:
                manifest = route.fetch().json()
                manifest["files"][path] = "0" * 64  # as a rebuild that changed it
                route.fulfill(body=json.dumps(manifest), content_type="application/json")
                return
            inner(route)

        try:
            context.route("**/*", handle)
            page = context.new_page()
            page.goto(url)
            page.wait_for_function(_READY, arg=path, timeout=RUN_TIMEOUT)
            page.evaluate(_SAVED, path)
            page.goto(url)
            page.wait_for_function(_READY, arg=path, timeout=RUN_TIMEOUT)
            unchanged = (page.evaluate(_FIRST_CELL), page.locator("#agentmsg-fresh-notice").count())
            changed["on"] = True
            page.goto(url)
            page.wait_for_function(_READY, arg=path, timeout=RUN_TIMEOUT)
            fresh = page.evaluate(_FIRST_CELL)
            notice = page.locator("#agentmsg-fresh-notice")
            notice.wait_for()
            text, link = notice.text_content(), notice.locator("a").get_attribute("href")
            kept = link.split("path=")[1].replace("%2F", "/")
            page.goto(f"{site_url}lite/notebooks/index.html?path={kept}")
            page.wait_for_function(_READY, arg=kept, timeout=RUN_TIMEOUT)
            copy = page.evaluate(_FIRST_CELL)
        finally:
            context.close()
        assert (("# the reader's edit", 0), False, True, "# the reader's edit", []) == (
            unchanged,
            fresh == "# the reader's edit",
            kept in text and "教程已有更新" in text,
            copy,
            traffic.outside,
        )


# -- a downloaded notebook in a Jupyter kernel ---------------------------------------------


class TestNotebookInKernel:
    """A downloaded zh_CN notebook, run in a Jupyter kernel, shows Chinese cards."""

    def test_zh_cn_notebook_shows_chinese_labels(
        self, built_site: Path, kernel_dir: Path, tmp_path: Path
    ) -> None:
        """Its first code cell sets the display language: the first card is the recorded
        one in Chinese (ids and times aside)."""
        executed, _ = run_notebook(notebook(built_site, "zh_CN", "create_message"), tmp_path)
        cards = [
            output["data"]["text/html"]
            for cell in executed.cells
            if cell.cell_type == "code"
            for output in cell.outputs
            if output.get("output_type") == "execute_result" and "text/html" in output["data"]
        ]
        expected = dict(expected_sections("create_message", "zh_CN"))["greeting"]
        assert Matcher("create_message").match(expected, "[html]\n" + readable_html(cards[0]))
