"""Comments in code blocks, in the reader's language; the code itself stays as it is.

The gettext builder gets one message per comment of a Python or shell block: the text after
``#``, consecutive full-line comments at one indentation joined into one message. A
translated HTML build puts each comment's translation back in its place
(:class:`TranslatedComments`), and the translated downloads do the same with
:func:`translate_comments`. Only the comments change: the test compares each page's and
notebook's code with its comments removed against the English.

A one-line docstring of a function or class in a Python block is prose a reader reads
too, and is treated like a comment: its text is the message, and only the text between the
quotes changes. Comments that are not prose stay out: tool pragmas (``# noqa``,
``# type:``), and any without a letter.
"""

from __future__ import annotations

import ast
import io
import re
import textwrap
import tokenize
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.locale import init as init_locale
from sphinx.transforms import SphinxTransform
from sphinx.util.i18n import docname_to_domain

if TYPE_CHECKING:
    from sphinx.application import Sphinx

__all__ = ["Comment", "comments", "strip_comments", "translate_comments"]

PYTHON = {"python", "py", "python3", "ipython", "ipython3"}
#: Interactive sessions: a docstring's doctest blocks, or a ``pycon`` code block.
SESSION = {"pycon", "doctest"}
SHELL = {"bash", "sh", "shell", "console", "shell-session", "zsh"}
_PRAGMA = re.compile(r"^(noqa|type:|pragma|fmt:|isort:|pyright:|mypy:|ruff:|sphinx_gallery_)")
_SHELL_COMMENT = re.compile(r"(?:^|(?<=\s))#(?=\s|$)")
_LETTER = re.compile(r"[^\W\d_]")


@dataclass(frozen=True)
class Comment:
    """One comment: its text, and the (line, column) spans it covers, one per line.
    A docstring's *quote* is its delimiter (``\"\"\"``), empty for a ``#`` comment."""

    text: str
    spans: tuple[tuple[int, int, int], ...]  # (line index, start column, end column)
    full_line: bool
    quote: str = ""


def _python_comments(code: str) -> Iterator[tuple[int, int, int, str, bool]]:
    lines = code.split("\n")
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            if token.type == tokenize.COMMENT:
                row, column = token.start
                full = not lines[row - 1][:column].strip()
                yield row - 1, column, token.end[1], token.string, full
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return


def _session_comments(code: str) -> Iterator[tuple[int, int, int, str, bool]]:
    """The comments of an interactive session (a doctest): those of its ``>>>`` and
    ``...`` lines, each line read as code on its own; the output lines have none."""
    for row, line in enumerate(code.split("\n")):
        if line.startswith((">>> ", "... ")):
            for _, column, end, text, _ in _python_comments(line[4:]):
                yield row, column + 4, end + 4, text, False


_QUOTES = ('"""', "'''")


def _docstrings(code: str) -> Iterator[tuple[int, int, int, str, str]]:
    """(line index, start, end, text, quote) of each one-line docstring of a function or
    class in *code*; none when *code* is not a whole Python program."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return
    rows = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
                and first.lineno == first.end_lineno
            ):
                rows.add(first.lineno - 1)
    lines = code.split("\n")
    for row in sorted(rows):
        line = lines[row]
        body = line.strip()
        quote = body[:3]
        if quote in _QUOTES and body.endswith(quote) and len(body) > 6:
            start = line.index(quote)
            yield row, start, start + len(body), body[3:-3], quote


def _shell_comments(code: str) -> Iterator[tuple[int, int, int, str, bool]]:
    for row, line in enumerate(code.split("\n")):
        found = _SHELL_COMMENT.search(line)
        if found:
            full = not line[: found.start()].strip()
            yield row, found.start(), len(line), line[found.start() :], full


def comments(code: str, language: str) -> list[Comment]:
    """The prose comments of *code*, a block in *language* (``python``, ``bash``...)."""
    language = language.lower()
    docstrings: list[tuple[int, int, int, str, str]] = []
    if language in SESSION:
        found = list(_session_comments(code))
    elif language in PYTHON:
        found = list(_python_comments(code))
        docstrings = list(_docstrings(code))
    elif language in SHELL:
        found = list(_shell_comments(code))
    else:
        return []
    result: list[Comment] = []
    group: list[tuple[int, int, int, str, bool]] = []

    def close() -> None:
        if group:
            text = " ".join(item[3].lstrip("#").strip() for item in group)
            spans = tuple((row, start, end) for row, start, end, _, _ in group)
            if _LETTER.search(text) and not _PRAGMA.match(text):
                result.append(Comment(text, spans, group[0][4]))
            group.clear()

    for item in found:
        row, start, _, text, full = item
        previous = group[-1] if group else None
        if (
            previous is not None
            and full
            and previous[4]
            and previous[0] == row - 1
            and previous[1] == start
            and text.lstrip("#").strip()
        ):
            group.append(item)
            continue
        close()
        group.append(item)
    close()
    for row, start, end, text, quote in docstrings:
        if _LETTER.search(text):
            result.append(Comment(text, ((row, start, end),), True, quote))
    result.sort(key=lambda comment: comment.spans[0])
    return result


def translate_comments(code: str, language: str, gettext: Callable[[str], str]) -> str:
    """*code* with each prose comment replaced by ``gettext(comment)`` (when it differs),
    wrapped over as many lines as the English used or as its width needs."""
    lines = code.split("\n")
    for comment in reversed(comments(code, language)):
        translated = gettext(comment.text)
        if not translated or translated == comment.text:
            continue
        row, start, _ = comment.spans[0]
        if comment.quote:
            line, end = lines[row], comment.spans[0][2]
            lines[row] = line[:start] + comment.quote + translated + comment.quote + line[end:]
        elif comment.full_line and len(comment.spans) > 1:
            width = max(len(lines[r]) for r, _, _ in comment.spans) - start - 2
            pieces = textwrap.wrap(translated, max(width, 40)) or [translated]
            new = [" " * start + "# " + piece for piece in pieces]
            lines[row : comment.spans[-1][0] + 1] = new
        else:
            line = lines[row]
            lines[row] = line[:start] + "# " + translated + line[comment.spans[0][2] :]
    return "\n".join(lines)


def strip_comments(code: str, language: str) -> str:
    """*code* with its comments (all of them) and one-line docstrings, trailing spaces
    removed, blank lines dropped: what must be the same in every language."""
    language = language.lower()
    lines = code.split("\n")
    if language in SESSION:
        spans = [item[:3] for item in _session_comments(code)]
    elif language in PYTHON:
        spans = [item[:3] for item in _python_comments(code)]
        spans += [item[:3] for item in _docstrings(code)]
    else:
        spans = [item[:3] for item in _shell_comments(code)]
    for row, start, end in sorted(spans, reverse=True):
        lines[row] = lines[row][:start] + lines[row][end:]
    return "\n".join(line.rstrip() for line in lines if line.strip())


def _language(node: nodes.literal_block | nodes.doctest_block) -> str:
    if isinstance(node, nodes.doctest_block):
        return "doctest"
    return str(node.get("language", "")).lower()


def _code_blocks(doctree: nodes.Node) -> list[nodes.literal_block | nodes.doctest_block]:
    """The blocks of code whose comments are prose: code blocks and doctests."""
    return list(
        doctree.findall(lambda node: isinstance(node, nodes.literal_block | nodes.doctest_block))
    )


def _collect(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """For the gettext builder: add each comment to the page's catalog."""
    if app.builder.name != "gettext":
        return
    from sphinx.builders.gettext import MsgOrigin

    domain = docname_to_domain(docname, app.config.gettext_compact)
    catalog = app.builder.catalogs[domain]  # type: ignore[attr-defined]
    for node in _code_blocks(doctree):
        for comment in comments(node.astext(), _language(node)):
            catalog.add(comment.text, MsgOrigin(node.source or docname, node.line or 0))


class TranslatedComments(SphinxTransform):
    """In a translated build, write each code comment in the page's language. It runs
    as the page is read, right after Sphinx's own translation of the prose (the code
    cells of a gallery page are no literal blocks any more by the time post-transforms
    run)."""

    default_priority = 21  # after sphinx.transforms.i18n.Locale (20)

    def apply(self, **kwargs: Any) -> None:
        if (self.config.language or "en") == "en" or self.app.builder.name == "gettext":
            return
        domain = docname_to_domain(self.env.docname, self.config.gettext_compact)
        dirs = [str(self.env.srcdir / directory) for directory in self.config.locale_dirs]
        catalog, found = init_locale(dirs, self.config.language, domain)
        if not found:
            return
        for node in _code_blocks(self.document):
            code = node.astext()
            new = translate_comments(code, _language(node), catalog.gettext)
            if new != code:
                block = node.copy()
                block.rawsource = new
                block += nodes.Text(new)
                node.replace_self(block)


def register(app: Sphinx) -> None:
    app.connect("doctree-resolved", _collect)
    app.add_transform(TranslatedComments)
