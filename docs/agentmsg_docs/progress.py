"""The translation's state, shown where a translated page shows some English.

Sphinx marks every translatable node it read with ``translated`` (True or False), and with
``translation_progress_classes = "untranslated"`` (set here for every translated language)
gives the untranslated ones the class ``untranslated``. That is enough to find the blocks
that show the English, not to tell why: Sphinx never uses a fuzzy entry, so a block whose
English changed after it was translated looks the same as one never translated. The page's
catalog tells them apart (:class:`EnglishBlocks`, read through :mod:`agentmsg_docs.po`):

- *untranslated*: no translation yet, in a language "in progress";
- *changed*: a fuzzy entry (``make update-po`` after its English changed), or an
  untranslated one in a language whose status is "complete" (new English).

A text the catalog does not hold is Sphinx's own (see :func:`block_state`).

Each such block is written with ``lang="en"`` (WCAG 3.1.2, through docutils' ``language-en``
class) and a tooltip in the reader's language (:class:`EnglishBlockTags`, which the site's
HTML translator inherits); ``_static/agentmsg.css`` draws its marker. The page opens, after
its title, with the notice ``_templates/agentmsg-progress.html``: how much of the page is
translated, or that its English changed, with links to the English page and to the
translation guide. A page with no English block gets none of this: not one byte changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.locale import get_translation
from sphinx.transforms import SphinxTransform
from sphinx.util.i18n import docname_to_domain
from sphinx.util.nodes import extract_messages

from agentmsg_docs.languages import SOURCE, built_language, page_href
from agentmsg_docs.po import entry_states

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

__all__ = [
    "CHANGED",
    "STATE",
    "TEMPLATE",
    "TOOLTIPS",
    "UNTRANSLATED",
    "EnglishBlockTags",
    "EnglishBlocks",
    "block_state",
    "page_progress",
    "translated_percent",
]

TEMPLATE = "agentmsg-progress.html"
GUIDE = "translating"  # docs/translating.md, the translation guide
#: The node attribute that holds why a block shows the English.
STATE = "agentmsg_english"
UNTRANSLATED = "untranslated"
CHANGED = "changed"
#: Each block's tooltip, by state (in the template too, so that ``make update-po`` puts
#: them in ``sphinx.po``).
TOOLTIPS = {
    UNTRANSLATED: "Not translated yet: shown in English.",
    CHANGED: "The English of this section changed after it was translated: shown in English.",
}
#: The class docutils' HTML writer turns into ``lang="en"``.
ENGLISH_CLASS = f"language-{SOURCE.tag}"
CHANGED_CLASS = "agentmsg-changed"


def translated_percent(translated: int, total: int) -> int:
    """The share of *total* blocks that are *translated*, in whole percent, rounded down:
    a page is 100 % translated only when every block is.

    >>> translated_percent(199, 200), translated_percent(0, 3), translated_percent(0, 0)
    (99, 0, 100)
    """
    return 100 * translated // total if total else 100


def block_state(catalog_state: str | None, *, complete: bool) -> str | None:
    """Why a block that Sphinx left untranslated shows the English, from its text's state
    in the page's catalog (:func:`agentmsg_docs.po.entry_states`) and whether the language
    is *complete*; None when it does not show the English.

    A text the catalog holds translated is shown translated (an image's alt text, which
    Sphinx never counts as translated); one it does not hold at all is Sphinx's own (a
    field name of the API reference, in the reader's language already).

    >>> block_state("fuzzy", complete=False), block_state("untranslated", complete=True)
    ('changed', 'changed')
    >>> block_state("untranslated", complete=False), block_state(None, complete=True)
    ('untranslated', None)
    """
    if catalog_state == "fuzzy" or (catalog_state == "untranslated" and complete):
        return CHANGED
    return UNTRANSLATED if catalog_state == "untranslated" else None


class EnglishBlocks(SphinxTransform):
    """Mark each block of a translated page that Sphinx left in English with its
    :data:`STATE` and the class that gives it ``lang="en"``."""

    default_priority = 26  # after Locale (20) and Sphinx's count of translated nodes (25)

    def apply(self, **kwargs: Any) -> None:
        language = built_language(self.config)
        if language.code == SOURCE.code or self.app.builder.name == "gettext":
            return
        domain = docname_to_domain(self.env.docname, self.config.gettext_compact)
        states: dict[str, str] = {}
        for directory in self.config.locale_dirs:
            path = Path(self.env.srcdir, directory, language.code, "LC_MESSAGES", f"{domain}.po")
            states = {**entry_states(path), **states}
        for node, message in extract_messages(self.document):
            if node.get("translated") is not False:
                continue
            state = block_state(states.get(message), complete=language.complete)
            if state is None:
                node["translated"] = True  # so Sphinx's class and the count agree
                continue
            if node.get(STATE) == CHANGED:
                continue  # a node with several messages: one changed is what it shows
            node[STATE] = state
            # Toctrees and meta tags are not written as one element of their own.
            if not isinstance(node, addnodes.translatable | nodes.meta):
                classes = node.setdefault("classes", [])
                classes.append(ENGLISH_CLASS)
                if state == CHANGED:
                    classes.append(CHANGED_CLASS)


class EnglishBlockTags:
    """A mixin of the HTML translator: the start tag of a block :class:`EnglishBlocks`
    marked gets its tooltip, in the page's language."""

    def starttag(
        self,
        node: nodes.Element,
        tagname: str,
        suffix: str = "\n",
        empty: bool = False,
        **atts: Any,
    ) -> str:
        state = node.get(STATE) if isinstance(node, nodes.Element) else None
        if state in TOOLTIPS and ENGLISH_CLASS in node.get("classes", ()) and "title" not in atts:
            atts["title"] = str(get_translation("sphinx")(TOOLTIPS[state]))
        return super().starttag(node, tagname, suffix, empty, **atts)  # type: ignore[misc, no-any-return]


def page_progress(doctree: nodes.Node) -> dict[str, int]:
    """The page's translatable blocks: ``total``, ``translated``, and of the others how
    many are ``untranslated`` and ``changed`` (see the module docstring)."""
    counts = {"total": 0, "translated": 0, UNTRANSLATED: 0, CHANGED: 0}
    for node in doctree.findall(nodes.Element):
        if "translated" not in node.attributes:
            continue
        counts["total"] += 1
        if node["translated"]:
            counts["translated"] += 1
        else:
            counts[node.get(STATE, UNTRANSLATED)] += 1
    return counts


def _config_inited(app: Sphinx, config: Config) -> None:
    if built_language(config).code != SOURCE.code:
        config.translation_progress_classes = UNTRANSLATED


def _add_notice(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Open a page that shows some English with the notice, right after its title."""
    if doctree is None or "body" not in context:
        return
    counts = page_progress(doctree)
    if not counts[UNTRANSLATED] and not counts[CHANGED]:
        return
    pathto = context["pathto"]
    notice = app.builder.templates.render(
        TEMPLATE,
        {
            **context,
            "percent": translated_percent(counts["translated"], counts["total"]),
            "untranslated": counts[UNTRANSLATED],
            "changed": counts[CHANGED],
            "english_href": page_href(pagename, SOURCE.code),
            "guide_href": pathto(GUIDE) if GUIDE in app.env.found_docs - {pagename} else None,
        },
    )
    body: str = context["body"]
    end = body.find("</h1>")
    at = end + len("</h1>") if end >= 0 else 0
    context["body"] = f"{body[:at]}\n{notice.strip()}\n{body[at:]}"


def register(app: Sphinx) -> None:
    app.connect("config-inited", _config_inited, priority=900)
    app.add_transform(EnglishBlocks)
    app.connect("html-page-context", _add_notice)
