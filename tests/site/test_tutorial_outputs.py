"""Each tutorial shows exactly the output recorded in tests/expected/.

What sphinx-gallery captured in the build (``docs/tutorial/<name>.rst``, the output boxes
the pages show) is compared, cell by cell, with ``tests/expected/<name>.txt`` (see
``tests/helpers/_outputs.py``). After an intended change, ``make test-record`` re-records.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path

import pytest
from sphinx_gallery.py_source_parser import split_code_and_text_blocks

import agentmsg
from _checkout import ROOT, TUTORIALS, copy_repository, run_build
from _examples import example_seed
from _outputs import (
    EXPECTED,
    RECORD_COMMAND,
    OutputMismatch,
    captured_cells,
    compare_with_expected,
    readable_html,
    record,
    tutorial_names,
)

EXAMPLES = ROOT / "docs" / "examples"


class TestTutorialOutput:
    """The output every tutorial's page shows is the recorded one."""

    @pytest.mark.parametrize("name", TUTORIALS)
    def test_matches_recorded_output(self, built_gallery: Path, name: str) -> None:
        """What the page shows, cell by cell, equals the tutorial's expected file."""
        compare_with_expected(name, built_gallery)

    @pytest.mark.parametrize("name", TUTORIALS)
    def test_every_code_cell_is_read(self, built_gallery: Path, name: str) -> None:
        """Every code cell of the script is found in its generated page, at its lines, so
        no output escapes the comparison."""
        script = EXAMPLES / f"{name}.py"
        _, blocks = split_code_and_text_blocks(str(script))
        lines = script.read_text(encoding="utf-8").split("\n")
        page = built_gallery / f"{name}.rst"
        cells = captured_cells(page.read_text(encoding="utf-8"), lines)
        code = [block for block in blocks if block.type == "code"]
        assert len(code) == len(cells)
        for block, cell in zip(code, cells, strict=True):
            assert block.lineno <= cell.line < block.lineno + block.content.count("\n") + 1
            assert lines[cell.line - 1].strip()

    def test_every_tutorial_is_listed(self) -> None:
        """The scripts in docs/examples are the tutorials the tests know, and each has an
        expected file (none left behind for a renamed or removed script)."""
        assert sorted(TUTORIALS) == tutorial_names()
        assert sorted(f"{name}.txt" for name in TUTORIALS) == sorted(
            path.name for path in EXPECTED.glob("*.txt")
        )


class TestProseSeed:
    """Examples in a tutorial's prose run under the seed the docs build gives the script."""

    def test_docs_build_hook_uses_the_same_seed(self) -> None:
        """A message made after the docs' reset hook equals one made under example_seed()."""
        path = ROOT / "docs" / "agentmsg_docs" / "gallery" / "tutorials.py"
        spec = importlib.util.spec_from_file_location("_agentmsg_gallery_for_tests", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        script = EXAMPLES / "tools.py"
        module.reset_deterministic({}, script.name, "before")
        try:
            built = agentmsg.Msg(name="Jarvis", content="Hi", role="assistant")
        finally:
            module.reset_deterministic({}, script.name, "after")
        with agentmsg.deterministic(seed=example_seed(script)):
            expected = agentmsg.Msg(name="Jarvis", content="Hi", role="assistant")
        assert (expected.id, expected.timestamp) == (built.id, built.timestamp)


SCRIPT = '''"""
A tiny tutorial
===============

Prints a greeting.
"""

# %%
# Say hello.

greeting = "Hello"
print(greeting + ", reader!")
message = {"greeting": "hello"}
message

# %%
# Nothing to show here.

silent = 1
'''


@pytest.fixture(scope="module")
def copy_with_tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the repository with a tiny tutorial added and the examples pass run."""
    repo = copy_repository(tmp_path_factory.mktemp("outputs") / "repo")
    (repo / "docs" / "examples" / "tiny.py").write_text(SCRIPT, encoding="utf-8")
    result = run_build(repo, "examples")
    assert 0 == result.returncode, result.stdout[-3000:] + result.stderr[-3000:]
    return repo


def rerun(repo: Path, script: str, text: str) -> None:
    """Write *text* as the copy's docs/examples/*script* and run its examples pass."""
    (repo / "docs" / "examples" / script).write_text(text, encoding="utf-8")
    result = run_build(repo, "examples")
    assert 0 == result.returncode, result.stdout[-3000:] + result.stderr[-3000:]


def places(repo: Path, expected: Path) -> dict[str, Path]:
    return {
        "gallery": repo / "docs" / "tutorial",
        "examples": repo / "docs" / "examples",
        "expected_dir": expected,
    }


@pytest.mark.slow
class TestGuard:
    """Changing what a tutorial shows makes the comparison fail, readably (meta-tests on a
    copy of the repository whose examples pass really ran)."""

    def test_recording_shows_prints_and_reprs(self, copy_with_tiny: Path, tmp_path: Path) -> None:
        """The recorded file holds each cell's printed text and the repr of its last
        expression, as the page shows them; comparing it with the same page passes."""
        rerun(copy_with_tiny, "tiny.py", SCRIPT)
        where = places(copy_with_tiny, tmp_path)
        assert [f"new       {tmp_path / 'tiny.txt'}"] == record(["tiny"], **where)
        expected = (
            "# What docs/examples/tiny.py shows, cell by cell, as the docs build captured it.\n"
            f"# After an intended change, re-record with `{RECORD_COMMAND}`.\n"
            "\n"
            '## greeting = "Hello"\n'
            "Hello, reader!\n"
            "\n"
            "{'greeting': 'hello'}\n"
        )
        assert expected == (tmp_path / "tiny.txt").read_text(encoding="utf-8")
        compare_with_expected("tiny", **where)

    def test_changed_print_fails_with_a_diff(self, copy_with_tiny: Path, tmp_path: Path) -> None:
        """A changed printed string fails with a unified diff naming the script and the
        line of its cell."""
        where = places(copy_with_tiny, tmp_path)
        rerun(copy_with_tiny, "tiny.py", SCRIPT)
        record(["tiny"], **where)
        rerun(copy_with_tiny, "tiny.py", SCRIPT.replace(", reader!", ", world!"))
        with pytest.raises(OutputMismatch) as failure:
            compare_with_expected("tiny", **where)
        text = str(failure.value)
        script = copy_with_tiny / "docs" / "examples" / "tiny.py"
        assert f"Changed output of the cell at {script}:11." in text
        assert f"+++ {script} (now)" in text
        assert "-Hello, reader!\n+Hello, world!\n" in text
        assert RECORD_COMMAND in text

    def test_changed_repr_fails(self, copy_with_tiny: Path, tmp_path: Path) -> None:
        """A changed displayed value (the last expression of a cell) fails too."""
        where = places(copy_with_tiny, tmp_path)
        rerun(copy_with_tiny, "tiny.py", SCRIPT)
        record(["tiny"], **where)
        rerun(copy_with_tiny, "tiny.py", SCRIPT.replace('"hello"}', '"hi"}'))
        with pytest.raises(
            OutputMismatch, match=r"-\{'greeting': 'hello'\}\n\+\{'greeting': 'hi'\}"
        ):
            compare_with_expected("tiny", **where)

    def test_missing_expected_output_fails(self, copy_with_tiny: Path, tmp_path: Path) -> None:
        """A tutorial without a recorded output fails and says how to record it."""
        with pytest.raises(OutputMismatch, match=f"has no recorded output.*`{RECORD_COMMAND}`"):
            compare_with_expected("tiny", **places(copy_with_tiny, tmp_path))

    def test_breaking_a_real_tutorial_fails(self, copy_with_tiny: Path, tmp_path: Path) -> None:
        """Changing one printed string of a real tutorial fails its comparison with the
        recorded file, naming the tutorial."""
        printed = re.compile(r"""^(print\(f?)(["'])""", re.MULTILINE)
        name = next(n for n in TUTORIALS if printed.search((EXAMPLES / f"{n}.py").read_text()))
        shutil.copytree(EXPECTED, tmp_path / "expected")
        where = places(copy_with_tiny, tmp_path / "expected")
        compare_with_expected(name, **where)
        original = (EXAMPLES / f"{name}.py").read_text(encoding="utf-8")
        rerun(copy_with_tiny, f"{name}.py", printed.sub(r"\1\2changed ", original, count=1))
        try:
            with pytest.raises(OutputMismatch, match=f"{name}.py shows something else"):
                compare_with_expected(name, **where)
        finally:
            rerun(copy_with_tiny, f"{name}.py", original)

    def test_readable_html(self) -> None:
        """HTML is shown one tag per line; base64 payloads and CSS are replaced by digests."""
        payload = "A" * 100
        html = (
            f'<div> <style>p{{color:red}}</style><img src="data:image/png;base64,{payload}"></div>'
        )
        expected = (
            "<div>\n"
            "<style>[12 chars of CSS, sha256 a746c5fae9f9c946]</style>\n"
            '<img src="data:image/png;base64,[100 base64 chars, sha256 d82c6aa133a0fc25]">\n'
            "</div>"
        )
        assert expected == readable_html(html)
