"""The translation catalogs (``locales/<lang>/LC_MESSAGES/*.po``) and how builds treat them.

Complete, markup-preserving, lint-clean and current catalogs; and loud failures: a broken
catalog stops the build naming the file and line, a missing translation shows English.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import polib
import pytest
from bs4 import BeautifulSoup

from _checkout import (
    BLANKED_LANGUAGE,
    BLANKED_PAGE,
    ROOT,
    blanked_entry,
    copy_repository,
    docs_command,
    docs_env,
    run_build,
)
from agentmsg_docs.i18n import catalogs as build
from agentmsg_docs.i18n.languages import TRANSLATED, Language

LANGS = list(build.TRANSLATED_LANGS)
COMPLETE = [language for language in TRANSLATED if language.complete]
CATALOGS = [path for lang in LANGS for path in build.catalog_files(lang)]
PACKAGE_CATALOGS = [
    path for lang in LANGS for path in build.catalog_files(lang, build.PACKAGE_LOCALE)
]


def catalog_id(path: Path) -> str:
    """``es/tutorial/tools`` for ``locales/es/LC_MESSAGES/tutorial/tools.po``."""
    relative = path.relative_to(ROOT / "locales")
    return f"{relative.parts[0]}/{Path(*relative.parts[2:]).with_suffix('').as_posix()}"


def page_of(path: Path) -> str:
    """The page (docname) a catalog translates: ``tutorial/tools``."""
    return catalog_id(path).split("/", 1)[1]


def entries(path: Path) -> list[polib.POEntry]:
    """The live (not obsolete) entries of a catalog."""
    return [entry for entry in polib.pofile(str(path)) if not entry.obsolete]


# -- inline markup ------------------------------------------------------------------------

_MARKUP = re.compile(
    r"(?P<role>(?::[\w.+-]+)+:)`(?P<role_body>[^`]+)`"  # :py:class:`text <target>`
    r"|\{(?P<myst>[\w:.+-]+)\}`(?P<myst_body>[^`]+)`"  # {class}`text <target>`
    r"|``(?P<literal>.+?)``(?!`)"  # ``literal``
    r"|`(?P<link_body>[^`]+)`__?"  # `text <target>`_ and `name`_
    r"|`(?P<single>[^`]+)`"  # `default role` (reST) or `code` (MyST)
    r"|\[(?P<md_text>[^\]]*)\]\((?P<md_target>[^)\s]+)\)"  # [text](target)
)
_DISPLAY = re.compile(r"^(?P<text>.*?)\s*<(?P<target>[^<>]+)>$", re.S)


def _target(body: str) -> str:
    """The target of a role or link body: ``text <target>`` gives target, ``~x`` gives x."""
    match = _DISPLAY.match(body.strip())
    target = match.group("target") if match else body
    return " ".join(target.strip().lstrip("~!").split())


def markup(text: str, *, myst: bool = False) -> Counter[tuple[str, str]]:
    """The inline markup of a message, as a multiset of ``(kind, what must stay)``.

    A role counts the same written as reST (``:class:`x```) or MyST (``{class}`x```):
    on a MyST page, Sphinx parses every translation with MyST, autodoc's text included,
    so translators write its reST roles the MyST way. With *myst*, ````x```` and ```x```
    are both inline code.

    Roles and links count by target (their display text may be translated); literals and
    single-backtick spans by their full text. ``:class:`a message <agentmsg.Msg>``` gives
    ``("class", "agentmsg.Msg")``; ```docs <https://d>`_`` gives ``("link", "https://d")``.
    """
    found: Counter[tuple[str, str]] = Counter()
    for match in _MARKUP.finditer(text):
        if match.group("role"):
            found[(match.group("role").strip(":"), _target(match.group("role_body")))] += 1
        elif match.group("myst"):
            found[(match.group("myst"), _target(match.group("myst_body")))] += 1
        elif match.group("literal") is not None:
            found[("code" if myst else "literal", match.group("literal"))] += 1
        elif match.group("link_body"):
            found[("link", _target(match.group("link_body")))] += 1
        elif match.group("single"):
            found[("code" if myst else "interpreted", match.group("single"))] += 1
        else:
            found[("link", match.group("md_target"))] += 1
    return found


class TestMarkupHelper:
    """The markup extraction the catalog checks rely on."""

    def test_display_text_is_ignored_targets_count(self) -> None:
        """A translated display text keeps the markup equal; a changed target does not."""
        english = "See :doc:`the tutorial <tutorial/index>` and {class}`~agentmsg.Msg`."
        assert markup(english) == markup(
            "Vea :doc:`el tutorial <tutorial/index>` y {class}`~agentmsg.Msg`."
        )
        assert markup(english) != markup("Vea :doc:`el tutorial <tutorial/indice>` y {class}`Msg`.")

    def test_role_syntax_and_myst_code(self) -> None:
        """A reST role equals its MyST spelling; on MyST pages both backquote spans are code."""
        assert markup(":class:`~agentmsg.Msg`") == markup("{class}`agentmsg.Msg`")
        assert markup("``x``", myst=True) == markup("`x`", myst=True)
        assert markup("``x``") != markup("`x`")

    def test_literals_and_links(self) -> None:
        """Literals count by text, reST and Markdown links by target, each occurrence once."""
        expected = Counter(
            {
                ("literal", "a"): 2,
                ("link", "https://x"): 1,
                ("link", "index.md"): 1,
                ("interpreted", "b"): 1,
            }
        )
        assert expected == markup("``a`` ``a`` `X <https://x>`_ [home](index.md) `b`")


# -- the catalogs themselves ------------------------------------------------------------


def _literals_ok(entry: polib.POEntry) -> bool:
    return "markup-ok: literals" in (entry.tcomment or "")


def _without_literals(found: Counter[tuple[str, str]]) -> Counter[tuple[str, str]]:
    # MyST's inline code (single backquotes) is reST's literal.
    return Counter(
        {key: count for key, count in found.items() if key[0] not in ("literal", "code")}
    )


class TestCatalogContents:
    """Each catalog is complete and keeps the English markup."""

    @pytest.mark.parametrize("path", CATALOGS, ids=catalog_id)
    def test_header(self, path: Path) -> None:
        """The header names the catalog's language and is not marked fuzzy."""
        catalog = polib.pofile(str(path))
        lang = catalog_id(path).split("/")[0]
        assert (lang, False) == (catalog.metadata.get("Language"), bool(catalog.metadata_is_fuzzy))

    @pytest.mark.parametrize("language", COMPLETE, ids=lambda language: language.code)
    def test_complete_languages_are_complete(self, language: Language) -> None:
        """A language whose status is "complete" has no untranslated or fuzzy entry in
        any catalog (fuzzy entries are shown in English); each is named by file and line."""
        assert [] == build.unfinished_entries([language])

    @pytest.mark.parametrize("path", CATALOGS, ids=catalog_id)
    def test_markup_is_kept(self, path: Path) -> None:
        """Each translation has the same roles (by target), literals and link targets as
        its msgid, as many times each. An entry whose translator comment says
        ``markup-ok: literals`` (an example in the reader's language, such as
        ``set_display_language("es")``) may change its literals, and nothing else."""
        myst = (ROOT / "docs" / f"{page_of(path)}.md").is_file()

        def kept(entry: polib.POEntry) -> Counter[tuple[str, str]]:
            found = markup(entry.msgid, myst=myst)
            return _without_literals(found) if _literals_ok(entry) else found

        def shown(entry: polib.POEntry) -> Counter[tuple[str, str]]:
            found = markup(entry.msgstr, myst=myst)
            return _without_literals(found) if _literals_ok(entry) else found

        changed = {
            entry.msgid[:70]: (dict(kept(entry)), dict(shown(entry)))
            for entry in entries(path)
            if entry.msgstr and kept(entry) != shown(entry)
        }
        assert {} == changed

    def test_only_marked_entries_change_literals(self) -> None:
        """The exception is the translator's comment, not a looser rule."""
        entry = polib.POEntry(msgid='Run ``f("en")``.', msgstr='Ejecuta ``f("es")``.')
        assert markup(entry.msgid) != markup(entry.msgstr)
        assert not _literals_ok(entry)
        entry.tcomment = "markup-ok: literals (the reader's language code)"
        assert _literals_ok(entry)
        assert _without_literals(markup(entry.msgid)) == _without_literals(markup(entry.msgstr))

    @pytest.mark.parametrize("lang", LANGS)
    def test_one_catalog_per_page(self, lang: str) -> None:
        """Each language has the same catalogs (one per page)."""
        assert sorted(page_of(p) for p in build.catalog_files(LANGS[0])) == sorted(
            page_of(p) for p in build.catalog_files(lang)
        )

    def test_validate_catalogs_finds_no_problem(self) -> None:
        """``build.validate_catalogs`` (polib, a line check and ``msgfmt --check``) passes."""
        assert [] == build.validate_catalogs(LANGS)


def package_language(path: Path) -> str:
    return path.relative_to(build.PACKAGE_LOCALE).parts[0]


def forms(entry: polib.POEntry) -> list[str]:
    return list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]


class TestPackageCatalogs:
    """The package's own catalogs (the chat cards' labels) are complete and current."""

    @pytest.mark.parametrize("path", PACKAGE_CATALOGS, ids=package_language)
    def test_header_and_entries(self, path: Path) -> None:
        """The header names the language; in a complete language every entry, plural
        forms included, has a translation and none is fuzzy."""
        catalog = polib.pofile(str(path))
        assert (package_language(path), False) == (
            catalog.metadata.get("Language"),
            bool(catalog.metadata_is_fuzzy),
        )
        if package_language(path) in {language.code for language in COMPLETE}:
            assert [] == [
                e.msgid for e in entries(path) if e.fuzzy or not all(f.strip() for f in forms(e))
            ]

    @pytest.mark.parametrize("path", PACKAGE_CATALOGS, ids=package_language)
    def test_has_every_label_of_the_code(self, path: Path, tmp_path: Path) -> None:
        """The catalog holds exactly the messages extracted from ``src/agentmsg`` now
        (``make update-po`` fixes both directions)."""
        pot = build.extract_package_messages(tmp_path)
        extracted = {(e.msgid, e.msgid_plural) for e in polib.pofile(str(pot)) if e.msgid}
        assert extracted
        assert extracted == {(e.msgid, e.msgid_plural) for e in entries(path)}

    def test_one_per_language(self) -> None:
        """Each translated language has the package's catalog."""
        assert sorted(LANGS) == sorted(package_language(p) for p in PACKAGE_CATALOGS)


class TestSphinxLint:
    """sphinx-lint finds nothing in the catalogs."""

    def lint(self, paths: list[Path], *options: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "sphinxlint", *options, *map(str, paths)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )

    def test_rest_catalogs(self) -> None:
        """Catalogs of reST pages (the tutorials) pass every default check.

        ``sphinx.po`` is left out: it translates the theme's template strings, which are
        plain text and HTML (some end in a space on purpose), not reStructuredText.
        """
        paths = [
            p
            for p in CATALOGS
            if not (ROOT / "docs" / f"{page_of(p)}.md").is_file() and p.name != "sphinx.po"
        ]
        assert paths
        result = self.lint(paths)
        assert 0 == result.returncode, result.stdout + result.stderr

    def test_myst_catalogs(self) -> None:
        """Catalogs of MyST pages pass too, but for the two checks that misread MyST:
        ``{role}`x``` is not a default role, and a code span may hold backquotes."""
        paths = [p for p in CATALOGS if (ROOT / "docs" / f"{page_of(p)}.md").is_file()]
        assert paths
        myst_syntax = "missing-space-before-default-role,unbalanced-inline-literals-delimiters"
        result = self.lint(paths, "--disable", myst_syntax)
        assert 0 == result.returncode, result.stdout + result.stderr


@pytest.fixture(scope="module")
def pots(
    tmp_path_factory: pytest.TempPathFactory, site_checkout: Path
) -> dict[str, set[tuple[str, str]]]:
    """Messages extracted afresh (``python -m agentmsg_docs gettext --outdir``), by page, in
    the checkout of the site build, whose examples are run already."""
    outdir = tmp_path_factory.mktemp("gettext")
    result = subprocess.run(
        docs_command(sys.executable, "gettext", "--outdir", str(outdir)),
        cwd=site_checkout,
        env=docs_env(site_checkout, dict(os.environ)),
        capture_output=True,
        text=True,
        check=False,
    )
    assert 0 == result.returncode, result.stdout[-3000:] + result.stderr[-3000:]
    return {
        path.relative_to(outdir).with_suffix("").as_posix(): {
            (entry.msgctxt or "", entry.msgid) for entry in polib.pofile(str(path))
        }
        for path in outdir.rglob("*.pot")
        if ".doctrees" not in path.parts
    }


class TestCatalogsAreCurrent:
    """The catalogs hold exactly the messages the pages have now."""

    @pytest.mark.parametrize("lang", LANGS)
    def test_every_page_has_a_catalog(
        self, pots: dict[str, set[tuple[str, str]]], lang: str
    ) -> None:
        """There is a catalog for every page, and none for a page that is gone."""
        assert sorted(pots) == sorted(page_of(p) for p in build.catalog_files(lang))

    @pytest.mark.parametrize("lang", LANGS)
    def test_no_missing_or_stale_message(
        self, pots: dict[str, set[tuple[str, str]]], lang: str
    ) -> None:
        """Each catalog has every message of its page (none missing) and no other (none
        stale); ``make update-po`` fixes both."""
        catalogs = {page_of(p): p for p in build.catalog_files(lang)}
        differences = {}
        for page, extracted in sorted(pots.items()):
            if page not in catalogs:
                continue
            have = {(e.msgctxt or "", e.msgid) for e in entries(catalogs[page])}
            missing = sorted(m[1][:60] for m in extracted - have)
            stale = sorted(m[1][:60] for m in have - extracted)
            if missing or stale:
                differences[page] = {"missing": missing, "stale": stale}
        assert {} == differences


class TestStats:
    """``make stats`` (``python -m agentmsg_docs stats``: sphinx-intl's counts) reports the
    progress."""

    def test_catalog_stats_complete(self) -> None:
        """``build.catalog_stats`` counts no untranslated or fuzzy entry on any page of a
        complete language."""
        rows = build.catalog_stats([language.code for language in COMPLETE])
        assert rows
        assert [] == [
            f"{row.lang}/{row.page}: {row.untranslated} untranslated, {row.fuzzy} fuzzy"
            for row in rows
            if row.untranslated or row.fuzzy
        ]

    def test_command_reports_100_percent(self) -> None:
        """The command prints sphinx-intl's line per catalog, then one total per language,
        each 100% translated."""
        result = subprocess.run(
            docs_command(sys.executable, "stats"),
            cwd=ROOT,
            env=docs_env(ROOT, dict(os.environ)),
            capture_output=True,
            text=True,
            check=True,
        )
        shares = re.findall(r"^(\S+): .* \((\d+)% translated\)$", result.stdout, re.M)
        expected = [(lang.code, "100") for lang in COMPLETE]
        assert expected == [share for share in shares if share[0] in {c for c, _ in expected}]
        lines = re.findall(
            r"^locales/(\S+)/LC_MESSAGES/\S+\.po: \d+ translated", result.stdout, re.M
        )
        assert len(CATALOGS) == len(lines), result.stdout


# -- loud failures, on private copies ---------------------------------------------------


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, int]:
    """A copy of the repository whose es installation catalog has an unterminated
    string; returns the copy, the catalog's relative path and the broken line."""
    repo = copy_repository(tmp_path_factory.mktemp("broken") / "repo")
    relative = "locales/es/LC_MESSAGES/installation.po"
    path = repo / relative
    lines = path.read_text(encoding="utf-8").split("\n")
    number = next(
        index + 1
        for index, line in enumerate(lines)
        if index > 0
        and line.startswith("msgstr ")
        and lines[index - 1].startswith("msgid")
        and lines[index - 1] != 'msgid ""'
    )
    lines[number - 1] = 'msgstr "no closing quote'
    path.write_text("\n".join(lines), encoding="utf-8")
    return repo, relative, number


class TestBrokenCatalog:
    """A malformed catalog stops everything and says where it is broken."""

    def test_validate_catalogs_names_file_and_line(self, broken: tuple[Path, str, int]) -> None:
        """``build.validate_catalogs`` reports the file and the line of the broken string,
        and nothing else."""
        repo, relative, number = broken
        problems = build.validate_catalogs(["es"], repo / "locales")
        assert [f"{repo / relative}:{number}:"] == [
            p[: len(f"{repo / relative}:{number}:")] for p in problems
        ]

    @pytest.mark.slow
    def test_build_fails_naming_file_and_line(self, broken: tuple[Path, str, int]) -> None:
        """``python -m agentmsg_docs html --langs es`` exits non-zero and names ``file:line``."""
        repo, relative, number = broken
        result = run_build(repo, "html", "--langs", "es")
        assert 0 != result.returncode
        assert f"{relative}:{number}:" in result.stderr
        assert not (repo / "_build" / "html" / "es" / "index.html").exists()


@pytest.mark.slow
class TestMissingTranslation:
    """An entry without translation is shown in English, never as an empty paragraph."""

    def test_english_shown_and_counted(self, fourth_language_checkout: Path) -> None:
        """Blanking one translated paragraph of the es create_message catalog (in the
        copy of ``tests/conftest.py``): the es page shows the English paragraph and
        ``stats`` counts one more untranslated entry."""
        repo = fourth_language_checkout
        entry = blanked_entry(ROOT / "locales")

        def stats(locales: Path) -> build.CatalogStats:
            rows = build.catalog_stats([BLANKED_LANGUAGE], locales)
            return next(r for r in rows if r.page == BLANKED_PAGE)

        before = stats(ROOT / "locales")
        page = repo / "_build/html" / BLANKED_LANGUAGE / f"{BLANKED_PAGE}.html"
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        paragraphs = [" ".join(p.get_text().split()) for p in soup.select("article p")]
        assert entry.msgid in paragraphs
        assert [] == [p for p in soup.select("article p") if not p.get_text().strip()]

        after = stats(repo / "locales")
        assert (before.untranslated + 1, before.translated - 1) == (
            after.untranslated,
            after.translated,
        )
        stats = run_build(repo, "stats")
        row = re.search(
            rf"^locales/{BLANKED_LANGUAGE}/LC_MESSAGES/{BLANKED_PAGE}\.po: (\d+) translated, "
            r"(\d+) fuzzy, (\d+) untranslated\.$",
            stats.stdout,
            re.M,
        )
        assert row is not None, stats.stdout
        assert (after.translated, after.fuzzy, after.untranslated) == tuple(map(int, row.groups()))


class TestStatus:
    """Only a language whose status is "complete" must be complete."""

    def test_complete_or_in_progress(self, tmp_path: Path) -> None:
        """An untranslated and a fuzzy entry are named with their file and line for a
        complete language; the same catalog of a language in progress passes."""
        catalog = tmp_path / "xx" / "LC_MESSAGES" / "page.po"
        catalog.parent.mkdir(parents=True)
        catalog.write_text(
            'msgid ""\nmsgstr ""\n"Language: xx\\n"\n\n'
            'msgid "Done."\nmsgstr "Fait."\n\n'
            'msgid "Open."\nmsgstr ""\n\n'
            '#, fuzzy\nmsgid "Old."\nmsgstr "Vieux."\n',
            encoding="utf-8",
        )
        complete = Language("xx", "xx", "X", "en", "complete")
        in_progress = Language("xx", "xx", "X", "en", "in progress")
        found = build.unfinished_entries([complete], tmp_path)
        assert [":8: untranslated 'Open.'", ":11: fuzzy 'Old.'"] == [
            problem.removeprefix(str(catalog)) for problem in found
        ]
        assert [] == build.unfinished_entries([in_progress], tmp_path)
