"""The seed documents' code runs on agentmsg unchanged but for its import line.

The seeds are not part of this repository: CI places a copy of ``shared/`` beside the
clone, and these tests read ``../shared/seeds/`` relative to the repository root. Without
that folder they are skipped. Only the import line is changed
(``from agentscope.message import ...`` becomes ``from agentmsg import ...``).

- 000 is the English tutorial script, 001 the same page rendered with what each cell
  printed: the script's output must equal the rendered output, apart from the random id
  and timestamp, and the class path line, which names ``agentmsg.Msg``.
- 004 is a Spanish guide whose code snippets run in order in one namespace; its
  serialization snippet must print JSON equal to the message's ``to_dict()``.
- 003 is a Chinese page on role messages: its Example 2, with
  ``from erniebot_agent.memory import ...`` swapped for ``from agentmsg import ...``,
  prints the three lines the page shows. The page's system line was printed for a
  different system text than its code holds (28 characters); agentmsg prints the count
  for the code's own text, its 23 characters.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import os
import pathlib
import re
import subprocess
import sys
import textwrap

import pytest

import agentmsg

REPO = pathlib.Path(__file__).resolve().parents[2]
SEEDS = REPO.parent / "shared" / "seeds"
OLD_IMPORT = "from agentscope.message import"
NEW_IMPORT = "from agentmsg import"
ID_VALUE = re.compile(r'"id": "([^"]*)"')
TIMESTAMP_VALUE = re.compile(r'"timestamp": "([^"]*)"')
SEED_CLASS_LINE = re.compile(r"^<class 'agentscope\.[\w.]*\.Msg'>$", re.MULTILINE)

pytestmark = pytest.mark.skipif(
    not SEEDS.is_dir(), reason=f"the seed documents are not beside the repository ({SEEDS})"
)


def seed(number: str) -> str:
    """The text of seed document *number* (files are named ``<number>_<hash>.txt``)."""
    (path,) = SEEDS.glob(f"{number}_*.txt")
    return path.read_text(encoding="utf-8")


def swap_import(code: str) -> str:
    """Replace the agentscope import with the agentmsg one, and nothing else."""
    assert OLD_IMPORT in code
    swapped = code.replace(OLD_IMPORT, NEW_IMPORT)
    assert "agentscope" not in "\n".join(
        line for line in swapped.splitlines() if line.lstrip().startswith(("import", "from"))
    )
    return swapped


def script_of_000() -> str:
    """The tutorial script; the seed file's first line is the script's source path."""
    first, _, rest = seed("000").partition("\n")
    assert first.endswith(".py")
    assert " " not in first
    return swap_import(rest)


def rendered_output_of_001() -> str:
    """What each cell printed, from the rendered page's ``sphx-glr-script-out`` blocks."""
    lines = seed("001").splitlines()
    blocks = []
    index = 0
    while index < len(lines):
        if lines[index].strip() != ".. rst-class:: sphx-glr-script-out":
            index += 1
            continue
        index += 1
        while not lines[index].strip().startswith(".. code-block::"):
            index += 1
        index += 1
        body = []
        while index < len(lines) and (not lines[index].strip() or lines[index][:4] == "    "):
            body.append(lines[index])
            index += 1
        blocks.append(textwrap.dedent("\n".join(body)).strip("\n"))
    return "".join(f"{block}\n" for block in blocks)


def mask(output: str) -> str:
    """Replace message id and timestamp values by placeholders."""
    output = ID_VALUE.sub('"id": "<id>"', output)
    return TIMESTAMP_VALUE.sub('"timestamp": "<timestamp>"', output)


def snippets_of_004() -> list[str]:
    """The Spanish guide's code: the blank-line separated chunks that parse as Python."""
    chunks = [chunk.strip("\n") for chunk in re.split(r"\n\s*\n", seed("004"))]
    code = []
    for chunk in chunks:
        try:
            ast.parse(chunk)
        except SyntaxError:
            continue
        code.append(swap_import(chunk) if OLD_IMPORT in chunk else chunk)
    return code


def missing_imports(snippets: list[str]) -> list[str]:
    """agentmsg names the snippets use without importing them anywhere."""
    imported: set[str] = set()
    used: set[str] = set()
    for node in ast.walk(ast.parse("\n".join(snippets))):
        if isinstance(node, ast.ImportFrom):
            imported.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, ast.Name):
            used.add(node.id)
    return sorted((used - imported) & set(agentmsg.__all__))


@pytest.fixture(scope="module")
def output(tmp_path_factory: pytest.TempPathFactory) -> str:
    """What the tutorial script prints when run on agentmsg."""
    folder = tmp_path_factory.mktemp("seed_000")
    script = folder / "quickstart_message.py"
    script.write_text(script_of_000(), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=folder,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        timeout=120,
    )
    assert "" == result.stderr
    assert 0 == result.returncode
    return result.stdout


@pytest.fixture(scope="module")
def run() -> tuple[dict[str, object], str]:
    """The namespace after running every snippet, and what they printed."""
    snippets = snippets_of_004()
    header = f"{NEW_IMPORT} {', '.join(missing_imports(snippets))}"
    namespace: dict[str, object] = {"__name__": "seed_004"}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        for code in [header, *snippets]:
            exec(compile(code, "seed_004", "exec"), namespace)
    return namespace, printed.getvalue()


class TestEnglishTutorial:
    """Seed 000 (the script) against seed 001 (its rendered output)."""

    def test_only_the_import_line_changes(self):
        """The script differs from the seed by the import line alone."""
        original = seed("000").partition("\n")[2].splitlines()
        changed = script_of_000().splitlines()

        differences = [(a, b) for a, b in zip(original, changed, strict=True) if a != b]

        assert [("from agentscope.message import (", "from agentmsg import (")] == differences

    def test_prints_what_the_page_shows(self, output):
        """The output equals the rendered page, apart from id, timestamp and class path."""
        expected = SEED_CLASS_LINE.sub("<class 'agentmsg.Msg'>", rendered_output_of_001())

        assert mask(expected) == mask(output)

    def test_class_line(self, output):
        """Deserializing prints ``<class 'agentmsg.Msg'>``."""
        assert "<class 'agentmsg.Msg'>" in output.splitlines()

    def test_masked_values_are_real(self, output):
        """The masked id and timestamp are a 22-character id and a local timestamp."""
        (message_id,) = ID_VALUE.findall(output)
        (timestamp,) = TIMESTAMP_VALUE.findall(output)

        assert re.fullmatch(r"[A-Za-z0-9_-]{22}", message_id)
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}", timestamp)


class TestSpanishGuide:
    """Seed 004: the guide's snippets, run in order in one namespace."""

    def test_snippets_are_found(self):
        """The guide's code is found, with its import lines swapped."""
        snippets = snippets_of_004()

        assert 5 <= len(snippets)
        assert sum(NEW_IMPORT in code for code in snippets) >= 3
        assert not any("agentscope" in code for code in snippets)

    def test_header_imports_only_what_is_missing(self):
        """The added import line brings the tool blocks the guide uses without importing."""
        assert ["ToolResultBlock", "ToolUseBlock"] == missing_imports(snippets_of_004())

    def test_messages_are_built(self, run):
        """Every message the guide builds is an agentmsg.Msg."""
        namespace, _ = run
        messages = {
            name: value for name, value in namespace.items() if isinstance(value, agentmsg.Msg)
        }

        assert {
            "mensaje_simple",
            "mensaje_compuesto",
            "mensaje_con_razonamiento",
            "solicitud_herramienta",
            "respuesta_herramienta",
            "mensaje_recuperado",
        } == set(messages)

    def test_serialization_prints_the_dict_as_json(self, run):
        """The serialization snippet prints valid JSON equal to the message's to_dict()."""
        namespace, printed = run
        message = namespace["mensaje_compuesto"]
        assert isinstance(message, agentmsg.Msg)

        assert message.to_dict() == json.loads(printed)
        assert namespace["datos_serializados"] == json.loads(printed)
        assert "análisis" in printed

    def test_round_trip(self, run):
        """The message loaded back from the dict equals the original."""
        namespace, _ = run

        assert namespace["mensaje_compuesto"] == namespace["mensaje_recuperado"]

    def test_tool_result_keeps_a_dict_output(self, run):
        """A tool result whose output is a dict keeps it as it is."""
        namespace, _ = run
        reply = namespace["respuesta_herramienta"]
        assert isinstance(reply, agentmsg.Msg)

        (block,) = reply.get_content_blocks("tool_result")
        assert isinstance(block["output"], dict)  # type: ignore[typeddict-item]
        assert reply == agentmsg.Msg.from_json(reply.to_json())


def example_two_of_003() -> str:
    """The code of the Chinese page's Example 2, with its import line swapped."""
    page = seed("003")
    start = page.index("import json", page.index("示例2"))
    code = page[start : page.index("示例的输出如下", start)]
    old = "from erniebot_agent.memory import"
    assert 1 == code.count(old)
    return code.replace(old, NEW_IMPORT)


def printed_lines_of_003() -> list[str]:
    """The three lines the Chinese page shows Example 2 printing."""
    page = seed("003")
    start = page.index("示例的输出如下")
    return [line for line in page[start:].splitlines() if line.startswith("<role:")][:3]


class TestChineseRoleMessages:
    """Seed 003: Example 2 of the role-message page."""

    def test_prints_the_three_lines(self):
        """The human and function lines are the page's; the system line counts its text."""
        result = subprocess.run(
            [sys.executable, "-c", example_two_of_003()],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONPATH": str(REPO / "src")},
        )
        human, system, function = printed_lines_of_003()
        content = re.search(r"SystemMessage\(content='([^']*)'\)", example_two_of_003())
        assert content is not None
        expected_system = f"<role: 'system', content: '{content.group(1)}', token_count: 23>"

        assert [human, expected_system, function] == result.stdout.splitlines()
        assert 23 == len(content.group(1))
        assert system.startswith("<role: 'system', content: '") and system.endswith("28>")
