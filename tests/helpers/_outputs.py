"""What each tutorial shows, as sphinx-gallery captured it in the build, against
``tests/expected/``.

The examples pass of the docs build (``python -m agentmsg_docs examples``, part of ``make
html``) executes every ``docs/examples/<name>.py`` once and writes
``docs/tutorial/<name>.rst``: for each code cell, the script lines it came from
(``.. GENERATED FROM PYTHON SOURCE LINES a-b``), its code, and the output box the page
shows under it (printed text and reprs; or the HTML of a ``_repr_html_``). This module
reads those pages, so the regression compares the very output a reader sees; nothing
runs the scripts a second time. (The cards' labels are captured deferred, as markers each
language build writes in its language; they are recorded here in English.)

``tests/expected/<name>.txt`` holds that output cell by cell, headed by each cell's first
line of code; ``make test-record`` (``tools/record_outputs.py``) runs the
examples pass and rewrites the files after an intended change.
"""

from __future__ import annotations

import difflib
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
GALLERY = ROOT / "docs" / "tutorial"
EXPECTED = ROOT / "tests" / "expected"
RECORD_COMMAND = "make test-record"

__all__ = [
    "EXPECTED",
    "GALLERY",
    "RECORD_COMMAND",
    "Cell",
    "OutputMismatch",
    "captured_cells",
    "captured_html",
    "cards_in",
    "cell_title",
    "compare_with_expected",
    "readable_html",
    "record",
    "render",
]


def relative(path: Path) -> str:
    """*path* relative to the repository root when it is inside it, else unchanged."""
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


@dataclass(frozen=True)
class Cell:
    """One code cell of a tutorial and what its page shows under it."""

    line: int  #: Line of the cell's first non-blank line in the script.
    title: str  #: The cell's first line of code, to recognise it in the expected file.
    text: str  #: The text output box (printed text, then a repr if one is shown), or "".
    html: str | None  #: The HTML output of the last expression (``_repr_html_``), if any.


def cell_title(code: str) -> str:
    """A cell's first line of code, without its comments (they are in the reader's
    language), cut at 80 characters."""
    from agentmsg_docs.i18n.comments import strip_comments  # docs/ on the path, as above

    code = strip_comments(code, "python") or code
    lines = [line.strip() for line in code.splitlines() if line.strip()]
    statements = [line for line in lines if not line.startswith("#")] or lines
    title = statements[0]
    return title if len(title) <= 80 else title[:77] + "..."


def captured_html(generated: str) -> list[str]:
    """The HTML output boxes of a generated page, as captured (cards' labels deferred)."""
    from agentmsg_docs.gallery.downloads import captured_outputs  # docs/ on the path, as above

    return [cell.html for cell in captured_outputs(generated).values() if cell.html is not None]


def captured_cells(generated: str, script_lines: Sequence[str]) -> list[Cell]:
    """The code cells of a page sphinx-gallery generated, with what each shows
    (:func:`agentmsg_docs.gallery.downloads.captured_outputs` reads them for the notebooks too).

    *script_lines* are the lines of the script the page came from, to place each cell at
    its first non-blank line.
    """
    from agentmsg_docs.gallery.cards import localize  # docs/ on the path: pytest, make test-record
    from agentmsg_docs.gallery.downloads import captured_outputs

    cells = []
    for first, captured in captured_outputs(generated).items():
        line = first
        while line <= len(script_lines) and not script_lines[line - 1].strip():
            line += 1
        cells.append(
            Cell(
                line=line,
                title=cell_title(captured.code),
                text=captured.text,
                html=None if captured.html is None else localize(captured.html, "en"),
            )
        )
    return cells


# -- the expected output files ---------------------------------------------------------

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


def cards_in(
    lang: str, name: str, sections: Sequence[tuple[str, str]], gallery: Path = GALLERY
) -> list[tuple[str, str]]:
    """*sections* of ``tests/expected/<name>.txt`` (``(heading, body)``) with each card
    in *lang*: the card the build captured (``docs/tutorial/<name>.rst``, its labels as
    markers) rendered in *lang*, once its English rendering is checked to be the recorded
    one. Where code runs in a reader's language (the in-page runner, the zh_CN and es
    notebooks), this is what it shows.

    Raises:
        OutputMismatch: The captured cards are not the recorded ones.
    """
    from agentmsg_docs.gallery.cards import localize  # docs/ is on the path (pytest, Makefile)

    if lang == "en":
        return list(sections)
    cards = iter(captured_html((gallery / f"{name}.rst").read_text(encoding="utf-8")))
    found = []
    for heading, body in sections:
        text, marker, english = body.partition("[html]\n")
        if marker:
            card = next(cards, None)
            if card is None or readable_html(localize(card, "en")) != english:
                msg = f"{name}: the card of `{heading}` is not the one {RECORD_COMMAND} recorded"
                raise OutputMismatch(msg)
            body = f"{text}{marker}{readable_html(localize(card, lang))}"
        found.append((heading, body))
    return found


def expected_path(name: str, expected_dir: Path = EXPECTED) -> Path:
    """Where the expected output of tutorial *name* is recorded."""
    return expected_dir / f"{name}.txt"


def render(name: str, cells: Sequence[Cell]) -> tuple[str, list[int]]:
    """The expected-output text of tutorial *name*, and for each line its cell's line.

    Cells that show nothing are left out. Cells are headed by their first line of code
    (not by a line number, so that editing the prose does not change the file).
    """
    lines = [
        f"# What docs/examples/{name}.py shows, cell by cell, as the docs build captured it.",
        f"# After an intended change, re-record with `{RECORD_COMMAND}`.",
    ]
    origins = [0, 0]
    for cell in cells:
        if not cell.text and cell.html is None:
            continue
        part = ["", f"## {cell.title}"]
        if cell.text:
            part += cell.text.splitlines()
        if cell.html is not None:
            part += ["[html]", *readable_html(cell.html).splitlines()]
        lines += part
        origins += [cell.line] * len(part)
    return "\n".join(lines) + "\n", origins


def shown_by(
    name: str, gallery: Path = GALLERY, examples: Path = EXAMPLES
) -> tuple[str, list[int]]:
    """:func:`render` of what the generated page of tutorial *name* shows."""
    page = gallery / f"{name}.rst"
    script = examples / f"{name}.py"
    if not page.is_file():
        msg = (
            f"{relative(page)} is missing: the examples pass has not run "
            "(`python -m agentmsg_docs examples`, or `make html`)."
        )
        raise FileNotFoundError(msg)
    cells = captured_cells(
        page.read_text(encoding="utf-8"), script.read_text(encoding="utf-8").split("\n")
    )
    return render(name, cells)


class OutputMismatch(AssertionError):
    """A tutorial shows something else than its recorded expected output."""


def compare_with_expected(
    name: str,
    gallery: Path = GALLERY,
    examples: Path = EXAMPLES,
    expected_dir: Path = EXPECTED,
) -> None:
    """Compare what the generated page of tutorial *name* shows with its recorded output.

    Raises:
        OutputMismatch: No output is recorded, or the output differs. The message names
            the script, the line of each cell whose output changed, and holds a unified
            diff from the recorded to the actual output.
    """
    script = examples / f"{name}.py"
    recorded = expected_path(name, expected_dir)
    if not recorded.exists():
        msg = (
            f"{relative(script)} has no recorded output ({relative(recorded)} is missing). "
            f"Run `{RECORD_COMMAND}` to record it, then review and commit the new file."
        )
        raise OutputMismatch(msg)
    actual, origins = shown_by(name, gallery, examples)
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


def tutorial_names(examples: Path = EXAMPLES) -> list[str]:
    """The tutorials' names: the gallery scripts in *examples*, sorted."""
    return sorted(path.stem for path in examples.glob("*.py") if path.name != "__init__.py")


def record(
    names: Sequence[str],
    gallery: Path = GALLERY,
    examples: Path = EXAMPLES,
    expected_dir: Path = EXPECTED,
    *,
    prune: bool = True,
) -> list[str]:
    """Write the expected output of each tutorial from its generated page; with *prune*,
    remove the files of tutorials not named. Returns a line per file saying what happened.
    """
    expected_dir.mkdir(parents=True, exist_ok=True)
    report = []
    for name in names:
        path = expected_path(name, expected_dir)
        text, _ = shown_by(name, gallery, examples)
        before = path.read_text(encoding="utf-8") if path.exists() else None
        path.write_text(text, encoding="utf-8")
        state = "new" if before is None else "unchanged" if before == text else "updated"
        report.append(f"{state:9} {relative(path)}")
    keep = {expected_path(name, expected_dir) for name in names}
    for path in sorted(expected_dir.glob("*.txt")) if prune else ():
        if path not in keep:
            path.unlink()
            report.append(f"{'removed':9} {relative(path)}")
    return report
