"""The glossary check of ``make lint`` (docs/agentmsg_docs/i18n/glossary.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

from agentmsg_docs.i18n import glossary  # noqa: E402

GLOSSARY = """# Glossary

| English | Español |
|---|---|
| carry | transmitir |

```toml
[[rule]]
id = "carry"
english = '\\bcarr(y|ies)\\b'
required = ['transmit', 'conserv']
forbidden = ['\\bllev\\w*']
note = "no «llevar»"

[[rule]]
id = "ernie"
english = 'ERNIE Bot(?! Agent)'
required = ['文心一言（ERNIE Bot）']
first = true

[[rule]]
id = "code-example"
english = 'set_display_language'
required = ['set_display_language\\("es"\\)']
code = true
files = ["api.po"]
```
"""

CATALOG = """msgid ""
msgstr ""
"Language: es\\n"
"Content-Type: text/plain; charset=utf-8\\n"

msgid "What the format cannot carry."
msgstr "Lo que el formato no puede llevar."

msgid "What each format carries."
msgstr "Lo que transmite cada formato."

msgid "Use ``carry=True`` here."
msgstr "Usa ``carry=True`` aquí."

# glossary-ok: carry
msgid "A message carries a call."
msgstr "Un mensaje lleva una llamada."

msgid "ERNIE Bot counts tokens."
msgstr "ERNIE Bot cuenta los tokens."

msgid "ERNIE Bot again."
msgstr "ERNIE Bot otra vez."

msgid "Run ``set_display_language(\\"zh_CN\\")``."
msgstr "Ejecuta ``set_display_language(\\"zh_CN\\")``."
"""


@pytest.fixture
def rules(tmp_path: Path) -> list[glossary.Rule]:
    path = tmp_path / "GLOSSARY.md"
    path.write_text(GLOSSARY, encoding="utf-8")
    return glossary.read_rules(path)


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    path = tmp_path / "api.po"
    path.write_text(CATALOG, encoding="utf-8")
    return path


def _line_of(path: Path, text: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)


class TestReadRules:
    def test_reads_the_toml_block(self, rules):
        """The rules of the fenced ``toml`` block come back, with their fields."""
        assert ["carry", "ernie", "code-example"] == [rule.id for rule in rules]
        assert ("transmit", "conserv") == rules[0].required
        assert rules[1].first
        assert ("api.po",) == rules[2].files

    def test_a_rule_that_checks_nothing_is_refused(self, tmp_path):
        """A rule with neither `forbidden` nor `english` + `required` is an error."""
        path = tmp_path / "GLOSSARY.md"
        path.write_text('```toml\n[[rule]]\nid = "x"\nenglish = "a"\n```\n', encoding="utf-8")
        with pytest.raises(ValueError, match="'x' checks nothing"):
            glossary.read_rules(path)

    def test_an_unknown_key_is_refused(self, tmp_path):
        path = tmp_path / "GLOSSARY.md"
        path.write_text(
            '```toml\n[[rule]]\nid = "x"\nforbidden = ["a"]\nforbiden = ["b"]\n```\n',
            encoding="utf-8",
        )
        with pytest.raises(ValueError, match="forbiden"):
            glossary.read_rules(path)


class TestCheckCatalog:
    def test_reports_file_line_and_rule(self, rules, catalog):
        """A forbidden rendering is reported with the file, the entry's line and the rule,
        and so is a missing required one."""
        problems = glossary.check_catalog(catalog, rules, "api.po", "locales/es/api.po")
        line = _line_of(catalog, 'msgid "What the format cannot carry."')
        carry = [str(p) for p in problems if p.line == line]
        assert [
            f"locales/es/api.po:{line}: [carry] «llevar»: no «llevar»",
            f"locales/es/api.po:{line}: [carry] «transmit» or «conserv» missing: no «llevar»",
        ] == carry

    def test_code_and_marked_exceptions_are_left_alone(self, rules, catalog):
        """``carry=True`` in code does not count, and `# glossary-ok: carry` excuses an entry."""
        problems = glossary.check_catalog(catalog, rules, "api.po", "api.po")
        excused = _line_of(catalog, 'msgid "A message carries a call."')
        code = _line_of(catalog, 'msgid "Use ``carry=True`` here."')
        lines = {p.line for p in problems if p.rule == "carry"}
        assert excused not in lines
        assert code not in lines

    def test_first_mention_only(self, rules, catalog):
        """A `first` rule asks its rendering of the first matching entry of a catalog only."""
        problems = glossary.check_catalog(catalog, rules, "api.po", "api.po")
        first = _line_of(catalog, 'msgid "ERNIE Bot counts tokens."')
        assert [first] == [p.line for p in problems if p.rule == "ernie"]

    def test_code_rules_see_code_and_files_limit_them(self, rules, catalog):
        """A `code` rule reads inline code; `files` keeps it to the catalogs it names."""
        line = _line_of(catalog, 'msgid "Run ``set_display_language')
        here = glossary.check_catalog(catalog, rules, "api.po", "api.po")
        assert [line] == [p.line for p in here if p.rule == "code-example"]
        elsewhere = glossary.check_catalog(catalog, rules, "index.po", "index.po")
        assert [] == [p for p in elsewhere if p.rule == "code-example"]

    def test_main_fails_on_a_problem(self, tmp_path, capsys, monkeypatch):
        """``main`` prints each problem and returns 1; a clean language returns 0."""
        messages = tmp_path / "locales" / "es" / "LC_MESSAGES"
        messages.mkdir(parents=True)
        (tmp_path / "locales" / "es" / "GLOSSARY.md").write_text(GLOSSARY, encoding="utf-8")
        (messages / "api.po").write_text(CATALOG, encoding="utf-8")
        monkeypatch.setattr(glossary, "ROOT", tmp_path)
        assert 1 == glossary.main(["es"])
        assert "locales/es/LC_MESSAGES/api.po:" in capsys.readouterr().out
        (messages / "api.po").write_text(CATALOG.split('msgid "What')[0], encoding="utf-8")
        assert 0 == glossary.main(["es"])


SAME_CATALOG = """msgid ""
msgstr ""
"Language: es\\n"

msgid "A message with a role."
msgstr "A message with a role."

msgid "Call ``to_dict()`` on each one."
msgstr "Call ``to_dict()`` on each one."

msgid "%d message"
msgid_plural "%d messages"
msgstr[0] "%d message"
msgstr[1] "%d messages"

msgid "ERNIE Bot Agent ``cookbook/memory.ipynb``"
msgstr "ERNIE Bot Agent ``cookbook/memory.ipynb``"

msgid "tuple[Loss, ...]"
msgstr "tuple[Loss, ...]"

msgid "{label} ({media_type}, {size})"
msgstr "{label} ({media_type}, {size})"

msgid "<a href=\\"https://example.org/furo\\">Furo</a>"
msgstr "<a href=\\"https://example.org/furo\\">Furo</a>"

msgid "12,345.6"
msgstr "12,345.6"

# glossary-ok: same-as-english
msgid "audio"
msgstr "audio"

msgid "A role."
msgstr "Un rol."
"""


class TestSameAsEnglish:
    """An entry left as its English fails, unless it has nothing to translate."""

    @pytest.fixture
    def problems(self, tmp_path: Path) -> tuple[Path, list[glossary.Problem]]:
        path = tmp_path / "index.po"
        path.write_text(SAME_CATALOG, encoding="utf-8")
        return path, glossary.check_catalog(path, [], "index.po", "locales/es/index.po")

    def test_names_file_line_and_entry(self, problems):
        """Each entry with English words left in English is reported with the file, its
        line and its msgid, the plural one too."""
        path, found = problems
        lines = [
            _line_of(path, f'msgid "{text}')
            for text in ("A message with", "Call ``to_dict", "%d message")
        ]
        assert [(line, glossary.SAME) for line in lines] == [
            (problem.line, problem.rule) for problem in found
        ]
        assert str(found[0]).startswith(
            f"locales/es/index.po:{lines[0]}: [same-as-english] msgstr is the English msgid "
            "'A message with a role.'"
        )

    def test_code_names_numbers_and_placeholders_have_nothing_to_translate(self):
        """Names, code, types, placeholders, HTML around a name and numbers have no word."""
        assert [False] * 5 == [
            glossary.has_words(text)
            for text in (
                "ERNIE Bot Agent ``cookbook/memory.ipynb``",
                "tuple[Loss, ...] | str | None",
                "{label} ({media_type}, {size}) %s %(name)s ${count}",
                '<a href="https://example.org/furo">Furo</a>, https://example.org/a',
                "12,345.6",
            )
        ]
        assert glossary.has_words("ERNIE Bot Agent (docstrings)")


class TestTodaysCatalogs:
    @pytest.mark.parametrize("language", ["zh_CN", "es"])
    def test_pass(self, language):
        """The shipped catalogs keep their glossary."""
        assert [] == [str(p) for p in glossary.check_language(language)]

    @pytest.mark.parametrize(
        ("language", "rule", "slip", "fixed"),
        [
            (
                "zh_CN",
                "ernie-bot-later",
                "字典（ERNIE Bot 为每个结果给出 ``index``）。",
                "字典（文心一言为每个结果给出 ``index``）。首次提到时写文心一言（ERNIE Bot）。",
            ),
            (
                "es",
                "identifier",
                "la API lo encuentra por el id de ese elemento.",
                "por el ``id``.",
            ),
            (
                "es",
                "gives-what",
                "``result()`` da lo que la función ``from_*`` da para la respuesta completa.",
                "``result()`` devuelve lo mismo que la función ``from_*`` con la respuesta.",
            ),
        ],
        ids=["zh_CN-ernie-bot-later", "es-identifier", "es-gives-what"],
    )
    def test_rules_catch_the_reviews_slips(self, tmp_path, language, rule, slip, fixed):
        """The rules added after the native reviews flag the reviewed slip and pass its fix."""
        rules = [
            r
            for r in glossary.read_rules(ROOT / "locales" / language / "GLOSSARY.md")
            if r.id == rule
        ]
        path = tmp_path / "api.po"
        path.write_text(
            f'msgid ""\nmsgstr ""\n"Language: {language}\\n"\n\n'
            f'msgid "One."\nmsgstr "{slip}"\n\nmsgid "Two."\nmsgstr "{fixed}"\n',
            encoding="utf-8",
        )
        problems = glossary.check_catalog(path, rules, "api.po", "api.po")
        assert [_line_of(path, 'msgid "One."')] == [p.line for p in problems]
