"""``make add-language LANG=xx``: a new language, "in progress", with no code change.

It writes what the next ``make html`` needs to build the language:

- the catalogs of the pages (``locales/<code>/LC_MESSAGES/**/*.po``), of the theme's
  strings (``sphinx.po``) and of the cards' labels
  (``src/agentmsg/locale/<code>/LC_MESSAGES/agentmsg.po`` and its ``.mo``), every entry
  untranslated, from the current sources;
- a glossary stub, ``locales/<code>/GLOSSARY.md``, with the English terms of the first
  translated language's glossary;
- a search synonyms stub, ``locales/<code>/SYNONYMS.toml`` (:mod:`agentmsg_docs.site.search`),
  with the English site's synonyms as comments to translate;
- the language's row in ``locales/languages.toml``, status ``in progress``.

The name in the language's own script and the BCP 47 tag come from Babel's locale data
unless given; the search language is the code (or its primary subtag) when Sphinx has a
splitter or stemmer for it, else English.
"""

from __future__ import annotations

import re
from pathlib import Path

from agentmsg_docs.build import LOCALES, BuildError, shown
from agentmsg_docs.i18n.catalogs import (
    GETTEXT,
    PACKAGE_LOCALE,
    build_gettext,
    compile_package_catalogs,
    extract_package_messages,
    sphinx_intl_update,
)
from agentmsg_docs.i18n.languages import LANGUAGES, TABLE, TRANSLATED

__all__ = ["add_language", "language_row"]

_CODE = re.compile(r"[a-z]{2,3}(?:_(?:[A-Z]{2}|[A-Z][a-z]{3}))?")


def language_row(code: str, name: str | None = None, tag: str | None = None) -> dict[str, str]:
    """The table row of a new language *code* (see the module docstring).

    Raises:
        BuildError: *code* is no gettext code, is in the table already, or Babel does not
            know it and *name* is not given.
    """
    if not _CODE.fullmatch(code):
        msg = f"LANG must be a gettext code such as fr, ja or pt_BR, not {code!r}"
        raise BuildError(msg)
    if any(language.code == code for language in LANGUAGES):
        msg = f"{code} is in {shown(TABLE)} already"
        raise BuildError(msg)
    if name is None:
        from babel import Locale, UnknownLocaleError

        try:
            own = Locale.parse(code).get_display_name(code)
        except (UnknownLocaleError, ValueError) as error:
            msg = f"Babel does not know {code!r}: give its name, NAME=..."
            raise BuildError(msg) from error
        name = own[:1].upper() + own[1:] if own else code
    from sphinx.search import languages as searchable

    primary = code.split("_")[0]
    search = code if code in searchable else primary if primary in searchable else "en"
    return {
        "code": code,
        "tag": tag or code.replace("_", "-"),
        "name": name,
        "search": search,
        "status": "in progress",
    }


def _toml_row(row: dict[str, str]) -> str:
    fields = "".join(f'{key} = "{value}"\n' for key, value in row.items())
    return f"\n[[language]]\n{fields}"


def _theme_catalog(code: str) -> None:
    """``sphinx.po`` of *code*: the entries of the first translated language's, which hold
    the templates' strings and the site's own, untranslated."""
    import polib
    from babel.messages.plurals import get_plural

    target = LOCALES / code / "LC_MESSAGES" / "sphinx.po"
    made = polib.pofile(str(target)) if target.is_file() else polib.POFile()
    known = {entry.msgid for entry in made}
    if TRANSLATED:
        model = polib.pofile(str(LOCALES / TRANSLATED[0].code / "LC_MESSAGES" / "sphinx.po"))
        for entry in model:
            if entry.msgid not in known and not entry.obsolete:
                made.append(polib.POEntry(msgid=entry.msgid, msgstr="", comment=entry.comment))
    plural = get_plural(code)
    made.metadata = {
        **made.metadata,
        "Language": code,
        "Content-Type": "text/plain; charset=utf-8",
        "Plural-Forms": f"nplurals={plural.num_plurals}; plural={plural.plural_expr};",
    }
    target.parent.mkdir(parents=True, exist_ok=True)
    made.save(str(target))


def _header_not_fuzzy(code: str) -> None:
    """sphinx-intl marks a new catalog's header fuzzy; its header is right as it is."""
    import polib

    folders = (LOCALES / code / "LC_MESSAGES", PACKAGE_LOCALE / code / "LC_MESSAGES")
    for path in sorted(path for folder in folders for path in folder.rglob("*.po")):
        catalog = polib.pofile(str(path), wrapwidth=76)
        if catalog.metadata_is_fuzzy:
            catalog.metadata_is_fuzzy = False
            catalog.save(str(path))


def _glossary(code: str, name: str) -> Path:
    target = LOCALES / code / "GLOSSARY.md"
    terms: list[str] = []
    if TRANSLATED:
        model = (LOCALES / TRANSLATED[0].code / "GLOSSARY.md").read_text(encoding="utf-8")
        rows = [line for line in model.splitlines() if line.startswith("|")][2:]
        terms = [line.split("|")[1].strip() for line in rows]
    table = "".join(f"| {term} | | |\n" for term in terms)
    target.write_text(
        f"# Glossary: {name} ({code})\n\n"
        "The translation of each term, used the same way on every page. Code names,\n"
        "literals and role names are not translated.\n\n"
        f"| English | {name} | Notes |\n|---|---|---|\n{table}",
        encoding="utf-8",
    )
    return target


def _synonyms(code: str, name: str) -> Path:
    """``locales/<code>/SYNONYMS.toml``: an empty table, with the English site's
    synonyms below it as comments, for the translators to write their own."""
    from agentmsg_docs.site.search import SYNONYMS

    target = LOCALES / code / SYNONYMS
    model = LOCALES / LANGUAGES[0].code / SYNONYMS
    lines = model.read_text(encoding="utf-8").splitlines() if model.is_file() else []
    examples = [line for line in lines if line.startswith('"')]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(
        f"# Search synonyms: {name} ({code}). The words readers type into the search box,\n"
        "# and the words the pages use for them (see GLOSSARY.md).\n#\n"
        "# Each key is what a reader may type, a word or a phrase (any case; accents\n"
        "# optional); its value, a word, a phrase or a list of them, is what the pages say.\n"
        "# The search page looks for either. Read by docs/agentmsg_docs/site/search.py at build\n"
        "# time. The English site's, to translate:\n#\n"
        + "".join(f"# {line}\n" for line in examples)
        + "\n[synonyms]\n",
        encoding="utf-8",
    )
    return target


def add_language(code: str, name: str | None = None, tag: str | None = None) -> None:
    """Add language *code* (see the module docstring)."""
    row = language_row(code, name, tag)
    build_gettext()
    sphinx_intl_update(GETTEXT, LOCALES, [code])
    _theme_catalog(code)
    sphinx_intl_update(extract_package_messages().parent, PACKAGE_LOCALE, [code])
    _header_not_fuzzy(code)
    compile_package_catalogs([code])
    glossary = _glossary(code, row["name"])
    synonyms = _synonyms(code, row["name"])
    with TABLE.open("a", encoding="utf-8") as table:
        table.write(_toml_row(row))
    print(f"== {code}: added to {shown(TABLE)} as {row}")
    print(f"== {code}: catalogs in {shown(LOCALES / code)}, glossary stub {shown(glossary)}")
    print(f"== {code}: search synonyms stub {shown(synonyms)}")
