"""The documentation's tooling: one Sphinx extension and the build's command line.

``docs/conf.py`` lists this package as its one extension of ours; :func:`setup` connects
each job's module, one module per job:

- :mod:`~agentmsg_docs.languages`: the table of languages (``locales/languages.toml``),
  links between translations, ``<html lang>``, search and site URLs;
- :mod:`~agentmsg_docs.gallery`: the examples pass, reuse of ``docs/tutorial/``, cards;
- :mod:`~agentmsg_docs.downloads`: translated scripts, notebooks and zips, written with
  :mod:`~agentmsg_docs.notebooks` (reST to clean notebook Markdown);
- :mod:`~agentmsg_docs.cards`: the chat cards' labels in each page's language;
- :mod:`~agentmsg_docs.typography`: Chinese spacing and punctuation;
- :mod:`~agentmsg_docs.search`: search that ranks, with synonyms; Chinese split as its pages were;
- :mod:`~agentmsg_docs.titlemarks`: 《》 and “” around references to works and sections in Chinese;
- :mod:`~agentmsg_docs.literals`: dashes in Chinese field lists, types kept literal;
- :mod:`~agentmsg_docs.descriptions`: page descriptions from a page's own paragraphs;
- :mod:`~agentmsg_docs.source_links`: each page's link to its source in the repository;
- :mod:`~agentmsg_docs.comments`: comments in code blocks through the catalogs;
- :mod:`~agentmsg_docs.html_pages`: accessible markup, sitemap, 404 links, a light head;
- :mod:`~agentmsg_docs.progress`: blocks that show the English marked, and the page's notice;
- :mod:`~agentmsg_docs.theme_strings`: the theme's and scripts' strings, translated;
- :mod:`~agentmsg_docs.lite`: each tutorial's "run in the browser" link;
- :mod:`~agentmsg_docs.runner`: the code blocks that run on the page (``_static/runner/``);
- :mod:`~agentmsg_docs.matrix`: the conversion matrix page, computed from the converters
  through the public API (its probes, reply probes and stream events), in the page's language;
- :mod:`~agentmsg_docs.patches`: speed patches of upstream internals (last: see there).

Shared by them and the build: :mod:`~agentmsg_docs.po`, the one reader of ``.po`` files.

:mod:`agentmsg_docs.build` is the build around Sphinx (``python -m agentmsg_docs``, with
``docs/`` on the import path: the Makefile's docs targets call it so).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sphinx.application import Sphinx

__all__ = ["setup"]

#: The modules :func:`setup` connects, in this order (their handlers run in it too).
MODULES = (
    "languages",
    "gallery",
    "downloads",
    "cards",
    "typography",
    "search",
    "titlemarks",
    "literals",
    "descriptions",
    "source_links",
    "comments",
    "html_pages",
    "progress",
    "theme_strings",
    "lite",
    "runner",
    "matrix",
    "patches",  # last: it freezes what the others imported (see its docstring)
)


def setup(app: Sphinx) -> dict[str, Any]:
    """The Sphinx extension: every module of :data:`MODULES` registers its part."""
    for name in MODULES:
        importlib.import_module(f"{__name__}.{name}").register(app)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
