"""The tutorials' downloads, in the reader's language and reproducible.

In a non-English build, the ``.py`` and ``.zip`` files a tutorial page links to are
rewritten with the prose translated paragraph by paragraph from the page's catalog (the
same msgids Sphinx extracts: :func:`text_msgids`), the code untouched. In every language,
English included, the ``.ipynb`` is written from that script with clean Markdown cells
(``agentmsg_notebooks.py``) instead of sphinx-gallery's, which keep raw reST. Every zip,
in every language, is written with fixed timestamps in a sorted order, so that two builds
give the same bytes.
"""

from __future__ import annotations

import io
import json
import re
import tempfile
import textwrap
import zipfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agentmsg_gallery import GALLERY_DIR, example_scripts
from agentmsg_notebooks import notebook_markdown
from docutils.utils import column_width
from sphinx.util import logging

if TYPE_CHECKING:
    from sphinx.application import Sphinx

__all__ = [
    "load_catalog",
    "text_msgids",
    "translate_rst",
    "translate_script",
    "write_zip",
]

logger = logging.getLogger(__name__)

Lookup = Callable[[str], "str | None"]


# ----------------------------------------------------------------------------------------
# Translating the prose of a gallery script with a page's catalog

_BULLET = re.compile(r"^(\s*)((?:(?:[-*+•]|\d+[.)]|#\.)\s+)+)")
_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+([\w:-]+)::(.*)$")
_EXPLICIT = re.compile(r"^(\s*)\.\.(\s|$)")  # comments, targets, substitutions
_FIELD = re.compile(r"^\s*:[^:\s][^:]*:(\s|$)")
_ADORNMENT = re.compile(r"^([=\-`:'\"~^_*+#<>.])\1{2,}\s*$")
#: Directives whose content is code or markup, copied as is.
_VERBATIM = {
    "code",
    "code-block",
    "sourcecode",
    "literalinclude",
    "math",
    "raw",
    "highlight",
    "doctest",
    "testcode",
    "testoutput",
    "image",
    "figure",
    "include",
}
#: Directives whose argument is a translatable title.
_TITLED = {"admonition", "list-table", "table", "csv-table", "topic", "sidebar", "rubric"}
#: Admonitions, whose argument is the first paragraph of their body.
_ADMONITIONS = {
    "attention",
    "caution",
    "danger",
    "error",
    "hint",
    "important",
    "note",
    "tip",
    "warning",
    "seealso",
}


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _rst_units(text: str) -> Iterator[tuple[str, int, int, str, str]]:
    """Split reST into units: ``(kind, start, stop, prefix, msgid)``.

    *kind* is ``"title"``, ``"paragraph"`` (also a list item's or table cell's text, and
    a titled directive's argument) or ``"verbatim"``; lines ``start:stop`` hold the unit;
    *prefix* is what stays in front of the translated text (indentation, bullet, or the
    directive up to its argument); *msgid* is the text as Sphinx's gettext builder
    extracts it (lines joined with spaces).
    """
    original = text.split("\n")
    lines = list(original)  # a list item that starts with ".. " is re-read as that markup
    count = len(lines)
    index = 0
    verbatim_deeper_than: int | None = None
    while index < count:
        line = lines[index]
        if not line.strip():
            index += 1
            continue
        indent = _indent(line)
        bullet = _BULLET.match(line)
        if bullet and _EXPLICIT.match(line[bullet.end() :]):
            lines[index] = " " * bullet.end() + line[bullet.end() :]
            continue
        if verbatim_deeper_than is not None:
            if indent > verbatim_deeper_than:
                yield ("verbatim", index, index + 1, "", "")
                index += 1
                continue
            verbatim_deeper_than = None
        directive = _DIRECTIVE.match(line)
        if directive:
            name = directive.group(2).split(":")[-1]
            argument = directive.group(3).strip()
            head = original[index][: len(line) - len(directive.group(3))] + " "
            if argument and (name in _TITLED or name in _ADMONITIONS):
                stop = index + 1
                parts = [argument]
                while name in _ADMONITIONS and stop < count and lines[stop].strip():
                    if _indent(lines[stop]) <= indent or _FIELD.match(lines[stop]):
                        break
                    parts.append(lines[stop].strip())
                    stop += 1
                yield ("paragraph", index, stop, head, " ".join(parts))
                index = stop
            else:
                yield ("verbatim", index, index + 1, "", "")
                index += 1
            if name in _VERBATIM:
                verbatim_deeper_than = indent
            continue
        if _EXPLICIT.match(line):
            yield ("verbatim", index, index + 1, "", "")
            verbatim_deeper_than = indent
            index += 1
            continue
        if _FIELD.match(line):
            yield ("verbatim", index, index + 1, "", "")
            index += 1
            continue
        below = lines[index + 1] if index + 1 < count else ""
        if _ADORNMENT.match(line.strip()):
            after = lines[index + 2] if index + 2 < count else ""
            if below.strip() and _ADORNMENT.match(after.strip()):  # over- and underlined
                yield ("title", index + 1, index + 2, "", below.strip())
                index += 3
            else:  # a transition
                yield ("verbatim", index, index + 1, "", "")
                index += 1
            continue
        if indent == 0 and _ADORNMENT.match(below.strip()) and not _BULLET.match(line):
            yield ("title", index, index + 2, "", line.strip())
            index += 2
            continue
        prefix = bullet.group(0) if bullet else " " * indent
        body = len(prefix)
        parts = [line[body:].strip()]
        stop = index + 1
        while stop < count and lines[stop].strip() and _indent(lines[stop]) == body:
            if _DIRECTIVE.match(lines[stop]) or _EXPLICIT.match(lines[stop]):
                break
            parts.append(lines[stop].strip())
            stop += 1
        msgid = " ".join(parts)
        yield ("paragraph", index, stop, prefix, msgid)
        if msgid.endswith("::"):
            verbatim_deeper_than = body if bullet else indent
        index = stop


def text_msgids(text: str) -> list[str]:
    """The msgids Sphinx's gettext builder extracts from this reST (titles, paragraphs).

    >>> text_msgids("Title\\n=====\\n\\nOne\\nparagraph.\\n\\n- an item\\n  on two lines")
    ['Title', 'One paragraph.', 'an item on two lines']
    """
    return [unit[4] for unit in _rst_units(text) if unit[0] != "verbatim" and unit[4]]


def translate_rst(text: str, lookup: Lookup, *, width: int = 88) -> str:
    """Translate reST paragraph by paragraph; anything *lookup* does not know stays."""
    lines = text.split("\n")
    out: list[str] = []
    done = 0
    for kind, start, stop, prefix, msgid in _rst_units(text):
        if kind == "verbatim" or not msgid:
            continue
        translated = lookup(msgid)
        if not translated:
            continue
        out.extend(lines[done:start])
        if kind == "title":
            adornment = lines[start + 1].strip()[0]
            underline = adornment * max(len(lines[start + 1].strip()), column_width(translated))
            out.extend([translated, underline])
            overline = start > 0 and _ADORNMENT.match(lines[start - 1].strip())
            if overline and out[-3:-2] and out[-3] == lines[start - 1]:
                out[-3] = underline
        else:
            out.extend(
                textwrap.wrap(
                    " ".join(translated.split("\n")),
                    width=max(width, len(prefix) + 20),
                    initial_indent=prefix,
                    subsequent_indent=" " * len(prefix),
                    break_long_words=False,
                    break_on_hyphens=False,
                )
            )
        done = stop
    out.extend(lines[done:])
    return "\n".join(out)


_HEADER_LINE = re.compile(r"^#{20,}.*$|^# ?%%.*$")


def _docstring_span(source: str) -> tuple[int, int] | None:
    """Line span (0-based, end exclusive) of the module docstring, if any."""
    import ast

    module = ast.parse(source)
    first = module.body[0] if module.body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
        and first.end_lineno is not None
    ):
        return first.lineno - 1, first.end_lineno
    return None


def translate_script(source: str, lookup: Lookup) -> str:
    """A gallery script with its prose translated and its code unchanged.

    The module docstring and every ``# %%`` comment block are translated with
    :func:`translate_rst`, the comments of the code with
    :func:`agentmsg_comments.translate_comments`; the code itself is copied.
    """
    import ast

    lines = source.split("\n")
    out: list[str] = []
    index = 0
    span = _docstring_span(source)
    if span is not None:
        start, stop = span
        out.extend(lines[:start])
        original = "\n".join(lines[start:stop])
        value = ast.literal_eval(original.strip())
        text = translate_rst(value.strip("\n"), lookup)
        quote = '"""' if '"""' not in text else "'''"
        prefix = "r" if "\\" in text else ""
        out.extend([f"{prefix}{quote}", *text.split("\n"), quote])
        index = stop
    code: list[str] = []  # the code since the last text block; its comments are translated
    while index < len(lines):
        line = lines[index]
        index += 1
        if not _HEADER_LINE.match(line):
            code.append(line)
            continue
        out.extend(_code_comments(code, lookup))
        code = []
        out.append(line)
        stop = index
        while stop < len(lines) and lines[stop].startswith("#"):
            stop += 1
        block = [re.sub(r"^#", "", text) for text in lines[index:stop]]
        text = textwrap.dedent("\n".join(block))
        translated = translate_rst(text, lookup, width=86)
        out.extend(f"# {text}".rstrip() for text in translated.split("\n"))
        index = stop
    out.extend(_code_comments(code, lookup))
    return "\n".join(out)


def _code_comments(code: list[str], lookup: Lookup) -> list[str]:
    from agentmsg_comments import translate_comments

    if not code:
        return []
    return translate_comments("\n".join(code), "python", lambda text: lookup(text) or text).split(
        "\n"
    )


def load_catalog(path: Path) -> dict[str, str]:
    """The usable translations of a .po file: not fuzzy, not empty, not obsolete."""
    from babel.messages.pofile import read_po

    if not path.is_file():
        return {}
    with path.open("rb") as handle:
        catalog = read_po(handle)
    return {
        message.id: message.string
        for message in catalog
        if isinstance(message.id, str)
        and message.id
        and isinstance(message.string, str)
        and message.string
        and not message.fuzzy
    }


# ----------------------------------------------------------------------------------------
# Downloads: translated for zh_CN and es, reproducible zips for every language

_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def write_zip(path: Path, members: Iterable[tuple[str, bytes]]) -> None:
    """Write a zip whose bytes depend only on *members* (sorted, fixed timestamps)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in sorted(members):
            info = zipfile.ZipInfo(name, date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    path.write_bytes(buffer.getvalue())


def _notebook(app: Sphinx, script: str, name: str) -> bytes:
    """The notebook of gallery script *name* (its text *script*, maybe translated).

    Its cells are sphinx-gallery's (the same split, the same code cells), each text block
    written as Markdown by :func:`agentmsg_notebooks.notebook_markdown`.
    """
    from sphinx_gallery import py_source_parser
    from sphinx_gallery.notebook import (
        add_code_cell,
        add_markdown_cell,
        jupyter_notebook_skeleton,
    )

    gallery_conf = app.config.sphinx_gallery_conf
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, name)
        path.write_text(script, encoding="utf-8")
        _, blocks = py_source_parser.split_code_and_text_blocks(path)
    blocks = [
        py_source_parser.Block(
            label,
            py_source_parser.remove_config_comments(py_source_parser.remove_ignore_blocks(content))
            if gallery_conf["remove_config_comments"]
            else py_source_parser.remove_ignore_blocks(content),
            lineno,
        )
        for label, content, lineno in blocks
    ]
    if blocks and blocks[-1].content.isspace():
        blocks = blocks[:-1]
    texts = [block.content for block in blocks if block.type == "text"]
    markdown = iter(notebook_markdown(app, f"{GALLERY_DIR}/{Path(name).stem}", texts, name))
    notebook = jupyter_notebook_skeleton()
    if gallery_conf.get("first_notebook_cell") is not None:
        add_code_cell(notebook, gallery_conf["first_notebook_cell"])
    for block in blocks:
        if block.type == "code":
            add_code_cell(notebook, block.content)
        else:
            add_markdown_cell(notebook, next(markdown))
    if gallery_conf.get("last_notebook_cell") is not None:
        add_code_cell(notebook, gallery_conf["last_notebook_cell"])
    return (json.dumps(notebook, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _downloads(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    srcdir = Path(app.srcdir)
    gallery = srcdir / GALLERY_DIR
    language = app.config.language or "en"
    outdir = Path(app.outdir) / "_downloads"
    locale_dir = srcdir / app.config.locale_dirs[0] / language / "LC_MESSAGES"

    scripts: dict[str, bytes] = {}
    notebooks: dict[str, bytes] = {}
    for script in example_scripts(srcdir):
        name = script.stem
        text = (gallery / script.name).read_text(encoding="utf-8")
        if language != "en":
            catalog = load_catalog(locale_dir / GALLERY_DIR / f"{name}.po")
            text = translate_script(text, catalog.get)
        scripts[name] = text.encode("utf-8")
        notebooks[name] = _notebook(app, text, script.name)

    files: dict[str, bytes] = {}
    for name in scripts:
        files[f"{name}.py"] = scripts[name]
        files[f"{name}.ipynb"] = notebooks[name]
    written = 0
    for source, (_docnames, destination) in sorted(app.env.dlfiles.items()):
        relative = Path(source)
        if relative.parent.as_posix() != GALLERY_DIR:
            continue
        target = outdir / destination
        if not target.parent.is_dir():
            continue
        stem, suffix = relative.stem, relative.suffix
        if suffix in {".py", ".ipynb"} and stem in scripts:
            if suffix == ".ipynb" or language != "en":  # the English script is copied as is
                target.write_bytes(files[relative.name])
                written += 1
        elif suffix == ".zip" and stem in scripts:
            write_zip(target, [(f"{stem}.py", scripts[stem]), (f"{stem}.ipynb", notebooks[stem])])
            written += 1
        elif relative.name == f"{GALLERY_DIR}_python.zip":
            write_zip(target, [(f"{name}.py", data) for name, data in scripts.items()])
            written += 1
        elif relative.name == f"{GALLERY_DIR}_jupyter.zip":
            write_zip(target, [(f"{name}.ipynb", data) for name, data in notebooks.items()])
            written += 1
    logger.info("agentmsg-gallery: wrote %d %s downloads", written, language)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("build-finished", _downloads)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
