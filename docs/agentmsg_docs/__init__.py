"""The documentation's tooling: one Sphinx extension and the build's command line.

``docs/conf.py`` lists this package as its one extension of ours; :func:`setup` connects
each job's module (:data:`MODULES`), grouped in a folder by what they do:

- :mod:`~agentmsg_docs.i18n`, the translation: the table of languages and links between
  translations (``languages``), the one reader of ``.po`` files (``po``), comments in code
  blocks through the catalogs (``comments``), blocks that show the English marked and the
  page's notice (``progress``), the theme's and scripts' strings (``theme_strings``); and,
  outside Sphinx, the glossary check (``glossary``), the catalogs' checks, extraction and
  counts (``catalogs``) and ``make add-language`` (``new_language``);
- :mod:`~agentmsg_docs.zh`, Chinese typography and search: spacing and punctuation
  (``typography``), 《》 and “” around references (``titlemarks``), dashes in field lists
  and types kept literal (``literals``), the index and queries cut into words (``search``);
- :mod:`~agentmsg_docs.gallery`, the tutorials: sphinx-gallery adapted, one run of the
  examples reused by every language (``tutorials``), translated scripts, notebooks and
  zips (``downloads``, with ``notebooks``: reST to clean notebook Markdown), the chat
  cards' labels in each page's language (``cards``);
- :mod:`~agentmsg_docs.lite`, the in-browser runtime: each tutorial's "run in the
  browser" link (``link``), the code blocks that run on the page (``runner``), and the
  JupyterLite site (``build``, from ``inputs`` and ``pyodide_lock``);
- :mod:`~agentmsg_docs.site`, the site's pages: accessible markup, sitemap, 404 links, a
  light head (``html_pages``), page descriptions (``descriptions``), links to each page's
  source (``source_links``), search that ranks, with synonyms (``search``), the files at
  the site's root (``root_pages``);
- :mod:`~agentmsg_docs.matrix`: the conversion matrix page, computed from the converters
  through the public API (its probes, reply probes and stream events), in the page's language;
- :mod:`~agentmsg_docs.patches`: speed patches of upstream internals (last: see there).

:mod:`agentmsg_docs.build` is the build around Sphinx, its driver alone (``python -m
agentmsg_docs``, with ``docs/`` on the import path: the Makefile's docs targets call it so).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sphinx.application import Sphinx

__all__ = ["setup"]

#: The modules :func:`setup` connects, in this order (their handlers run in it too).
MODULES = (
    "i18n.languages",
    "gallery.tutorials",
    "gallery.downloads",
    "gallery.cards",
    "zh.typography",
    "site.search",
    "zh.titlemarks",
    "zh.literals",
    "site.descriptions",
    "site.source_links",
    "i18n.comments",
    "site.html_pages",
    "i18n.progress",
    "i18n.theme_strings",
    "lite.link",
    "lite.runner",
    "matrix",
    "patches",  # last: it freezes what the others imported (see its docstring)
)


def setup(app: Sphinx) -> dict[str, Any]:
    """The Sphinx extension: every module of :data:`MODULES` registers its part."""
    for name in MODULES:
        importlib.import_module(f"{__name__}.{name}").register(app)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
