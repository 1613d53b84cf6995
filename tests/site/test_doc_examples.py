"""Every Python example in the prose runs: pages, README, docstrings and tutorial prose.

Sybil finds the code blocks and doctests (see ``tests/helpers/_examples.py``); each is a test whose
id is ``file:line`` in the source a writer edits.
"""

from __future__ import annotations

import re
import textwrap
import tokenize
from pathlib import Path

import pytest

from _examples import (
    EXAMPLES,
    ProseExample,
    gallery_prose,
    prose_examples,
    prose_sources,
    relative,
    run_prose_example,
    uncovered_python_lines,
)

SOURCES = prose_sources()
PROSE_EXAMPLES = prose_examples(SOURCES)


class TestProseExamples:
    """Each example in the prose does what its text says."""

    @pytest.mark.parametrize("case", PROSE_EXAMPLES, ids=[case.id for case in PROSE_EXAMPLES])
    def test_example_runs(self, case: ProseExample, tmp_path: Path) -> None:
        """The example runs, and a doctest's output is the one written under it."""
        run_prose_example(case, tmp_path)

    @pytest.mark.parametrize("path", SOURCES, ids=[relative(path) for path in SOURCES])
    def test_no_example_escapes(self, path: Path) -> None:
        """Every Python code block and ``>>>`` prompt in the file is one of the examples run."""
        assert [] == uncovered_python_lines(path)

    def test_every_kind_of_source_has_examples(self) -> None:
        """The README, the pages, the docstrings and the tutorial prose all contribute."""
        kinds = {
            "README": "README.md",
            "pages": "docs/",
            "docstrings": "src/agentmsg/",
            "tutorial prose": "docs/examples/",
        }
        found = {
            kind
            for kind, prefix in kinds.items()
            for case in PROSE_EXAMPLES
            if case.id.startswith(prefix) and not (kind == "pages" and "/examples/" in case.id)
        }
        assert set(kinds) == found


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


class TestGuard:
    """Wrong examples fail, and the failure names the file and the line (meta-tests)."""

    def run_all(self, path: Path, tmp_path: Path) -> list[tuple[str, str]]:
        results = []
        for case in prose_examples([path]):
            try:
                run_prose_example(case, tmp_path)
            except Exception as error:
                notes = "".join(f"\n{note}" for note in getattr(error, "__notes__", []))
                results.append((case.id, f"{type(error).__name__}: {error}{notes}"))
            else:
                results.append((case.id, "ok"))
        return results

    def test_myst_doctest_with_wrong_output_fails(self, tmp_path: Path) -> None:
        """A doctest whose written output is wrong fails, at its line."""
        page = write(
            tmp_path,
            "page.md",
            """\
            # A page

            ```python
            >>> from agentmsg import Msg
            >>> Msg(name="Ada", content="Hi", role="user").role
            'assistant'
            ```
            """,
        )
        results = self.run_all(page, tmp_path)
        assert [f"{page}:4", f"{page}:5"] == [case_id for case_id, _ in results]
        assert "ok" == results[0][1]
        assert f"Example at {page}, line 5" in results[1][1]
        assert "Expected:\n    'assistant'\nGot:\n    'user'" in results[1][1]

    def test_code_block_that_prints_fails(self, tmp_path: Path) -> None:
        """A plain code block whose output a reader would see but nothing checks fails."""
        page = write(
            tmp_path,
            "page.md",
            """\
            Text.

            ```{code-block} python
            print("shown but unchecked")
            ```
            """,
        )
        [(case_id, result)] = self.run_all(page, tmp_path)
        assert f"{page}:3" == case_id
        assert "prints output that nothing checks" in result

    def test_failing_assertion_points_at_its_line(self, tmp_path: Path) -> None:
        """An exception in a code block has a traceback line in the page itself."""
        page = write(
            tmp_path,
            "page.md",
            """\
            Text.

            ```python
            total = 1 + 1
            assert total == 3
            ```
            """,
        )
        [case] = prose_examples([page])
        with pytest.raises(AssertionError) as failure:
            run_prose_example(case, tmp_path)
        assert (page, 5) in [(entry.path, entry.lineno + 1) for entry in failure.traceback]

    def test_later_example_names_the_earlier_failure(self, tmp_path: Path) -> None:
        """An example after a failing one names it when it fails too; others still pass."""
        page = write(
            tmp_path,
            "page.rst",
            """\
            .. code-block:: python

               value = undefined_name

            >>> value
            1

            >>> 1 + 1
            2
            """,
        )
        results = self.run_all(page, tmp_path)
        assert [f"{page}:1", f"{page}:5", f"{page}:8"] == [case_id for case_id, _ in results]
        assert "NameError" in results[0][1]
        assert results[1][1].endswith(
            f"The example is at {page}:5.\nEarlier examples it may depend on fail too: {page}:1."
        )
        assert "ok" == results[2][1]

    def test_code_block_in_a_list_table_runs(self, tmp_path: Path) -> None:
        """A code block inside a list-table cell of tutorial prose is found and run."""
        folder = tmp_path / "docs" / "examples"
        folder.mkdir(parents=True)
        text = '''\
            """
            Title
            =====
            """

            from agentmsg import Msg

            # %%
            # .. list-table::
            #
            #    * - Good
            #      - .. code-block:: python
            #
            #           Msg(name="Ada", content="Hi", role="user")
            #    * - Bad
            #      - .. code-block:: python
            #
            #           Msg(name="Ada", content="Hi", role="robot")

            done = True
            '''
        page = write(folder, "tiny.py", text)
        prose = gallery_prose(page)
        assert "Msg(name=" in prose.text.split("\n")[13]
        cases = prose_examples([page])
        assert [12, 16] == [case.line for case in cases]
        run_prose_example(cases[0], tmp_path / "one")
        with pytest.raises(Exception, match="`role` must be one of") as failure:
            run_prose_example(cases[1], tmp_path / "two")
        assert (page, 18) in [(entry.path, entry.lineno + 1) for entry in failure.traceback]

    def test_unparsed_python_block_is_reported(self, tmp_path: Path) -> None:
        """A Python block that no parser understands is listed, so it cannot escape silently."""
        page = write(
            tmp_path,
            "page.md",
            """\
            Text.

            ```python title="not a language Sybil knows"
            x = 1
            ```
            """,
        )
        assert [3] == uncovered_python_lines(page)

    def test_doctest_inside_eval_rst_runs(self, tmp_path: Path) -> None:
        """A doctest in the reST of a MyST ``{eval-rst}`` block runs, at its line in the page."""
        page = write(
            tmp_path,
            "page.md",
            """\
            # API

            ```{eval-rst}
            .. code-block:: python

               total = 2 + 2

            >>> total
            5
            ```
            """,
        )
        results = self.run_all(page, tmp_path)
        assert [f"{page}:4", f"{page}:8"] == [case_id for case_id, _ in results]
        assert "ok" == results[0][1]
        assert "Expected:\n    5\nGot:\n    4" in results[1][1]

    def test_colon_fence_python_block_is_reported(self, tmp_path: Path) -> None:
        """A ``:::{code-block} python`` colon fence, which Sybil cannot read, is reported."""
        page = write(
            tmp_path,
            "page.md",
            """\
            Text.

            :::{code-block} python
            x = 1
            :::
            """,
        )
        assert [3] == uncovered_python_lines(page)


#: Comments that speak to a tool, not to a reader: a formatter's, a linter's, a type
#: checker's or a coverage tool's directive.
TOOL_DIRECTIVE = re.compile(r"#\s*(noqa\b|fmt:|type:\s*ignore|pragma\b|ruff:|mypy:|pyright:)")
TUTORIALS = sorted(EXAMPLES.glob("*.py"))


@pytest.mark.parametrize("path", TUTORIALS, ids=[path.stem for path in TUTORIALS])
def test_tutorials_show_no_tool_directive(path: Path) -> None:
    """A tutorial's code, which every reader sees on the page and in the notebooks, holds
    no comment addressed to a tool (lay the code out instead, or configure the tool)."""
    with path.open("rb") as source:
        comments = [
            f"line {token.start[0]}: {token.string}"
            for token in tokenize.tokenize(source.readline)
            if token.type == tokenize.COMMENT and TOOL_DIRECTIVE.search(token.string)
        ]

    assert [] == comments


def test_the_directive_pattern_sees_them() -> None:
    """The pattern catches the directives it names and leaves reader comments alone."""
    found = [
        text
        for text in ("# fmt: skip", "#noqa: E501", "# type: ignore[arg-type]", "# the format")
        if TOOL_DIRECTIVE.search(text)
    ]

    assert ["# fmt: skip", "#noqa: E501", "# type: ignore[arg-type]"] == found
