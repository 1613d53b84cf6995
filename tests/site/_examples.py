"""Run every example a reader sees, the way the docs show it.

Two kinds of example live in the sources:

- **Gallery scripts** (``docs/examples/*.py``). Their code cells are run in order, in one
  namespace, with :func:`agentmsg.deterministic` active, exactly as sphinx-gallery runs them
  for the docs build. What each cell prints (and the value its last expression displays)
  is rendered as text and compared with ``tests/expected/<script>.txt``. ``make test-record``
  (``python tests/site/_examples.py record``) rewrites those files after an intended change.
- **Prose examples**: Python code blocks and doctests in the MyST/reST pages
  (``docs/**/*.md``, ``docs/**/*.rst``), the README, the docstrings of ``src/agentmsg`` and
  the ``.. code-block:: python`` blocks inside the comment text of the gallery scripts. They
  are found with Sybil and evaluated one by one. A code block that prints something fails:
  output a reader sees must be written as a doctest (``>>>``) or checked with ``assert``.

Every failure names the file a writer edits and the line of the example in it.
"""

from __future__ import annotations

import ast
import codeop
import contextlib
import difflib
import hashlib
import io
import os
import re
import shutil
import sys
import tempfile
import textwrap
import types
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sphinx_gallery.py_source_parser import extract_file_config, split_code_and_text_blocks
from sybil import Document, Example, Lexeme, Region
from sybil.document import PythonDocStringDocument
from sybil.evaluators.doctest import DocTestEvaluator
from sybil.evaluators.python import PythonEvaluator
from sybil.parsers import myst
from sybil.parsers.abstract import DocTestStringParser

import agentmsg

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
EXPECTED = ROOT / "tests" / "expected"
RECORD_COMMAND = "make test-record"

#: What sphinx-gallery displays for the last expression of a cell (its default, which
#: docs/conf.py keeps): the HTML card when the value has one, else its ``repr``.
CAPTURE_REPR: tuple[str, ...] = ("_repr_html_", "__repr__")

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

    This is the rule of ``reset_deterministic`` in ``docs/_ext/agentmsg_gallery.py``, which
    the docs build runs before each example, so the ids and timestamps recorded in
    ``tests/expected`` are the ones the pages show (a test checks that both agree).
    """
    return Path(script).stem


@dataclass(frozen=True)
class CellOutput:
    """What one code cell of a gallery script shows on its page."""

    line: int  #: Line of the cell's first non-blank line in the script.
    title: str  #: The cell's first line of code, to recognise it in the expected file.
    text: str  #: The text output box: stdout and stderr, then a ``repr`` if one is shown.
    html: str | None  #: The HTML output of the last expression (``_repr_html_``), if any.


@dataclass
class ScriptRun:
    """The result of running (part of) a gallery script."""

    script: Path
    cells: list[CellOutput] = field(default_factory=list)
    namespace: dict[str, Any] = field(default_factory=dict)


def _cell_title(code: str) -> str:
    lines = [line.strip() for line in code.splitlines() if line.strip()]
    statements = [line for line in lines if not line.startswith("#")] or lines
    title = statements[0]
    return title if len(title) <= 80 else title[:77] + "..."


def _last_repr(capture_repr: Sequence[str], value: Any) -> tuple[str | None, str | None]:
    """The value shown for the last expression, and the method that made it.

    Mirrors ``sphinx_gallery.gen_rst._get_last_repr``: the first method in
    *capture_repr* that returns a string wins; ``None`` (or ``"None"``) shows nothing.
    """
    shown: str | None = None
    method: str | None = None
    for name in capture_repr:
        try:
            shown = getattr(value, name)()
        except Exception:
            shown, method = None, None
        else:
            method = None if shown is None or shown == "None" else name
            if isinstance(shown, str):
                break
    return shown, method


_ANSI = re.compile(r"\x1B(?:[@-Z\\-_]|\[[0-?]*[ -/]*[@-~])")


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


def run_gallery_script(script: Path, workdir: Path, *, stop_before: int | None = None) -> ScriptRun:
    """Run *script* cell by cell, as the docs build does, and collect what each cell shows.

    The script runs in a copy of its folder inside *workdir*, so files it writes do not
    land in the source tree; code objects keep the script's own path and line numbers,
    so a traceback points at the script. With *stop_before*, only the blocks before that
    index (of sphinx-gallery's block list) run.
    """
    script = Path(script).resolve()
    file_conf, blocks = split_code_and_text_blocks(str(script))
    run = ScriptRun(script)
    compiler = codeop.Compile()
    cwd = copy_examples(script, workdir)
    with _script_environment(script, cwd) as main:
        run.namespace = main.__dict__
        for index, block in enumerate(blocks):
            if stop_before is not None and index >= stop_before:
                break
            if block.type != "code":
                continue
            block_conf = extract_file_config(block.content)
            capture_repr = block_conf.get(
                "capture_repr_block", file_conf.get("capture_repr", CAPTURE_REPR)
            )
            run.cells.append(_run_cell(compiler, script, block, capture_repr, main.__dict__))
    return run


def _run_cell(
    compiler: codeop.Compile,
    script: Path,
    block: Any,
    capture_repr: Sequence[str],
    namespace: dict[str, Any],
) -> CellOutput:
    tree = compile(
        "\n" * (block.lineno - 1) + block.content,
        str(script),
        "exec",
        flags=ast.PyCF_ONLY_AST | compiler.flags,
        dont_inherit=True,
    )
    assert isinstance(tree, ast.Module)
    last: ast.expr | None = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = tree.body.pop().value
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer):
        exec(compiler(tree, str(script), "exec"), namespace)
        if last is not None:
            assign = ast.Assign(targets=[ast.Name(id="___", ctx=ast.Store())], value=last)
            module = ast.fix_missing_locations(ast.Module(body=[assign], type_ignores=[]))
            exec(compiler(module, str(script), "exec"), namespace)
    shown, method = _last_repr(capture_repr, namespace["___"]) if last is not None else (None, None)
    text = buffer.getvalue().expandtabs()
    if method in ("__repr__", "__str__") and shown:
        text = f"{text}\n{shown}"
    text = "" if text.isspace() else _ANSI.sub("", text)
    html = shown if method == "_repr_html_" and shown is not None else None
    content = block.content
    blank = len(content[: len(content) - len(content.lstrip())].split("\n")) - 1
    return CellOutput(block.lineno + blank, _cell_title(content), text, html)


_GALLERY_OUTPUT = re.compile(
    r"^\.\. rst-class:: sphx-glr-script-out\n\n \.\. code-block:: none\n\n"
    r"(?P<text>(?:    .*\n|\n)+)"
    r'|^    <div class="output_subarea output_html rendered_html output_result">\n'
    r"(?P<html>(?:    .*\n|\n)+?)    </div>",
    re.MULTILINE,
)


def built_outputs(generated_rst: str) -> list[tuple[str, str]]:
    """The output boxes of a page sphinx-gallery generated, in order: ``(kind, text)``.

    *kind* is ``"text"`` (printed output and reprs) or ``"html"`` (an HTML repr).
    """
    return [
        (kind, textwrap.dedent(match.group(kind)).strip())
        for match in _GALLERY_OUTPUT.finditer(generated_rst)
        for kind in ("text", "html")
        if match.group(kind) is not None
    ]


def run_outputs(run: ScriptRun) -> list[tuple[str, str]]:
    """The output boxes of a run, in the order and form of :func:`built_outputs`."""
    boxes = []
    for cell in run.cells:
        if cell.text:
            boxes.append(("text", cell.text.strip()))
        if cell.html is not None:
            boxes.append(("html", cell.html.strip()))
    return boxes


# -- the expected output files -----------------------------------------------------------

_DATA_URI = re.compile(r"(data:[\w.+-]+/[\w.+-]+;base64,)([A-Za-z0-9+/=]{80,})")


_STYLE = re.compile(r"(<style[^>]*>)(.*?)(</style>)", re.DOTALL)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def readable_html(html: str) -> str:
    """*html* with one tag per line, and base64 payloads and style sheets as digests.

    A changed image or style sheet still changes the text (its digest), in one line.
    """
    html = _DATA_URI.sub(
        lambda m: f"{m.group(1)}[{len(m.group(2))} base64 chars, sha256 {_digest(m.group(2))}]",
        html.strip(),
    )
    html = _STYLE.sub(
        lambda m: (
            f"{m.group(1)}[{len(m.group(2))} chars of CSS, sha256 {_digest(m.group(2))}]"
            f"{m.group(3)}"
        ),
        html,
    )
    return re.sub(r">\s*<", ">\n<", html)


def expected_path(script: Path, expected_dir: Path = EXPECTED) -> Path:
    """Where the expected output of *script* is recorded."""
    return expected_dir / f"{Path(script).stem}.txt"


def render(run: ScriptRun) -> tuple[str, list[int]]:
    """The expected-output text of a run, and for each of its lines the cell's line.

    Cells that show nothing are left out. Cells are headed by their first line of code
    (not by a line number, so that editing the prose does not change the file).
    """
    lines = [
        f"# What docs/examples/{run.script.name} shows, cell by cell (tests/site/_examples.py).",
        f"# After an intended change, re-record with `{RECORD_COMMAND}`.",
    ]
    origins = [0, 0]
    for cell in run.cells:
        if not cell.text and cell.html is None:
            continue
        part = ["", f"## {cell.title}"]
        if cell.text:
            part += cell.text.rstrip().splitlines()
        if cell.html is not None:
            part += ["[html]", *readable_html(cell.html).splitlines()]
        lines += part
        origins += [cell.line] * len(part)
    return "\n".join(lines) + "\n", origins


class OutputMismatch(AssertionError):
    """A gallery script shows something else than its recorded expected output."""


def compare_with_expected(script: Path, workdir: Path, expected_dir: Path = EXPECTED) -> None:
    """Run *script* and compare what it shows with its recorded output.

    Raises:
        OutputMismatch: No output is recorded, or the output differs. The message names
            the script, the line of each cell whose output changed, and holds a unified
            diff from the recorded to the actual output.
    """
    script = Path(script)
    recorded = expected_path(script, expected_dir)
    if not recorded.exists():
        msg = (
            f"{relative(script)} has no recorded output ({relative(recorded)} is missing). "
            f"Run `{RECORD_COMMAND}` to record it, then review and commit the new file."
        )
        raise OutputMismatch(msg)
    actual, origins = render(run_gallery_script(script, workdir))
    expected = recorded.read_text(encoding="utf-8")
    if actual == expected:
        return
    old, new = expected.splitlines(keepends=True), actual.splitlines(keepends=True)
    changed: set[int] = set()
    for tag, _i1, _i2, j1, j2 in difflib.SequenceMatcher(None, old, new).get_opcodes():
        if tag != "equal":
            span = range(j1, j2) if j2 > j1 else [min(j1, len(origins) - 1)]
            changed.update(origins[j] for j in span if origins[j])
    where = ", ".join(f"{relative(script)}:{line}" for line in sorted(changed)) or "the header"
    diff = "".join(
        difflib.unified_diff(
            old,
            new,
            fromfile=f"{relative(recorded)} (recorded)",
            tofile=f"{relative(script)} (now)",
        )
    )
    msg = (
        f"{relative(script)} shows something else than {relative(recorded)} records.\n"
        f"Changed output of the cell at {where}.\n"
        f"If the change is intended, run `{RECORD_COMMAND}` and commit the new expected output.\n\n"
        f"{diff}"
    )
    raise OutputMismatch(msg)


def record(
    scripts: Sequence[Path], expected_dir: Path = EXPECTED, *, prune: bool = True
) -> list[str]:
    """Write the expected output of each script; with *prune*, remove the other files.

    Returns one line per file saying what happened to it.
    """
    expected_dir.mkdir(parents=True, exist_ok=True)
    report = []
    keep = {expected_path(script, expected_dir) for script in scripts}
    for script in scripts:
        path = expected_path(script, expected_dir)
        with tempfile.TemporaryDirectory() as workdir:
            text, _ = render(run_gallery_script(script, Path(workdir)))
        before = path.read_text(encoding="utf-8") if path.exists() else None
        path.write_text(text, encoding="utf-8")
        state = "new" if before is None else "unchanged" if before == text else "updated"
        report.append(f"{state:9} {relative(path)}")
    for path in sorted(expected_dir.glob("*.txt")) if prune else ():
        if path not in keep:
            path.unlink()
            report.append(f"{'removed':9} {relative(path)}")
    return report


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
    modules = [p for p in (ROOT / "src" / "agentmsg").glob("*.py")]
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
            run = run_gallery_script(case.path, workdir, stop_before=block)
            namespace = {name: getattr(agentmsg, name) for name in agentmsg.__all__}
            namespace.update(run.namespace)
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


# -- command line ----------------------------------------------------------------------


def main(argv: Sequence[str]) -> int:
    """``python tests/site/_examples.py record [SCRIPT...]``: re-record expected outputs.

    Without script arguments, every gallery script is recorded and the files of scripts
    that no longer exist are removed.
    """
    if not argv or argv[0] != "record":
        print("usage: python tests/site/_examples.py record [docs/examples/SCRIPT.py ...]")
        return 2
    named = [Path(arg).resolve() for arg in argv[1:]]
    print(*record(named or gallery_scripts(), prune=not named), sep="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
