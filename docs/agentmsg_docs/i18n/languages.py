"""The site's languages: links between translations, ``<html lang>`` and search settings.

One table, ``locales/languages.toml``, lists every language the site is built in; it is
read here into :data:`LANGUAGES`, which everything else imports (the build, the root
pages, the catalogs' checks, the tests). This extension uses it to

- give every page the context its templates need (``docs/_templates/``): plain links to
  the same page in the other languages and ``<link rel="alternate" hreflang=...>`` tags;
- write ``<html lang>`` as a BCP 47 tag (the table's ``tag``), not Sphinx's code;
- choose the search language and the per-language site URLs of the Open Graph tags and
  the sitemap.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from sphinx.locale import get_translation

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

__all__ = [
    "LANGUAGES",
    "REPO_URL",
    "SITE_PATH",
    "SITE_URL",
    "SOURCE",
    "TABLE",
    "TRANSLATED",
    "Language",
    "LanguageTableError",
    "built_language",
    "language_links",
    "page_href",
    "read_languages",
]

ROOT = Path(__file__).resolve().parents[3]
with (ROOT / "pyproject.toml").open("rb") as _pyproject:
    _PROJECT_URLS: dict[str, str] = tomllib.load(_pyproject)["project"]["urls"]

#: Absolute URL the site is published at (Open Graph tags, sitemap, robots.txt, and the 404
#: page, which the server shows at any address; every other link inside the site is
#: relative). Set by the AGENTMSG_SITE_URL environment variable (the GitHub Pages workflow
#: does), else Read the Docs' READTHEDOCS_CANONICAL_URL when building there, else the
#: Documentation URL of pyproject.toml.
SITE_URL = (
    os.environ.get("AGENTMSG_SITE_URL")
    or os.environ.get("READTHEDOCS_CANONICAL_URL")
    or _PROJECT_URLS["Documentation"]
).rstrip("/") + "/"
#: The repository the pages' source links point into: AGENTMSG_REPO_URL, else the Source URL
#: of pyproject.toml.
REPO_URL = (os.environ.get("AGENTMSG_REPO_URL") or _PROJECT_URLS["Source"]).rstrip("/")
#: The path of :data:`SITE_URL` ("/" at a domain's root, "/agentmsg/" for a project site).
SITE_PATH = urlsplit(SITE_URL).path.rstrip("/") + "/"


#: The table of languages (see its comments for the fields).
TABLE = ROOT / "locales" / "languages.toml"
STATUSES = ("complete", "in progress")


@dataclass(frozen=True)
class Language:
    """One language of the site: a row of :data:`TABLE`."""

    code: str  #: Sphinx's and gettext's code, the output and catalog folders' name.
    tag: str  #: BCP 47 tag for ``<html lang>`` and ``hreflang``.
    name: str  #: The language's name in its own script.
    search: str  #: ``html_search_language``.
    status: Literal["complete", "in progress"]  #: Whether every entry must be translated.

    @property
    def complete(self) -> bool:
        """Whether the build and the tests require every entry of its catalogs."""
        return self.status == "complete"

    @property
    def primary(self) -> str:
        """The primary subtag of :attr:`tag` (before the first hyphen), for script rules."""
        return self.tag.split("-")[0].lower()


class LanguageTableError(ValueError):
    """The table of languages is malformed; the message names the row and field."""


def read_languages(path: Path = TABLE) -> tuple[Language, ...]:
    """The rows of the table at *path*, in its order (the first is the source language).

    Raises:
        LanguageTableError: a row lacks a field, has an unknown one, repeats a code or
            has a status other than ``complete`` or ``in progress``.
    """
    rows = tomllib.loads(path.read_text(encoding="utf-8")).get("language", [])
    fields = set(Language.__dataclass_fields__)
    languages: list[Language] = []
    for index, row in enumerate(rows, 1):
        where = f"{path.name}, language {index}"
        if set(row) != fields:
            missing, extra = sorted(fields - set(row)), sorted(set(row) - fields)
            msg = f"{where}: fields missing {missing}, unknown {extra}"
            raise LanguageTableError(msg)
        if row["status"] not in STATUSES:
            msg = f"{where}: `status` must be one of {STATUSES}, not {row['status']!r}"
            raise LanguageTableError(msg)
        if any(language.code == row["code"] for language in languages):
            msg = f"{where}: `code` {row['code']!r} is listed twice"
            raise LanguageTableError(msg)
        languages.append(Language(**row))
    if not languages:
        msg = f"{path.name}: no [[language]] row"
        raise LanguageTableError(msg)
    return tuple(languages)


LANGUAGES: tuple[Language, ...] = read_languages()
#: The language the pages are written in (the table's first row): the root page's fallback.
SOURCE = DEFAULT = LANGUAGES[0]
#: The languages built from catalogs: every row but the source language.
TRANSLATED = LANGUAGES[1:]
_BY_CODE = {language.code: language for language in LANGUAGES}


def page_href(
    from_page: str, lang: str, to_page: str | None = None, *, absolute: bool = False
) -> str:
    """URL from page *from_page* (of any language) to *to_page* in *lang*.

    Relative, unless *absolute*: then rooted at the site's path (:data:`SITE_PATH`), for
    pages such as a 404 page that the server shows at any address.

    >>> page_href("tutorial/tools", "xx")
    '../../xx/tutorial/tools.html'
    >>> page_href("index", "xx")
    '../xx/index.html'
    >>> page_href("404", "xx", absolute=True) == SITE_PATH + "xx/404.html"
    True
    """
    target = from_page if to_page is None else to_page
    up = SITE_PATH if absolute else "../" * (from_page.count("/") + 1)
    return f"{up}{lang}/{target}.html"


def language_links(pagename: str, current: str, *, absolute: bool = False) -> list[dict[str, Any]]:
    """The links from *pagename* in language *current* to the same page in every language.

    Each item has ``code``, ``tag``, ``name``, ``href`` (the link, relative unless
    *absolute*), ``url`` (the page's address on the published site, for
    ``<link rel="alternate" hreflang>``, which search engines read as an absolute URL) and
    ``current`` (a bool).
    """
    return [
        {
            "code": language.code,
            "tag": language.tag,
            "name": language.name,
            "href": page_href(pagename, language.code, absolute=absolute),
            "url": f"{SITE_URL}{language.code}/{pagename}.html",
            "current": language.code == current,
        }
        for language in LANGUAGES
    ]


def built_language(config: Config) -> Language:
    """The row of the language a build is for (``-D language=...``), else the source's."""
    return _BY_CODE.get(config.language or DEFAULT.code, DEFAULT)


def _config_inited(app: Sphinx, config: Config) -> None:
    """Settings that depend on ``-D language=...`` (applied after conf.py has run)."""
    language = built_language(config)
    config.html_search_language = language.search
    config.ogp_site_url = f"{SITE_URL}{language.code}/"
    config.html_baseurl = f"{SITE_URL}{language.code}/"  # <link rel="canonical">
    config.site_url = SITE_URL  # sphinx-sitemap adds "{lang}{link}" itself
    config.sitemap_url_scheme = "{lang}{link}"
    config.sitemap_locales = [lang.code for lang in LANGUAGES]
    # sphinx-notfound-page: the 404 page's styles, scripts and navigation links are rooted
    # here, because the server shows that page at any address.
    config.notfound_urls_prefix = f"{SITE_PATH}{language.code}/"


def _page_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    language = built_language(app.config)
    absolute = pagename in app.config.agentmsg_absolute_language_links
    context["language"] = language.tag  # <html lang> wants the BCP 47 tag, not Sphinx's code
    context["agentmsg_language"] = language
    context["agentmsg_languages"] = language_links(pagename, language.code, absolute=absolute)
    context["agentmsg_x_default"] = f"{SITE_URL}{DEFAULT.code}/{pagename}.html"
    # The footer's copyright holder, in the page's language (conf.py's value is English).
    context["copyright"] = get_translation("sphinx")(app.config.copyright)


def register(app: Sphinx) -> None:
    # Pages shown at any address (a 404 page) link to their translations from the root.
    app.add_config_value(
        "agentmsg_absolute_language_links", ["404"], "html", types=frozenset({list})
    )
    app.connect("config-inited", _config_inited, priority=900)
    app.connect("html-page-context", _page_context)
