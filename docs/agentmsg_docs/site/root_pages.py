"""The files at the site's root, where browsers and hosts look for them.

- ``index.html`` sends a browser to the language the reader chose last on the site, else
  to the first of ``navigator.languages`` whose primary subtag is one of ours (a regional
  variant goes to the language of its primary subtag), else to the source language;
  without scripts it offers every built language, each in its own words;
- ``404.html``, the page hosts show for any missing address, says "page not found" in
  every built language (each language's own 404 page's text), the reader's first;
- ``sitemap.xml`` is an index of the languages' sitemaps;
- ``robots.txt`` lets every crawler in and names that index.

The pages come from the templates in ``docs/_templates/root/``; their texts from each
language's catalog (``locales/<lang>/LC_MESSAGES/sphinx.po``) and its built pages.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from agentmsg_docs.build import DOCS, LOCALES
from agentmsg_docs.i18n.languages import LANGUAGES, SITE_URL, SOURCE, Language
from agentmsg_docs.i18n.po import translations

__all__ = ["not_found_html", "root_index_html", "write_root_files"]

TEMPLATES = DOCS / "_templates" / "root"


def _render(name: str, **context: object) -> str:
    import jinja2

    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=jinja2.select_autoescape(("html", "xml")),
        keep_trailing_newline=True,
    )
    return environment.get_template(name).render(**context)


def translator(code: str) -> Callable[[str], str]:
    """The ``sphinx.po`` translations of language *code* (English stays as it is)."""
    table = (
        {} if code == SOURCE.code else translations(LOCALES / code / "LC_MESSAGES" / "sphinx.po")
    )
    return lambda text: table.get(text, text)


def _built(langs: Sequence[str]) -> list[Language]:
    shown = [language for language in LANGUAGES if language.code in langs]
    return shown or [language for language in LANGUAGES if language.code == "en"]


def _prefixes() -> str:
    return json.dumps({language.tag.split("-")[0].lower(): language.code for language in LANGUAGES})


def root_index_html(langs: Sequence[str]) -> str:
    """The root page for the built languages *langs* (English when none is built)."""
    shown = _built(langs)
    texts = {language.code: translator(language.code) for language in shown}
    entries = [
        {
            "code": language.code,
            "tag": language.tag,
            "read": texts[language.code]("The agentmsg documentation in English"),
        }
        for language in shown
    ]
    title = " · ".join(dict.fromkeys(texts[lang.code]("agentmsg documentation") for lang in shown))
    return _render(
        "index.html",
        languages=entries,
        title=title,
        site_url=SITE_URL,
        available_json=json.dumps([language.code for language in shown]),
        prefixes_json=_prefixes(),
    )


def _not_found_text(page: Path) -> dict[str, Any]:
    """The title and the body (HTML) of a language's built 404 page."""
    from bs4 import BeautifulSoup

    article = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").find("article")
    heading = article.find("h1") if article is not None else None
    if article is None or heading is None:
        return {"title": "", "body": ""}
    for link in heading.select("a.headerlink"):
        link.decompose()
    title = heading.get_text().strip()
    heading.decompose()
    body = "".join(str(part) for part in article.find_all(["p", "ul", "ol"], recursive=True))
    return {"title": title, "body": body}


def not_found_html(html: Path, langs: Sequence[str]) -> str:
    """The root 404 page, from the 404 pages of the built languages *langs* in *html*."""
    shown = [lang for lang in _built(langs) if (html / lang.code / "404.html").is_file()]
    entries = [
        {"code": lang.code, "tag": lang.tag, **_not_found_text(html / lang.code / "404.html")}
        for lang in shown
    ]
    return _render(
        "404.html",
        languages=entries,
        title=" · ".join(entry["title"] for entry in entries),
        prefixes_json=_prefixes(),
    )


def write_root_files(html: Path, langs: Sequence[str]) -> None:
    """Write ``index.html``, ``404.html``, ``sitemap.xml`` and ``robots.txt`` into *html*
    for *langs*."""
    (html / "index.html").write_text(root_index_html(langs), encoding="utf-8")
    if any((html / lang / "404.html").is_file() for lang in langs):
        (html / "404.html").write_text(not_found_html(html, langs), encoding="utf-8")
    sitemaps = [lang for lang in langs if (html / lang / "sitemap.xml").is_file()]
    (html / "sitemap.xml").write_text(
        _render("sitemap.xml", languages=sitemaps, site_url=SITE_URL), encoding="utf-8"
    )
    (html / "robots.txt").write_text(_render("robots.txt", site_url=SITE_URL), encoding="utf-8")
