"""Each gallery script shows exactly the output recorded in tests/expected/.

A script is run cell by cell, as the docs build runs it (see ``tests/site/_examples.py``); what
each cell prints and displays is compared with ``tests/expected/<script>.txt``. After an
intended change, ``make test-record`` re-records the files.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import shutil
from pathlib import Path

import pytest

import agentmsg
from _examples import (
    CAPTURE_REPR,
    EXAMPLES,
    EXPECTED,
    RECORD_COMMAND,
    OutputMismatch,
    built_outputs,
    compare_with_expected,
    example_seed,
    expected_path,
    gallery_scripts,
    readable_html,
    record,
    relative,
    run_gallery_script,
    run_outputs,
)

SCRIPTS = gallery_scripts()


class TestTutorialOutput:
    """The output every tutorial shows is the recorded one."""

    @pytest.mark.parametrize("script", SCRIPTS, ids=[relative(path) for path in SCRIPTS])
    def test_matches_recorded_output(self, script: Path, tmp_path: Path) -> None:
        """What the script prints and displays, cell by cell, equals its expected file."""
        compare_with_expected(script, tmp_path)

    def test_every_expected_file_has_a_script(self) -> None:
        """No expected output is left behind for a script that was renamed or removed."""
        expected = sorted(path.name for path in EXPECTED.glob("*.txt"))
        actual = sorted(
            expected_path(script).name for script in SCRIPTS if expected_path(script).exists()
        )
        assert expected == actual, f"stale files in tests/expected: run `{RECORD_COMMAND}`"

    def test_there_are_tutorials(self) -> None:
        """The gallery is not empty, so the parametrized test above checks something."""
        assert SCRIPTS, f"no gallery scripts found in {relative(EXAMPLES)}"


def gallery_conf() -> dict[str, object]:
    """The ``sphinx_gallery_conf`` literal of docs/conf.py, read without running conf.py."""
    tree = ast.parse((EXAMPLES.parent / "conf.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "sphinx_gallery_conf":
            assert isinstance(node.value, ast.Dict)
            return {
                ast.literal_eval(key): value
                for key, value in zip(node.value.keys, node.value.values, strict=True)
                if key is not None
            }
    raise AssertionError("docs/conf.py defines no sphinx_gallery_conf")


class TestDocsBuildAgreement:
    """The tests run each script as the docs build does: same seed, same displayed values."""

    def test_capture_repr_is_the_docs_setting(self) -> None:
        """The values shown for a cell's last expression are chosen as in docs/conf.py."""
        conf = gallery_conf()
        assert CAPTURE_REPR == ast.literal_eval(conf["capture_repr"])
        assert "ignore_repr_types" not in conf  # not mirrored by tests/site/_examples.py

    @pytest.mark.docs
    @pytest.mark.parametrize("script", SCRIPTS, ids=[relative(path) for path in SCRIPTS])
    def test_built_page_shows_the_same_output(
        self, script: Path, built_site: Path, tmp_path: Path
    ) -> None:
        """The page the docs build generated shows, box by box, what the test run shows."""
        generated = EXAMPLES.parent / "tutorial" / f"{script.stem}.rst"
        expected = built_outputs(generated.read_text(encoding="utf-8"))
        assert expected == run_outputs(run_gallery_script(script, tmp_path))

    def test_docs_build_hook_uses_the_same_seed(self) -> None:
        """A message made after the docs' reset hook equals one made under example_seed()."""
        path = EXAMPLES.parent / "_ext" / "agentmsg_gallery.py"
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


class TestGuard:
    """Breaking an example's output makes the comparison fail, readably (meta-tests)."""

    def make_tutorial(self, tmp_path: Path, text: str = SCRIPT) -> tuple[Path, Path]:
        folder = tmp_path / "gallery"
        folder.mkdir()
        script = folder / "tiny.py"
        script.write_text(text, encoding="utf-8")
        return script, tmp_path / "expected"

    def test_recorded_output_passes(self, tmp_path: Path) -> None:
        """A script compared with the output just recorded for it passes."""
        script, expected_dir = self.make_tutorial(tmp_path)
        assert [f"new       {expected_dir / 'tiny.txt'}"] == record([script], expected_dir)
        compare_with_expected(script, tmp_path / "run", expected_dir)

    def test_recording_shows_prints_and_reprs(self, tmp_path: Path) -> None:
        """The recorded file holds each cell's stdout and the repr of its last expression."""
        script, expected_dir = self.make_tutorial(tmp_path)
        record([script], expected_dir)
        expected = (
            "# What docs/examples/tiny.py shows, cell by cell (tests/site/_examples.py).\n"
            f"# After an intended change, re-record with `{RECORD_COMMAND}`.\n"
            "\n"
            '## greeting = "Hello"\n'
            "Hello, reader!\n"
            "\n"
            "{'greeting': 'hello'}\n"
        )
        assert expected == (expected_dir / "tiny.txt").read_text(encoding="utf-8")

    def test_changed_print_fails_with_a_diff(self, tmp_path: Path) -> None:
        """A changed printed string fails with a unified diff naming the script and its line."""
        script, expected_dir = self.make_tutorial(tmp_path)
        record([script], expected_dir)
        script.write_text(SCRIPT.replace(", reader!", ", world!"), encoding="utf-8")
        with pytest.raises(OutputMismatch) as failure:
            compare_with_expected(script, tmp_path / "run", expected_dir)
        text = str(failure.value)
        assert f"Changed output of the cell at {script}:11." in text
        assert f"+++ {script} (now)" in text
        assert "-Hello, reader!\n+Hello, world!\n" in text
        assert RECORD_COMMAND in text

    def test_changed_repr_fails(self, tmp_path: Path) -> None:
        """A changed displayed value (the last expression of a cell) fails too."""
        script, expected_dir = self.make_tutorial(tmp_path)
        record([script], expected_dir)
        script.write_text(SCRIPT.replace('"hello"}', '"hi"}'), encoding="utf-8")
        with pytest.raises(
            OutputMismatch, match=r"-\{'greeting': 'hello'\}\n\+\{'greeting': 'hi'\}"
        ):
            compare_with_expected(script, tmp_path / "run", expected_dir)

    def test_missing_expected_output_fails(self, tmp_path: Path) -> None:
        """A script without a recorded output fails and says how to record it."""
        script, expected_dir = self.make_tutorial(tmp_path)
        with pytest.raises(OutputMismatch, match=f"has no recorded output.*`{RECORD_COMMAND}`"):
            compare_with_expected(script, tmp_path / "run", expected_dir)

    def test_breaking_a_real_tutorial_fails(self, tmp_path: Path) -> None:
        """Changing one printed string in a copy of a real tutorial fails its comparison."""
        printed = re.compile(r"""^(print\(f?)(["'])""", re.MULTILINE)
        originals = [
            s for s in SCRIPTS if expected_path(s).exists() and printed.search(s.read_text())
        ]
        if not originals:
            pytest.fail(f"no recorded tutorial prints a string literal: run `{RECORD_COMMAND}`")
        original = originals[0]
        copy = tmp_path / "gallery" / original.name
        shutil.copytree(original.parent, copy.parent)
        expected_dir = tmp_path / "expected"
        shutil.copytree(EXPECTED, expected_dir)
        compare_with_expected(copy, tmp_path / "run-1", expected_dir)
        copy.write_text(printed.sub(r"\1\2changed ", original.read_text(), count=1))
        with pytest.raises(OutputMismatch, match=f"{copy.name} shows something else"):
            compare_with_expected(copy, tmp_path / "run-2", expected_dir)

    def test_cell_exception_points_at_the_script_line(self, tmp_path: Path) -> None:
        """An exception in a cell has a traceback entry at the script's path and real line."""
        script, _ = self.make_tutorial(tmp_path, SCRIPT.replace("silent = 1", "silent = 1 / 0"))
        with pytest.raises(ZeroDivisionError) as failure:
            run_gallery_script(script, tmp_path / "run")
        frames = [(entry.path, entry.lineno + 1) for entry in failure.traceback]
        assert (script, 19) in frames

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
