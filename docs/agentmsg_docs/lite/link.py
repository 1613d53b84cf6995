"""The "Run in the browser" link on every tutorial page.

sphinx-gallery ends each tutorial page with a footer of download buttons
(``div.sphx-glr-footer``). This extension puts one more button first in that footer: a
plain link to the page's notebook, in the page's language, in the site's one JupyterLite
(``lite/``, built by ``docs/agentmsg_docs/lite/build.py`` after the language builds). The link is
relative, from ``<lang>/tutorial/<name>.html`` up to the site's root:
``../../lite/notebooks/index.html?path=<lang>/<name>.ipynb``.

The button's markup is the template ``_templates/agentmsg-lite.html``; its label goes
through gettext like the theme's strings (``sphinx.po``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes

if TYPE_CHECKING:
    from sphinx.application import Sphinx

__all__ = ["FOOTER_CLASS", "TEMPLATE", "notebook_href"]

FOOTER_CLASS = "sphx-glr-footer"
EXAMPLE_FOOTER_CLASS = "sphx-glr-footer-example"  # a tutorial's; the gallery's has no notebook
TEMPLATE = "agentmsg-lite.html"
LITE_DIR = "lite"  # as docs/agentmsg_docs/lite/build.py's LITE_DIR


def notebook_href(docname: str, lang: str) -> str:
    """The link from page *docname* of *lang* to its notebook in the site's JupyterLite.

    >>> notebook_href("tutorial/tools", "xx")
    '../../lite/notebooks/index.html?path=xx/tools.ipynb'
    """
    up = "../" * (docname.count("/") + 1)  # out of the page's folders and its language's
    name = docname.rsplit("/", 1)[-1]
    return f"{up}{LITE_DIR}/notebooks/index.html?path={lang}/{name}.ipynb"


def _add_link(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    if app.builder.format != "html":
        return
    footers = [
        node
        for node in doctree.findall(nodes.container)
        if FOOTER_CLASS in node["classes"] and EXAMPLE_FOOTER_CLASS in node["classes"]
    ]
    if not footers:
        return
    html = app.builder.templates.render(
        TEMPLATE, {"href": notebook_href(docname, app.config.language or "en")}
    )
    for footer in footers:
        footer.insert(0, nodes.raw("", html, format="html"))


def register(app: Sphinx) -> None:
    app.connect("doctree-resolved", _add_link)
