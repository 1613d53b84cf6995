"""The tutorials' downloads, in the reader's language and reproducible.

In a non-English build, the ``.py`` and ``.zip`` files a tutorial page links to are
rewritten with the prose translated paragraph by paragraph from the page's catalog (the
same msgids Sphinx extracts: :func:`text_msgids`), the code untouched. In every language,
English included, the ``.ipynb`` is written from that script with clean Markdown cells
(``agentmsg_docs.gallery.notebooks``) instead of sphinx-gallery's, which keep raw reST; its first
code cell installs this agentmsg where it is missing (:func:`install_cell`), and every code
cell holds what the page shows under it, read from the page sphinx-gallery generated when
the build ran the example (:func:`captured_outputs`), the cards in the notebook's language:
a reader sees them before running anything, and running the notebook shows them again.
Every zip, in every language, is written with fixed timestamps in a sorted order, so that
two builds give the same bytes.
"""

from __future__ import annotations

import ast
import copy
import functools
import io
import json
import re
import tempfile
import textwrap
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from docutils.utils import column_width
from sphinx.errors import ExtensionError
from sphinx.util import logging

from agentmsg_docs.gallery.cards import localize, style_once
from agentmsg_docs.gallery.notebooks import notebook_markdown
from agentmsg_docs.gallery.tutorials import GALLERY_DIR, example_scripts
from agentmsg_docs.i18n.languages import SOURCE
from agentmsg_docs.i18n.po import translations
from agentmsg_docs.lite.runner import NOTEBOOK_NOTE, language_cells

if TYPE_CHECKING:
    from sphinx.application import Sphinx

__all__ = [
    "INSTALL_MESSAGE",
    "INSTALL_NOTE",
    "Captured",
    "captured_outputs",
    "cell_outputs",
    "install_cell",
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

_ADORNMENT = re.compile(r"^([=\-`:'\"~^_*+#<>.])\1{2,}\s*$")


@functools.cache
def _quiet_settings() -> Any:
    """docutils' settings for reading prose quietly: Sphinx's roles and directives are
    unknown to it (their text stays, as Sphinx's gettext builder extracts it)."""
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser

    settings = get_default_settings(Parser)
    settings.report_level = settings.halt_level = 5
    settings.file_insertion_enabled = settings.raw_enabled = False
    return settings


def _parsed(text: str) -> nodes.document:
    """*text* parsed by docutils' reST parser alone (no transforms: the one top-level
    title stays a section title)."""
    from docutils.parsers.rst import Parser
    from docutils.utils import new_document

    settings = copy.copy(_quiet_settings())
    settings.warning_stream = io.StringIO()
    document = new_document("<prose>", settings)
    Parser().parse(text, document)
    return document


def _rst_units(text: str) -> Iterator[tuple[str, int, int, str, str]]:
    """The translatable units of reST, read by docutils: ``(kind, start, stop, prefix,
    msgid)``.

    *kind* is ``"title"`` (a section title) or ``"paragraph"`` (also a list item's or
    table cell's text, and an admonition's or titled directive's argument); lines
    ``start:stop`` hold the unit; *prefix* is what stays in front of the translated text
    (indentation, bullet, or the directive up to its argument); *msgid* is the text as
    Sphinx's gettext builder extracts it (the node's source, lines joined with spaces).
    Code (literal blocks, code and raw directives) and comments yield nothing.
    """
    lines = text.split("\n")
    document = _parsed(text)
    cursor = 0
    for node in document.findall(lambda n: isinstance(n, nodes.paragraph | nodes.title)):
        source = node.rawsource.split("\n")
        if not node.rawsource.strip() or _inside(node, nodes.system_message):
            continue
        first = source[0].strip()
        # docutils keeps no column, and a line only for some nodes: the unit is the next
        # line holding its first line, in reading order.
        start = next(i for i in range(cursor, len(lines)) if first in lines[i])
        msgid = " ".join(line.strip() for line in source)
        if isinstance(node, nodes.title) and isinstance(node.parent, nodes.section):
            cursor = start + 2
            yield ("title", start, cursor, "", msgid)
        else:
            cursor = start + len(source)
            yield ("paragraph", start, cursor, lines[start][: lines[start].index(first)], msgid)


def _inside(node: nodes.Node, kind: type[nodes.Element]) -> bool:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, kind):
            return True
        parent = parent.parent
    return False


def text_msgids(text: str) -> list[str]:
    """The msgids Sphinx's gettext builder extracts from this reST (titles, paragraphs).

    >>> text_msgids("Title\\n=====\\n\\nOne\\nparagraph.\\n\\n- an item\\n  on two lines")
    ['Title', 'One paragraph.', 'an item on two lines']
    """
    return [unit[4] for unit in _rst_units(text)]


def translate_rst(text: str, lookup: Lookup, *, width: int = 88) -> str:
    """Translate reST paragraph by paragraph; anything *lookup* does not know stays."""
    lines = text.split("\n")
    out: list[str] = []
    done = 0
    for kind, start, stop, prefix, msgid in _rst_units(text):
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
    :func:`agentmsg_docs.i18n.comments.translate_comments`; the code itself is copied.
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


def with_language_cell(script: str, cells: list[tuple[str, str]]) -> str:
    """*script* with the cells that set the display language (:func:`language_cells`)
    after its docstring, as one ``# %%`` cell: the note as its comment, then the code.
    Run cell by cell (an editor's ``# %%`` cells) or whole, the script shows the cards in
    its language, as the notebook does."""
    if not cells:
        return script
    note = " ".join(source for kind, source in cells if kind == "markdown")
    code = "\n".join(source for kind, source in cells if kind == "code")
    span = _docstring_span(script)
    at = span[1] if span is not None else 0
    lines = script.split("\n")
    cell = ["", "# %%", *(f"# {line}" for line in textwrap.wrap(note, 86)), "", code]
    return "\n".join(lines[:at] + cell + lines[at:])


def _code_comments(code: list[str], lookup: Lookup) -> list[str]:
    from agentmsg_docs.i18n.comments import translate_comments

    if not code:
        return []
    return translate_comments("\n".join(code), "python", lambda text: lookup(text) or text).split(
        "\n"
    )


def load_catalog(path: Path) -> dict[str, str]:
    """The usable translations of a .po file: not fuzzy, not empty, not obsolete."""
    return translations(path)


# ----------------------------------------------------------------------------------------
# Downloads: translated for every translated language, reproducible zips for every language

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


def _translated(app: Sphinx, text: str) -> str:
    """*text* in the build's language, from the theme's catalog (``sphinx.po``)."""
    return str(app.builder.templates.render_string("{{ _(text) }}", {"text": text}))


def _language_cells(app: Sphinx) -> list[tuple[str, str]]:
    """The cells that set the build's language in a download, the note translated."""
    return language_cells(app.config.language or SOURCE.code, _translated(app, NOTEBOOK_NOTE))


# ----------------------------------------------------------------------------------------
# A notebook that installs agentmsg where it is missing

#: The comment of a notebook's first code cell and the line it prints when it installs
#: (in ``_templates/agentmsg-runner.html`` too, so that ``make update-po`` extracts them
#: into sphinx.po); ``%s`` is the version.
INSTALL_NOTE = (
    "Installs agentmsg %s where this Python lacks it. In the site's JupyterLite, or "
    "wherever agentmsg is already installed, it does nothing."
)
INSTALL_MESSAGE = "agentmsg is not installed here: installing agentmsg==%s with pip…"


def _python_string(text: str) -> str:
    """*text* as a Python string literal, in double quotes where it can be."""
    return f'"{text}"' if not re.search(r'["\\\n]', text) else repr(text)


def install_cell(version: str, note: str, message: str) -> str:
    """The code of a notebook's first code cell: where ``import agentmsg`` fails, it
    prints *message* and installs ``agentmsg==<version>`` with the kernel's own pip (whose
    settings, such as ``PIP_FIND_LINKS``, apply); elsewhere (the site's JupyterLite, whose
    Python has agentmsg, or a checkout) it does nothing. *note* (its comment) and
    *message* hold ``%s`` for *version*.

    >>> print(install_cell("1.0", "Installs %s.", "Installing %s…").splitlines()[0])
    # Installs 1.0.
    """
    comment = textwrap.wrap(note % version, 86, break_long_words=False, break_on_hyphens=False)
    command = f'[sys.executable, "-m", "pip", "install", "agentmsg=={version}"]'
    return "\n".join(
        [
            *(f"# {line}" for line in comment),
            "try:",
            "    import agentmsg",
            "except ModuleNotFoundError:",
            "    import importlib",
            "    import subprocess",
            "    import sys",
            "",
            f"    print({_python_string(message % version)})",
            f"    subprocess.run({command}, check=True)",
            "    importlib.invalidate_caches()",
        ]
    )


def _install_cell(app: Sphinx) -> tuple[str, str]:
    """The cell that installs the agentmsg of this build, its texts translated."""
    import agentmsg

    note, message = (_translated(app, text) for text in (INSTALL_NOTE, INSTALL_MESSAGE))
    return ("code", install_cell(agentmsg.__version__, note, message))


# ----------------------------------------------------------------------------------------
# The outputs a tutorial's page shows, as the build's one run of the example captured them

_GENERATED = re.compile(r"^\.\. GENERATED FROM PYTHON SOURCE LINES (\d+)-\d+\n", re.MULTILINE)
_CODE = re.compile(r"\A\s*\.\. code-block:: Python\n\n((?:    .*\n|\n)+)")
_TEXT_BOX = re.compile(
    r"^\.\. rst-class:: sphx-glr-script-out\n\n \.\. code-block:: none\n\n((?:    .*\n|\n)+)",
    re.MULTILINE,
)
_HTML_BOX = re.compile(
    r'^    <div class="output_subarea output_html rendered_html output_result">\n'
    r"((?:    .*\n|\n)+?)    </div>",
    re.MULTILINE,
)


@dataclass(frozen=True)
class Captured:
    """One code block of a tutorial's page and what the page shows under it."""

    code: str  #: the block's code
    text: str  #: the text box (printed text, then the repr of the last value), or ""
    html: str | None  #: the HTML of the last value, its cards' labels deferred, if any


def _unindent(block: str) -> str:
    """The content of a reST block indented by four columns, without the blank lines
    around it."""
    return "\n".join(line[4:] for line in block.split("\n")).strip("\n").rstrip()


def captured_outputs(generated: str) -> dict[int, Captured]:
    """What sphinx-gallery captured under each code block of the page it generated
    (*generated*, ``docs/tutorial/<name>.rst``), by the block's first line in the script.

    >>> page = (".. GENERATED FROM PYTHON SOURCE LINES 3-4\\n\\n.. code-block:: Python\\n\\n"
    ...         "    print(1)\\n\\n.. rst-class:: sphx-glr-script-out\\n\\n"
    ...         " .. code-block:: none\\n\\n    1\\n\\n")
    >>> captured_outputs(page)
    {3: Captured(code='print(1)', text='1', html=None)}
    """
    found: dict[int, Captured] = {}
    marks = list(_GENERATED.finditer(generated))
    for mark, following in zip(marks, [*marks[1:], None], strict=True):
        part = generated[mark.end() : following.start() if following else len(generated)]
        code = _CODE.match(part)
        if code is None:
            continue  # a text block
        text = _TEXT_BOX.search(part, code.end())
        html = _HTML_BOX.search(part, code.end())
        found[int(mark.group(1))] = Captured(
            code=_unindent(code.group(1)),
            text=_unindent(text.group(1)) if text else "",
            html=_unindent(html.group(1)) if html else None,
        )
    return found


def cell_outputs(captured: Captured, where: str) -> list[dict[str, Any]]:
    """The outputs of a code cell that show what its page shows (the HTML not yet in
    the notebook's language), as a run of the cell in Jupyter writes them: the printed
    text as a stream, the last value's HTML as its result. *where* names the cell in an
    error.

    Raises:
        ExtensionError: The cell ends with a value shown as text: printed text and that
            value's repr are one box on the page, which cannot be split.
    """
    outputs: list[dict[str, Any]] = []
    if captured.text:
        tree = ast.parse(captured.code)
        last = tree.body[-1].value if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        if captured.html is None and last is not None and not isinstance(last, ast.Call):
            msg = (
                f"{where}: the cell ends with a value shown as text, which its notebook "
                "cannot tell from the printed text; print the value instead"
            )
            raise ExtensionError(msg)
        outputs.append({"name": "stdout", "output_type": "stream", "text": captured.text + "\n"})
    if captured.html is not None:
        outputs.append(
            {
                "data": {"text/html": captured.html},
                "execution_count": None,
                "metadata": {},
                "output_type": "execute_result",
            }
        )
    return outputs


def _blocks(app: Sphinx, script: str, name: str) -> list[Any]:
    """sphinx-gallery's blocks of gallery script *name* (its text *script*), as its
    notebooks cut them."""
    from sphinx_gallery import py_source_parser

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
    return blocks


def _notebook(
    app: Sphinx,
    script: str,
    name: str,
    setup: list[tuple[str, str]],
    outputs: list[list[dict[str, Any]]],
) -> bytes:
    """The notebook of gallery script *name* (its text *script*, maybe translated).

    Its cells are sphinx-gallery's (the same split, the same code cells), each text block
    written as Markdown by :func:`agentmsg_docs.gallery.notebooks.notebook_markdown`, with the
    cells *setup* (:func:`_install_cell`, :func:`_language_cells`) after the title cell,
    and the *n*-th code cell of the script holding ``outputs[n]``, the cards' labels
    written in the build's language and their style sheet once.
    """
    from sphinx_gallery.notebook import (
        add_code_cell,
        add_markdown_cell,
        jupyter_notebook_skeleton,
    )

    gallery_conf = app.config.sphinx_gallery_conf
    blocks = _blocks(app, script, name)
    texts = [block.content for block in blocks if block.type == "text"]
    if len(blocks) - len(texts) != len(outputs):
        msg = f"{name}: {len(blocks) - len(texts)} code cells, outputs for {len(outputs)}"
        raise ExtensionError(msg)
    markdown = iter(notebook_markdown(app, f"{GALLERY_DIR}/{Path(name).stem}", texts, name))
    notebook = jupyter_notebook_skeleton()
    if gallery_conf.get("first_notebook_cell") is not None:
        add_code_cell(notebook, gallery_conf["first_notebook_cell"])
    # After the title cell (the script's docstring), so the notebook opens with its title.
    at = 1 if blocks and blocks[0].type == "text" else 0
    shown = iter(outputs)
    for index, block in enumerate(blocks):
        if index == at:
            for kind, source in setup:
                (add_code_cell if kind == "code" else add_markdown_cell)(notebook, source)
        if block.type == "code":
            add_code_cell(notebook, block.content)
            notebook["cells"][-1]["outputs"] = next(shown)
        else:
            add_markdown_cell(notebook, next(markdown))
    if gallery_conf.get("last_notebook_cell") is not None:
        add_code_cell(notebook, gallery_conf["last_notebook_cell"])
    _localize_html(notebook, app.config.language or SOURCE.code)
    return (json.dumps(notebook, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _localize_html(notebook: dict[str, Any], language: str) -> None:
    """Write the cards' labels of *notebook*'s HTML outputs in *language*, and keep their
    style sheet in the first only (a notebook is one document, as a page is)."""
    data = [
        output["data"]
        for cell in notebook["cells"]
        for output in cell.get("outputs", [])
        if "text/html" in output.get("data", {})
    ]
    html = style_once([localize(item["text/html"], language) for item in data])
    for item, text in zip(data, html, strict=True):
        item["text/html"] = text


def _example_outputs(app: Sphinx, script: Path) -> list[list[dict[str, Any]]]:
    """The outputs of each code cell of gallery script *script* (English), from the page
    sphinx-gallery generated when the build ran it (``docs/tutorial/<name>.rst``)."""
    gallery = Path(app.srcdir) / GALLERY_DIR
    captured = captured_outputs((gallery / f"{script.stem}.rst").read_text(encoding="utf-8"))
    blocks = _blocks(app, script.read_text(encoding="utf-8"), script.name)
    return [
        cell_outputs(
            captured.get(block.lineno, Captured(block.content, "", None)),
            f"{script.name}, line {block.lineno}",
        )
        for block in blocks
        if block.type == "code"
    ]


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
    language_setup = _language_cells(app)
    setup = [_install_cell(app), *language_setup]  # a notebook's first cells
    for script in example_scripts(srcdir):
        name = script.stem
        text = (gallery / script.name).read_text(encoding="utf-8")
        outputs = _example_outputs(app, gallery / script.name)
        if language != "en":
            catalog = load_catalog(locale_dir / GALLERY_DIR / f"{name}.po")
            text = translate_script(text, catalog.get)
        scripts[name] = with_language_cell(text, language_setup).encode("utf-8")
        notebooks[name] = _notebook(app, text, script.name, setup, outputs)

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


def register(app: Sphinx) -> None:
    app.connect("build-finished", _downloads)
