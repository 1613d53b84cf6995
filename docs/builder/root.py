"""The files at the site's root, where browsers and hosts look for them.

- ``index.html`` sends a browser to the language it prefers among those built (the first
  of ``navigator.languages`` whose primary subtag is one of ours: ``zh-TW`` goes to zh_CN,
  ``es-MX`` to es; otherwise en), and links to every built language;
- ``404.html`` is the first built language's (its URLs are root-absolute);
- ``sitemap.xml`` is an index of the languages' sitemaps.

The first and last come from ``docs/_templates/root/``.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path

from agentmsg_languages import LANGUAGES, SITE_URL

from builder import DOCS

__all__ = ["root_index_html", "write_root_files"]

TEMPLATES = DOCS / "_templates" / "root"


def _render(name: str, **context: object) -> str:
    import jinja2

    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=jinja2.select_autoescape(("html", "xml")),
        keep_trailing_newline=True,
    )
    return environment.get_template(name).render(**context)


def root_index_html(langs: Sequence[str]) -> str:
    """The root page for the built languages *langs* (English when none is built)."""
    shown = [language for language in LANGUAGES if language.code in langs]
    shown = shown or [language for language in LANGUAGES if language.code == "en"]
    prefixes = {language.tag.split("-")[0].lower(): language.code for language in LANGUAGES}
    return _render(
        "index.html",
        languages=shown,
        available_json=json.dumps([language.code for language in shown]),
        prefixes_json=json.dumps(prefixes),
    )


def write_root_files(html: Path, langs: Sequence[str]) -> None:
    """Write ``index.html``, ``404.html`` and ``sitemap.xml`` into *html* for *langs*."""
    (html / "index.html").write_text(root_index_html(langs), encoding="utf-8")
    not_found = next(
        (html / lang / "404.html" for lang in langs if (html / lang / "404.html").is_file()),
        None,
    )
    if not_found is not None:
        shutil.copyfile(not_found, html / "404.html")
    sitemaps = [lang for lang in langs if (html / lang / "sitemap.xml").is_file()]
    (html / "sitemap.xml").write_text(
        _render("sitemap.xml", languages=sitemaps, site_url=SITE_URL), encoding="utf-8"
    )
