"""The built site's links and metadata, read from the files of ``_build/html``.

A crawl of every page of every language: each internal link (``href``, ``src``, a form's
``action``) reaches a file of the site, and each ``#fragment`` an id on the target page.
Then what search engines and link previews read: ``sitemap.xml`` with its hreflang
alternates, Open Graph tags, and the translated 404 page with root-absolute URLs.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urldefrag, urlsplit

import pytest
from bs4 import BeautifulSoup

from _languages import shown_text
from agentmsg_docs.i18n.languages import LANGUAGES, REPO_URL, SITE_PATH, SITE_URL

ROOT = Path(__file__).resolve().parents[2]


LANGS = [language.code for language in LANGUAGES]
TAGS = {language.code: language.tag for language in LANGUAGES}
SITEMAP_NS = {
    "sm": "http://www.sitemaps.org/schemas/sitemap/0.9",
    "xhtml": "http://www.w3.org/1999/xhtml",
}
#: Pages that are written but not listed in the sitemap (conf.py's ``sitemap_excludes``).
UNLISTED = {"search.html", "genindex.html", "404.html"}
#: Pages Sphinx generates without a source document (no Open Graph tags).
GENERATED = {"search.html", "genindex.html"}
NOT_FOUND_TITLES = {"en": "Page not found", "zh_CN": "找不到页面", "es": "Página no encontrada"}
#: Elements and attributes whose URL the browser follows or loads.
URL_ATTRIBUTES = {
    "a": "href",
    "link": "href",
    "script": "src",
    "img": "src",
    "source": "src",
    "iframe": "src",
    "use": "href",
    "form": "action",
}


@dataclass
class Page:
    """What the crawl needs from one HTML file."""

    ids: set[str] = field(default_factory=set)
    urls: list[tuple[str, str]] = field(default_factory=list)  # (tag, url)
    meta: dict[str, str] = field(default_factory=dict)  # og:* property -> content
    canonical: str | None = None
    h1: str = ""


class _PageParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self._in_h1 = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        for name in ("id", "name") if tag == "a" else ("id",):
            if values.get(name):
                self.page.ids.add(values[name])
        attribute = URL_ATTRIBUTES.get(tag)
        if attribute and values.get(attribute):
            self.page.urls.append((tag, values[attribute]))
        if tag == "meta" and values.get("property", "").startswith("og:"):
            self.page.meta[values["property"]] = values.get("content", "")
        if tag == "link" and values.get("rel") == "canonical":
            self.page.canonical = values.get("href")
        if tag == "h1":
            self._in_h1 = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "h1":
            self._in_h1 = False

    def handle_data(self, data: str) -> None:
        if self._in_h1:
            self.page.h1 += data


@cache
def parse_page(path: Path) -> Page:
    parser = _PageParser()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.page


def html_files(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def resolve(site: Path, page: Path, url: str) -> tuple[Path, str] | None:
    """The file an internal *url* on *page* points to and its fragment; None if external."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        return None  # http(s), mailto, data, ... leave the site
    path, fragment = urldefrag(url)
    path = unquote(urlsplit(path).path)
    if not path:
        return page, fragment
    if path.startswith("/"):
        if not path.startswith(SITE_PATH):
            return site / "__outside_the_site__" / path.lstrip("/"), fragment
        target = PurePosixPath(path[len(SITE_PATH) :])
        resolved = site / target
    else:
        resolved = page.parent / path
    resolved = Path(_normalize(resolved.as_posix()))
    if resolved.is_dir() or path.endswith("/"):
        resolved = resolved / "index.html"
    return resolved, fragment


def _normalize(path: str) -> str:
    parts: list[str] = []
    for part in path.split("/"):
        if part == "..":
            if parts:
                parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return "/" + "/".join(parts)


def broken_links(site: Path, page: Path) -> Iterator[str]:
    """Each internal link of *page* that reaches no file, or no id in its target page."""
    shown = page.relative_to(site).as_posix()
    for tag, url in parse_page(page).urls:
        target = resolve(site, page, url)
        if target is None:
            continue
        path, fragment = target
        if not path.is_file() or site not in path.parents:
            yield f"{shown}: <{tag}> {url!r} reaches no file"
        elif fragment and path.suffix == ".html" and fragment not in parse_page(path).ids:
            yield f"{shown}: <{tag}> {url!r} has no id {fragment!r} in its target"


def page_name(site: Path, lang: str, path: Path) -> str:
    return path.relative_to(site / lang).as_posix()


class TestCrawl:
    """Every internal link and anchor of the site works, in every language."""

    @pytest.mark.every_language
    def test_every_language_is_crawled(self, built_site: Path) -> None:
        """The crawl covers the root page and the same pages in every language."""
        names = {
            lang: {page_name(built_site, lang, p) for p in html_files(built_site / lang)}
            for lang in LANGS
        }
        assert (built_site / "index.html").is_file()
        assert names["en"] == names["zh_CN"] == names["es"]
        assert {"index.html", "api.html", "404.html", "tutorial/index.html"} <= names["en"]

    def test_crawl_reports_missing_files_and_anchors(self, tmp_path: Path) -> None:
        """The crawl itself: a link to a missing file or to a missing id is reported, a
        good one, an external one and a same-page anchor are not."""
        (tmp_path / "en").mkdir()
        (tmp_path / "en" / "b.html").write_text('<h2 id="there">B</h2>', encoding="utf-8")
        page = tmp_path / "en" / "a.html"
        page.write_text(
            '<p id="top"><a href="b.html#there">ok</a> <a href="#top">ok</a>'
            ' <a href="https://example.org/x">ok</a> <a href="../en/b.html#gone">bad</a>'
            ' <img src="_static/missing.png"></p>',
            encoding="utf-8",
        )
        expected = [
            "en/a.html: <a> '../en/b.html#gone' has no id 'gone' in its target",
            "en/a.html: <img> '_static/missing.png' reaches no file",
        ]
        assert expected == list(broken_links(tmp_path, page))

    @pytest.mark.parametrize("lang", ["", *LANGS], ids=["root", *LANGS])
    def test_no_broken_link_or_anchor(self, built_site: Path, lang: str) -> None:
        """No link of any page in this language points to a missing file or anchor."""
        folder = built_site / lang if lang else built_site
        pages = html_files(folder) if lang else sorted(folder.glob("*.html"))
        broken = [problem for page in pages for problem in broken_links(built_site, page)]
        assert [] == broken


class TestSitemap:
    """sitemap.xml lists every page with its translations as hreflang alternates."""

    @pytest.mark.parametrize("lang", LANGS)
    def test_lists_every_page_with_alternates(self, built_site: Path, lang: str) -> None:
        """Each listed URL is a page of the language, with the three translations as
        alternates, and every page but search, index and 404 is listed."""
        tree = ET.parse(built_site / lang / "sitemap.xml")
        listed: dict[str, dict[str, str]] = {}
        for url in tree.getroot().findall("sm:url", SITEMAP_NS):
            loc = url.findtext("sm:loc", namespaces=SITEMAP_NS) or ""
            alternates = {
                link.get("hreflang", ""): link.get("href", "")
                for link in url.findall("xhtml:link", SITEMAP_NS)
                if link.get("rel") == "alternate"
            }
            listed[loc] = alternates
        pages = {page_name(built_site, lang, p) for p in html_files(built_site / lang)} - UNLISTED
        expected = {
            f"{SITE_URL}{lang}/{name}": {TAGS[code]: f"{SITE_URL}{code}/{name}" for code in LANGS}
            for name in pages
        }
        assert expected == listed

    @pytest.mark.every_language
    def test_root_sitemap_indexes_the_languages(self, built_site: Path) -> None:
        """The root sitemap.xml is an index of the three languages' sitemaps."""
        tree = ET.parse(built_site / "sitemap.xml")
        locs = [
            element.findtext("sm:loc", namespaces=SITEMAP_NS)
            for element in tree.getroot().findall("sm:sitemap", SITEMAP_NS)
        ]
        assert [f"{SITE_URL}{lang}/sitemap.xml" for lang in LANGS] == locs

    @pytest.mark.every_language
    def test_robots_txt_names_the_sitemap(self, built_site: Path) -> None:
        """The root robots.txt lets crawlers in and names the root sitemap by its URL."""
        lines = (built_site / "robots.txt").read_text(encoding="utf-8").splitlines()
        assert "User-agent: *" == lines[0]
        assert [f"Sitemap: {SITE_URL}sitemap.xml"] == [
            line for line in lines if line.startswith("Sitemap:")
        ]
        assert not [line for line in lines if line.startswith("Disallow:") and line != "Disallow:"]


class TestSourceLinks:
    """Every page read from a source file links to that file in the repository."""

    @pytest.mark.parametrize("lang", LANGS)
    def test_each_page_links_to_its_source(self, built_site: Path, lang: str) -> None:
        """The "View this page" link of each page names a file that is in the repository:
        a tutorial's script, else the page's own source; generated pages have none."""
        prefix = f"{REPO_URL}/blob/main/"
        found = {}
        for path in html_files(built_site / lang):
            soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
            link = soup.select_one(".view-this-page a")
            found[page_name(built_site, lang, path)] = link.get("href") if link else None
        assert "tutorial/tools.html" in found
        assert f"{prefix}docs/examples/tools.py" == found["tutorial/tools.html"]
        assert f"{prefix}docs/conversions.md" == found["conversions.html"]
        assert None is found["search.html"]
        missing = {
            name: href
            for name, href in found.items()
            if href is not None
            and not (href.startswith(prefix) and (ROOT / href.removeprefix(prefix)).is_file())
        }
        assert {} == missing


class TestOpenGraph:
    """Every page carries Open Graph tags for link previews."""

    @pytest.mark.parametrize("lang", LANGS)
    def test_pages_have_open_graph_tags(self, built_site: Path, lang: str) -> None:
        """og:title, og:type, og:site_name and og:url, the page's own published URL (the
        same as its canonical link). Sphinx's generated search and index pages, which
        nobody shares, have none."""
        problems = []
        for path in html_files(built_site / lang):
            name = page_name(built_site, lang, path)
            if name in GENERATED:
                continue
            page = parse_page(path)
            url = f"{SITE_URL}{lang}/{name}"
            expected = {"og:url": url, "og:site_name": "agentmsg", "og:type": "website"}
            actual = {key: page.meta.get(key) for key in expected}
            if expected != actual or not page.meta.get("og:title"):
                problems.append(f"{lang}/{name}: {page.meta}")
            if page.canonical != url:
                problems.append(f"{lang}/{name}: canonical {page.canonical!r}, not {url!r}")
        assert [] == problems


class TestNotFoundPage:
    """The 404 page is translated and works at any address."""

    @pytest.mark.parametrize("lang", LANGS)
    def test_translated_title(self, built_site: Path, lang: str) -> None:
        """Each language's 404 page has its title in that language."""
        title = parse_page(built_site / lang / "404.html").h1.replace("¶", "").strip()
        assert shown_text(lang, NOT_FOUND_TITLES, "404") == title

    @pytest.mark.parametrize("lang", LANGS)
    def test_urls_are_root_absolute(self, built_site: Path, lang: str) -> None:
        """Every internal URL of the 404 page starts at the site's path, so it resolves
        the same from any address the server shows it at."""
        relative = [
            url
            for _tag, url in parse_page(built_site / lang / "404.html").urls
            if not urlsplit(url).scheme and not url.startswith(("#", SITE_PATH))
        ]
        assert [] == relative

    @pytest.mark.every_language
    def test_root_page_offers_every_language(self, built_site: Path) -> None:
        """The 404.html that hosts find at the site's root says "page not found" in every
        language, each in a section marked with its language, with a link to that
        language's home page."""
        root = (built_site / "404.html").read_text(encoding="utf-8")
        sections = re.findall(
            r'<section lang="([^"]+)" data-agentmsg-language="([^"]+)">\s*'
            r"<h2>([^<]*)</h2>(.*?)</section>",
            root,
            re.S,
        )
        titles = [shown_text(lang, NOT_FOUND_TITLES, "404") for lang in LANGS]
        assert [(TAGS[lang], lang, title) for lang, title in zip(LANGS, titles, strict=True)] == [
            section[:3] for section in sections
        ]
        for _tag, lang, _title, body in sections:
            assert f'href="{SITE_PATH}{lang}/index.html"' in body


class TestIntersphinx:
    """The API reference links the standard names it uses into the Python documentation,
    from the inventory kept in the repository (docs/intersphinx/python.inv)."""

    @pytest.mark.parametrize("lang", LANGS)
    def test_api_links_standard_names(self, built_site: Path, lang: str) -> None:
        """``str``, ``typing.Any`` and ``collections.abc.Iterable`` in the API page's
        signatures link to their entries in the Python documentation."""
        soup = BeautifulSoup(
            (built_site / lang / "api.html").read_text(encoding="utf-8"), "html.parser"
        )
        hrefs = {link.get("href") for link in soup.select("a.reference.external")}
        expected = {
            "https://docs.python.org/3/library/stdtypes.html#str",
            "https://docs.python.org/3/library/typing.html#typing.Any",
            "https://docs.python.org/3/library/collections.abc.html#collections.abc.Iterable",
        }
        assert expected == expected & hrefs

    def test_inventory_names_are_unique(self) -> None:
        """Each name of the inventory is listed once, as ``name type page``."""
        lines = (ROOT / "docs" / "intersphinx" / "python.inv").read_text().splitlines()
        assert "# Sphinx inventory version 1" == lines[0]
        entries = [line.split() for line in lines if not line.startswith("#")]
        assert [] == [entry for entry in entries if len(entry) != 3]
        names = [entry[0] for entry in entries]
        assert sorted(set(names)) == sorted(names)
