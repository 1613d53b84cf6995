"""The site's languages: links between translations, ``<html lang>`` and search settings.

One table, :data:`LANGUAGES`, lists every language the site is built in. This extension
uses it to

- give every page the context its templates need (``docs/_templates/``): plain links to
  the same page in the other languages and ``<link rel="alternate" hreflang=...>`` tags;
- write ``<html lang>`` as a BCP 47 tag (``zh-CN``), not Sphinx's ``zh_CN``;
- choose the search language (``zh`` needs jieba) and the per-language site URLs of the
  Open Graph tags and the sitemap.

``docs/build.py`` imports the same table, so the orchestrator and the pages agree.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from sphinx.locale import get_translation

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

__all__ = ["LANGUAGES", "SITE_PATH", "SITE_URL", "Language", "language_links", "page_href"]

#: Absolute URL the site is published at (Open Graph tags, sitemap, and the 404 page,
#: which the server shows at any address; every other link inside the site is relative).
#: Set by the AGENTMSG_SITE_URL environment variable (the GitHub Pages workflow does), else
#: Read the Docs' READTHEDOCS_CANONICAL_URL when building there.
SITE_URL = (
    os.environ.get("AGENTMSG_SITE_URL")
    or os.environ.get("READTHEDOCS_CANONICAL_URL")
    or "https://agentmsg.readthedocs.io/"
).rstrip("/") + "/"
#: The path of :data:`SITE_URL` ("/" at a domain's root, "/agentmsg/" for a project site).
SITE_PATH = urlsplit(SITE_URL).path.rstrip("/") + "/"


@dataclass(frozen=True)
class Language:
    """One language of the site."""

    code: str  #: Sphinx's code and the output folder name: ``en``, ``zh_CN``, ``es``.
    tag: str  #: BCP 47 tag for ``<html lang>`` and ``hreflang``: ``en``, ``zh-CN``, ``es``.
    name: str  #: The language's name in its own script.
    search: str  #: ``html_search_language``.
    nav_label: str  #: Accessible name of the language switcher, in this language.


LANGUAGES: tuple[Language, ...] = (
    Language("en", "en", "English", "en", "Languages"),
    Language("zh_CN", "zh-CN", "简体中文", "zh", "语言"),
    Language("es", "es", "Español", "es", "Idiomas"),
)
DEFAULT = LANGUAGES[0]
_BY_CODE = {language.code: language for language in LANGUAGES}


def page_href(
    from_page: str, lang: str, to_page: str | None = None, *, absolute: bool = False
) -> str:
    """URL from page *from_page* (of any language) to *to_page* in *lang*.

    Relative, unless *absolute*: then rooted at the site's path (:data:`SITE_PATH`), for
    pages such as a 404 page that the server shows at any address.

    >>> page_href("tutorial/tools", "zh_CN")
    '../../zh_CN/tutorial/tools.html'
    >>> page_href("index", "es")
    '../es/index.html'
    >>> page_href("404", "es", absolute=True) == SITE_PATH + "es/404.html"
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


def _language(config: Config) -> Language:
    return _BY_CODE.get(config.language or "en", DEFAULT)


def _config_inited(app: Sphinx, config: Config) -> None:
    """Settings that depend on ``-D language=...`` (applied after conf.py has run)."""
    language = _language(config)
    config.html_search_language = language.search
    if language.search == "zh":
        # Sphinx would load jieba's own default dictionary a second time as a "user
        # dictionary" (3 s per build, same words); jieba uses it anyway.
        config.html_search_options = {**config.html_search_options, "dict": ""}
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
    language = _language(app.config)
    absolute = pagename in app.config.agentmsg_absolute_language_links
    context["language"] = language.tag  # <html lang="zh-CN">, not Sphinx's "zh_CN"
    context["agentmsg_language"] = language
    context["agentmsg_languages"] = language_links(pagename, language.code, absolute=absolute)
    context["agentmsg_x_default"] = f"{SITE_URL}{DEFAULT.code}/{pagename}.html"
    # The footer's copyright holder, in the page's language (conf.py's value is English).
    context["copyright"] = get_translation("sphinx")(app.config.copyright)


def setup(app: Sphinx) -> dict[str, Any]:
    # Pages shown at any address (a 404 page) link to their translations from the root.
    app.add_config_value(
        "agentmsg_absolute_language_links", ["404"], "html", types=frozenset({list})
    )
    app.connect("config-inited", _config_inited, priority=900)
    app.connect("html-page-context", _page_context)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
