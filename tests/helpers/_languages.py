"""The languages of the table as the site tests see them: complete ones, whose pages must
be translated, and ones in progress, whose pages show the English of what is not yet.

A test run with ``--languages`` (``tests/conftest.py``) runs the tests parametrized over
the languages for some of them only: ``tests/site/test_add_language.py`` does, in a copy
of the repository with two languages added, 0 % translated.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from agentmsg_docs.i18n.languages import LANGUAGES, SOURCE
from agentmsg_docs.i18n.po import translations

__all__ = ["COMPLETE", "IN_PROGRESS", "LANGS", "ROOT", "TRANSLATED", "pages", "shown_text"]

ROOT = Path(__file__).resolve().parents[2]
LANGS = [language.code for language in LANGUAGES]
#: Every language but the source one.
TRANSLATED = [code for code in LANGS if code != SOURCE.code]
#: The translated languages whose status is "complete".
COMPLETE = [language.code for language in LANGUAGES[1:] if language.complete]
IN_PROGRESS = [language.code for language in LANGUAGES if not language.complete]


def shown_text(lang: str, known: Mapping[str, str], catalog: str) -> str:
    """The text a page of *lang* shows for *known* (its text by language, the source's
    included): *known*'s own for a language it lists; for one in progress that it does not
    list, the translation in the language's *catalog* (``sphinx``, ``404``, ...), else
    the English."""
    if lang in known:
        return known[lang]
    if lang not in IN_PROGRESS:
        msg = f"{lang} is complete: give its text"
        raise KeyError(msg)
    english = known[SOURCE.code]
    path = ROOT / "locales" / lang / "LC_MESSAGES" / f"{catalog}.po"
    return translations(path).get(english, english)


#: The folders of a built language that hold files, not pages.
ASSET_DIRS = {"_static", "_sources", "_images", "_downloads"}


def pages(site: Path, lang: str) -> dict[str, Path]:
    """Every HTML page of one language, by page name (``tutorial/tools``)."""
    base = site / lang
    return {
        path.relative_to(base).with_suffix("").as_posix(): path
        for path in sorted(base.rglob("*.html"))
        if not ASSET_DIRS & set(path.relative_to(base).parts)
    }
