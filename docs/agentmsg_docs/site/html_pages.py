"""What the published site needs beyond Sphinx's and furo's defaults.

- A field name's colon written full-width in Chinese (:data:`FIELD_COLONS`).
- Accessible markup: Sphinx writes each toctree caption (the sidebar's section names) as
  ``<p class="caption" role="heading">`` without the ``aria-level`` that role requires
  (axe-core ``aria-required-attr``); :class:`AccessibleHTMLTranslator` adds it. Code blocks
  wider than their box get ``tabindex="0"`` from ``_static/agentmsg.js`` so that a keyboard
  can scroll them (axe-core ``scrollable-region-focusable``).
- A complete, sorted sitemap: sphinx-sitemap lists only the pages a build writes, so an
  incremental build would publish a sitemap of the few changed pages. Every page of the
  project is listed, in name order, whatever was rewritten.
- The 404 page (``docs/404.md``, rendered by sphinx-notfound-page with root-absolute asset
  and navigation URLs): the links in its text are made root-absolute as well, since the
  server shows it at any address.
- A ``<head>`` that does not hold the first paint back on a phone: script files are
  deferred, unused style sheets are not linked, and the others are one file
  (:func:`_lighter_head`, :func:`_bundle_style_sheets`).
- An index in the reader's order: Sphinx sorts the general index by each entry's whole
  text, so a translated pattern with a full-width parenthesis (``AIMessage（…中的类）``)
  sorts after ``AIMessageChunk``; :func:`_index_in_reading_order` sorts each letter's
  entries by their NFKC form, in which ``（`` is ``(``.
- The same ``.buildinfo`` in every checkout: its config hash would otherwise take in the
  absolute paths that extensions add to ``templates_path`` and ``html_static_path``
  (:func:`_config_hash_without_local_paths`).
"""

from __future__ import annotations

import functools
import importlib
import os
import queue
import re
import site
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.util import logging
from sphinx.writers.html5 import HTML5Translator

from agentmsg_docs.i18n.languages import built_language
from agentmsg_docs.i18n.progress import EnglishBlockTags

if TYPE_CHECKING:
    from sphinx.application import Sphinx

__all__ = ["AccessibleHTMLTranslator", "sitemap_link"]

logger = logging.getLogger(__name__)

#: ``aria-level`` of the toctree captions: the sidebar's sections sit under the page title.
CAPTION_LEVEL = 2


#: The colon after a field name (the API reference's "Parameters", "Returns"), by the
#: primary subtag of the languages that write it full-width.
FIELD_COLONS = {"zh": "："}


class AccessibleHTMLTranslator(EnglishBlockTags, HTML5Translator):
    """Sphinx's HTML5 translator, with ``aria-level`` on ``role="heading"`` captions, a
    field name's colon in the page's language (docutils writes a Western one) and the
    tooltip of a block that shows the English
    (:class:`~agentmsg_docs.i18n.progress.EnglishBlockTags`)."""

    def depart_field_name(self, node: nodes.Element) -> None:
        colon = FIELD_COLONS.get(built_language(self.config).primary)
        if colon is None:
            super().depart_field_name(node)
        else:
            self.body.append(f'<span class="colon">{colon}</span></dt>\n')

    def visit_title(self, node: nodes.Element) -> None:
        super().visit_title(node)
        if isinstance(node.parent, addnodes.compact_paragraph) and node.parent.get("toctree"):
            index = len(self.body) - 2  # the <p> start tag, then '<span class="caption-text">'
            tag = self.body[index]
            if 'role="heading"' in tag and "aria-level" not in tag:
                self.body[index] = tag.replace(
                    'role="heading"', f'role="heading" aria-level="{CAPTION_LEVEL}"', 1
                )


def sitemap_link(docname: str, suffix: str = ".html") -> str:
    """The link sphinx-sitemap writes for *docname* (``tutorial/tools.html``)."""
    return docname + suffix


def _complete_sitemap(app: Sphinx, exception: Exception | None) -> None:
    """Before sphinx-sitemap writes ``sitemap.xml``: every page, in name order."""
    links = getattr(app, "sitemap_links", None)
    if exception is not None or links is None or app.builder.format != "html":
        return
    from sphinx_sitemap import is_excluded

    collected: dict[str, Any] = {}
    while True:
        try:
            link, last_updated = links.get_nowait()
        except queue.Empty:
            break
        collected[link] = last_updated
    suffix = app.config.html_file_suffix or ".html"
    for docname in app.env.found_docs:
        link = sitemap_link(docname, suffix)
        if not is_excluded(link, app.config.sitemap_excludes):
            collected.setdefault(link, None)
    for link in sorted(collected):
        links.put((link, collected[link]))


_EXTERNAL = re.compile(r"^([a-z][a-z0-9+.-]*:|#|/)", re.I)


def _absolute_links_in_404(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Root the relative links in the 404 page's text at ``notfound_urls_prefix``."""
    if docname != app.config.notfound_pagename:
        return
    prefix = app.config.notfound_urls_prefix or "/"
    for reference in doctree.findall(nodes.reference):
        uri = reference.get("refuri")
        if uri and not _EXTERNAL.match(uri):
            reference["refuri"] = prefix + uri


_LOCAL_PLACES: list[tuple[str, str]] = []
"""(absolute path, fixed name) pairs, longest first, of the build being set up."""


def index_key(entry: str) -> tuple[str, str]:
    """How the general index orders *entry*: by its NFKC form, case folded (full-width
    punctuation sorts as its ASCII form), then by the entry itself."""
    return unicodedata.normalize("NFKC", entry).casefold(), entry


def _index_in_reading_order(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    if not pagename.startswith("genindex") or "genindexentries" not in context:
        return
    for _letter, entries in context["genindexentries"]:
        entries.sort(key=lambda item: index_key(item[0]))


def _config_hash_without_local_paths(app: Sphinx) -> None:
    """Sphinx ``builders/html/_build_info.py``, ``BuildInfo``: the config hash written to
    ``.buildinfo`` covers the absolute paths that sphinx-gallery and sphinx-copybutton
    add to ``templates_path`` and ``html_static_path``, so it differs between checkouts.
    The hash is taken with those places (site-packages, the interpreter's prefix and the
    repository) replaced by fixed names; Sphinx compares hashes made the same way."""
    from sphinx.builders.html import _build_info

    places = [(path, "<site-packages>") for path in site.getsitepackages()]
    places += [(sys.prefix, "<prefix>"), (str(Path(app.srcdir).parent), "<repository>")]
    _LOCAL_PLACES[:] = sorted(places, key=lambda place: len(place[0]), reverse=True)
    stable_hash = getattr(_build_info, "stable_hash", None)
    if stable_hash is None or getattr(stable_hash, "agentmsg_local_free", False):
        return

    def local_free(value: Any) -> Any:
        if isinstance(value, str):
            for path, name in _LOCAL_PLACES:
                value = value.replace(path, name)
            return value
        if isinstance(value, dict):
            return {key: local_free(item) for key, item in value.items()}
        if isinstance(value, list | tuple | set | frozenset):
            return type(value)(local_free(item) for item in value)
        return value

    def hash_without_local_paths(value: Any) -> str:
        return str(stable_hash(local_free(value)))

    hash_without_local_paths.agentmsg_local_free = True  # type: ignore[attr-defined]
    setattr(_build_info, "stable_hash", hash_without_local_paths)  # noqa: B010  # not exported


#: Style sheets sphinx-gallery links on every page for what no page here shows: Binder
#: buttons and pandas tables. Each costs a phone a round trip before the first paint.
UNUSED_STYLE_SHEETS = ("sg_gallery-binder.css", "sg_gallery-dataframe.css")

#: The one style sheet a page links, in the output's ``_static/``: the theme's, the
#: highlighting's and the extensions' sheets, concatenated in the order the page would
#: have linked them (:func:`_bundle_style_sheets`).
BUNDLE = "_static/agentmsg-site.css"


def _furo_pygments() -> str | None:
    """The ``pygments.css`` furo writes at build-finished (``furo/__init__.py``,
    ``_overwrite_pygments_css``, from ``furo.get_pygments_stylesheet()``), or None."""
    try:
        furo = importlib.import_module("furo")  # untyped: no stubs to check it against
    except ImportError:
        return None
    stylesheet = getattr(furo, "get_pygments_stylesheet", None)
    return stylesheet() if callable(stylesheet) else None


#: Sheets rewritten after the pages are written, with what gives their final text: the
#: bundle takes that instead of the copy it would find, and :func:`_check_bundle`
#: compares the two once the build is done.
WRITTEN_LATER: dict[str, Callable[[], str | None]] = {"_static/pygments.css": _furo_pygments}


#: What the bundle writes before each sheet's name.
_FROM = "agentmsg-site.css, from"

#: A ``url(...)`` that is neither a ``data:`` URI nor absolute.
_RELATIVE_URL = re.compile(r"""url\(\s*(?!['"]?(?:data:|[a-z]+://|/))""", re.I)


def _lighter_head(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """What a page's ``<head>`` makes a slow phone wait for before the first paint.

    Script files load after the page is parsed (``defer``), in the same order: Sphinx and
    its extensions add theirs as blocking scripts, and none of them needs to run before the
    page is read. The search page is left as it is: its own scripts, in its body, use
    Sphinx's at once. The style sheets of :data:`UNUSED_STYLE_SHEETS` are not linked.
    """
    context["css_files"] = _bundle_style_sheets(
        app,
        [
            sheet
            for sheet in context.get("css_files", ())
            if not str(getattr(sheet, "filename", sheet)).endswith(UNUSED_STYLE_SHEETS)
        ],
    )
    if pagename == "search":
        return
    context["script_files"] = [_deferred(script) for script in context.get("script_files", ())]


def _bundle_style_sheets(app: Sphinx, sheets: list[Any]) -> list[Any]:
    """*sheets* with its run of plain local sheets as one entry, :data:`BUNDLE`.

    Seven render-blocking sheets cost a phone on a slow network more than their bytes: a
    connection and a round trip each (Lighthouse, mobile, Chinese tools page: first paint
    2.4 s with seven, 1.8 s with the same bytes in one sheet). The bundle is the sheets'
    copies in the output, concatenated in the page's order, so it styles the page as they
    did (Sphinx sorts a page's sheets by priority, so the order is that sort's); Sphinx
    copies the static files before it writes a page, so the bundle is written here and
    checksummed like any other sheet. Left out of it, and linked as before: a sheet
    with other attributes (``media``, ``title``), one not in the output, one that holds a
    relative ``url()`` or an ``@import`` (they would resolve from another folder). If
    what is left out splits the run, or a page links other sheets than the first page
    that was bundled, that page links its sheets one by one.
    """
    outdir = Path(app.outdir)
    # The order the page links them in: Sphinx sorts by priority after this event.
    sheets = sorted(sheets, key=lambda sheet: getattr(sheet, "priority", 500))
    run: list[int] = []
    parts: list[str] = []
    for index, sheet in enumerate(sheets):
        filename = str(getattr(sheet, "filename", ""))
        if (
            not filename
            or "://" in filename
            or getattr(sheet, "attributes", None) != {"rel": "stylesheet", "type": "text/css"}
        ):
            continue
        text = _sheet_text(outdir / filename, filename)
        if text is None:
            continue
        run.append(index)
        parts.append(f"/* {_FROM} {filename} */\n{text}\n")
    if len(run) < 2 or run != list(range(run[0], run[-1] + 1)):
        return sheets
    text = "".join(parts)
    written = _BUNDLES.get(str(outdir))
    if written is None:  # the first page of the build (of this process, with -j)
        _write_bundle(outdir / BUNDLE, text)
        _BUNDLES[str(outdir)] = text
    elif written != text:  # another page links other sheets: this one keeps its own
        return sheets
    first = sheets[run[0]]
    return [*sheets[: run[0]], type(first)(BUNDLE, priority=first.priority), *sheets[run[-1] + 1 :]]


def _write_bundle(bundle: Path, text: str) -> None:
    """Write *text* to *bundle* unless it holds it already; whole, even with parallel
    writers."""
    if not bundle.is_file() or bundle.read_text("utf-8") != text:
        partial = bundle.with_name(f"{bundle.name}.{os.getpid()}")
        partial.write_text(text, "utf-8")
        partial.replace(bundle)


#: The bundle's text in this build, by output folder, so that every page that links it
#: gets the same sheets (forgotten when a build starts: :func:`_forget_bundles`).
_BUNDLES: dict[str, str] = {}


@functools.cache
def _sheet_text(path: Path, filename: str) -> str | None:
    """The final text of the sheet *filename* at *path*, or None if it cannot be bundled
    (missing, or holding a relative ``url()`` or an ``@import``). Read once per build:
    the static files do not change while the pages are written."""
    if not path.is_file():
        return None
    final = WRITTEN_LATER.get(filename)
    text = final() if final is not None else path.read_text("utf-8")
    if text is None or "@import" in text or _RELATIVE_URL.search(text):
        return None
    return text


def _forget_bundles(app: Sphinx) -> None:
    """Start a build with no bundle and no sheet read: a process may run several."""
    _BUNDLES.clear()
    _sheet_text.cache_clear()


def _check_bundle(app: Sphinx, exception: Exception | None) -> None:
    """Warn if a sheet of :data:`BUNDLE` differs from its copy once the build is done:
    the bundle took a sheet's final text (:data:`WRITTEN_LATER`) that it did not get."""
    bundle = Path(app.outdir) / BUNDLE
    if exception is not None or not bundle.is_file():
        return
    text = bundle.read_text("utf-8")
    for filename in re.findall(rf"^/\* {_FROM} (\S+) \*/$", text, re.M):
        path = Path(app.outdir) / filename
        part = f"/* {_FROM} {filename} */\n{path.read_text('utf-8')}\n" if path.is_file() else ""
        if not part or part not in text:
            logger.warning("%s holds another %s than the build wrote", BUNDLE, filename)


def _deferred(script: Any) -> Any:
    """*script* loaded with ``defer``: a new entry, since Sphinx shares one list of them
    among all pages (the search page keeps its own)."""
    attributes = getattr(script, "attributes", None)
    filename = getattr(script, "filename", None)
    if not filename or not isinstance(attributes, dict):
        return script
    if {"async", "defer", "body"} & set(attributes):
        return script
    return type(script)(filename, priority=script.priority, **attributes, defer="defer")


def register(app: Sphinx) -> None:
    _config_hash_without_local_paths(app)
    app.connect("builder-inited", _forget_bundles)
    app.connect("html-page-context", _lighter_head, priority=900)
    app.connect("html-page-context", _index_in_reading_order)
    app.set_translator("html", AccessibleHTMLTranslator, override=True)
    app.connect("build-finished", _complete_sitemap, priority=400)  # sphinx-sitemap: 500
    app.connect("build-finished", _check_bundle, priority=900)  # after furo's (500)
    app.connect("doctree-resolved", _absolute_links_in_404)
