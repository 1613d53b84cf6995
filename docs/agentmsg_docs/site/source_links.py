"""Each page's "View this page" link: its source in the repository (``REPO_URL``).

Furo's own link would name the page Sphinx read, which for a tutorial is the reST that
sphinx-gallery generated (``docs/tutorial/``, not in the repository); here a tutorial
points to its script in ``docs/examples/`` and the gallery's index to its header. Pages
of every language point to the English source they are translated from.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agentmsg_docs.i18n.languages import REPO_URL

if TYPE_CHECKING:
    from sphinx.application import Sphinx

__all__ = ["register", "source_path"]

#: The branch the links read from.
BRANCH = "main"
GALLERY = "tutorial/"


def source_path(pagename: str, page_source: str) -> str:
    """The repository path of page *pagename*, whose file Sphinx read is *page_source*
    (relative to ``docs/``).

    >>> source_path("tutorial/tools", "tutorial/tools.rst")
    'docs/examples/tools.py'
    >>> source_path("tutorial/index", "tutorial/index.rst")
    'docs/examples/GALLERY_HEADER.rst'
    >>> source_path("conversions", "conversions.md")
    'docs/conversions.md'
    """
    if pagename == GALLERY + "index":
        return "docs/examples/GALLERY_HEADER.rst"
    if pagename.startswith(GALLERY):
        return f"docs/examples/{pagename.removeprefix(GALLERY)}.py"
    return f"docs/{page_source}"


def _page_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    if doctree is None or pagename not in app.env.all_docs:
        return  # generated pages (search, index): no source of their own
    page_source = str(app.env.doc2path(pagename, base=False))
    context["agentmsg_source_url"] = (
        f"{REPO_URL}/blob/{BRANCH}/{source_path(pagename, page_source)}"
    )


def register(app: Sphinx) -> None:
    app.connect("html-page-context", _page_context)
