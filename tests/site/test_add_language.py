"""``make add-language LANG=xx``: a fourth language, in progress, with no code change.

In one copy of the repository (``fourth_language_checkout``, ``tests/conftest.py``),
``python -m agentmsg_docs add-language`` adds Japanese and French and ``html`` builds all
five languages. Then the site tests parametrized over the languages run again, in that
copy, for the two new ones (``pytest --languages ja,fr``: the copy's table lists them).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import polib
import pytest

from _checkout import FIRST_TRANSLATIONS, ROOT, run_build
from agentmsg_docs.i18n.catalogs import PACKAGE_LOCALE

pytestmark = [pytest.mark.docs, pytest.mark.slow]

NEW = ("ja", "fr")
#: The site tests that run again for the new languages, in the copy: its pages, links,
#: sitemap, 404 pages, downloads and notebooks, JupyterLite, the runner's settings, the
#: field lists' dashes, and in Chromium the root page, the 404 page, search and the
#: runner's buttons. One notebook per language runs in a kernel (all of them do for the
#: three languages).
AGAIN = (
    "tests/site/test_site.py",
    "tests/site/test_links.py",
    "tests/site/test_lite_files.py",
    "tests/site/test_notebooks.py",
    "tests/site/test_page_text.py::TestFieldListsAndTypes",
    "tests/browser/test_browser.py::TestRootPage",
    "tests/browser/test_browser.py::TestNotFound",
    "tests/browser/test_browser.py::TestSearch",
    "tests/browser/test_browser.py::TestRunnerControls",
)
ONE_NOTEBOOK = "not test_runs_top_to_bottom or create_message"


def _rows(repo: Path) -> dict[str, dict[str, str]]:
    rows = tomllib.loads((repo / "locales" / "languages.toml").read_text("utf-8"))["language"]
    return {row["code"]: row for row in rows}


def test_rows(fourth_language_checkout: Path) -> None:
    """The table gains both languages "in progress", last: French with its name from
    Babel, Japanese with the name and tag given; each with Sphinx's search language."""
    rows = _rows(fourth_language_checkout)
    assert [*NEW] == list(rows)[-2:]
    assert {
        "ja": {"code": "ja", "tag": "ja", "name": "日本語", "search": "ja"},
        "fr": {"code": "fr", "tag": "fr", "name": "Français", "search": "fr"},
    } == {code: {k: v for k, v in rows[code].items() if k != "status"} for code in NEW}
    assert {"in progress"} == {rows[code]["status"] for code in NEW}


@pytest.mark.parametrize("lang", NEW)
def test_catalogs_and_glossary(fourth_language_checkout: Path, lang: str) -> None:
    """Every page, the theme and the cards have a catalog in the language, untranslated
    (headers not fuzzy; the copy then translated a few Japanese theme strings); a glossary
    stub lists the English terms."""
    repo = fourth_language_checkout
    english = sorted(
        p.relative_to(repo / "_build" / "gettext").with_suffix(".po")
        for p in (repo / "_build" / "gettext").rglob("*.pot")
    )
    folder = repo / "locales" / lang / "LC_MESSAGES"
    assert english == sorted(p.relative_to(folder) for p in folder.rglob("*.po"))
    catalogs = {
        p.relative_to(folder).as_posix(): polib.pofile(str(p)) for p in folder.rglob("*.po")
    }
    translated = {name: {e.msgid for e in c.translated_entries()} for name, c in catalogs.items()}
    # Nothing is translated but what the copy translated after adding the language.
    assert {"sphinx.po": set(FIRST_TRANSLATIONS.get(lang, {}))} | {
        name: set() for name in catalogs if name != "sphinx.po"
    } == translated
    assert [] == [name for name, c in catalogs.items() if c.metadata_is_fuzzy]
    theme = polib.pofile(str(folder / "sphinx.po"))
    assert "Languages" in {entry.msgid for entry in theme}
    cards = repo / PACKAGE_LOCALE.relative_to(ROOT) / lang / "LC_MESSAGES"
    assert (cards / "agentmsg.po").is_file() and (cards / "agentmsg.mo").is_file()
    glossary = (repo / "locales" / lang / "GLOSSARY.md").read_text("utf-8")
    assert "| message | | |" in glossary


def test_a_second_time_is_refused(fourth_language_checkout: Path) -> None:
    """Adding a language the table has already stops, naming the table, and changes
    nothing."""
    table = fourth_language_checkout / "locales" / "languages.toml"
    before = table.read_bytes()
    result = run_build(fourth_language_checkout, "add-language", "--lang", "fr")
    assert (1, before) == (result.returncode, table.read_bytes())
    assert "fr is in locales/languages.toml already" in result.stderr


def test_every_language_is_built(fourth_language_checkout: Path) -> None:
    """The next build built the five languages with no code change: the root sitemap
    lists them all."""
    html = fourth_language_checkout / "_build" / "html"
    namespace = {"sm": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    locs = [
        element.findtext("sm:loc", namespaces=namespace) or ""
        for element in ET.parse(html / "sitemap.xml").getroot().findall("sm:sitemap", namespace)
    ]
    assert ["en", "zh_CN", "es", *NEW] == [loc.split("/")[-2] for loc in locs]


def test_site_tests_pass_for_them(
    fourth_language_checkout: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The site tests parametrized over the languages (and those marked
    ``every_language``) pass for Japanese and French, run by pytest in the copy on its
    own build; each language ran tests of every file."""
    repo = fourth_language_checkout
    modules = ROOT / "tests" / "browser" / "node_modules"
    if modules.is_dir() and not (repo / "tests" / "browser" / "node_modules").exists():
        (repo / "tests" / "browser" / "node_modules").symlink_to(modules)
    report = tmp_path / "report.xml"
    command = [
        sys.executable,
        "-m",
        "pytest",
        f"--languages={','.join(NEW)}",
        "-p",
        "no:cacheprovider",
        "-q",
        "--durations=5",
        f"--junitxml={report}",
        f"--basetemp={tmp_path / 'run'}",  # not pytest's shared folder, which it prunes
        "-k",
        ONE_NOTEBOOK,
        *AGAIN,
    ]
    # A plain pytest session, even when this test runs in a pytest-xdist worker.
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_XDIST")}
    env["AGENTMSG_REUSE_SITE"] = "1"
    paths = [str(repo / "src"), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(path for path in paths if path)
    result = subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, check=False)
    with capsys.disabled():
        print(f"\n{result.stdout[-1500:]}")
    assert 0 == result.returncode, result.stdout[-8000:] + result.stderr[-3000:]
    passed = [
        case
        for case in ET.parse(report).getroot().iter("testcase")
        if not any(child.tag in {"failure", "error", "skipped"} for child in case)
    ]
    ran = {(_module(case.get("classname", "")), lang) for case in passed for lang in _langs(case)}
    files = {name.split("::")[0].rsplit("/", 1)[-1].removesuffix(".py") for name in AGAIN}
    assert set() == {(file, lang) for file in files for lang in NEW} - ran


def _module(classname: str) -> str:
    """The test module of a JUnit ``classname`` (``tests.site.test_site.TestX``)."""
    return next((part for part in classname.split(".") if part.startswith("test_")), "")


def _langs(case: ET.Element) -> set[str]:
    """The new languages among the parameters of a JUnit test case's name."""
    name = case.get("name", "")
    params = name[name.index("[") + 1 : -1] if "[" in name else ""
    return set(NEW) & set(params.split("-"))
