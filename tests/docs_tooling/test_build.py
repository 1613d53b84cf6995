"""``python -m agentmsg_docs html``: reproducible output, and loud failures that say where.

Each test works on private copies of the repository (``copy_repository``: no ``.git``,
``.venv``, ``_build`` or generated ``docs/tutorial``), so it builds from scratch, the
way CI does, and never touches the working tree.
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from _checkout import copy_repository, run_build, warm_copy
from agentmsg_docs.i18n.languages import LANGUAGES
from agentmsg_docs.patches import UNPATCHED

pytestmark = pytest.mark.slow

LANGS = tuple(language.code for language in LANGUAGES)


def tree(root: Path) -> dict[str, bytes]:
    """Every file under *root*, by relative path, with its bytes."""
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def differences(first: dict[str, bytes], second: dict[str, bytes], shown: int = 5) -> list[str]:
    """What differs between two trees: missing files, then the first *shown* differing
    files with a short diff of each."""
    report = [f"only in the first build: {name}" for name in sorted(first.keys() - second.keys())]
    report += [f"only in the second build: {name}" for name in sorted(second.keys() - first.keys())]
    changed = sorted(name for name in first.keys() & second.keys() if first[name] != second[name])
    for name in changed[:shown]:
        try:
            old = first[name].decode("utf-8").splitlines()
            new = second[name].decode("utf-8").splitlines()
        except UnicodeDecodeError:
            report.append(f"{name}: binary, {len(first[name])} vs {len(second[name])} bytes")
            continue
        if len(old) < 5 and len(old + new) > 0:  # minified: compare in short pieces
            old = re.findall(r".{1,100}", "\n".join(old), re.S)
            new = re.findall(r".{1,100}", "\n".join(new), re.S)
        diff = list(difflib.unified_diff(old, new, "first", "second", n=1, lineterm=""))
        report.append(f"{name}:\n" + "\n".join(line[:200] for line in diff[:20]))
    if len(changed) > shown:
        report.append(f"... and {len(changed) - shown} more differing files")
    return report


class TestReproducible:
    """Two clean builds of the same sources give the same site, byte for byte."""

    def test_two_builds_are_identical(self, tmp_path: Path) -> None:
        """Built in different folders, with the environment at different paths, at
        different times, every file of ``_build/html`` is identical, ``.buildinfo``
        included (no paths, dates, run times or random ids in the output). The second
        build runs without the build's patches to Sphinx, docutils and myst-parser
        (``AGENTMSG_DOCS_UNPATCHED=1``): they are for speed only and change no byte."""
        first = copy_repository(tmp_path / "one" / "agentmsg")
        second = tmp_path / "two" / "elsewhere" / "checkout"
        shutil.copytree(first, second)  # the same sources, even if the working tree changes
        # The same environment seen at another path, as a checkout's own .venv would be:
        # its site-packages, where extensions' templates and static files live, moves.
        (tmp_path / "two" / "venv").symlink_to(sys.prefix, target_is_directory=True)
        elsewhere = str(tmp_path / "two" / "venv" / "bin" / Path(sys.executable).name)
        built = []
        for repo, python, env in (
            (first, sys.executable, {}),
            (second, elsewhere, {UNPATCHED: "1"}),
        ):
            started = time.time()
            result = run_build(repo, "html", python=python, env=env)
            assert 0 == result.returncode, result.stdout[-3000:] + result.stderr[-3000:]
            built.append(tree(repo / "_build" / "html"))
            while time.time() < started + 1.1:  # the second build starts in another second
                time.sleep(0.1)
        assert {f"{lang}/.buildinfo" for lang in LANGS} <= built[0].keys()
        assert {"zh_CN/search.html", "es/searchindex.js"} <= built[0].keys()
        assert len(built[0]) > 100
        assert [] == differences(*built)


class TestPlainSphinx:
    """The site's pages are Sphinx's own: after the examples pass, the usual command gives
    the same files as ``make html``."""

    def test_same_pages_as_make_html(self, tmp_path: Path) -> None:
        """``python -m sphinx -b html docs OUT -D language=es`` (no option of the
        orchestrator's, a random hash seed) writes every file ``python -m agentmsg_docs html``
        writes for es, byte for byte; its doctrees (``OUT/.doctrees``) are all it adds."""
        repo = warm_copy(tmp_path / "repo")
        result = run_build(repo, "html", "--langs", "es")
        assert 0 == result.returncode, result.stdout[-3000:] + result.stderr[-3000:]
        out = tmp_path / "plain"
        env = {key: value for key, value in os.environ.items() if key != "PYTHONHASHSEED"}
        plain = subprocess.run(
            [sys.executable, "-m", "sphinx", "-b", "html", "docs", str(out), "-D", "language=es"],
            cwd=repo,
            env={**env, "PYTHONHASHSEED": "random"},
            capture_output=True,
            text=True,
            check=False,
        )
        assert 0 == plain.returncode, plain.stdout[-3000:] + plain.stderr[-3000:]
        pages = {
            name: data for name, data in tree(out).items() if not name.startswith(".doctrees/")
        }
        made = tree(repo / "_build" / "html" / "es")
        assert len(made) > 50
        assert [] == differences(made, pages)


class TestFailingTutorial:
    """A tutorial that raises stops the build and says which script and line."""

    def test_build_fails_naming_script_and_line(self, tmp_path: Path) -> None:
        """An example whose code raises makes ``html --langs en`` exit non-zero, and the
        output names the script and the line that raised."""
        repo = warm_copy(tmp_path / "repo")
        script = repo / "docs" / "examples" / "zz_broken.py"
        lines = [
            '"""',
            "A broken tutorial",
            "=================",
            "",
            "It raises.",
            '"""',
            "",
            "# %%",
            "# First a cell that works.",
            "",
            "total = 1 + 1",
            "",
            "# %%",
            "# Then one that raises.",
            "",
            'raise RuntimeError("this tutorial is broken on purpose")',
            "",
        ]
        script.write_text("\n".join(lines), encoding="utf-8")
        line = lines.index('raise RuntimeError("this tutorial is broken on purpose")') + 1

        result = run_build(repo, "html", "--langs", "en")
        output = result.stdout + result.stderr
        assert 0 != result.returncode
        assert "zz_broken.py" in output
        assert re.search(rf'zz_broken\.py", line {line}\b', output), output[-3000:]
        assert "this tutorial is broken on purpose" in output
        assert not (repo / "_build" / "html" / "en" / "index.html").exists()


class TestBrokenReference:
    """``-n -W`` holds in every language: a reference to nothing fails the build."""

    @pytest.mark.parametrize("where", ["page", "translation"])
    def test_es_build_fails_naming_the_file(self, tmp_path: Path, where: str) -> None:
        """A ``{class}`agentmsg.Nope``` reference, added to the English page or only to its
        es translation, makes ``html --langs es`` exit non-zero naming the page's file."""
        repo = warm_copy(tmp_path / "repo")
        if where == "page":
            page = repo / "docs" / "installation.md"
            page.write_text(
                page.read_text(encoding="utf-8") + "\nSee {class}`agentmsg.Nope`.\n",
                encoding="utf-8",
            )
        else:
            import polib

            catalog_path = repo / "locales" / "es" / "LC_MESSAGES" / "installation.po"
            catalog = polib.pofile(str(catalog_path))
            # A sentence of prose (code comments are catalog entries too, and hold no markup).
            entry = next(
                e
                for e in catalog
                if e.msgstr and not e.obsolete and " " in e.msgid and e.msgid.endswith(".")
            )
            entry.msgstr += " Vea {class}`agentmsg.Nope`."
            catalog.save(str(catalog_path))

        result = run_build(repo, "html", "--langs", "es")
        output = result.stdout + result.stderr
        assert 0 != result.returncode
        assert re.search(r"installation\.md:\d+: WARNING: .*agentmsg\.Nope", output), output[-3000:]


def rebuilt(result: subprocess.CompletedProcess[str]) -> list[str]:
    """The languages a ``python -m agentmsg_docs html`` run rebuilt, from its log lines."""
    return sorted(re.findall(r"^== (\S+): rebuilding from scratch", result.stdout, re.M))


@dataclass
class Incremental:
    """The copy the incremental tests share, and what its first two builds did."""

    repo: Path
    english_only: subprocess.CompletedProcess[str]
    clean_english: dict[str, bytes]
    then_all: subprocess.CompletedProcess[str]


@pytest.fixture(scope="module")
def shared_repo(tmp_path_factory: pytest.TempPathFactory) -> Incremental:
    """A private copy shared by the incremental tests, built from nothing twice: English
    alone, then every language. Each test then starts from that full build."""
    repo = copy_repository(tmp_path_factory.mktemp("incremental") / "repo")
    english_only = run_build(repo, "html", "--langs", "en")
    assert 0 == english_only.returncode, english_only.stdout[-3000:] + english_only.stderr[-3000:]
    clean_english = tree(repo / "_build" / "html" / "en")
    then_all = run_build(repo, "html")
    assert 0 == then_all.returncode, then_all.stdout[-3000:] + then_all.stderr[-3000:]
    return Incremental(repo, english_only, clean_english, then_all)


class TestIncrementalBuild:
    """``python -m agentmsg_docs html`` rebuilds exactly the languages whose inputs changed, each
    from scratch, and skips the examples pass when nothing it reads changed. The tests
    share one copy and run in this order; each leaves English as a clean build makes it
    but the last, which changes a tutorial."""

    def test_missing_languages_only(self, shared_repo: Incremental) -> None:
        """After ``html --langs en``, a build of every language builds zh_CN and es and
        leaves en (and the examples) alone."""
        assert ["en"] == rebuilt(shared_repo.english_only)
        assert ["es", "zh_CN"] == rebuilt(shared_repo.then_all)
        assert "== examples: up to date" in shared_repo.then_all.stdout
        english = tree(shared_repo.repo / "_build" / "html" / "en")
        assert [] == differences(shared_repo.clean_english, english)

    def test_nothing_changed_rebuilds_nothing(self, shared_repo: Incremental) -> None:
        """A build with nothing changed rebuilds no language and changes no file."""
        repo = shared_repo.repo
        before = tree(repo / "_build" / "html")
        result = run_build(repo, "html")
        assert 0 == result.returncode, result.stdout[-3000:] + result.stderr[-3000:]
        assert [] == rebuilt(result)
        assert 3 == result.stdout.count("up to date (nothing it reads changed)")
        assert [] == differences(before, tree(repo / "_build" / "html"))

    def test_rebuild_equals_clean_build(self, shared_repo: Incremental) -> None:
        """Building again over an existing ``_build`` (after a page changed, and changed
        back) gives what a clean build gives: every page in the sitemap and search
        index, no stale words."""
        repo = shared_repo.repo
        page = repo / "docs" / "changelog.md"
        original = page.read_text(encoding="utf-8")
        page.write_text(original + "\nA sentence with the word zyzzyva.\n", encoding="utf-8")
        changed = run_build(repo, "html", "--langs", "en")
        assert 0 == changed.returncode, changed.stdout[-3000:] + changed.stderr[-3000:]
        assert b"zyzzyva" in (repo / "_build" / "html" / "en" / "searchindex.js").read_bytes()
        page.write_text(original, encoding="utf-8")
        result = run_build(repo, "html", "--langs", "en")
        assert 0 == result.returncode, result.stdout[-3000:] + result.stderr[-3000:]
        rebuilt_english = tree(repo / "_build" / "html" / "en")
        assert [] == differences(shared_repo.clean_english, rebuilt_english)

    def test_changed_catalog_rebuilds_its_language(self, shared_repo: Path) -> None:
        """Changing one es catalog rebuilds es alone; the other languages' files stay
        identical and the es page shows the new translation."""
        import polib

        repo = shared_repo.repo
        assert 0 == run_build(repo, "html").returncode
        before = tree(repo / "_build" / "html")
        path = repo / "locales" / "es" / "LC_MESSAGES" / "installation.po"
        catalog = polib.pofile(str(path))
        entry = next(e for e in catalog if e.msgstr and not e.obsolete and "`" not in e.msgstr)
        entry.msgstr += " Zyzzyva."
        catalog.save(str(path))

        result = run_build(repo, "html")
        assert 0 == result.returncode, result.stdout[-3000:] + result.stderr[-3000:]
        assert ["es"] == rebuilt(result)
        after = tree(repo / "_build" / "html")
        changed = sorted(name for name in before if before[name] != after.get(name))
        assert [] == [name for name in changed if not name.startswith("es/")]
        assert b"Zyzzyva." in after["es/installation.html"]

    def test_changed_tutorial_runs_only_that_example(self, shared_repo: Path) -> None:
        """Changing one tutorial script re-executes that script alone and rebuilds every
        language, which then show the change."""
        repo = shared_repo.repo
        assert 0 == run_build(repo, "html").returncode
        script = repo / "docs" / "examples" / "tools.py"
        script.write_text(
            script.read_text(encoding="utf-8") + '\nprint("zyzzyva from the test")\n',
            encoding="utf-8",
        )
        pages = sorted((repo / "docs" / "tutorial").glob("*.rst"))
        mtimes = {page.name: page.stat().st_mtime_ns for page in pages}

        result = run_build(repo, "html")
        assert 0 == result.returncode, result.stdout[-3000:] + result.stderr[-3000:]
        assert re.search(r"^== examples: executing 1 of \d+: tools\.py$", result.stdout, re.M)
        rewritten = sorted(
            page.name for page in pages if page.stat().st_mtime_ns != mtimes[page.name]
        )
        assert ["tools.rst"] == rewritten
        assert sorted(LANGS) == rebuilt(result)
        for lang in LANGS:
            page = repo / "_build" / "html" / lang / "tutorial" / "tools.html"
            assert "zyzzyva from the test" in page.read_text(encoding="utf-8")
