"""Comments of code blocks as catalog messages (docs/agentmsg_docs/i18n/comments.py)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

from agentmsg_docs.i18n.comments import comments, strip_comments, translate_comments  # noqa: E402

CODE = """# Style 1: the instruction is
# the first message.
chat = ["#not a comment", 1]  # trailing
x = 2  # noqa: E501
"""


class TestComments:
    def test_python_groups_and_pragmas(self):
        """Consecutive full-line comments are one message; strings and pragmas are not."""
        assert ["Style 1: the instruction is the first message.", "trailing"] == [
            comment.text for comment in comments(CODE, "python")
        ]

    def test_shell(self):
        assert ["run every test"] == [
            c.text for c in comments("make test  # run every test", "bash")
        ]

    def test_other_languages_have_none(self):
        assert [] == comments("# title", "markdown")


class TestTranslate:
    def test_only_comments_change(self):
        """A translation replaces the comment and leaves the code, strings included."""
        table = {
            "trailing": "al final",
            "Style 1: the instruction is the first message.": "Estilo 1.",
        }
        translated = translate_comments(CODE, "python", lambda text: table.get(text, text))
        assert '# Estilo 1.\nchat = ["#not a comment", 1]  # al final\n' in translated
        assert strip_comments(CODE, "python") == strip_comments(translated, "python")

    def test_untranslated_code_is_unchanged(self):
        assert CODE == translate_comments(CODE, "python", lambda text: text)


DOCSTRINGS = '''def weather(city):
    """Return the weather in a city."""
    return {"city": city, "text": """not a docstring"""}


class Model:
    """Plays a model."""
'''


class TestDocstrings:
    def test_one_line_docstrings_are_messages(self):
        """A function's or class's one-line docstring is prose; other strings are not."""
        assert ["Return the weather in a city.", "Plays a model."] == [
            comment.text for comment in comments(DOCSTRINGS, "python")
        ]

    def test_only_the_text_between_the_quotes_changes(self):
        table = {"Return the weather in a city.": "Devuelve el tiempo de una ciudad."}
        translated = translate_comments(DOCSTRINGS, "python", lambda text: table.get(text, text))
        assert '    """Devuelve el tiempo de una ciudad."""\n' in translated
        assert translated.replace("Devuelve el tiempo de una ciudad.", "") == DOCSTRINGS.replace(
            "Return the weather in a city.", ""
        )
        assert strip_comments(DOCSTRINGS, "python") == strip_comments(translated, "python")

    def test_a_changed_line_of_code_still_shows(self):
        changed = DOCSTRINGS.replace("return {", "return dict({").replace("}\n\n", "})\n\n")
        assert strip_comments(DOCSTRINGS, "python") != strip_comments(changed, "python")

    def test_a_snippet_that_does_not_parse_has_no_docstrings(self):
        assert [] == comments('    """Indented alone."""\n  x = (', "python")


class TestSessions:
    SESSION = """>>> reply = ask("hi")  # a question
>>> reply.count  # its length
2
# not a comment: output
"""

    def test_comments_of_prompt_lines_only(self):
        """In a doctest only the comments after ``>>>`` or ``...`` are comments."""
        assert ["a question", "its length"] == [
            comment.text for comment in comments(self.SESSION, "doctest")
        ]

    def test_translated_in_place(self):
        translated = translate_comments(self.SESSION, "pycon", {"its length": "su longitud"}.get)
        assert ">>> reply.count  # su longitud\n2\n" in translated
        assert strip_comments(self.SESSION, "doctest") == strip_comments(translated, "doctest")
