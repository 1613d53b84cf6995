"""The English-word scanner of the site tests: what a reader of a translated page meets
as text, and which of its words are English (``test_language`` and ``test_progress``).

Code, printed output and a chat card's data are left out; on Chinese pages any Latin word
not on ``english_allowed.txt`` counts, on Spanish pages common English words that are not
also Spanish.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from bs4 import BeautifulSoup, Comment, NavigableString, Tag

import agentmsg
from agentmsg_docs.i18n.languages import TRANSLATED

HERE = Path(__file__).resolve().parent
TRANSLATED_LANGS = [language.code for language in TRANSLATED]
#: As written: "Messages" (Anthropic's API) is allowed, "messages" is not.
ALLOWED = frozenset(
    line.split("#")[0].strip()
    for line in (HERE / "english_allowed.txt").read_text(encoding="utf-8").splitlines()
    if line.split("#")[0].strip()
)
#: Elements whose text is code or output, not prose (their descendants too).
CODE = {"code", "pre", "kbd", "samp", "script", "style", "svg", "math"}
#: Classes of elements whose text is code, output or a message's own data.
DATA_CLASSES = {
    "highlight",
    "sphx-glr-script-out",
    "agentmsg-name",
    "agentmsg-badge",
    "agentmsg-kind",
    "agentmsg-time",
    "agentmsg-text",
    "agentmsg-str",
    "agentmsg-json",
    "sig",  # API signatures: names and types
    "sig-name",
    "sig-prename",
    "pre",
    "literal",
    "headerlink",  # the ¶ sign
    "guilabel",  # another program's menus and buttons, as that program shows them
    "agentmsg-languages",  # the language names, each in its own language
}
SHOWN_ATTRIBUTES = ("alt", "aria-label", "title", "placeholder")
#: Common English words that are not also Spanish words ("a", "no", "son", "me", "has",
#: "audio", "note" are, and are left out).
_ENGLISH_WORDS = """the and with from this that these those which what when where there their
    they them have had been being were would could should will shall must can't don't
    is are be of to for on by at an or as it its into onto than then also only not
    any each every all some such more most other another about after before between
    through during without within under over again here how why who whom whose you your
    yours our ours we us my mine he she his her him it's that's there's let's
    message messages block blocks content tool tools call calls result results output
    input text thinking image images video file files download downloads search
    searching copy copied clipboard contents menu expand home next previous back top skip
    page pages link links documentation please activate enable functionality version
    added changed removed deprecated property method methods class function functions
    attribute module parameters returns raises example examples bases warning tip
    see also made built theme copyright developers toggle navigation sidebar light dark
    auto mode light/dark found matching query finished preparing your did match any
    documents spelled correctly selected enough categories run runs browser notebook
    notebooks source code full end go table index"""
ENGLISH = frozenset(_ENGLISH_WORDS.split())
LATIN_WORD = re.compile(r"[A-Za-z_][\w.:/'’+-]*\w|[A-Za-z]")
#: Names that are code wherever they stand: agentmsg's public names and Python's constants.
CODE_NAMES = frozenset(
    {*agentmsg.__all__, "None", "True", "False", "str", "int", "float", "bool", "dict", "list"}
    | {"tuple", "bytes", "Any", "Sequence", "Mapping", "Iterable", "Iterator", "Callable"}
)


def is_code_name(word: str) -> bool:
    """Dotted, snake_case, CamelCase and ALL CAPS names, names with digits, paths, media
    types and URLs, and :data:`CODE_NAMES`: code, data or abbreviations, written alike in
    every language."""
    return (
        word in CODE_NAMES
        or any(mark in word for mark in "._/:")
        or bool(re.search(r"[a-z][A-Z]|\d", word))
        or (word.isupper() and len(word) > 1)
    )


def pages(site: Path, lang: str) -> list[Path]:
    return sorted((site / lang).rglob("*.html"))


def _is_data(tag: Tag) -> bool:
    classes = set(tag.get("class") or [])
    return tag.name in CODE or bool(classes & DATA_CLASSES)


def parameter_names(page: BeautifulSoup) -> set[str]:
    """The parameters of the signatures on *page*: the API reference writes a parameter
    in its prose as emphasis (``*content*``), and that name is code."""
    return {em.get_text().split(":")[0].split("=")[0].strip() for em in page.select("em.sig-param")}


def shown_texts(page: BeautifulSoup) -> Iterator[tuple[str, str]]:
    """``(where, text)`` for every prose text and shown attribute of *page*."""
    parameters = parameter_names(page)
    genindex = page.find(id="index-A") is not None or page.select_one("table.indextable")
    genindex = bool(genindex)
    title = page.find("title")
    if title is not None:
        yield "<title>", title.get_text()
    body = page.find("body")
    assert isinstance(body, Tag)
    for element in body.descendants:
        if isinstance(element, Comment):
            continue
        if isinstance(element, NavigableString):
            parents = [parent for parent in element.parents if isinstance(parent, Tag)]
            if any(_is_data(parent) for parent in parents):
                continue
            text = str(element)
            if parents[0].name in {"em", "strong"} and text.strip() in parameters:
                continue
            if genindex and parents[0].name == "a":  # "name (kind of Class)": the name is code
                text = re.sub(r"^\S+\s*", "", text)
            yield parents[0].name, text
        elif isinstance(element, Tag) and not any(
            _is_data(tag) for tag in (element, *element.parents) if isinstance(tag, Tag)
        ):
            for attribute in SHOWN_ATTRIBUTES:
                value = element.get(attribute)
                if isinstance(value, str) and not _card_data_attribute(element, attribute):
                    yield f"<{element.name} {attribute}>", value


def _card_data_attribute(element: Tag, attribute: str) -> bool:
    """A card's own accessible name holds its sender and role (data), checked elsewhere
    (``test_site.py`` compares every card with what agentmsg writes in the language)."""
    return element.name == "article" and "agentmsg-card" in (element.get("class") or [])


def english_words(text: str, lang: str) -> list[str]:
    words = [
        word.strip(".'’-")
        for word in LATIN_WORD.findall(text)
        if word.strip(".'’-") not in ALLOWED and not is_code_name(word.strip(".'’-"))
    ]
    if lang == "zh_CN":
        return [word for word in words if len(word) > 1]
    return [word for word in words if word.lower() in ENGLISH]


def scan(site: Path, lang: str) -> list[str]:
    found = []
    for path in pages(site, lang):
        page = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
        for where, text in shown_texts(page):
            words = english_words(text, lang)
            if words:
                shown = " ".join(text.split())[:90]
                found.append(f"{path.relative_to(site)} {where}: {words} in {shown!r}")
    return found
