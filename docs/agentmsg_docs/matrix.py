"""The ``conversion-matrix`` directive: what each conversion keeps, found by running it.

The cells come from :mod:`agentmsg.providers._matrix`, computed while the page is read,
so the page says what the converters of this commit do. Their words are translated from
the page's own catalog (``locales/<lang>/LC_MESSAGES/<page>.po``): the gettext build adds
them to the page's ``.pot`` with a ``msgctxt`` naming the row, so that a language whose
words agree with the thing (Spanish gender and number) translates each row's words on
their own. Sphinx's own extraction has no contexts, and it skips these generated nodes.
The loss texts stay English: they are the exact text the code reports.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from .languages import SOURCE
from .po import context_translations
from .progress import ENGLISH_CLASS

#: The words of a cell, by direction (0: ``to_*``, 1: ``from_*``) and status (see
#: agentmsg.providers._matrix): a request sends, a reader keeps.
STATUS_WORDS = (
    {
        "kept": "sent",
        "carried": "sent another way",
        "lost": "lost",
        "record": "not sent: agentmsg's own record",
        "none": "the format has none",
        "unreported": "gone without a loss",
    },
    {
        "kept": "kept",
        "carried": "kept another way",
        "lost": "lost",
        "absent": "nothing to read back",
        "none": "the format has none",
        "unreported": "gone without a loss",
    },
)
#: How a thing is carried when no loss says it, by Cell.where.
WHERE_WORDS = {
    "provider_state": "in the message's provider state",
    "moved": "in another message",
    "role_system": "back with role `system`",
    "invocation_id": "as the message's `invocation_id`",
    "metadata": "in the message's metadata",
}
#: Words that agree with nothing share one context; the others take their row's key.
SHARED_WORDS = frozenset({"absent"})
CELL_CONTEXT = "matrix cell"
ROW_CONTEXT = "matrix row"
HEADER_CONTEXT = "matrix header"
HEADER = "What"
#: How a cell's status and its "where" are joined (Chinese takes a full-width colon).
JOIN = "{status}: {where}"
#: What a stream's cell says of the events that hold the thing.
EVENTS = "events: {events}"


def messages() -> list[tuple[str, str]]:
    """Every (msgctxt, msgid) the matrix shows, format by format, each once."""
    from agentmsg.providers import _matrix

    found: list[tuple[str, str]] = [(HEADER_CONTEXT, HEADER)]
    found += [(ROW_CONTEXT, probe.key) for probe in _matrix.PROBES]
    for rows in _matrix.matrix().values():
        for key, cells in rows.items():
            for direction, cell in enumerate(cells):
                found += cell_words(key, direction, cell)
    found += [(ROW_CONTEXT, probe.key) for probe in _matrix.REPLY_PROBES]
    for rows in _matrix.reply_matrix().values():
        for key, cells in rows.items():
            for cell in cells:  # both columns read a reply: the words of from_*
                found += cell_words(key, 1, cell)
    return list(dict.fromkeys(found))


def cell_words(key: str, direction: int, cell: Any) -> list[tuple[str, str]]:
    """The (msgctxt, msgid) of a cell's words: its status, then where, if it says."""
    status = cell.status
    words = [(CELL_CONTEXT if status in SHARED_WORDS else key, STATUS_WORDS[direction][status])]
    if cell.where is not None:
        words += [(CELL_CONTEXT, WHERE_WORDS[cell.where]), (CELL_CONTEXT, JOIN)]
    if getattr(cell, "events", ()):
        words.append((CELL_CONTEXT, EVENTS))
    return words


def events_text(cell: Any, tr: Callable[[str, str], str]) -> tuple[str, str] | None:
    """The words before and after the list of a stream cell's events, or None."""
    if not getattr(cell, "events", ()):
        return None
    before, _, after = tr(CELL_CONTEXT, EVENTS).partition("{events}")
    return before, after


def cell_text(key: str, direction: int, cell: Any, tr: Callable[[str, str], str]) -> str:
    """A cell's words as the page shows them, each translated by *tr(context, text)*."""
    words = [tr(*pair) for pair in cell_words(key, direction, cell)]
    return (
        tr(CELL_CONTEXT, JOIN).format(status=words[0], where=words[1]) if cell.where else words[0]
    )


def _catalog(app: Sphinx, docname: str) -> dict[tuple[str, str], str]:
    if app.config.language == "en":
        return {}
    locale = Path(app.confdir, "..", "locales", app.config.language, "LC_MESSAGES")
    return context_translations(locale / f"{docname}.po")


def _marked(text: str) -> list[nodes.Node]:
    """*text* as nodes, its backquoted parts as code (role names are code in every language)."""
    parts = text.split("`")
    return [
        nodes.literal("", part) if odd else nodes.Text(part)
        for odd, part in ((index % 2 == 1, part) for index, part in enumerate(parts))
        if part
    ]


def _para(*children: nodes.Node, english: bool = False) -> nodes.paragraph:
    para = nodes.paragraph("", "", *children)
    para["translatable"] = False  # translated here, with its row's context
    if english:  # no translation yet: the English, marked lang="en" (see progress.py)
        para["classes"].append(ENGLISH_CLASS)
    return para


#: Whether a cell's words, each a (msgctxt, msgid), show in English on the page.
InEnglish = Callable[..., bool]


class ConversionMatrix(SphinxDirective):
    """The table of one format (the argument, such as ``openai_chat``): a row per probe,
    a column per direction."""

    has_content = False
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        from agentmsg.providers import _matrix

        fmt, tr, in_english = self._start()
        cells = _matrix.matrix()[fmt.key]
        rows = [
            (probe.key, (0, cells[probe.key][0]), (1, cells[probe.key][1]))
            for probe in _matrix.PROBES
        ]
        return [self._table(tr, in_english, f"to_{fmt.key}", f"from_{fmt.key}", rows)]

    def _start(self) -> tuple[Any, Callable[[str, str], str], InEnglish]:
        """The format named by the argument, the translation of the page's words, and
        whether some of them have none (:data:`InEnglish`)."""
        from agentmsg.providers import _matrix

        self.env.note_dependency(_matrix.__file__)
        catalog = _catalog(self.env.app, self.env.docname)
        source = (self.env.config.language or SOURCE.code) == SOURCE.code

        def tr(context: str, text: str) -> str:
            return catalog.get((context, text), text)

        def in_english(*pairs: tuple[str, str]) -> bool:
            return not source and any(pair not in catalog for pair in pairs)

        formats = {fmt.key: fmt for fmt in _matrix.FORMATS}
        fmt = formats.get(self.arguments[0])
        if fmt is None:
            raise self.error(f"no format {self.arguments[0]!r}; one of {', '.join(formats)}")
        return fmt, tr, in_english

    def _table(
        self,
        tr: Callable[[str, str], str],
        in_english: InEnglish,
        left: str,
        right: str,
        rows: list[tuple[str, tuple[int, Any], tuple[int, Any]]],
    ) -> nodes.table:
        """A table of two columns of cells, headed by the code names *left* and *right*;
        *rows* are (row key, (direction, cell), (direction, cell))."""
        language = self.env.config.language or SOURCE.code
        english = [] if language == SOURCE.code else [ENGLISH_CLASS]
        table = nodes.table(classes=["agentmsg-matrix"])
        group = nodes.tgroup(cols=3)
        table += group
        for width in (22, 39, 39):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        group += head
        head += self._row(
            [
                _para(
                    nodes.Text(tr(HEADER_CONTEXT, HEADER)),
                    english=in_english((HEADER_CONTEXT, HEADER)),
                )
            ],
            [_para(nodes.literal("", left))],
            [_para(nodes.literal("", right))],
        )
        body = nodes.tbody()
        group += body
        for key, (left_direction, left_cell), (right_direction, right_cell) in rows:
            body += self._row(
                [_para(*_marked(tr(ROW_CONTEXT, key)), english=in_english((ROW_CONTEXT, key)))],
                self._cell(key, left_direction, left_cell, tr, english, in_english),
                self._cell(key, right_direction, right_cell, tr, english, in_english),
            )
        return table

    @staticmethod
    def _cell(
        key: str, direction: int, cell: Any, tr: Any, english: list[str], in_english: InEnglish
    ) -> list[nodes.Node]:
        words = cell_text(key, direction, cell, tr)
        parts: list[nodes.Node] = [
            _para(
                nodes.strong("", "", *_marked(words)),
                english=in_english(*cell_words(key, direction, cell)),
            )
        ]
        # The losses are quoted as the code writes them, in English, on every page.
        parts += [_para(nodes.literal("", text, classes=english)) for text in cell.losses]
        around = events_text(cell, tr)
        if around is not None:
            listed: list[nodes.Node] = [nodes.Text(around[0])]
            for number, event in enumerate(cell.events):
                listed += [nodes.Text(", ")] if number else []
                listed.append(nodes.literal("", event))
            parts.append(
                _para(*listed, nodes.Text(around[1]), english=in_english((CELL_CONTEXT, EVENTS)))
            )
        return parts

    @staticmethod
    def _row(*cells: list[nodes.Node]) -> nodes.row:
        row = nodes.row()
        for children in cells:
            entry = nodes.entry()
            entry += children
            row += entry
        return row


class ReplyMatrix(ConversionMatrix):
    """The reply table of one format: a row per thing only a response holds, a column for
    ``from_*`` on the unstreamed response and one for the stream class on its events."""

    def run(self) -> list[nodes.Node]:
        from agentmsg.providers import _matrix

        fmt, tr, in_english = self._start()
        cells = _matrix.reply_matrix()[fmt.key]
        rows = [
            (probe.key, (1, cells[probe.key][0]), (1, cells[probe.key][1]))
            for probe in _matrix.REPLY_PROBES
        ]
        return [self._table(tr, in_english, f"from_{fmt.key}", fmt.stream.__name__, rows)]


def _add_to_pot(app: Sphinx, exception: Exception | None) -> None:
    """Add the matrix's words, with their contexts, to each page's ``.pot``."""
    if exception is not None or app.builder.name != "gettext":
        return
    import polib

    for docname in sorted(app.env.found_docs):
        text = Path(app.env.doc2path(docname)).read_text(encoding="utf-8")
        if "conversion-matrix" not in text and "reply-matrix" not in text:
            continue
        pot_path = Path(app.outdir, f"{docname}.pot")
        pot = polib.pofile(str(pot_path))
        for context, msgid in messages():
            if pot.find(msgid, msgctxt=context) is None:
                pot.append(polib.POEntry(msgctxt=context, msgid=msgid, msgstr=""))
        pot.save(str(pot_path))


def merge_contexts(pot_dir: Path, locale_dir: Path, langs: Iterable[str]) -> list[Path]:
    """Merge into each catalog a ``.pot`` whose entries differ from the catalog's by context.

    ``sphinx-intl update`` compares msgids alone: a new row of the matrix whose words
    another row already has would never reach the catalog. Run after it; returns the
    catalogs written.
    """
    from babel.messages.pofile import read_po, write_po

    written = []
    for pot_path in sorted(pot_dir.rglob("*.pot")):
        with pot_path.open("rb") as file:
            pot = read_po(file)
        if not any(message.context for message in pot):
            continue
        want = {(message.id, message.context) for message in pot if message.id}
        name = pot_path.relative_to(pot_dir).with_suffix(".po")
        for lang in langs:
            po_path = locale_dir / lang / "LC_MESSAGES" / name
            if not po_path.is_file():
                continue
            with po_path.open("rb") as file:
                catalog = read_po(file, locale=lang)
            if {(message.id, message.context) for message in catalog if message.id} == want:
                continue
            catalog.update(pot)
            with po_path.open("wb") as file:
                write_po(file, catalog, width=76)
            written.append(po_path)
    return written


def register(app: Sphinx) -> None:
    app.add_directive("conversion-matrix", ConversionMatrix)
    app.add_directive("reply-matrix", ReplyMatrix)
    app.connect("build-finished", _add_to_pot)
