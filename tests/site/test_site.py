"""The built site (``_build/html``): pages, executed output, downloads, language links.

Every test reads the files ``python -m agentmsg_docs html`` produced (the ``built_site`` fixture
builds them once per session), in every language.
"""

from __future__ import annotations

import functools
import json
import re
import zipfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import snowballstemmer
from bs4 import BeautifulSoup, Tag
from sphinx.builders.html._assets import _CascadingStyleSheet

import agentmsg
from _checkout import TUTORIALS
from _languages import COMPLETE, IN_PROGRESS, pages
from _outputs import captured_html
from agentmsg.cards._html import STYLE
from agentmsg_docs.gallery.cards import localize
from agentmsg_docs.gallery.downloads import (
    load_catalog,
    text_msgids,
    translate_script,
    with_language_cell,
)
from agentmsg_docs.i18n.comments import strip_comments
from agentmsg_docs.i18n.languages import LANGUAGES, SITE_URL, language_links
from agentmsg_docs.site import html_pages
from agentmsg_docs.site import root_pages as build

ROOT = Path(__file__).resolve().parents[2]


LANGS = [language.code for language in LANGUAGES]
TAGS = {language.code: language.tag for language in LANGUAGES}
TRANSLATED = [code for code in LANGS if code != "en"]
#: Folders of a language's output that hold assets, not pages.


@functools.cache
def soup(path: Path) -> BeautifulSoup:
    """The parsed HTML of *path* (cached: pages are read by several tests)."""
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def downloads(site: Path, lang: str) -> dict[str, list[Path]]:
    """The files under ``<lang>/_downloads``, by file name."""
    found: dict[str, list[Path]] = {}
    for path in sorted((site / lang / "_downloads").rglob("*")):
        if path.is_file():
            found.setdefault(path.name, []).append(path)
    return found


def download(site: Path, lang: str, name: str) -> Path:
    """The one download called *name* in *lang* (fails if there are none or several)."""
    found = downloads(site, lang).get(name, [])
    assert 1 == len(found), f"{lang}/_downloads has {len(found)} files called {name}"
    return found[0]


def notebook_cells(path: Path) -> list[tuple[str, str]]:
    """``(cell_type, source)`` of every cell of a notebook."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return [(cell["cell_type"], "".join(cell["source"])) for cell in notebook["cells"]]


def search_terms(site: Path, lang: str) -> dict[str, object]:
    """The ``terms`` table of a language's ``searchindex.js``."""
    text = (site / lang / "searchindex.js").read_text(encoding="utf-8")
    match = re.fullmatch(r"Search\.setIndex\((.*)\)\s*", text, re.S)
    assert match is not None, f"{lang}/searchindex.js is not a Search.setIndex(...) call"
    index = json.loads(match.group(1))
    return {**index["terms"], **index.get("titleterms", {})}


def _cards(html: str) -> list[Tag]:
    return BeautifulSoup(html, "html.parser").select("article.agentmsg-card")


class TestTutorialPages:
    """Every tutorial exists in every language, with the output its code printed."""

    @pytest.mark.parametrize("lang", LANGS)
    @pytest.mark.parametrize("name", TUTORIALS)
    def test_page_exists_with_its_language(self, built_site: Path, lang: str, name: str) -> None:
        """``<lang>/tutorial/<name>.html`` exists and its ``<html lang>`` is the BCP 47 tag."""
        page = soup(built_site / lang / "tutorial" / f"{name}.html")
        html = page.find("html")
        assert isinstance(html, Tag)
        assert TAGS[lang] == html.get("lang")

    @pytest.mark.parametrize("lang", LANGS)
    @pytest.mark.parametrize("name", TUTORIALS)
    def test_page_shows_executed_output(self, built_site: Path, lang: str, name: str) -> None:
        """The page has printed output and none of its output boxes is empty."""
        boxes = soup(built_site / lang / "tutorial" / f"{name}.html").select(
            "div.sphx-glr-script-out"
        )
        assert boxes, f"{lang}/tutorial/{name}.html shows no output"
        assert [] == [box for box in boxes if not box.get_text().strip()]

    @pytest.mark.parametrize("lang", TRANSLATED)
    @pytest.mark.parametrize("name", TUTORIALS)
    def test_output_is_the_same_in_every_language(
        self, built_site: Path, lang: str, name: str
    ) -> None:
        """The printed output is the English page's, unchanged."""

        def printed(code: str) -> list[str]:
            page = soup(built_site / code / "tutorial" / f"{name}.html")
            return [str(box) for box in page.select("div.sphx-glr-script-out")]

        assert printed("en") == printed(lang)

    @pytest.mark.parametrize("lang", LANGS)
    @pytest.mark.parametrize("name", TUTORIALS)
    def test_cards_are_the_captured_ones_in_the_page_language(
        self, built_site: Path, built_gallery: Path, lang: str, name: str
    ) -> None:
        """Each chat card is the one the examples pass captured, with its labels written
        in the page's language exactly as ``agentmsg`` writes them for a notebook user;
        the cards after the first leave out the style sheet the first one carries."""
        generated = (built_gallery / f"{name}.rst").read_text(encoding="utf-8")
        cards = [card for box in captured_html(generated) for card in _cards(localize(box, lang))]
        page = soup(built_site / lang / "tutorial" / f"{name}.html")
        style = f"<style>{STYLE}</style>"
        expected = [
            str(card) if not index else str(card).replace(style, "")
            for index, card in enumerate(cards)
        ]
        assert expected == [str(card) for card in page.select("article.agentmsg-card")]
        assert "\ue000" not in str(page)

    @pytest.mark.parametrize("lang", LANGS)
    def test_a_page_holds_the_card_style_once(self, built_site: Path, lang: str) -> None:
        """A page with chat cards holds the cards' style sheet once, in its first card
        (every card of a notebook carries its own); a page without cards holds none."""
        style = f"<style>{STYLE}</style>"
        wrong = {}
        pages_with_cards = 0
        for page in sorted((built_site / lang).rglob("*.html")):
            html = page.read_text(encoding="utf-8")
            cards = [found.start() for found in re.finditer('<article class="agentmsg-card', html)]
            copies = [found.start() for found in re.finditer(re.escape(style), html)]
            pages_with_cards += bool(cards)
            if not cards:
                shown = f"{len(copies)} copies on a page without cards" if copies else ""
            elif len(copies) != 1:
                shown = f"{len(copies)} copies"
            else:
                first_card_ends = cards[1] if len(cards) > 1 else len(html)
                shown = "" if cards[0] < copies[0] < first_card_ends else "not in the first card"
            if shown:
                wrong[str(page.relative_to(built_site))] = shown
        assert {} == wrong
        assert pages_with_cards

    def test_chat_cards_are_shown(self, built_site: Path) -> None:
        """A message at the end of a cell is shown as a chat card on the tutorial pages."""
        counts = {
            name: len(
                soup(built_site / "en" / "tutorial" / f"{name}.html").select(
                    "div.output_html article.agentmsg-card"
                )
            )
            for name in TUTORIALS
        }
        assert sum(counts.values()) > 0, counts
        assert "create_message" in {name for name, count in counts.items() if count}

    @pytest.mark.parametrize("lang", LANGS)
    def test_chat_cards_hold_no_active_markup(self, built_site: Path, lang: str) -> None:
        """Inside a card nothing runs: no script, iframe or object, no ``on*`` handler,
        no ``javascript:`` URL; message text arrives escaped."""
        problems = []
        for name in TUTORIALS:
            for card in soup(built_site / lang / "tutorial" / f"{name}.html").select(
                "article.agentmsg-card"
            ):
                for element in card.find_all(True):
                    where = f"{lang}/tutorial/{name}.html card {card.get('data-agentmsg-id')}"
                    if element.name in {"script", "iframe", "object", "embed"}:
                        problems.append(f"{where}: <{element.name}>")
                    for attribute, value in element.attrs.items():
                        text = " ".join(value) if isinstance(value, list) else str(value)
                        if attribute.lower().startswith("on"):
                            problems.append(f"{where}: {attribute}=")
                        if text.strip().lower().startswith("javascript:"):
                            problems.append(f"{where}: {attribute}={text}")
        assert [] == problems

    def test_card_escapes_markup_in_a_message(self) -> None:
        """A message whose text holds markup renders it as text (what every card on the
        site goes through: the gallery captures ``_repr_html_``)."""
        message = agentmsg.Msg(
            name="<b>bot</b>", role="assistant", content="<script>alert(1)</script> & co"
        )
        card = BeautifulSoup(message._repr_html_(), "html.parser")
        assert [] == card.find_all(["script", "b"])
        assert "<script>alert(1)</script> & co" in card.get_text()


class TestApiPage:
    """The API reference documents every public name."""

    @pytest.mark.parametrize("lang", LANGS)
    def test_every_public_name_has_an_anchor(self, built_site: Path, lang: str) -> None:
        """``api.html`` has an element with id ``agentmsg.<name>`` for each name of ``__all__``."""
        ids = {element["id"] for element in soup(built_site / lang / "api.html").select("[id]")}
        assert [] == [name for name in agentmsg.__all__ if f"agentmsg.{name}" not in ids]


class TestLanguageLinks:
    """Every page of every language links to itself in the other languages."""

    @pytest.mark.parametrize("lang", LANGS)
    def test_html_lang(self, built_site: Path, lang: str) -> None:
        """Every page's ``<html lang>`` is its language's BCP 47 tag."""
        found = {}
        for name, path in pages(built_site, lang).items():
            html = soup(path).find("html")
            found[name] = html.get("lang") if isinstance(html, Tag) else None
        assert {name: TAGS[lang] for name in found} == found

    @pytest.mark.parametrize("lang", LANGS)
    def test_hreflang_alternates(self, built_site: Path, lang: str) -> None:
        """Every page declares the same page in each language, plus ``x-default`` (English),
        at its absolute address on the published site (``AGENTMSG_SITE_URL``), as search
        engines read them."""
        problems = {}
        for name, path in pages(built_site, lang).items():
            expected = [(tag, f"{SITE_URL}{code}/{name}.html") for code, tag in TAGS.items()] + [
                ("x-default", f"{SITE_URL}en/{name}.html")
            ]
            actual = [
                (link.get("hreflang"), link.get("href"))
                for link in soup(path).select('head link[rel="alternate"][hreflang]')
            ]
            if expected != actual:
                problems[name] = actual
        assert {} == problems

    @pytest.mark.parametrize("lang", LANGS)
    def test_language_switcher(self, built_site: Path, lang: str) -> None:
        """Every page has one ``nav.agentmsg-languages`` with a plain link per language; the
        current one is marked ``aria-current="page"``."""
        problems = {}
        for name, path in pages(built_site, lang).items():
            absolute = name in {"404"}
            expected = [
                (link["href"], link["tag"], "page" if link["current"] else None)
                for link in language_links(name, lang, absolute=absolute)
            ]
            navs = soup(path).select("nav.agentmsg-languages")
            actual = [
                [(a.get("href"), a.get("hreflang"), a.get("aria-current")) for a in nav.select("a")]
                for nav in navs
            ]
            if [expected] != actual:
                problems[name] = actual
        assert {} == problems

    @pytest.mark.parametrize("lang", LANGS)
    def test_links_point_at_existing_pages(self, built_site: Path, lang: str) -> None:
        """Each language link of each page leads to a file that exists."""
        missing = set()
        for name, path in pages(built_site, lang).items():
            for a in soup(path).select("nav.agentmsg-languages a"):
                href = str(a["href"])
                target = (
                    built_site / href.lstrip("/") if href.startswith("/") else path.parent / href
                )
                if not target.resolve().is_file():
                    missing.add(f"{lang}/{name}.html -> {href}")
        assert set() == missing

    @pytest.mark.every_language
    def test_same_pages_in_every_language(self, built_site: Path) -> None:
        """The three languages have the same set of pages."""
        names = {lang: sorted(pages(built_site, lang)) for lang in LANGS}
        assert {lang: names["en"] for lang in LANGS} == names

    @pytest.mark.every_language
    def test_root_index(self, built_site: Path) -> None:
        """``_build/html/index.html`` is the language chooser for all three languages."""
        expected = build.root_index_html(LANGS)
        assert expected == (built_site / "index.html").read_text(encoding="utf-8")

    @pytest.mark.parametrize("lang", LANGS)
    def test_sitemap(self, built_site: Path, lang: str) -> None:
        """``sitemap.xml`` lists every page (but search, genindex and 404) with its
        alternates in every language."""
        text = (built_site / lang / "sitemap.xml").read_text(encoding="utf-8")
        listed = set(re.findall(rf"<loc>[^<]*?/{lang}/([^<]+)\.html</loc>", text))
        expected = set(pages(built_site, lang)) - {"search", "genindex", "404"}
        assert expected == listed
        for tag in TAGS.values():
            assert len(listed) == text.count(f'hreflang="{tag}"'), tag


class TestGalleryCards:
    """The tutorial index's cards are links a screen reader can name."""

    @pytest.mark.parametrize("lang", LANGS)
    def test_card_links_have_text(self, built_site: Path, lang: str) -> None:
        """Each card holds links, and every link has visible text (the tutorial's title)."""
        cards = soup(built_site / lang / "tutorial" / "index.html").select(
            ".sphx-glr-thumbcontainer"
        )
        assert len(TUTORIALS) == len(cards)
        links = [a for card in cards for a in card.select("a")]
        assert len(TUTORIALS) <= len(links)
        assert [] == [str(a) for a in links if not a.get_text().strip()]

    @pytest.mark.parametrize("lang", LANGS)
    def test_no_tooltips_or_raw_titles(self, built_site: Path, lang: str) -> None:
        """No page keeps sphinx-gallery's English ``tooltip=`` or its raw card titles."""
        found = [
            name
            for name, path in pages(built_site, lang).items()
            if "tooltip=" in path.read_text(encoding="utf-8")
            or "sphx-glr-thumbnail-title" in path.read_text(encoding="utf-8")
        ]
        assert [] == found

    @pytest.mark.parametrize("lang", LANGS)
    def test_own_thumbnail_and_description(self, built_site: Path, lang: str) -> None:
        """Each card shows its tutorial's own drawing (an inline SVG, no placeholder image,
        no two alike) and a one-line description that is no English page's but for en."""
        cards = soup(built_site / lang / "tutorial" / "index.html").select(
            ".sphx-glr-thumbcontainer"
        )
        drawings = [str(card.select_one("svg.agentmsg-thumb")) for card in cards]
        lines = [card.select_one("p.agentmsg-card-line") for card in cards]
        assert (len(TUTORIALS), [], []) == (
            len(set(drawings)),
            [str(card) for card in cards if card.select("img")],
            [str(card) for card, line in zip(cards, lines, strict=True) if not line],
        )
        english = soup(built_site / "en" / "tutorial" / "index.html").select("p.agentmsg-card-line")
        texts = [line.get_text() for line in lines if line]
        same = [t for t, e in zip(texts, english, strict=True) if t == e.get_text()]
        if lang == "en":
            assert same == texts
        elif lang not in IN_PROGRESS:  # in progress: English lines are marked (test_progress)
            assert [] == same


class TestStyleSheets:
    """A page makes a phone wait for one style sheet, which is the sheets it replaces."""

    @pytest.mark.parametrize("lang", LANGS)
    def test_every_page_links_one_style_sheet(self, built_site: Path, lang: str) -> None:
        """Every page of a language links ``_static/agentmsg-site.css`` and no other sheet."""
        linked = {
            page.relative_to(built_site).as_posix(): [
                str(link.get("href", "")).split("?")[0].rsplit("_static/", 1)[-1]
                for link in soup(page).select('link[rel="stylesheet"]')
            ]
            for page in sorted((built_site / lang).rglob("*.html"))
        }
        assert linked
        assert {page: ["agentmsg-site.css"] for page in linked} == linked

    @pytest.mark.parametrize("lang", LANGS)
    def test_bundle_is_the_final_sheets(self, built_site: Path, lang: str) -> None:
        """The bundle is the theme's, the highlighting's and the extensions' sheets as the
        build left them in ``_static/`` (furo's ``pygments.css`` included, which furo
        writes after the pages), each once, in the order Sphinx would have linked them."""
        static = built_site / lang / "_static"
        text = (static / "agentmsg-site.css").read_text(encoding="utf-8")
        parts = re.split(r"^/\* agentmsg-site\.css, from _static/(\S+) \*/\n", text, flags=re.M)
        assert "" == parts[0]
        names = parts[1::2]
        assert [
            "pygments.css",
            "styles/furo.css",
            "copybutton.css",
            "sg_gallery.css",
            "sg_gallery-rendered-html.css",
            "styles/furo-extensions.css",
            "agentmsg.css",
        ] == names
        assert [(static / name).read_text(encoding="utf-8") + "\n" for name in names] == parts[2::2]
        assert "prefers-color-scheme: dark" in parts[2]  # furo's pygments.css, not Sphinx's


class TestStyleSheetBundle:
    """How the bundle is made, on a made-up output folder (no build)."""

    @staticmethod
    def outdir(tmp_path: Path, sheets: dict[str, str]) -> SimpleNamespace:
        for name, text in sheets.items():
            (tmp_path / "_static").mkdir(exist_ok=True)
            (tmp_path / "_static" / name).write_text(text, encoding="utf-8")
        return SimpleNamespace(outdir=str(tmp_path))

    @staticmethod
    def linked(sheets: list[Any]) -> list[str]:
        return [str(sheet.filename) for sheet in sheets]

    def test_sheets_become_one_in_priority_order(self, tmp_path: Path) -> None:
        app = self.outdir(tmp_path, {"a.css": "a{}", "b.css": "b{}"})
        sheets = [
            _CascadingStyleSheet("_static/b.css", priority=600),
            _CascadingStyleSheet("_static/a.css", priority=500),
        ]
        assert ["_static/agentmsg-site.css"] == self.linked(
            html_pages._bundle_style_sheets(app, sheets)
        )
        assert (
            "/* agentmsg-site.css, from _static/a.css */\na{}\n"
            "/* agentmsg-site.css, from _static/b.css */\nb{}\n"
        ) == (tmp_path / "_static" / "agentmsg-site.css").read_text(encoding="utf-8")

    def test_a_page_with_other_sheets_keeps_its_own(self, tmp_path: Path) -> None:
        app = self.outdir(tmp_path, {"a.css": "a{}", "b.css": "b{}", "c.css": "c{}"})
        first = [_CascadingStyleSheet(f"_static/{name}") for name in ("a.css", "b.css")]
        other = [_CascadingStyleSheet(f"_static/{name}") for name in ("a.css", "c.css")]
        html_pages._bundle_style_sheets(app, first)
        assert ["_static/a.css", "_static/c.css"] == self.linked(
            html_pages._bundle_style_sheets(app, other)
        )

    def test_a_new_build_bundles_its_own_sheets(self, tmp_path: Path) -> None:
        """A second build in the same process rereads the sheets and writes them anew."""
        app = self.outdir(tmp_path, {"a.css": "a{}", "b.css": "b{}"})
        sheets = [_CascadingStyleSheet(f"_static/{name}") for name in ("a.css", "b.css")]
        html_pages._bundle_style_sheets(app, sheets)
        (tmp_path / "_static" / "b.css").write_text("b{color:red}", encoding="utf-8")
        html_pages._forget_bundles(app)
        assert ["_static/agentmsg-site.css"] == self.linked(
            html_pages._bundle_style_sheets(app, sheets)
        )
        bundle = (tmp_path / "_static" / "agentmsg-site.css").read_text(encoding="utf-8")
        assert bundle.endswith("b{color:red}\n")

    def test_a_relative_url_or_media_keeps_a_sheet_apart(self, tmp_path: Path) -> None:
        app = self.outdir(
            tmp_path, {"a.css": "a{}", "b.css": "b{background:url(x.png)}", "c.css": "c{}"}
        )
        sheets = [
            _CascadingStyleSheet("_static/a.css"),
            _CascadingStyleSheet("_static/b.css"),
            _CascadingStyleSheet("_static/c.css", media="print"),
        ]
        assert self.linked(sheets) == self.linked(html_pages._bundle_style_sheets(app, sheets))

    def test_a_sheet_changed_after_the_pages_is_reported(
        self, tmp_path: Path, caplog: pytest.LogCaptureFixture
    ) -> None:
        app = self.outdir(tmp_path, {"a.css": "a{}", "b.css": "b{}"})
        sheets = [_CascadingStyleSheet(f"_static/{name}") for name in ("a.css", "b.css")]
        html_pages._bundle_style_sheets(app, sheets)
        html_pages._check_bundle(app, None)
        assert [] == [record for record in caplog.records if record.levelname == "WARNING"]
        (tmp_path / "_static" / "b.css").write_text("b{color:red}", encoding="utf-8")
        html_pages._check_bundle(app, None)
        assert ["_static/agentmsg-site.css holds another _static/b.css than the build wrote"] == [
            record.getMessage() for record in caplog.records if record.levelname == "WARNING"
        ]


class TestNoRunTimes:
    """Nothing on the site depends on how long the examples took."""

    @pytest.mark.every_language
    def test_no_running_time(self, built_site: Path) -> None:
        """No file mentions "Total running time" or the ``sg_execution_times`` page."""
        found = [
            path.relative_to(built_site).as_posix()
            for path in sorted(built_site.rglob("*"))
            if path.is_file()
            and path.suffix in {".html", ".js", ".txt", ".xml", ".py", ".ipynb"}
            and (
                "Total running time" in (text := path.read_text(encoding="utf-8", errors="replace"))
                or "sg_execution_times" in text
            )
        ]
        assert [] == found

    @pytest.mark.every_language
    def test_no_execution_times_page(self, built_site: Path) -> None:
        """No ``sg_execution_times`` page is built."""
        assert [] == sorted(built_site.rglob("sg_execution_times*"))


class TestDownloads:
    """Each tutorial offers its script, its notebook and a zip of both, in every language."""

    @pytest.mark.parametrize("lang", LANGS)
    @pytest.mark.parametrize("name", TUTORIALS)
    def test_page_links_its_downloads(self, built_site: Path, lang: str, name: str) -> None:
        """The page links a ``.py``, an ``.ipynb`` and a ``.zip`` that exist."""
        page = built_site / lang / "tutorial" / f"{name}.html"
        hrefs = [str(a["href"]) for a in soup(page).select("a.download[href]")]
        linked = {
            Path(href).name: (page.parent / href).resolve().is_file()
            for href in hrefs
            if "_downloads/" in href
        }
        expected = {f"{name}.py": True, f"{name}.ipynb": True, f"{name}.zip": True}
        assert expected == {key: value for key, value in linked.items() if key in expected}

    @pytest.mark.parametrize("lang", LANGS)
    def test_one_of_each(self, built_site: Path, lang: str) -> None:
        """``_downloads`` holds exactly one file of each name: three per tutorial and the
        gallery's two all-in-one zips."""
        expected = {
            f"{name}{suffix}": 1 for name in TUTORIALS for suffix in (".py", ".ipynb", ".zip")
        }
        expected |= {"tutorial_python.zip": 1, "tutorial_jupyter.zip": 1}
        actual = {name: len(paths) for name, paths in downloads(built_site, lang).items()}
        assert expected == actual

    @pytest.mark.parametrize("lang", LANGS)
    @pytest.mark.parametrize("name", TUTORIALS)
    def test_zip_holds_the_script_and_notebook(
        self, built_site: Path, lang: str, name: str
    ) -> None:
        """``<name>.zip`` holds the page's ``.py`` and ``.ipynb`` downloads, byte for byte."""
        with zipfile.ZipFile(download(built_site, lang, f"{name}.zip")) as archive:
            members = {info.filename: archive.read(info) for info in archive.infolist()}
        expected = {
            f"{name}{suffix}": download(built_site, lang, f"{name}{suffix}").read_bytes()
            for suffix in (".py", ".ipynb")
        }
        assert expected == members

    @pytest.mark.parametrize("lang", LANGS)
    def test_all_in_one_zips(self, built_site: Path, lang: str) -> None:
        """The gallery's zips hold every tutorial's script, respectively notebook."""
        for archive_name, suffix in (
            ("tutorial_python.zip", ".py"),
            ("tutorial_jupyter.zip", ".ipynb"),
        ):
            with zipfile.ZipFile(download(built_site, lang, archive_name)) as archive:
                members = {info.filename: archive.read(info) for info in archive.infolist()}
            expected = {
                f"{name}{suffix}": download(built_site, lang, f"{name}{suffix}").read_bytes()
                for name in TUTORIALS
            }
            assert expected == members, archive_name

    @pytest.mark.parametrize("lang", LANGS)
    def test_zip_timestamps_are_fixed(self, built_site: Path, lang: str) -> None:
        """Every member of every zip is dated 1980-01-01 00:00:00, so zips are reproducible."""
        dates = {}
        for path in sorted((built_site / lang / "_downloads").rglob("*.zip")):
            with zipfile.ZipFile(path) as archive:
                for info in archive.infolist():
                    dates[f"{path.name}/{info.filename}"] = info.date_time
        assert dates
        assert {key: (1980, 1, 1, 0, 0, 0) for key in dates} == dates


class TestTranslatedDownloads:
    """zh_CN and es readers download their language's prose around the same code."""

    @pytest.mark.parametrize("lang", TRANSLATED)
    @pytest.mark.parametrize("name", TUTORIALS)
    def test_script_is_translated_with_the_catalog(
        self, built_site: Path, lang: str, name: str
    ) -> None:
        """The ``.py`` download is the English script translated with the page's catalog,
        with the notebook's cells that set the display language after its docstring (the
        Spanish review: run in an editor, the script showed English cards)."""
        english = download(built_site, "en", f"{name}.py").read_text(encoding="utf-8")
        catalog = load_catalog(ROOT / "locales" / lang / "LC_MESSAGES" / "tutorial" / f"{name}.po")
        # After the title and the cell that installs agentmsg (test_notebooks.py).
        cells = notebook_cells(download(built_site, lang, f"{name}.ipynb"))[2:4]
        assert [("markdown", True), ("code", True)] == [
            (kind, f'set_display_language("{lang}")' in source or kind == "markdown")
            for kind, source in cells
        ]
        expected = with_language_cell(translate_script(english, catalog.get), cells)
        assert expected == download(built_site, lang, f"{name}.py").read_text(encoding="utf-8")

    @pytest.mark.parametrize("lang", TRANSLATED)
    @pytest.mark.parametrize("name", TUTORIALS)
    def test_script_code_is_unchanged(self, built_site: Path, lang: str, name: str) -> None:
        """The translated ``.py`` has the English script's code lines, in order (its
        comments are in the reader's language)."""

        def code(path: Path) -> list[str]:
            from sphinx_gallery.py_source_parser import split_code_and_text_blocks

            _, blocks = split_code_and_text_blocks(str(path))
            return [
                strip_comments(block.content, "python") for block in blocks if block.type == "code"
            ]

        setting = f'import agentmsg\nagentmsg.set_display_language("{lang}")'
        assert "\n".join([setting, *code(download(built_site, "en", f"{name}.py"))]) == "\n".join(
            code(download(built_site, lang, f"{name}.py"))
        )

    @pytest.mark.parametrize("lang", COMPLETE)
    @pytest.mark.parametrize("name", TUTORIALS)
    def test_every_paragraph_is_in_the_catalog(self, lang: str, name: str) -> None:
        """Each paragraph of the script's prose is a msgid of the page's catalog with a
        translation, so the downloads carry no English paragraph."""
        from sphinx_gallery.py_source_parser import split_code_and_text_blocks

        catalog = load_catalog(ROOT / "locales" / lang / "LC_MESSAGES" / "tutorial" / f"{name}.po")
        _, blocks = split_code_and_text_blocks(str(ROOT / "docs" / "examples" / f"{name}.py"))
        msgids = [m for block in blocks if block.type == "text" for m in text_msgids(block.content)]
        assert msgids
        assert [] == [msgid for msgid in msgids if msgid not in catalog]

    @pytest.mark.parametrize("lang", TRANSLATED)
    @pytest.mark.parametrize("name", TUTORIALS)
    def test_notebook_code_same_prose_translated(
        self, built_site: Path, lang: str, name: str
    ) -> None:
        """Without its two cells that set the display language (after the title cell),
        the notebook has the English cells in the same order: code cells identical but
        for their comments (in the reader's language), every markdown cell different
        (translated) in a complete language. (The cell that installs agentmsg, after the
        title, prints its line in the reader's language: test_notebooks.py.)"""
        english = notebook_cells(download(built_site, "en", f"{name}.ipynb"))
        cells = notebook_cells(download(built_site, lang, f"{name}.ipynb"))
        english = english[:1] + english[2:]
        translated = cells[:1] + cells[4:]
        assert [kind for kind, _ in english] == [kind for kind, _ in translated]
        pairs = list(zip(english, translated, strict=True))
        assert [strip_comments(en[1], "python") for en, _ in pairs if en[0] == "code"] == [
            strip_comments(tr[1], "python") for _, tr in pairs if tr[0] == "code"
        ]
        untranslated = [en[1][:60] for en, tr in pairs if en[0] == "markdown" and en == tr]
        if lang not in IN_PROGRESS:
            assert [] == untranslated


#: Inline markup that survives as text when reST or MyST did not recognise it (in a
#: translation, typically markup glued to CJK characters without ``\ ``).
RAW_MARKUP = re.compile(r":[\w:.+-]+:`|``|\{[\w:.+-]+\}`|`_|\]\(")


class TestRenderedMarkup:
    """Roles, literals and links in every language are rendered, never shown as source."""

    @pytest.mark.parametrize("lang", LANGS)
    def test_no_raw_markup_in_text(self, built_site: Path, lang: str) -> None:
        """The visible text of each page (code blocks aside) holds no raw inline markup."""
        found = []
        for name, path in pages(built_site, lang).items():
            page = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
            body = page.select_one("article") or page
            for element in body.select("pre, code, script, style, div.highlight"):
                element.decompose()
            text = " ".join(body.get_text(" ").split())
            found += [
                f"{lang}/{name}.html: ...{text[max(0, m.start() - 30) : m.end() + 30]}..."
                for m in RAW_MARKUP.finditer(text)
            ]
        assert [] == found


class TestSearch:
    """Each language has a search index in its own language."""

    @pytest.mark.parametrize("lang", LANGS)
    def test_index_covers_every_page(self, built_site: Path, lang: str) -> None:
        """``searchindex.js`` lists every page but the search page (genindex and 404
        included only if Sphinx indexes them)."""
        text = (built_site / lang / "searchindex.js").read_text(encoding="utf-8")
        index = json.loads(re.fullmatch(r"Search\.setIndex\((.*)\)\s*", text, re.S).group(1))  # type: ignore[union-attr]
        expected = set(pages(built_site, lang)) - {"search", "genindex"}
        assert expected == set(index["docnames"])

    def test_chinese_is_segmented(self, built_site: Path) -> None:
        """The zh_CN index has the word 消息 (message) as a term: jieba segmented the text."""
        assert "消息" in search_terms(built_site, "zh_CN")

    def test_spanish_is_stemmed(self, built_site: Path) -> None:
        """The es index has the Spanish stem of "mensajes" (messages)."""
        stem = snowballstemmer.stemmer("spanish").stemWord("mensajes")
        assert "mensajes" != stem
        assert stem in search_terms(built_site, "es")


class TestReadme:
    """The README tells a newcomer the set-up commands."""

    @pytest.mark.parametrize("command", ["make html", "make serve", "make test"])
    def test_command_is_shown(self, command: str) -> None:
        """The README shows the command."""
        assert command in (ROOT / "README.md").read_text(encoding="utf-8")


class TestThemeStrings:
    """The theme's own labels and the search page speak the page's language.

    Furo has no catalogs and Sphinx's lack some entries; ``locales/<lang>/LC_MESSAGES/
    sphinx.po`` fills them in (``docs/_templates/page.html`` and
    ``docs/agentmsg_docs/i18n/theme_strings.py``).
    """

    ENGLISH_LABELS = (
        "Skip to content",
        "Back to top",
        "Made with",
        "Toggle site navigation sidebar",
        "Toggle table of contents sidebar",
        "Toggle Light / Dark / Auto color theme",
        "Toggle navigation of",
        "Light mode",
        "Dark mode",
    )

    @pytest.mark.parametrize("lang", COMPLETE)
    def test_no_english_theme_labels(self, built_site: Path, lang: str) -> None:
        """No page of a translated language keeps one of Furo's English labels."""
        found = {
            f"{lang}/{name}.html: {label}"
            for name, path in pages(built_site, lang).items()
            for label in self.ENGLISH_LABELS
            if label in path.read_text(encoding="utf-8")
        }

        assert set() == found

    @pytest.mark.parametrize("lang", COMPLETE)
    def test_previous_and_next_are_translated(self, built_site: Path, lang: str) -> None:
        """The links to the previous and next page carry the language's words."""
        page = soup(built_site / lang / "tutorial" / "tools.html")
        contexts = [element.get_text(strip=True) for element in page.select(".context")]

        assert 2 == len(contexts)
        assert not {"Next", "Previous"} & set(contexts)

    @pytest.mark.parametrize("lang", COMPLETE)
    def test_search_summary_is_translated(self, built_site: Path, lang: str) -> None:
        """``translations.js`` holds a non-empty, translated search summary."""
        text = (built_site / lang / "_static" / "translations.js").read_text(encoding="utf-8")
        start, end = text.index("(") + 1, text.rindex(")")
        messages = json.loads(text[start:end])["messages"]
        summary = messages["Search finished, found one page matching the search query."]

        assert summary and all(form and "Search finished" not in form for form in summary)
        assert any("${resultCount}" in form for form in summary)


class TestRunnerSettings:
    """Each tutorial page carries the in-page runner's settings for its language."""

    @staticmethod
    def settings(site: Path, lang: str, name: str) -> dict[str, Any]:
        found = soup(site / lang / "tutorial" / f"{name}.html").select("script#agentmsg-runner")
        assert 1 == len(found), f"{lang}/tutorial/{name}.html"
        return dict(json.loads(found[0].get_text()))

    @pytest.mark.parametrize("lang", LANGS)
    def test_language_runtime_and_files(self, built_site: Path, lang: str) -> None:
        """The settings name the page's language, Pyodide and the data files under the
        site's ``lite/``, in that language's folder (files that exist), and every text
        the runner shows; those it shows in English, which it marks ``lang="en"``, are
        listed (none in English, or a complete language)."""
        problems = {}
        for name in TUTORIALS:
            settings = self.settings(built_site, lang, name)
            page = built_site / lang / "tutorial" / f"{name}.html"
            strings = settings.get("strings", {})
            english = self.settings(built_site, "en", name)["strings"]
            wrong = [
                target
                for _, target in settings.get("files", [])
                if not target.startswith(f"../../lite/files/{lang}/")
                or not (page.parent / target).resolve().is_file()
            ]
            same = sorted(key for key in strings if lang != "en" and strings[key] == english[key])
            shown = (
                settings.get("language"),
                settings.get("pyodide"),
                wrong,
                "run" in strings and all(strings.values()),
                settings.get("english", []),
            )
            if shown != (lang, "../../lite/static/pyodide/", [], True, same):
                problems[name] = shown
        assert {} == problems
