"""Run every example a reader finds in the prose, the way the docs show it.

The Python code blocks and doctests in the MyST/reST pages (``docs/**/*.md``,
``docs/**/*.rst``), the README, the docstrings of ``src/agentmsg`` and the
``.. code-block:: python`` blocks inside the comment text of the gallery scripts are found
with Sybil and evaluated one by one. A code block that prints something fails: output a
reader sees must be written as a doctest (``>>>``) or checked with ``assert``. An example
in a gallery script's prose runs after the script's code up to there, as a reader runs
it. Every failure names the file a writer edits and the line of the example in it.

What the gallery scripts' own cells print is compared with ``tests/expected/`` from what
sphinx-gallery captured in the build (``tests/helpers/_outputs.py``), not here.
"""

from __future__ import annotations

import ast
import contextlib
import io
import os
import re
import shutil
import sys
import textwrap
import types
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sphinx_gallery.py_source_parser import split_code_and_text_blocks
from sybil import Document, Example, Lexeme, Region
from sybil.document import PythonDocStringDocument
from sybil.evaluators.doctest import DocTestEvaluator
from sybil.evaluators.python import PythonEvaluator
from sybil.parsers import myst
from sybil.parsers.abstract import DocTestStringParser

import agentmsg

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"

#: Languages of code blocks that hold Python.
PYTHON_LANGUAGES = ("python", "py", "python3", "pycon")

#: Folders under docs/ that hold generated files, not sources a writer edits.
GENERATED_DOCS = ("tutorial", "_build", "_gettext", "_ext", "_templates", "_static")


def relative(path: Path | str) -> str:
    """*path* relative to the repository root when it is inside it, else unchanged."""
    path = Path(path)
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


# -- gallery scripts -------------------------------------------------------------------


def gallery_scripts(folder: Path = EXAMPLES) -> list[Path]:
    """The gallery scripts sphinx-gallery turns into tutorial pages, sorted by name."""
    return sorted(path for path in folder.glob("*.py") if path.name != "__init__.py")


def example_seed(script: Path) -> str:
    """The seed of :func:`agentmsg.deterministic` for one gallery script: its name, no suffix.

    This is the rule of ``reset_deterministic`` in
    ``docs/agentmsg_docs/gallery/tutorials.py``, which
    the docs build runs before each example, so the ids and timestamps recorded in
    ``tests/expected`` are the ones the pages show (a test checks that both agree).
    """
    return Path(script).stem


@contextlib.contextmanager
def _script_environment(script: Path, workdir: Path) -> Iterator[types.ModuleType]:
    """Run inside *workdir* (a copy of the examples folder) as ``__main__``, like sphinx-gallery.

    Yields the fake ``__main__`` module whose dict is the script's namespace.
    """
    main = types.ModuleType("__main__")
    main.__dict__.update({"__doc__": "", "input": _no_input})
    saved = (os.getcwd(), sys.path[:], sys.argv[:], sys.modules.get("__main__"))
    os.chdir(workdir)
    sys.path.append(str(workdir))
    sys.argv[:] = [str(script)]
    sys.modules["__main__"] = main
    try:
        with agentmsg.deterministic(seed=example_seed(script)):
            yield main
    finally:
        os.chdir(saved[0])
        sys.path[:] = saved[1]
        sys.argv[:] = saved[2]
        if saved[3] is not None:
            sys.modules["__main__"] = saved[3]


def _no_input(prompt: object = None) -> None:
    msg = "A gallery script cannot call input(): the docs build runs it unattended."
    raise RuntimeError(msg)


def copy_examples(script: Path, workdir: Path) -> Path:
    """Copy the script's folder (data files included) into *workdir*; return the copy."""
    target = workdir / "examples"
    shutil.copytree(script.parent, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def script_namespace(script: Path, workdir: Path, stop_before: int) -> dict[str, Any]:
    """The namespace of *script* after its code blocks before block *stop_before* (of
    sphinx-gallery's block list) ran, in a copy of its folder inside *workdir*, as the
    docs build runs them; what they print is not shown."""
    script = Path(script).resolve()
    _, blocks = split_code_and_text_blocks(str(script))
    cwd = copy_examples(script, workdir)
    with _script_environment(script, cwd) as main, contextlib.redirect_stdout(io.StringIO()):
        for block in blocks[:stop_before]:
            if block.type == "code":
                code = compile("\n" * (block.lineno - 1) + block.content, str(script), "exec")
                exec(code, main.__dict__)
        return main.__dict__


# -- prose examples ----------------------------------------------------------------------

DOCTEST_FLAGS = 0


class CheckedPythonEvaluator(PythonEvaluator):
    """Run a code block; fail when it prints, because nothing would check what it printed."""

    def __call__(self, example: Example) -> str | None:
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            super().__call__(example)
        if buffer.getvalue().strip():
            return (
                "This code block prints output that nothing checks:\n"
                f"{textwrap.indent(buffer.getvalue().rstrip(), '    ')}\n"
                "Write it as a doctest (>>> lines followed by the output) or use assert."
            )
        return None


_CHECKED = CheckedPythonEvaluator()
_DOCTESTS = DocTestStringParser(DocTestEvaluator(DOCTEST_FLAGS))

_REST_DIRECTIVE = re.compile(
    r"^(?P<prefix>[ \t]*(?:(?:[-*+]|\d+\.|#\.|\|)[ \t]+)*)"
    r"\.\.[ \t]+(?:code-block|code|sourcecode)::[ \t]*(?P<language>[^\s]*)[ \t]*$",
    re.MULTILINE,
)


class RestParser:
    """Python code blocks and doctests in reStructuredText (pages, docstrings, gallery prose).

    Unlike Sybil's own reST lexer, this finds ``.. code-block:: python`` anywhere a
    directive may start, including inside list items and ``list-table`` cells. A code
    block whose text starts with ``>>>`` is a doctest session; doctests found elsewhere
    (literal blocks, plain paragraphs) run too.
    """

    def __call__(self, document: Document) -> Iterator[Region]:
        text = document.text
        code_spans: list[tuple[int, int]] = []
        for match in _REST_DIRECTIVE.finditer(text):
            if match.group("language") not in PYTHON_LANGUAGES:
                continue
            column = len(match.group("prefix"))
            source, source_start, end = _indented_body(text, match.end(), column)
            if source.lstrip().startswith(">>>"):
                continue  # a doctest session: the doctest scan below finds it
            start = match.start() + column
            line_offset = text.count("\n", start, source_start) - 1  # Sybil pads one more
            lexeme = Lexeme(source, source_start - start, line_offset)
            code_spans.append((start, end))
            yield Region(start, end, lexeme, _CHECKED)
        for region in _DOCTESTS(text, document.path):
            if not any(start <= region.start < end for start, end in code_spans):
                yield region


def _indented_body(text: str, position: int, column: int) -> tuple[str, int, int]:
    """The dedented body of a directive whose ``..`` is at *column*, starting at *position*.

    Returns the body, the offset of its first line and the offset where it ends.
    """
    lines = text[position:].split("\n")[1:]  # the rest of the directive line is empty
    offset = position + 1
    body: list[str] = []
    first = None
    end = offset
    in_options = True
    for line in lines:
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if stripped and indent <= column:
            break
        if in_options and stripped.startswith(":") and first is None:
            pass  # a directive option such as :caption:
        elif stripped or first is not None:
            in_options = False
            if first is None:
                first = offset
            body.append(line)
        elif first is None:
            in_options = False
        offset += len(line) + 1
        if stripped:
            end = offset - 1
    source = textwrap.dedent("\n".join(body)).rstrip() + "\n"
    return source, first if first is not None else end, end


_EVAL_RST = re.compile(
    r"^(?P<fence>`{3,}|~{3,})[ \t]*\{eval-rst\}[^\n]*\n(?P<body>.*?)^(?P=fence)[ \t]*$",
    re.MULTILINE | re.DOTALL,
)


class MystParser:
    """Python code blocks (fenced or ``{code-block}``) and ``{doctest}`` blocks in MyST/Markdown.

    A Python block whose text starts with ``>>>`` is a doctest session. The reST inside
    ``{eval-rst}`` blocks is parsed with :class:`RestParser`.
    """

    def __init__(self) -> None:
        self.code = [myst.CodeBlockParser(language, _CHECKED) for language in PYTHON_LANGUAGES]
        self.directives = myst.DocTestDirectiveParser(DOCTEST_FLAGS)

    def __call__(self, document: Document) -> Iterator[Region]:
        for parser in self.code:
            for region in parser(document):
                source = region.parsed
                if source.lstrip().startswith(">>>"):
                    for doctest in _DOCTESTS(source, document.path):
                        doctest.adjust(region, source)
                        yield doctest
                else:
                    yield region
        yield from self.directives(document)
        text = document.text
        embedded = [match.span("body") for match in _EVAL_RST.finditer(text)]
        if embedded:
            # Blank everything but the reST, so offsets and lines stay those of the page.
            shadow = "".join(
                char if char == "\n" or any(start <= i < end for start, end in embedded) else " "
                for i, char in enumerate(text)
            )
            yield from RestParser()(Document(shadow, document.path))


def prose_sources() -> list[Path]:
    """Every file whose prose holds examples: README, docs pages, docstrings, gallery prose."""
    pages = [
        path
        for pattern in ("*.md", "*.rst", "*.txt")
        for path in (ROOT / "docs").rglob(pattern)
        if not set(path.relative_to(ROOT / "docs").parts[:-1]) & set(GENERATED_DOCS)
        and path.name != "sg_execution_times.rst"
    ]
    modules = [p for p in (ROOT / "src" / "agentmsg").rglob("*.py")]
    return sorted([ROOT / "README.md", *pages, *modules, *gallery_scripts()])


def is_gallery_script(path: Path) -> bool:
    """Whether *path* is a gallery script (its prose is in comments, not docstrings)."""
    return path.suffix == ".py" and path.resolve().parent.parts[-2:] == ("docs", "examples")


@dataclass(frozen=True)
class GalleryProse:
    """The text blocks of a gallery script, laid out at their lines in the script."""

    text: str  #: The script with every code line blanked and comment markers removed.
    block_of_line: dict[int, int]  #: For each prose line (1-based), its block index.


def gallery_prose(script: Path) -> GalleryProse:
    """The prose of *script*, split by sphinx-gallery, at the lines it has in the script.

    Parsing this text finds the examples at their real line numbers, so tracebacks and
    test ids point into the script a writer edits.
    """
    source_lines = script.read_text(encoding="utf-8").split("\n")
    shadow = [""] * len(source_lines)
    block_of_line: dict[int, int] = {}
    _, blocks, node = split_code_and_text_blocks(str(script), return_node=True)
    for index, block in enumerate(blocks):
        if block.type != "text":
            continue
        if index == 0:  # the module docstring: its raw value, line for line
            assert node is not None
            doc = node.body[0]
            assert isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant)
            raw = str(doc.value.value).split("\n")
            content = [raw[0], *textwrap.dedent("\n".join(raw[1:])).split("\n")]
            first = doc.lineno
        else:
            content = block.content.split("\n")
            first = block.lineno
            while source_lines[first - 1].lstrip().lstrip("#").strip() == "":
                first += 1  # sphinx-gallery strips the blank comment lines it starts with
        for offset, text in enumerate(content):
            number = first + offset
            if number > len(source_lines):
                break
            if text.strip() and text.strip() not in source_lines[number - 1]:
                msg = f"{relative(script)}:{number}: cannot place the prose line {text!r}"
                raise ValueError(msg)
            shadow[number - 1] = text
            block_of_line[number] = index
    return GalleryProse("\n".join(shadow), block_of_line)


def parse_document(path: Path) -> Document:
    """Parse *path* into a Sybil document with the parsers its format needs."""
    if is_gallery_script(path):
        document = Document(gallery_prose(path).text, str(path))
        for region in RestParser()(document):
            document.add(region)
        return document
    if path.suffix == ".py":
        return PythonDocStringDocument.parse(str(path), RestParser())
    if path.suffix in (".rst", ".txt"):
        return Document.parse(str(path), RestParser())
    return Document.parse(str(path), MystParser())


@dataclass(frozen=True)
class ProseExample:
    """One example found in prose: its file, line and position among the file's examples."""

    path: Path
    line: int
    index: int

    @property
    def id(self) -> str:
        return f"{relative(self.path)}:{self.line}"


def prose_examples(sources: Sequence[Path] | None = None) -> list[ProseExample]:
    """Every prose example in *sources* (default: :func:`prose_sources`)."""
    found = []
    for path in prose_sources() if sources is None else sources:
        for index, example in enumerate(parse_document(path)):
            found.append(ProseExample(path, example.line, index))
    return found


def run_prose_example(case: ProseExample, workdir: Path) -> None:
    """Evaluate one prose example after the ones it builds on, in a fresh namespace.

    The examples before it in the same file (for a gallery script: in the same text
    block, after the script's code up to there) run first, because a reader runs them
    first. Everything runs inside *workdir*.

    An earlier example that fails does not stop this one: if this one fails too, a note
    lists the earlier failures, which may be the cause.

    Raises:
        Exception: What the example raised (``SybilFailure`` for a wrong doctest output),
            with a note naming ``file:line``.
    """
    __tracebackhide__ = True
    document = parse_document(case.path)
    with contextlib.ExitStack() as stack:
        if is_gallery_script(case.path):
            block_of_line = gallery_prose(case.path).block_of_line
            block = block_of_line[list(document)[case.index].line]
            namespace = {name: getattr(agentmsg, name) for name in agentmsg.__all__}
            namespace.update(script_namespace(case.path, workdir, stop_before=block))
            document.namespace = namespace  # examples take the namespace when listed
            stack.enter_context(_script_environment(case.path, workdir / "examples"))
            examples = list(document)
            before = [e for e in examples[: case.index] if block_of_line[e.line] == block]
        else:
            stack.enter_context(contextlib.chdir(workdir))
            examples = list(document)
            before = examples[: case.index]
        target = examples[case.index]
        failed_before = []
        for earlier in before:
            try:
                earlier.evaluate()
            except Exception:
                failed_before.append(f"{relative(case.path)}:{earlier.line}")
        try:
            target.evaluate()
        except Exception as error:
            error.add_note(f"The example is at {case.id}.")
            if failed_before:
                error.add_note(
                    f"Earlier examples it may depend on fail too: {', '.join(failed_before)}."
                )
            raise


def uncovered_python_lines(path: Path) -> list[int]:
    """Lines of *path* that open a Python example no parser found (should be none).

    An opening is a ``>>>`` prompt, a ``.. code-block:: python`` directive, or a Markdown
    fence or MyST directive for Python or doctests. A line counts as covered when it lies
    inside one of the examples parsed from the file.
    """
    document = parse_document(path)
    if is_gallery_script(path):
        text = gallery_prose(path).text
    elif path.suffix == ".py":
        full = path.read_text(encoding="utf-8")
        keep = [(start, end) for start, end, _ in PythonDocStringDocument.extract_docstrings(full)]
        text = "".join(
            char if char == "\n" or any(s <= i < e for s, e in keep) else " "
            for i, char in enumerate(full)
        )
    else:
        text = document.text
    covered: set[int] = set()
    for _, region in document.regions:
        first = text.count("\n", 0, region.start) + 1
        last = text.count("\n", 0, max(region.start, region.end - 1)) + 1
        covered.update(range(first, last + 1))
    languages = "|".join(PYTHON_LANGUAGES)
    opening = re.compile(
        r"^\s*>>>(?:\s|$)"
        rf"|\.\.\s+(?:code-block|code|sourcecode)::\s*(?:{languages})\s*$"
        rf"|^\s*(?:[-*+]\s+)?(?:`{{3,}}|~{{3,}}|:{{3,}})\s*(?:(?:{languages})\b"
        rf"|\{{(?:code-block|code|code-cell|sourcecode)\}}\s*(?:{languages})\b|\{{doctest\}})"
    )
    lines = text.split("\n")

    def body_start(number: int) -> int:
        """The first line after an opening that is neither blank nor a directive option."""
        for after in range(number + 1, len(lines) + 1):
            stripped = lines[after - 1].strip()
            if stripped and not stripped.startswith(":"):
                return after
        return number

    return [
        number
        for number, line in enumerate(lines, start=1)
        if opening.search(line) and number not in covered and body_start(number) not in covered
    ]
