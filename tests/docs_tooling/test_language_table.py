"""The one table of languages, ``locales/languages.toml``: read everywhere, written once.

Every place that needs the list of the site's languages reads the table; these tests
check the table itself and that no code spells a language code of its own.
"""

from __future__ import annotations

import ast
import io
import re
import subprocess
import tokenize
from pathlib import Path

import pytest

from agentmsg_docs.i18n.languages import (
    LANGUAGES,
    SOURCE,
    TABLE,
    TRANSLATED,
    LanguageTableError,
    read_languages,
)

ROOT = Path(__file__).resolve().parents[2]

#: Where code lives: the package, the docs tooling and configuration, the templates and
#: scripts of the site, the benchmarks and the build's configuration files. Not in scope:
#: the table, the catalogs (``locales/``), the pages and tutorials (text for readers), and
#: the tests, whose data and expectations name languages on purpose.
CODE = (
    "src/agentmsg",
    "docs/agentmsg_docs",
    "docs/conf.py",
    "docs/_templates",
    "docs/_static",
    "bench",
    "Makefile",
    "pyproject.toml",
)
SUFFIXES = {".py", ".html", ".xml", ".js", ".css", ".toml", ""}


def _code_pattern() -> re.Pattern[str]:
    """Any code or tag of a translated language, as a word (``zh_CN``, ``zh-CN``, ``es``)."""
    words = {spelling for lang in TRANSLATED for spelling in (lang.code, lang.tag)}
    alternatives = "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])")


def _docstring_lines(source: str) -> set[int]:
    """The lines of *source*'s docstrings (of modules, classes, functions, and the bare
    strings after an assignment): documentation, which may show a code."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for index, statement in enumerate(body):
            documents = index == 0 or isinstance(body[index - 1], ast.Assign | ast.AnnAssign)
            if (
                documents
                and isinstance(statement, ast.Expr)
                and isinstance(statement.value, ast.Constant)
                and isinstance(statement.value.value, str)
            ):
                end = statement.end_lineno or statement.lineno
                lines.update(range(statement.lineno, end + 1))
    return lines


def _python_code(path: Path) -> list[tuple[int, str]]:
    """``(line, text)`` of every token of *path* but comments and docstrings."""
    source = path.read_text(encoding="utf-8")
    skipped = _docstring_lines(source)
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT or token.start[0] in skipped:
            continue
        found.append((token.start[0], token.string))
    return found


def _other_code(path: Path) -> list[tuple[int, str]]:
    """``(line, text)`` of *path* without its comments (``#`` lines, Jinja's ``{# #}``,
    CSS and JavaScript ``/* */`` and ``//``)."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"\{#.*?#\}", lambda m: "\n" * m.group().count("\n"), text, flags=re.S)
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group().count("\n"), text, flags=re.S)
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if path.suffix in {".js"}:
            line = line.split("//")[0]
        if path.suffix in {"", ".toml"} and line.lstrip().startswith("#"):
            continue
        found.append((number, line))
    return found


def _code_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return [
        ROOT / name
        for name in listed
        if any(name == place or name.startswith(place + "/") for place in CODE)
        and Path(name).suffix in SUFFIXES
        and (ROOT / name).is_file()
        and not name.endswith("package-lock.json")
    ]


class TestOneTable:
    """No code outside the table names a translated language."""

    def test_no_code_spells_a_language(self) -> None:
        """The grep for the translated languages' codes and tags in code finds nothing
        (comments and docstrings, which document, are not code)."""
        pattern = _code_pattern()
        found = []
        for path in _code_files():
            reader = _python_code if path.suffix == ".py" else _other_code
            for number, text in reader(path):
                if pattern.search(text):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {text.strip()[:80]}")
        assert [] == found

    def test_the_grep_finds_a_planted_code(self, tmp_path: Path) -> None:
        """The check is able to fail: a code in a string literal or a template is found,
        one in a comment or docstring is not."""
        pattern = _code_pattern()
        code = TRANSLATED[0].code
        module = tmp_path / "planted.py"
        module.write_text(f'"""Docs: {code}."""\n# {code}\nLANGS = ["{code}"]\n', "utf-8")
        template = tmp_path / "planted.html"
        template.write_text(f'{{# {code} #}}\n<a hreflang="{TRANSLATED[0].tag}">\n', "utf-8")
        assert [3] == [n for n, text in _python_code(module) if pattern.search(text)]
        assert [2] == [n for n, text in _other_code(template) if pattern.search(text)]


class TestTable:
    """The table's rows, and what reads them."""

    def test_rows(self) -> None:
        """The first row is the source language; every other one has its catalogs."""
        assert SOURCE is LANGUAGES[0]
        assert len({lang.code for lang in LANGUAGES}) == len(LANGUAGES)
        for lang in TRANSLATED:
            assert (ROOT / "locales" / lang.code / "LC_MESSAGES").is_dir(), lang.code
            assert lang.status in {"complete", "in progress"}

    @pytest.mark.parametrize(
        ("text", "error"),
        [
            ('[[language]]\ncode = "xx"\n', "fields missing"),
            (
                '[[language]]\ncode = "xx"\ntag = "xx"\nname = "X"\nsearch = "en"\n'
                'status = "done"\n',
                "`status` must be one of",
            ),
            ("", "no [[language]] row"),
        ],
    )
    def test_malformed_table(self, tmp_path: Path, text: str, error: str) -> None:
        """A malformed table stops everything that reads it, naming the row and field."""
        path = tmp_path / "languages.toml"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(LanguageTableError, match=re.escape(error)):
            read_languages(path)

    def test_makefile_default_is_the_table(self) -> None:
        """``make html`` builds every language of the table, in its order."""
        shown = subprocess.run(
            ["make", "-s", "-C", str(ROOT), "--eval=print-langs: ; @echo $(LANGS)", "print-langs"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        assert [lang.code for lang in LANGUAGES] == shown

    def test_table_is_the_one_read(self) -> None:
        """The extension reads ``locales/languages.toml``."""
        assert ROOT / "locales" / "languages.toml" == TABLE
