"""The translation's state, shown where a translated page shows some English.

Sphinx marks every translatable node it read with ``translated`` (True or False), and with
``translation_progress_classes = "untranslated"`` (set here for every translated language)
gives the untranslated ones the class ``untranslated``. That is enough to find the blocks
that show the English, not to tell why: Sphinx never uses a fuzzy entry, so a block whose
English changed after it was translated looks the same as one never translated. The page's
catalog tells them apart (:class:`EnglishBlocks`, read through :mod:`agentmsg_docs.i18n.po`):

- *untranslated*: no translation yet, in a language "in progress";
- *changed*: a fuzzy entry (``make update-po`` after its English changed), or an
  untranslated one in a language whose status is "complete" (new English).

A text the catalog does not hold is Sphinx's own (see :func:`block_state`).

English shows in three more places, each marked ``lang="en"`` too: copies of a title in
English (the navigation, the tables of contents, the links to the previous and next page,
a reference that shows a title: :class:`EnglishReferences`), the field lists of the API
reference (Sphinx translates their bodies in a placeholder that it drops after the
translation), and the theme's strings that no catalog translates (:func:`english_runs`).

Each such block is written with ``lang="en"`` (WCAG 3.1.2, through docutils' ``language-en``
class) and a tooltip in the reader's language (:class:`EnglishBlockTags`, which the site's
HTML translator inherits); ``_static/agentmsg.css`` draws its marker. The page opens, after
its title, with the notice ``_templates/agentmsg-progress.html``: how much of the page is
translated, or that its English changed, with links to the English page and to the
translation guide. A page with no English block gets none of this: not one byte changes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.locale import get_translation
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.i18n import docname_to_domain
from sphinx.util.nodes import extract_messages

from agentmsg_docs.i18n.languages import SOURCE, built_language, page_href
from agentmsg_docs.i18n.po import entry_states
from agentmsg_docs.zh.typography import UNSPACED_SUBTAGS

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
    "EnglishReferences",
    "block_state",
    "english_runs",
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
#: The notice's sentences, by state (in the template too, as the tooltips are).
SENTENCES = {
    UNTRANSLATED: "%(percent)s%% of this page is translated; the rest is shown in English.",
    CHANGED: (
        "The English of this section changed after it was translated, so it is shown in "
        "English until the translation is updated."
    ),
}
#: The class docutils' HTML writer turns into ``lang="en"``.
ENGLISH_CLASS = f"language-{SOURCE.tag}"
CHANGED_CLASS = "agentmsg-changed"
#: The document attribute that holds the page's counts (:func:`page_progress`), taken
#: before Sphinx drops the placeholders of the API's field lists.
COUNTS = "agentmsg_progress"


def translated_percent(translated: int, total: int) -> int:
    """The share of *total* blocks that are *translated*, in whole percent, rounded down:
    a page is 100 % translated only when every block is.

    >>> translated_percent(199, 200), translated_percent(0, 3), translated_percent(0, 0)
    (99, 0, 100)
    """
    return 100 * translated // total if total else 100


def block_state(catalog_state: str | None, *, complete: bool) -> str | None:
    """Why a block that Sphinx left untranslated shows the English, from its text's state
    in the page's catalog (:func:`agentmsg_docs.i18n.po.entry_states`) and whether the language
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
            if isinstance(node, nodes.inline) and "translatable" in node:
                # A field body's placeholder: Sphinx drops those (RemoveTranslatableInline);
                # this one stays, a <span lang="en">.
                del node["translatable"]
            elif isinstance(node, nodes.title):
                self._english_title(node)
            elif isinstance(node, addnodes.toctree):
                self._english_caption(node, message)
        self.document[COUNTS] = page_progress(self.document)

    def _english_title(self, title: nodes.title) -> None:
        """Wrap the title's text in a ``lang="en"`` inline, which its copies keep (the
        tables of contents copy a title's children, not the title), and note it for
        :class:`EnglishReferences`."""
        inline = nodes.inline("", "", *title.children, classes=[ENGLISH_CLASS])
        title.children = []
        title += inline
        _note(self.env, TITLES, title.astext())

    def _english_caption(self, toctree: addnodes.toctree, message: str) -> None:
        """Note the caption of a toctree when it is the message shown in English: the
        navigation writes it from the theme (:func:`english_runs` marks it there)."""
        if toctree.get("caption") and message == toctree.get("rawcaption"):
            _note(self.env, CAPTIONS, toctree["caption"])


#: On the environment, by document: the titles, and the toctrees' captions, in English.
TITLES = "agentmsg_english_titles"
CAPTIONS = "agentmsg_english_captions"


def _note(env: Any, kind: str, text: str) -> None:
    found: dict[str, set[str]] = getattr(env, kind, {})
    found.setdefault(env.docname, set()).add(text)
    setattr(env, kind, found)


def _noted(env: Any, kind: str) -> set[str]:
    """Every text of *kind* noted in the environment (all documents)."""
    return set().union(*getattr(env, kind, {}).values())


class EnglishReferences(SphinxPostTransform):
    """A reference that shows a title of another page (``:doc:``, ``:ref:`` without text of
    its own: the gallery's cards, "see Tools"), which Sphinx writes as plain text, is
    marked ``lang="en"`` when that title is shown in English."""

    default_priority = 20  # after the references are resolved (10)

    def run(self, **kwargs: Any) -> None:
        titles = _noted(self.env, TITLES)
        if not titles:
            return
        for reference in self.document.findall(nodes.reference):
            for inline in reference.findall(nodes.inline):
                shown = {"doc", "std-ref"} & set(inline.get("classes", ()))
                if shown and inline.astext() in titles:
                    inline["classes"].append(ENGLISH_CLASS)


def _purge_noted(app: Sphinx, env: Any, docname: str) -> None:
    for kind in (TITLES, CAPTIONS):
        getattr(env, kind, {}).pop(docname, None)


def _merge_noted(app: Sphinx, env: Any, docnames: Iterable[str], other: Any) -> None:
    for kind in (TITLES, CAPTIONS):
        found = getattr(env, kind, {})
        theirs = getattr(other, kind, {})
        found.update({docname: theirs[docname] for docname in docnames if docname in theirs})
        setattr(env, kind, found)


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
    counts = doctree.get(COUNTS) or page_progress(doctree)
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
            "english_href": page_href(
                pagename,
                SOURCE.code,
                absolute=pagename in app.config.agentmsg_absolute_language_links,
            ),
            "guide_href": pathto(GUIDE) if GUIDE in app.env.found_docs - {pagename} else None,
            **_gaps(app, counts),
        },
    )
    body: str = context["body"]
    end = body.find("</h1>")
    at = end + len("</h1>") if end >= 0 else 0
    context["body"] = f"{body[:at]}\n{notice.strip()}\n{body[at:]}"


def sentence_gap(primary: str) -> str:
    """What stands between two sentences, or a sentence and a link, in a language of
    primary subtag *primary*: nothing where words are not spaced (Chinese, Japanese).

    >>> sentence_gap("ja"), sentence_gap("fr")
    ('', ' ')
    """
    return "" if primary in UNSPACED_SUBTAGS else " "


def _gaps(app: Sphinx, counts: dict[str, int]) -> dict[str, str]:
    """What follows each sentence of the notice: a space after one shown in English, else
    :func:`sentence_gap` of the page's language."""
    translate = get_translation("sphinx")
    primary = built_language(app.config).primary

    def after(state: str) -> str:
        text = SENTENCES[state]
        return " " if str(translate(text)) == text else sentence_gap(primary)

    return {
        "gap_between": after(UNTRANSLATED),
        "gap": after(CHANGED if counts[CHANGED] else UNTRANSLATED),
    }


def english_theme_strings(app: Sphinx) -> list[str]:
    """The strings of the page's ``sphinx.po`` (the theme's and the site's templates) that
    the page shows in English: no usable translation there, nor in Sphinx's own catalog."""
    language = built_language(app.config)
    if language.code == SOURCE.code:
        return []
    translate = get_translation("sphinx")
    found: dict[str, str] = {}
    for directory in app.config.locale_dirs:
        path = Path(app.srcdir, directory, language.code, "LC_MESSAGES", "sphinx.po")
        found = {**entry_states(path), **found}
    return sorted(
        msgid
        for msgid, state in found.items()
        if state != "translated" and str(translate(msgid)) == msgid
    )


_PLACEHOLDER = re.compile(r"%\(\w+\)s|%s|%%")


def _pattern(msgid: str) -> str:
    """*msgid* (a template's string, as the template writes it) as a regular expression
    of its text, any value standing for its placeholders."""
    parts = _PLACEHOLDER.split(msgid.strip())
    marks = _PLACEHOLDER.findall(msgid.strip())
    pattern = re.escape(parts[0])
    for mark, part in zip(marks, parts[1:], strict=True):
        pattern += ("%" if mark == "%%" else "[^<>]+?") + re.escape(part)
    return pattern


def english_runs(html: str, strings: Iterable[str]) -> str:
    """*html* with each text that is one of *strings* (the whole text between two tags)
    wrapped in ``<span lang="en">``.

    >>> english_runs('<p>\\n  On this page\\n</p><a>Next</a>', ["On this page"])
    '<p>\\n  <span lang="en">On this page</span>\\n</p><a>Next</a>'
    >>> english_runs("<p>Found 3 pages</p>", ["Found %(n)s pages"])
    '<p><span lang="en">Found 3 pages</span></p>'
    """
    found = _runs(tuple(sorted(set(strings))))
    return html if found is None else found.sub(r'>\1<span lang="en">\2</span>\3<', html)


@functools.cache
def _runs(strings: tuple[str, ...]) -> re.Pattern[str] | None:
    shown = sorted(
        {_pattern(text) for text in strings if "<" not in text and re.search("[A-Za-z]", text)},
        key=len,
        reverse=True,
    )
    return re.compile(rf">(\s*)({'|'.join(shown)})(\s*)<") if shown else None


def _theme_english(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Give the templates ``agentmsg_english_runs(html)``: :func:`english_runs` with the
    strings of :func:`english_theme_strings` and the toctrees' captions in English."""
    strings = (*_theme_strings(app), *sorted(_noted(app.env, CAPTIONS)))
    context["agentmsg_english_runs"] = lambda html: english_runs(html, strings)


def _theme_strings(app: Sphinx) -> tuple[str, ...]:
    """:func:`english_theme_strings` of this build, read once."""
    key = (id(app), built_language(app.config).code)
    if key not in _THEME_STRINGS:
        _THEME_STRINGS[key] = tuple(english_theme_strings(app))
    return _THEME_STRINGS[key]


_THEME_STRINGS: dict[tuple[int, str], tuple[str, ...]] = {}


def register(app: Sphinx) -> None:
    app.connect("config-inited", _config_inited, priority=900)
    app.add_transform(EnglishBlocks)
    app.add_post_transform(EnglishReferences)
    app.connect("env-purge-doc", _purge_noted)
    app.connect("env-merge-info", _merge_noted)
    app.connect("html-page-context", _add_notice)
    app.connect("html-page-context", _theme_english)
