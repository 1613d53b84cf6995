"""The translation catalogs: checked before a build, extracted, merged and counted.

- :func:`validate_catalogs`: every ``locales/<lang>/LC_MESSAGES/**/*.po`` of the languages
  being built is parsed (polib) and checked with GNU ``msgfmt --check`` when it is
  installed; a broken catalog stops the build with its file and line. polib accepts some
  malformed lines silently (an unterminated string, say), and ``msgfmt`` names the line
  after them, so those are found first, by :func:`malformed_lines`.
- :func:`build_gettext` and :func:`update_po`: the gettext builder extracts every message
  into ``_build/gettext/*.pot``; ``sphinx-intl update`` merges them into the catalogs.
- :func:`extract_package_messages`: the chat cards' labels, marked in
  ``src/agentmsg/cards`` with ``_()``, ``_n()`` and ``N_()``, extracted with Babel into
  ``_build/gettext-package/agentmsg.pot``; :func:`update_po` merges them into the
  package's own catalogs, ``src/agentmsg/cards/locale/<lang>/LC_MESSAGES/agentmsg.po``
  (they ship in the wheel, for notebook users), and :func:`compile_package_catalogs`
  compiles them into the ``agentmsg.mo`` files the package reads (``make update-po`` and
  ``make html`` do).
- :func:`print_stats`: ``sphinx-intl stat``, then a total per language.
- :func:`unfinished_entries`: what keeps a language whose status is ``complete`` in
  ``locales/languages.toml`` from being complete (the tests require none); a language
  "in progress" builds and shows the English of what is not translated yet.

Catalogs live in two places, ``locales/`` (the documentation) and
``src/agentmsg/cards/locale/`` (the package); everything here covers both.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from agentmsg_docs.build import BUILD, DOCS, LOCALES, ROOT, BuildError, child_env, shown
from agentmsg_docs.build.examples import run_examples
from agentmsg_docs.build.sphinx_runs import run_sphinx_builds, sphinx_command
from agentmsg_docs.build.stamps import forget_stamp, gettext_digest, up_to_date, write_stamp
from agentmsg_docs.i18n.languages import TRANSLATED, Language
from agentmsg_docs.matrix import merge_contexts

__all__ = [
    "TRANSLATED_LANGS",
    "CatalogStats",
    "build_gettext",
    "catalog_files",
    "catalog_stats",
    "check_catalogs",
    "compile_package_catalogs",
    "compiled_package_catalog",
    "every_catalog",
    "extract_package_messages",
    "malformed_lines",
    "print_stats",
    "sphinx_intl_update",
    "unfinished_entries",
    "update_po",
    "validate_catalogs",
    "warn_fuzzy",
]

TRANSLATED_LANGS = tuple(language.code for language in TRANSLATED)
GETTEXT = BUILD / "gettext"
PACKAGE = ROOT / "src" / "agentmsg"
PACKAGE_LOCALE = PACKAGE / "cards" / "locale"
PACKAGE_GETTEXT = BUILD / "gettext-package"
#: The marking functions of ``src/agentmsg/cards/_labels.py``, as the cards import them,
#: and its own ``label()`` and label class (sample numbers, byte counts).
PACKAGE_KEYWORDS = {"_": None, "_n": (1, 2), "N_": None, "label": None, "Label": (1, 2)}


def catalog_files(lang: str, locales: Path = LOCALES) -> list[Path]:
    """Every ``.po`` file of *lang* under *locales*, sorted."""
    return sorted((locales / lang / "LC_MESSAGES").rglob("*.po"))


def every_catalog(lang: str) -> list[Path]:
    """The documentation's catalogs of *lang*, then the package's."""
    return catalog_files(lang) + catalog_files(lang, PACKAGE_LOCALE)


def validate_catalogs(langs: Iterable[str], locales: Path | None = None) -> list[str]:
    """Problems in the catalogs of *langs* (under *locales*; by default all of them, the
    documentation's and the package's), each as ``"<file>:<line>: <what>"``."""
    import polib

    problems: list[str] = []
    msgfmt = shutil.which("msgfmt")
    for lang in langs:
        for path in every_catalog(lang) if locales is None else catalog_files(lang, locales):
            where = shown(path)
            broken = malformed_lines(path)
            if broken:
                problems.extend(
                    f"{where}:{number}: malformed line {text!r}" for number, text in broken
                )
                continue
            try:
                polib.pofile(str(path))
            except (OSError, ValueError, UnicodeDecodeError) as error:
                problems.append(f"{where}: {error}")
                continue
            if msgfmt is None:
                continue
            result = subprocess.run(
                [msgfmt, "--check", "-o", os.devnull, str(path)],
                capture_output=True,
                text=True,
                check=False,
            )
            if result.returncode != 0:
                text = result.stderr.strip().replace(str(path), where)
                problems.append(text or f"{where}: msgfmt --check failed")
    return problems


_PO_LINE = re.compile(r'(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?"(?:[^"\\]|\\.)*"')


def malformed_lines(path: Path) -> list[tuple[int, str]]:
    """Lines of a .po file that are neither blank, a comment nor a keyword with a
    complete quoted string, with their 1-based numbers."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []  # polib reports these
    return [
        (number, line)
        for number, line in enumerate(lines, start=1)
        if line.strip() and not line.startswith("#") and not _PO_LINE.fullmatch(line.strip())
    ]


def unfinished_entries(
    languages: Iterable[Language] = TRANSLATED, locales: Path | None = None
) -> list[str]:
    """The untranslated and fuzzy entries of the *complete* ones of *languages* (a
    language "in progress" may have any), each as ``"<file>:<line>: <what> <msgid>"``,
    in every catalog (under *locales*; by default the documentation's and the package's).
    """
    import polib

    problems = []
    for language in languages:
        if not language.complete:
            continue
        lang = language.code
        for path in every_catalog(lang) if locales is None else catalog_files(lang, locales):
            for entry in polib.pofile(str(path)):
                forms = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
                what = (
                    "fuzzy" if entry.fuzzy else "" if all(map(str.strip, forms)) else "untranslated"
                )
                if what and not entry.obsolete:
                    problems.append(f"{shown(path)}:{entry.linenum}: {what} {entry.msgid[:60]!r}")
    return problems


def check_catalogs(langs: Sequence[str]) -> None:
    """Raise :class:`~agentmsg_docs.build.BuildError` listing every problem in the catalogs of
    *langs*; note the fuzzy entries, which the pages show in English."""
    problems = validate_catalogs(langs)
    if problems:
        msg = "broken translation catalogs:\n" + "\n".join(f"  {p}" for p in problems)
        raise BuildError(msg)
    warn_fuzzy(langs)


@dataclass(frozen=True)
class CatalogStats:
    """Translation progress of one page's catalog, as sphinx-intl counts it."""

    lang: str
    page: str  # the docname, such as "tutorial/tools"
    translated: int
    untranslated: int
    fuzzy: int

    @property
    def total(self) -> int:
        return self.translated + self.untranslated + self.fuzzy


def catalog_stats(
    langs: Iterable[str] = TRANSLATED_LANGS, locales: Path | None = None
) -> list[CatalogStats]:
    """Per language and page (``agentmsg/agentmsg`` for the package's catalog):
    translated, untranslated and fuzzy entries, under *locales* (by default all), as
    polib counts them (obsolete entries left out)."""
    import polib

    rows = []
    for lang in langs:
        base = (locales or LOCALES) / lang / "LC_MESSAGES"
        for path in every_catalog(lang) if locales is None else catalog_files(lang, locales):
            entries = polib.pofile(str(path))
            if path.is_relative_to(base):
                page = path.relative_to(base).with_suffix("").as_posix()
            else:  # the package's catalog
                page = f"agentmsg/{path.stem}"
            counts = (
                len(entries.translated_entries()),
                len(entries.untranslated_entries()),
                len(entries.fuzzy_entries()),
            )
            rows.append(CatalogStats(lang, page, *counts))
    return rows


def warn_fuzzy(langs: Iterable[str]) -> None:
    for lang in langs:
        fuzzy = sum(row.fuzzy for row in catalog_stats([lang]))
        if fuzzy:
            print(f"== note: {lang} has {fuzzy} fuzzy entries, shown in English (make stats)")


def print_stats(langs: Sequence[str] = TRANSLATED_LANGS) -> None:
    """``sphinx-intl stat`` for *langs* (a line per catalog), then a total per language."""
    from sphinx_intl.basic import stat

    stat(os.path.relpath(LOCALES), langs)
    stat(os.path.relpath(PACKAGE_LOCALE), langs)
    for lang in langs:
        rows = catalog_stats([lang])
        translated = sum(row.translated for row in rows)
        total = sum(row.total for row in rows)
        share = 100 * translated // total if total else 0  # 535 of 536 is 99%, not 100%
        untranslated = sum(row.untranslated for row in rows)
        fuzzy = sum(row.fuzzy for row in rows)
        print(
            f"{lang}: {translated} translated, {fuzzy} fuzzy, {untranslated} untranslated "
            f"in {len(rows)} catalogs ({share}% translated)"
        )


def build_gettext(outdir: Path = GETTEXT) -> None:
    """Extract the translatable messages of every page into *outdir* (``*.pot``), unless
    it holds them from the same inputs (``make update-po`` then ``make add-language``)."""
    run_examples()
    # A fresh environment (-E): Sphinx would not read again a page whose source is
    # unchanged, and the extensions' part of what it extracts may have changed.
    command = ["-E", *sphinx_command("gettext", "en", outdir, outdir / ".doctrees")]
    digest = gettext_digest(command)
    stamp = "gettext" if outdir == GETTEXT else None  # another folder is always rebuilt
    if stamp and up_to_date(stamp, digest) and any(outdir.rglob("*.pot")):
        print(f"== gettext: {shown(outdir)} is up to date (nothing it reads changed)")
        return
    if stamp:
        forget_stamp(stamp)
    if run_sphinx_builds([("gettext", command)])["gettext"] != 0:
        msg = "the gettext build failed; the warnings above name the file and line"
        raise BuildError(msg)
    for stray in sorted(outdir.rglob("sg_execution_times.pot")):
        stray.unlink()
    _check_example_msgids(outdir)
    if stamp:
        write_stamp(stamp, digest)


def _check_example_msgids(potdir: Path) -> None:
    """Say which gallery paragraphs the translated downloads could not find in the .pot."""
    import polib
    from sphinx_gallery.py_source_parser import split_code_and_text_blocks

    from agentmsg_docs.gallery.downloads import text_msgids
    from agentmsg_docs.gallery.tutorials import GALLERY_DIR, example_scripts

    for script in example_scripts(DOCS):
        pot = potdir / GALLERY_DIR / f"{script.stem}.pot"
        if not pot.is_file():
            continue
        known = {entry.msgid for entry in polib.pofile(str(pot))}
        _, blocks = split_code_and_text_blocks(str(script))
        for block in blocks:
            if block.type != "text":
                continue
            for msgid in text_msgids(block.content):
                if msgid not in known:
                    print(
                        f"== note: {shown(script)}: its downloads keep in English: {msgid[:60]!r}"
                    )


def extract_package_messages(outdir: Path = PACKAGE_GETTEXT) -> Path:
    """Extract the messages the package marks for translation into ``agentmsg.pot``."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_file
    from babel.messages.pofile import write_po

    catalog = Catalog(project="agentmsg", fuzzy=False, creation_date=_commit_time())
    for path in sorted((PACKAGE / "cards").glob("*.py")):
        for _line, message, comments, context in extract_from_file(
            "python",
            path,
            keywords=PACKAGE_KEYWORDS,
            comment_tags=("Translators:",),
            strip_comment_tags=True,
        ):
            catalog.add(message, None, [], auto_comments=comments, context=context)
    outdir.mkdir(parents=True, exist_ok=True)
    pot = outdir / "agentmsg.pot"
    with pot.open("wb") as handle:
        write_po(handle, catalog, omit_header=False, no_location=True, sort_output=True)
    return pot


def _commit_time() -> datetime:
    return datetime.fromtimestamp(int(child_env()["SOURCE_DATE_EPOCH"]), UTC)


def sphinx_intl_update(potdir: Path, locale_dir: Path, langs: Sequence[str]) -> None:
    command = [sys.executable, "-m", "sphinx_intl", "update", "-p", str(potdir)]
    command += ["-d", str(locale_dir), *(f"--language={lang}" for lang in langs)]
    if subprocess.run(command, cwd=ROOT, env=child_env(), check=False).returncode:
        msg = f"sphinx-intl update failed for {shown(locale_dir)}"
        raise BuildError(msg)


def compiled_package_catalog(po: Path) -> bytes:
    """The ``.mo`` form of the package catalog *po*: its translated entries only (polib
    leaves out fuzzy and untranslated ones), so the runtime shows their English."""
    import polib

    return bytes(polib.pofile(str(po)).to_binary())


def compile_package_catalogs(langs: Sequence[str] = TRANSLATED_LANGS) -> list[Path]:
    """Write ``agentmsg.mo`` beside each package catalog of *langs* whose compiled form
    changed (the runtime reads those with the standard library); return what was written."""
    written = []
    for lang in langs:
        po = PACKAGE_LOCALE / lang / "LC_MESSAGES" / "agentmsg.po"
        if not po.is_file():
            continue
        mo = po.with_suffix(".mo")
        data = compiled_package_catalog(po)
        if not mo.is_file() or mo.read_bytes() != data:
            mo.write_bytes(data)
            written.append(mo)
            print(f"== catalogs: compiled {shown(mo)}", flush=True)
    return written


def update_po(langs: Sequence[str] = TRANSLATED_LANGS) -> None:
    """Refresh the catalogs with ``sphinx-intl update``: ``locales/<lang>/LC_MESSAGES/``
    from the pages, ``src/agentmsg/cards/locale/<lang>/LC_MESSAGES/agentmsg.po`` from the
    package.

    With ``gettext_location=False`` and the POT-Creation-Date taken from the commit, a
    re-run on unchanged sources leaves every file byte-identical.
    """
    build_gettext()
    sphinx_intl_update(GETTEXT, LOCALES, langs)
    for path in merge_contexts(GETTEXT, LOCALES, langs):  # sphinx-intl compares msgids only
        print(f"Update (contexts): {shown(path)}")
    sphinx_intl_update(extract_package_messages().parent, PACKAGE_LOCALE, langs)
    compile_package_catalogs(langs)
    pages = {
        path.relative_to(GETTEXT).with_suffix("").as_posix() for path in GETTEXT.rglob("*.pot")
    }
    for lang in langs:
        base = LOCALES / lang / "LC_MESSAGES"
        for path in sorted(base.rglob("*.po")):
            if path.relative_to(base).with_suffix("").as_posix() not in pages:
                print(f"== note: {shown(path)} belongs to no page any more")
