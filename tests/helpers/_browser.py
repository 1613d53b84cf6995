"""What the browser tests share: the built site served on 127.0.0.1, Chromium driven by
playwright (skipped locally, failed in CI, when it is missing) and axe-core."""

from __future__ import annotations

import http.server
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from bench._serve import CHROMIUM, CHROMIUM_FLAGS, served

from agentmsg_docs.i18n.languages import SITE_PATH

ROOT = Path(__file__).resolve().parents[2]


AXE = ROOT / "tests" / "browser" / "node_modules" / "axe-core" / "axe.min.js"

#: axe-core's tags for the success criteria of WCAG 2.0, 2.1 and 2.2, levels A and AA.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]

DESKTOP = {"width": 1280, "height": 800}


class _SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the site under SITE_PATH; a missing page answers with the root 404.html."""

    site: Path

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def translate_path(self, path: str) -> str:
        path = unquote(urlsplit(path).path)
        if not path.startswith(SITE_PATH):
            return str(self.site / "__outside_the_site__")
        return str(self.site.joinpath(*[p for p in path[len(SITE_PATH) :].split("/") if p]))

    def send_error(self, code: int, message: str | None = None, explain: str | None = None):
        page = self.site / "404.html"
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


@contextmanager
def serve_site(site: Path) -> Iterator[str]:
    """``http://127.0.0.1:<port><SITE_PATH>``, serving *site* while the block runs."""
    handler = type("Handler", (_SiteHandler,), {"site": site})
    with served(site, handler, SITE_PATH) as url:
        yield url


@pytest.fixture(scope="module")
def base_url(built_site: Path) -> Iterator[str]:
    """``http://127.0.0.1:<port><SITE_PATH>``, serving the built site."""
    with serve_site(built_site) as url:
        yield url


def _unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI needs the browser tests: {reason}", pytrace=False)
    pytest.skip(reason)


def chromium() -> tuple[Any, str]:
    """Playwright's ``sync_playwright`` and the Chromium to drive; skipped locally (failed
    in CI) when either is missing."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed (pip install -e '.[test]')")
    executable = CHROMIUM if Path(CHROMIUM).is_file() else shutil.which("chromium")
    if executable is None:
        _unavailable(f"Chromium is missing: {CHROMIUM} (apt-get install -y chromium)")
    return sync_playwright, executable


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium, launched once for the module (skipped locally when it is missing)."""
    sync_playwright, executable = chromium()
    if not AXE.is_file():
        _unavailable(f"axe-core is missing: {AXE} (npm ci --prefix tests/browser)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


#: How long any wait may take before it fails. Every wait ends as soon as what it waits
#: for happens; the bound is generous because the machine may be busy with other work.
WAIT_BOUND_MS = 120_000


def new_context(browser: Any, **options: Any) -> Any:
    """A browser context whose waits fail only after :data:`WAIT_BOUND_MS`."""
    context = browser.new_context(**options)
    context.set_default_timeout(WAIT_BOUND_MS)
    return context


@pytest.fixture
def page(browser: Any, base_url: str) -> Iterator[Any]:
    """A fresh desktop page in light mode, with clipboard access."""
    context = new_context(browser, viewport=DESKTOP, color_scheme="light")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url[:-1])
    yield context.new_page()
    context.close()


def _axe(page: Any, options: dict[str, Any]) -> list[str]:
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    result = page.evaluate("options => window.axe.run(document, options)", options)
    return [
        f"{violation['id']} ({violation['impact']}): {node['target']} "
        f"{node['failureSummary'].splitlines()[-1].strip()}"
        for violation in result["violations"]
        for node in violation["nodes"]
    ]


ALL_WCAG_RULES = {"runOnly": {"type": "tag", "values": WCAG_TAGS}}
