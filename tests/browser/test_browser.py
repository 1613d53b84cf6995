"""The built site in a real browser: Debian's Chromium, driven by playwright.

The site (``built_site``) is served on 127.0.0.1 by a thread (``_browser.py``), under the
path it is published at (like GitHub Pages, a missing address answers with the root
``404.html``). One browser runs every test; each page of every language is visited once
per colour scheme and the results are shared by the console and accessibility tests.
axe-core comes from ``tests/browser/node_modules`` (``make test`` runs ``npm ci``).

Without Chromium these tests are skipped with the reason, except in CI (``CI=true``),
where a missing browser is a failure.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlsplit

import pytest

from _browser import ALL_WCAG_RULES, DESKTOP, _axe, base_url, browser, new_context, page
from agentmsg_docs.gallery.tutorials import TUTORIAL_ORDER
from agentmsg_docs.i18n.languages import LANGUAGES, SITE_PATH

ROOT = Path(__file__).resolve().parents[2]


pytestmark = [pytest.mark.docs, pytest.mark.browser]

__all__ = ["base_url", "browser", "page"]  # fixtures of _browser

#: Where the screenshots for review go (CI sets it and keeps them); else a temporary folder.
SCREENSHOTS = "AGENTMSG_SCREENSHOTS"
PHONE = {"width": 375, "height": 740}

LANGS = [language.code for language in LANGUAGES]
TAGS = {language.code: language.tag for language in LANGUAGES}
TUTORIALS = [f"tutorial/{name}.html" for name in TUTORIAL_ORDER]
#: Pages whose language links are checked: the tutorials, the index and the API page.
SWITCHED_PAGES = ["index.html", "api.html", "tutorial/index.html", *TUTORIALS]
#: A word to search for in each language; in one in progress, an English word, which its
#: pages show (Sphinx's splitter and stemmer for the language index them).
SEARCHES = {
    "zh_CN": "消息",
    "es": "mensajes",
    **{language.code: "message" for language in LANGUAGES if not language.complete},
    "en": "message",
}
#: For the root page: a browser preferring each language's tag (with a region where it
#: has none) lands on it, and one preferring a language the site lacks, on English.
_PRIMARY = {tag.split("-")[0] for tag in TAGS.values()}
_ABSENT = next(tag for tag in ("nl-NL", "fi-FI", "sv-SE") if tag[:2] not in _PRIMARY)
PREFERENCES = [
    *((tag if "-" in tag else f"{tag}-{tag.upper()}", code) for code, tag in TAGS.items()),
    (_ABSENT, "en"),
]


# ----------------------------------------------------------------------------------------
# The server and the browser


# ----------------------------------------------------------------------------------------
# One visit per page and colour scheme: console errors and axe-core violations


@dataclass
class Visit:
    """What happened while one page loaded, and what axe-core found there."""

    errors: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)  # light mode, every WCAG rule
    dark_violations: list[str] = field(default_factory=list)  # dark mode, the colours


def site_pages(site: Path) -> list[str]:
    """Every page of every language, as paths under the site's root."""
    return [
        path.relative_to(site).as_posix()
        for lang in LANGS
        for path in sorted((site / lang).rglob("*.html"))
    ]


COLOUR_RULES = {"runOnly": {"type": "rule", "values": ["color-contrast", "link-in-text-block"]}}


class Visitor:
    """Visits each page once: its console, then axe-core in light and in dark mode
    (furo follows the reader's ``prefers-color-scheme``)."""

    def __init__(self, browser: Any, base_url: str) -> None:
        self.base_url = base_url
        self.context = new_context(browser, viewport=DESKTOP, color_scheme="light")
        self.page = self.context.new_page()
        self.visits: dict[str, Visit] = {}

    def visit(self, path: str) -> Visit:
        if path in self.visits:
            return self.visits[path]
        page = self.page
        visit = Visit()
        listeners = {
            "console": lambda m: (
                visit.errors.append(f"console: {m.text}") if m.type == "error" else None
            ),
            "pageerror": lambda e: visit.errors.append(f"uncaught: {e}"),
            "requestfailed": lambda r: visit.errors.append(f"failed: {r.url}"),
            "response": lambda r: (
                visit.errors.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None
            ),
        }
        for event, listener in listeners.items():
            page.on(event, listener)
        try:
            page.emulate_media(color_scheme="light")
            page.goto(self.base_url + path, wait_until="load")
            visit.violations = _axe(page, ALL_WCAG_RULES)
            page.emulate_media(color_scheme="dark")
            visit.dark_violations = _axe(page, COLOUR_RULES)
        finally:
            for event, listener in listeners.items():
                page.remove_listener(event, listener)
        self.visits[path] = visit
        return visit


@pytest.fixture(scope="module")
def visitor(browser: Any, base_url: str) -> Iterator[Visitor]:
    visitor = Visitor(browser, base_url)
    yield visitor
    visitor.context.close()


def expected_pages() -> list[str]:
    """The pages the sources make, in every language (known before the site is built):
    one per page in docs/, one per tutorial script, the gallery, Sphinx's index and
    search pages."""
    docs = ROOT / "docs"
    names = [
        *(f"{path.stem}.html" for pattern in ("*.md", "*.rst") for path in docs.glob(pattern)),
        *(f"tutorial/{path.stem}.html" for path in (docs / "examples").glob("*.py")),
        "tutorial/index.html",
        "genindex.html",
        "search.html",
    ]
    return [f"{lang}/{name}" for lang in LANGS for name in sorted(names)]


PAGES = expected_pages()


class TestEveryPage:
    """Every page of every language loads cleanly and passes axe-core."""

    def test_pages_are_the_built_ones(self, built_site: Path) -> None:
        """The pages visited below are exactly the pages of the built site."""
        assert sorted(PAGES) == sorted(site_pages(built_site))

    @pytest.fixture(params=PAGES)
    def site_page(self, request: pytest.FixtureRequest) -> str:
        return request.param

    def test_no_console_errors(self, visitor: Visitor, site_page: str) -> None:
        """Loading the page logs no console error, throws no uncaught exception and no
        request fails."""
        assert [] == visitor.visit(site_page).errors

    def test_no_wcag_violations(self, visitor: Visitor, site_page: str) -> None:
        """axe-core reports no WCAG 2.0/2.1/2.2 A or AA violation."""
        assert [] == visitor.visit(site_page).violations

    def test_dark_mode_readable(self, visitor: Visitor, site_page: str) -> None:
        """In dark mode (a reader whose system prefers it) every text keeps its contrast."""
        assert [] == visitor.visit(site_page).dark_violations


# ----------------------------------------------------------------------------------------
# Behaviour


class TestRootPage:
    """The root page sends a browser to the language it prefers."""

    @pytest.mark.parametrize(("locale", "lang"), PREFERENCES)
    def test_sends_to_preferred_language(
        self, browser: Any, base_url: str, locale: str, lang: str
    ) -> None:
        """A browser preferring *locale* lands on the index page of *lang*."""
        context = new_context(browser, locale=locale)
        try:
            page = context.new_page()
            page.goto(base_url)
            page.wait_for_url(f"{base_url}{lang}/index.html")
            assert (f"{base_url}{lang}/index.html", TAGS[lang]) == (
                page.url,
                page.get_attribute("html", "lang"),
            )
        finally:
            context.close()


class TestLanguageLinks:
    """Following a language link lands on the same page in the other language."""

    @pytest.mark.parametrize("name", SWITCHED_PAGES)
    def test_same_page_in_every_language(self, page: Any, base_url: str, name: str) -> None:
        """From *name* in each language, the link to each other language opens *name* in
        it (two round trips: en, zh_CN, es, en and en, es, zh_CN, en)."""
        expected, actual = [], []
        for cycle in (LANGS, LANGS[::-1]):
            page.goto(f"{base_url}{cycle[0]}/{name}")
            for target in [*cycle[1:], cycle[0]]:
                with page.expect_navigation():
                    page.click(f'nav.agentmsg-languages a[hreflang="{TAGS[target]}"]')
                expected.append((f"{base_url}{target}/{name}", TAGS[target]))
                actual.append((page.url, page.get_attribute("html", "lang")))
        assert expected == actual

    @pytest.mark.parametrize(("source", "target"), [("zh_CN", "es"), ("es", "en"), ("en", "zh_CN")])
    def test_keeps_the_section(self, page: Any, base_url: str, source: str, target: str) -> None:
        """Reading a section of a tutorial, the reader who switches language lands on the
        same section (the ``#id``) of the same page, scrolled to it."""
        name = TUTORIALS[3]
        page.goto(f"{base_url}{source}/{name}")
        section = page.eval_on_selector("article section section[id]", "s => s.id")
        page.goto(f"{base_url}{source}/{name}#{section}")
        with page.expect_navigation():
            page.click(f'nav.agentmsg-languages a[hreflang="{TAGS[target]}"]')
        page.wait_for_function(
            "id => { const s = document.getElementById(id);"
            " return s && Math.abs(s.getBoundingClientRect().top) < 120; }",
            arg=section,
        )
        assert f"{base_url}{target}/{name}#{section}" == page.url

    def test_keeps_the_search_query(self, page: Any, base_url: str) -> None:
        """On the search page, the query goes along to the other language's search page."""
        page.goto(f"{base_url}es/search.html?q=mensaje")
        page.wait_for_selector("#search-results ul.search li")
        with page.expect_navigation():
            page.click('nav.agentmsg-languages a[hreflang="zh-CN"]')
        assert f"{base_url}zh_CN/search.html?q=mensaje" == page.url

    def test_root_page_remembers_the_choice(self, browser: Any, base_url: str) -> None:
        """A reader whose browser prefers English but who chose Español on the site is
        sent to Spanish by the root page the next time, once, with no loop."""
        context = new_context(browser, locale="en-US")
        try:
            page = context.new_page()
            page.goto(f"{base_url}en/index.html")
            with page.expect_navigation():
                page.click('nav.agentmsg-languages a[hreflang="es"]')
            later = context.new_page()  # the same browser profile, another visit
            visited: list[str] = []
            later.on(
                "framenavigated",
                lambda frame: visited.append(frame.url) if frame == later.main_frame else None,
            )
            later.goto(base_url)
            later.wait_for_url(f"{base_url}es/index.html")
            later.wait_for_load_state("load")
            # Once through the root page (no loop back to it), then only the Spanish page.
            assert (base_url, 1, {f"{base_url}es/index.html"}) == (
                visited[0],
                visited.count(base_url),
                set(visited[1:]),
            )
        finally:
            context.close()


class TestGeneratedLabels:
    """What the site's scripts and style sheets write is in the page's language."""

    OUTPUT: ClassVar = {"en": "Out:", "zh_CN": "输出：", "es": "Salida:"}
    COPY: ClassVar = {
        "en": ("Copy", "Copied!"),
        "zh_CN": ("复制", "已复制！"),
        "es": ("Copiar", "¡Copiado!"),
    }

    @pytest.mark.parametrize("lang", LANGS)
    def test_output_label(self, page: Any, base_url: str, lang: str) -> None:
        """sphinx-gallery's label above each output box reads in the page's language."""
        page.goto(f"{base_url}{lang}/{TUTORIALS[0]}")
        label = page.eval_on_selector(
            ".sphx-glr-script-out", "box => getComputedStyle(box, '::before').content"
        )
        assert f'"{self.OUTPUT[lang]}"' == label

    @pytest.mark.parametrize("lang", LANGS)
    def test_copy_button_messages(self, page: Any, base_url: str, lang: str) -> None:
        """The copy button's tooltip, and what it says once it copied, are translated."""
        page.goto(f"{base_url}{lang}/{TUTORIALS[0]}")
        block = page.locator("div.highlight-Python div.highlight").first
        block.hover()
        button = block.locator("button.copybtn")
        before = button.get_attribute("data-tooltip")
        button.click()
        after = page.wait_for_function(
            "([b, old]) => b.dataset.tooltip !== old && b.dataset.tooltip",
            arg=[button.element_handle(), before],
        ).json_value()
        assert self.COPY[lang] == (before, after)


class TestSearch:
    """The search page finds the tutorials in every language."""

    @pytest.mark.parametrize(("lang", "term"), SEARCHES.items())
    def test_lists_the_tutorials(self, page: Any, base_url: str, lang: str, term: str):
        """Searching *term* lists every tutorial page (no other page is asked about)."""
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        expected = sorted(f"{SITE_PATH}{lang}/{name}" for name in TUTORIALS)
        page.goto(f"{base_url}{lang}/search.html?q={term}")
        # What a reader waits for: a link to every tutorial in the result list. (The
        # excerpts Sphinx then fetches page by page are not waited for.)
        page.wait_for_function(
            """expected => {
                const links = document.querySelectorAll("#search-results ul.search li > a");
                const found = new Set([...links].map(link => new URL(link.href).pathname));
                return expected.every(path => found.has(path));
            }""",
            arg=expected,
        )
        hrefs = page.eval_on_selector_all(
            "#search-results ul.search li > a", "links => links.map(link => link.href)"
        )
        found = {urlsplit(href).path for href in hrefs}
        assert (set(expected), []) == (set(expected) & found, errors)

    @pytest.mark.parametrize(("lang", "term"), SEARCHES.items())
    def test_summaries_leave_out_the_download_note(
        self, page: Any, base_url: str, lang: str, term: str
    ) -> None:
        """A tutorial's result shows its own text, not sphinx-gallery's "go to the end to
        download" note that opens the page (the Spanish review)."""
        page.goto(f"{base_url}{lang}/{TUTORIALS[0]}")
        note = page.inner_text(".sphx-glr-download-link-note").split()
        page.goto(f"{base_url}{lang}/search.html?q={term}")
        page.wait_for_function(
            """() => document.querySelectorAll("#search-results ul.search li p.context").length
                 >= 3""",
        )
        summaries = page.eval_on_selector_all(
            "#search-results ul.search li p.context", "items => items.map(p => p.innerText)"
        )
        # The note's words, minus the first (furo's "Note" label), in any summary.
        phrase = " ".join(note[1:6])
        assert note and [] == [text for text in summaries if phrase in " ".join(text.split())]


class TestDownloads:
    """Every download link of the tutorials answers with a valid file."""

    @pytest.mark.parametrize("lang", LANGS)
    def test_download_links(self, page: Any, base_url: str, lang: str) -> None:
        """Notebooks parse as JSON notebooks, scripts compile, zips open; none is empty."""
        problems: list[str] = []
        checked = 0
        for name in ["tutorial/index.html", *TUTORIALS]:
            page.goto(f"{base_url}{lang}/{name}")
            hrefs = page.eval_on_selector_all(
                "a[href*='_downloads/']", "links => links.map(link => link.href)"
            )
            if not hrefs:
                problems.append(f"{lang}/{name}: no download link")
            for href in sorted(set(hrefs)):
                response = page.request.get(href)
                checked += 1
                problem = _download_problem(href, response.status, response.body())
                if problem:
                    problems.append(f"{lang}/{name}: {problem}")
        assert ([], True) == (problems, checked >= 3 * len(TUTORIALS))


def _download_problem(url: str, status: int, body: bytes) -> str | None:
    name = urlsplit(url).path.rsplit("/", 1)[-1]
    if status != 200 or not body:
        return f"{name}: HTTP {status}, {len(body)} bytes"
    try:
        if name.endswith(".ipynb"):
            notebook = json.loads(body)
            if not notebook.get("cells") or "nbformat" not in notebook:
                return f"{name}: not a notebook"
        elif name.endswith(".py"):
            compile(body, name, "exec")
        elif name.endswith(".zip"):
            with zipfile.ZipFile(io.BytesIO(body)) as archive:
                if not archive.namelist() or archive.testzip() is not None:
                    return f"{name}: empty or corrupt zip"
        else:
            return f"{name}: unexpected kind of download"
    except (ValueError, SyntaxError, zipfile.BadZipFile) as error:
        return f"{name}: {error}"
    return None


class TestRunnerControls:
    """The in-page runner's buttons speak the page's language, or are marked English."""

    @pytest.mark.parametrize("lang", LANGS)
    def test_buttons(self, page: Any, base_url: str, lang: str) -> None:
        """Each block gets a "Run" and a "Reset" button with the texts of the page's
        runner settings, marked ``lang="en"`` when those are shown in English; no
        Python starts while nobody reaches for a block."""
        page.goto(f"{base_url}{lang}/{TUTORIALS[0]}")
        page.wait_for_selector("html.agentmsg-runner-ready")
        settings = json.loads(page.inner_text("script#agentmsg-runner"))
        english = set(settings.get("english", []))
        expected = [
            (settings["strings"][key], "en" if key in english else "") for key in ("run", "reset")
        ]
        shown = page.eval_on_selector_all(
            ".agentmsg-run-bar button", "buttons => buttons.map(b => [b.textContent, b.lang])"
        )
        assert (True, [], False) == (
            len(shown) >= 2,
            [tuple(pair) for pair in shown if tuple(pair) not in expected],
            page.evaluate(
                "() => performance.getEntriesByType('resource')"
                ".some(entry => entry.name.includes('pyodide'))"
            ),
        )
        assert {tuple(pair) for pair in shown} == set(expected)


class TestCopyButton:
    """sphinx-copybutton copies the code only: no prompts, no output."""

    def _copy(self, page: Any, block: Any) -> str:
        block.hover()
        block.locator("button.copybtn").click()
        return page.evaluate("() => navigator.clipboard.readText()")

    def test_doctest_block(self, page: Any, base_url: str) -> None:
        """A ``>>>`` block on the index page copies its code lines without the prompts."""
        page.goto(f"{base_url}en/index.html")
        block = page.locator("div.highlight:has(span.gp)").first
        text = block.locator("pre").inner_text()
        expected = "\n".join(
            line[4:] for line in text.splitlines() if line.startswith((">>> ", "... "))
        )
        assert expected.strip() == self._copy(page, block).strip()

    def test_tutorial_code_and_output(self, page: Any, base_url: str) -> None:
        """A tutorial's code block copies as shown; its captured output has no button."""
        page.goto(f"{base_url}en/{TUTORIALS[0]}")
        block = page.locator("div.highlight-Python div.highlight").first
        expected = block.locator("pre").inner_text()
        outputs = page.locator(".sphx-glr-script-out")
        assert (expected.strip(), True, 0) == (
            self._copy(page, block).strip(),
            outputs.count() > 0,
            outputs.locator("button.copybtn").count(),
        )


class TestDarkMode:
    """The theme switch turns the page dark, and the choice stays on the next page."""

    @pytest.mark.parametrize("lang", LANGS)
    def test_switch_and_stay(self, page: Any, base_url: str, lang: str) -> None:
        """Clicking the theme button reaches dark mode with a dark background; after
        following a link the next page is dark too."""
        page.goto(f"{base_url}{lang}/{TUTORIALS[0]}")
        toggle = page.locator(".content-icon-container button.theme-toggle")
        for _ in range(3):
            if page.evaluate("() => document.body.dataset.theme") == "dark":
                break
            toggle.click()
        dark = _background_lightness(page)
        with page.expect_navigation():
            page.click(f'a[href="{TUTORIALS[1].split("/")[1]}"]')
        assert ("dark", True, "dark") == (
            page.evaluate("() => document.body.dataset.theme"),
            dark < 0.2,
            page.evaluate("() => localStorage.getItem('theme')"),
        )


def _background_lightness(page: Any) -> float:
    rgb = page.evaluate(
        "() => getComputedStyle(document.body).backgroundColor.match(/\\d+/g).slice(0, 3)"
    )
    return sum(int(value) for value in rgb) / (3 * 255)


class TestPhone:
    """At a phone's width the tutorials fit: nothing scrolls the page sideways."""

    @pytest.mark.parametrize("lang", LANGS)
    def test_no_sideways_scrolling(self, browser: Any, base_url: str, lang: str) -> None:
        """For every tutorial page the document is no wider than the viewport."""
        context = new_context(browser, viewport=PHONE, is_mobile=True, has_touch=True)
        try:
            page = context.new_page()
            widths = {}
            for name in ["tutorial/index.html", *TUTORIALS]:
                page.goto(f"{base_url}{lang}/{name}")
                widths[name] = page.evaluate("() => document.documentElement.scrollWidth")
            too_wide = {name: width for name, width in widths.items() if width > PHONE["width"]}
            assert ({}, len(TUTORIALS) + 1) == (too_wide, len(widths))
        finally:
            context.close()


#: What a tutorial page shows cut off or too small, measured in the browser: an output
#: box or a table wider than its box (hidden overflow), a table wider than the text
#: column, a card's image under 48 px high or its video under 200 px wide.
LAYOUT_PROBLEMS = """() => {
    const found = [];
    const column = document.querySelector("article").getBoundingClientRect().width;
    const say = (what, el) =>
        found.push(what + ": " + (el.innerText || el.alt || el.tagName).trim().slice(0, 60));
    for (const pre of document.querySelectorAll(".sphx-glr-script-out pre")) {
        if (pre.scrollWidth > pre.clientWidth + 1) say("output cut off", pre);
    }
    for (const table of document.querySelectorAll("article table")) {
        const width = table.getBoundingClientRect().width;
        const cut = table.scrollWidth > table.clientWidth + 1;
        if (width > column + 1 || cut) say("table too wide", table);
    }
    for (const img of document.querySelectorAll("article.agentmsg-card img")) {
        if (img.getBoundingClientRect().height < 47.5) say("image too small", img);
    }
    for (const video of document.querySelectorAll("article.agentmsg-card video")) {
        if (video.getBoundingClientRect().width < 199.5) say("video too small", video);
    }
    return found;
}"""


class TestLayout:
    """At a desktop's and at a phone's width, nothing a tutorial shows is cut off, every
    table fits the text column, and the cards' media are big enough to see and use."""

    @pytest.mark.parametrize(
        "viewport", [DESKTOP, {"width": 390, "height": 844}], ids=["1280", "390"]
    )
    @pytest.mark.parametrize("lang", LANGS)
    def test_tutorials(
        self, browser: Any, base_url: str, lang: str, viewport: dict[str, int]
    ) -> None:
        """Every tutorial page of *lang* has no layout problem (see LAYOUT_PROBLEMS)."""
        phone = viewport["width"] < 600
        context = new_context(browser, viewport=viewport, is_mobile=phone, has_touch=phone)
        try:
            page = context.new_page()
            problems = {}
            for name in TUTORIALS:
                page.goto(f"{base_url}{lang}/{name}", wait_until="load")
                found = page.evaluate(LAYOUT_PROBLEMS)
                if found:
                    problems[name] = found
            assert {} == problems
        finally:
            context.close()


@pytest.mark.every_language
class TestNotFound:
    """A missing address shows the root 404 page, which offers every language."""

    @pytest.mark.parametrize(
        ("path", "first"), [("es/tutorial/no/such/page.html", "es"), ("zh_CN/nope.html", "zh_CN")]
    )
    def test_deep_missing_address(self, page: Any, base_url: str, path: str, first: str) -> None:
        """At a deep missing address, the page answers 404, loads nothing that fails, says
        "page not found" in every language with the address's language first, and its
        links open that language's home page."""
        failed: list[str] = []
        page.on("requestfailed", lambda request: failed.append(request.url))
        page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
        response = page.goto(f"{base_url}{path}")
        page.wait_for_load_state("load")
        status = response.status if response else None
        order = page.eval_on_selector_all(
            "section[data-agentmsg-language]",
            "sections => sections.map(s => s.getAttribute('data-agentmsg-language'))",
        )
        with page.expect_navigation():
            page.click(f'section[data-agentmsg-language="{first}"] a[href$="/{first}/index.html"]')
        assert (404, [f"{base_url}{path}"], first, sorted(LANGS)) == (
            status,
            failed,
            order[0],
            sorted(order),
        )
        assert f"{base_url}{first}/index.html" == page.url


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder named by ``AGENTMSG_SCREENSHOTS``, else a temporary one."""
    chosen = os.environ.get(SCREENSHOTS)
    folder = Path(chosen).resolve() if chosen else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class TestScreenshots:
    """Screenshots for review: the landing and first tutorial page of each language."""

    @pytest.mark.parametrize("lang", LANGS)
    def test_saved(self, browser: Any, base_url: str, screenshots: Path, lang: str) -> None:
        """The landing and first tutorial pages (light), and the tutorial in dark mode and
        on a phone, are written to <screenshots>/<lang>-<page>-<variant>.png."""
        shots = [
            ("light", {"viewport": DESKTOP, "color_scheme": "light"}, ["index.html", TUTORIALS[0]]),
            ("dark", {"viewport": DESKTOP, "color_scheme": "dark"}, [TUTORIALS[0]]),
            ("phone", {"viewport": PHONE, "is_mobile": True}, [TUTORIALS[0]]),
        ]
        written = []
        for variant, options, names in shots:
            context = new_context(browser, **options)
            try:
                page = context.new_page()
                for name in names:
                    page.goto(f"{base_url}{lang}/{name}")
                    stem = name.removesuffix(".html").replace("/", "-")
                    path = screenshots / f"{lang}-{stem}-{variant}.png"
                    page.screenshot(path=str(path))
                    written.append(path)
            finally:
                context.close()
        assert [True] * 4 == [path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for path in written]
