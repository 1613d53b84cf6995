"""sphinx-gallery, adapted to a site built in several languages from one run of the examples.

What this extension adds to sphinx-gallery (configured in ``docs/conf.py``):

- :class:`TutorialOrder` and :func:`reset_deterministic`: the tutorial order, and a fresh
  :func:`agentmsg.deterministic` block per example (seeded with the script's name), so
  ids and timestamps in the rendered output never change between builds.
- The *examples pass* and *reuse mode* (``-D agentmsg_gallery_reuse=1``). ``docs/build.py``
  executes the examples once (sphinx-gallery's normal generation, re-run in full when the
  agentmsg package changed since the last run). Every language build then runs in reuse
  mode: it checks that ``docs/tutorial/`` is current for every script (sphinx-gallery's
  md5 cache) and does not run sphinx-gallery's generation at all, so it executes nothing
  and writes nothing into the shared folder; the builds can therefore run concurrently.
- Accessible gallery cards: sphinx-gallery hides a card's link text (axe-core
  ``link-name``) and repeats the title in raw HTML that gettext cannot translate. Each card
  becomes one real link whose text is the tutorial's title (translated like any page
  title); ``_static/agentmsg.css`` shows that text under the thumbnail.
- Translated downloads: in a non-English build, the ``.py``, ``.ipynb`` and ``.zip`` files
  the pages link to are rewritten with the prose translated paragraph by paragraph from
  the page's catalog (the same msgids Sphinx extracts), the code untouched. Every zip is
  written with fixed timestamps in a sorted order, so downloads are reproducible.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import tempfile
import textwrap
import zipfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from docutils.utils import column_width
from sphinx.errors import ExtensionError
from sphinx.transforms import SphinxTransform
from sphinx.util import logging

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

__all__ = [
    "TUTORIAL_ORDER",
    "TutorialOrder",
    "load_catalog",
    "reset_deterministic",
    "text_msgids",
    "translate_rst",
    "translate_script",
]

logger = logging.getLogger(__name__)

#: The order of the tutorials in the gallery; scripts not listed come after, by name.
TUTORIAL_ORDER = (
    "create_message",
    "role_messages",
    "multimodal",
    "tools",
    "saving_loading",
    "use_cases",
    "migration",
)
EXAMPLES_DIR = "examples"  # relative to docs/
GALLERY_DIR = "tutorial"  # relative to docs/
PACKAGE_STAMP = ".agentmsg-package.md5"  # in docs/tutorial/

Lookup = Callable[[str], "str | None"]


# ----------------------------------------------------------------------------------------
# Order and determinism (referenced by name from conf.py, so the config stays picklable)


class TutorialOrder:
    """Sort key for ``within_subsection_order``: :data:`TUTORIAL_ORDER`, then by name."""

    def __init__(self, src_dir: str) -> None:
        self.src_dir = src_dir

    def __call__(self, filename: str) -> tuple[int, str]:
        stem = Path(filename).stem
        rank = TUTORIAL_ORDER.index(stem) if stem in TUTORIAL_ORDER else len(TUTORIAL_ORDER)
        return (rank, stem)

    def __repr__(self) -> str:  # sphinx-gallery hashes the config through repr()
        return f"<{type(self).__name__}: {', '.join(TUTORIAL_ORDER)}>"


_active: list[Any] = []


def reset_deterministic(gallery_conf: dict[str, Any], fname: str, when: str) -> None:
    """``reset_modules`` hook: run each example inside ``agentmsg.deterministic(<name>)``.

    Called with ``when="before"`` and ``"after"`` (``reset_modules_order="both"``).
    """
    while _active:  # leave the previous example's block, even if "after" never came
        _active.pop().__exit__(None, None, None)
    if when == "before":
        import agentmsg

        block = agentmsg.deterministic(seed=Path(fname).stem)
        block.__enter__()
        _active.append(block)


# ----------------------------------------------------------------------------------------
# The examples pass and reuse mode


def example_scripts(srcdir: Path) -> list[Path]:
    """The gallery scripts, in tutorial order."""
    order = TutorialOrder("")
    return sorted((srcdir / EXAMPLES_DIR).glob("*.py"), key=lambda path: order(path.name))


def package_digest() -> str:
    """An md5 over the agentmsg package's sources: examples re-run when it changes."""
    import agentmsg

    digest = hashlib.md5()
    root = Path(agentmsg.__file__).parent
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def stale_examples(srcdir: Path) -> list[Path]:
    """Scripts whose generated page in docs/tutorial/ is missing or out of date."""
    from sphinx_gallery.utils import get_md5sum

    stale = []
    for script in example_scripts(srcdir):
        target = srcdir / GALLERY_DIR / script.name
        md5_file = target.with_name(target.name + ".md5")
        current = (
            md5_file.is_file()
            and target.with_suffix(".rst").is_file()
            and md5_file.read_text() == get_md5sum(script, mode="t")
        )
        if not current:
            stale.append(script)
    return stale


def _config_inited(app: Sphinx, config: Config) -> None:
    from sphinx_gallery import gen_gallery

    srcdir = Path(app.srcdir)
    if config.agentmsg_gallery_reuse:
        # Drop sphinx-gallery's generation: this build executes and writes nothing there.
        for event, handler in (
            ("builder-inited", gen_gallery.generate_gallery_rst),
            ("build-finished", gen_gallery.summarize_failing_examples),
        ):
            for listener in list(app.events.listeners.get(event, [])):
                if listener.handler is handler:
                    app.disconnect(listener.id)
        app.connect("builder-inited", _check_reusable)
    else:
        stamp = srcdir / GALLERY_DIR / PACKAGE_STAMP
        if not stamp.is_file() or stamp.read_text() != package_digest():
            config.sphinx_gallery_conf["run_stale_examples"] = True
        app.connect("builder-inited", _write_package_stamp, priority=900)


def _check_reusable(app: Sphinx) -> None:
    stale = stale_examples(Path(app.srcdir))
    if stale:
        names = ", ".join(path.name for path in stale)
        msg = (
            f"docs/{GALLERY_DIR}/ is missing or out of date for {names}: run the examples "
            "first (`python docs/build.py examples`, or `make html`, which does)."
        )
        raise ExtensionError(msg)
    count = len(example_scripts(Path(app.srcdir)))
    logger.info(
        "sphinx-gallery: executed 0 of %d examples (reusing the results in docs/%s/)",
        count,
        GALLERY_DIR,
    )


def _write_package_stamp(app: Sphinx) -> None:
    conf = app.config.sphinx_gallery_conf
    if not conf["failing_examples"]:
        (Path(app.srcdir) / GALLERY_DIR / PACKAGE_STAMP).write_text(package_digest())


# ----------------------------------------------------------------------------------------
# Accessible, translatable gallery cards

_TOOLTIP = re.compile(r'\s+tooltip="[^"]*"')
_CARD_TITLE = re.compile(r'<div class="sphx-glr-thumbnail-title">.*?</div>', re.S)


class GalleryCards(SphinxTransform):
    """Make each gallery card one link named by the tutorial's title.

    sphinx-gallery writes a card as raw HTML (``<div ... tooltip="intro">``), an image and
    a ``:doc:`` link whose text its CSS hides, then the title again in raw HTML. Here the
    tooltip (untranslatable English) and the raw title go, and the ``:doc:`` link, whose
    text is the target page's (translated) title, is kept out of the catalogs.
    """

    default_priority = 15  # before sphinx.transforms.i18n.Locale (20) and the gettext builder

    def apply(self, **kwargs: Any) -> None:
        for raw in list(self.document.findall(nodes.raw)):
            text = raw.astext()
            if 'class="sphx-glr-thumbcontainer"' in text:
                new = _TOOLTIP.sub("", text, count=1)
                card = raw.next_node(descend=False, siblings=True)
                if card is not None:
                    for paragraph in card.findall(nodes.paragraph):
                        paragraph["translatable"] = False
            elif "sphx-glr-thumbnail-title" in text:
                new = _CARD_TITLE.sub("", text).strip()
            else:
                continue
            raw.replace_self(nodes.raw(new, new, format="html"))


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
    :func:`translate_rst`; all other lines are copied.
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
    while index < len(lines):
        line = lines[index]
        out.append(line)
        index += 1
        if not _HEADER_LINE.match(line):
            continue
        stop = index
        while stop < len(lines) and lines[stop].startswith("#"):
            stop += 1
        block = [re.sub(r"^#", "", text) for text in lines[index:stop]]
        text = textwrap.dedent("\n".join(block))
        translated = translate_rst(text, lookup, width=86)
        out.extend(f"# {text}".rstrip() for text in translated.split("\n"))
        index = stop
    return "\n".join(out)


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
        if message.id and isinstance(message.id, str) and message.string and not message.fuzzy
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


def _notebook(script: str, name: str, gallery_conf: dict[str, Any], target_dir: Path) -> bytes:
    """The notebook sphinx-gallery's own writer makes from *script*."""
    from sphinx_gallery import py_source_parser
    from sphinx_gallery.notebook import jupyter_notebook

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
    notebook = jupyter_notebook(blocks, gallery_conf, target_dir)
    return (json.dumps(notebook, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _downloads(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    srcdir = Path(app.srcdir)
    gallery = srcdir / GALLERY_DIR
    language = app.config.language or "en"
    outdir = Path(app.outdir) / "_downloads"
    gallery_conf = app.config.sphinx_gallery_conf
    locale_dir = srcdir / app.config.locale_dirs[0] / language / "LC_MESSAGES"

    scripts: dict[str, bytes] = {}
    notebooks: dict[str, bytes] = {}
    for script in example_scripts(srcdir):
        name = script.stem
        english = (gallery / script.name).read_text(encoding="utf-8")
        if language == "en":
            scripts[name] = english.encode("utf-8")
            notebook_path = gallery / f"{name}.ipynb"
            notebooks[name] = notebook_path.read_bytes() if notebook_path.is_file() else b""
            continue
        catalog = load_catalog(locale_dir / GALLERY_DIR / f"{name}.po")
        translated = translate_script(english, catalog.get)
        scripts[name] = translated.encode("utf-8")
        notebooks[name] = _notebook(translated, script.name, gallery_conf, gallery)

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
            if language != "en":
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
    app.add_config_value("agentmsg_gallery_reuse", False, "", types=frozenset({bool}))
    app.connect("config-inited", _config_inited, priority=800)
    app.add_transform(GalleryCards)
    app.connect("build-finished", _downloads)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
