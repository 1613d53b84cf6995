"""The ``conversion-matrix`` and ``reply-matrix`` directives: what each conversion keeps,
found by running it, written in the page's language.

The cells come from :mod:`.probes` and :mod:`.replies`, computed while the page is read,
so the page says what the converters of this commit do. Every word of a cell is
translated from the page's own catalog (``locales/<lang>/LC_MESSAGES/<page>.po``): the
gettext build adds them to the page's ``.pot`` with a ``msgctxt`` (:func:`messages`), so
that a language whose words agree with the thing (Spanish gender and number) translates
each row's words on their own. Sphinx's own extraction has no contexts, and it skips these
generated nodes.

A loss is told in the page's language by its reason (:func:`reason`: the ``why`` of the
:class:`~agentmsg.Loss`, with what was done instead); the exact text the code reports,
``str(loss)``, is folded under the cell (``<details>``), in English, for a reader who
searches a log for it. A reason the catalog does not translate yet (the code changed its
text) shows in English, marked as the translation notice marks any English block, and
``make update-po`` adds it to the catalogs, where the catalog tests ask for it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from agentmsg.providers import Loss

from ..i18n.languages import SOURCE, built_language
from ..i18n.po import context_translations
from ..i18n.progress import CHANGED, CHANGED_CLASS, ENGLISH_CLASS, STATE, block_state
from . import cells as _cells
from . import events, probes, replies
from .cells import Cell

#: The words of a cell, by direction (0: ``to_*``, 1: ``from_*``) and status (see
#: :mod:`.cells`): a request sends, a reader keeps.
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
#: The reasons of a cell's losses, joined (only one cell has two).
LIST = "{first}; {next}"
#: The reasons of the losses share one context: they speak of the format, not the row.
LOSS_CONTEXT = "matrix loss"
#: The label of the folded exact texts of a cell's losses.
EXACT = "exact text"


def messages() -> list[tuple[str, str]]:
    """Every (msgctxt, msgid) the matrix shows, format by format, each once."""
    found: list[tuple[str, str]] = [(HEADER_CONTEXT, HEADER)]
    found += [(ROW_CONTEXT, probe.key) for probe in probes.PROBES]
    for rows in probes.matrix().values():
        for key, cells in rows.items():
            for direction, cell in enumerate(cells):
                found += cell_words(key, direction, cell)
    found += [(ROW_CONTEXT, probe.key) for probe in replies.REPLY_PROBES]
    for rows in replies.reply_matrix().values():
        for key, cells in rows.items():
            for cell in cells:  # both columns read a reply: the words of from_*
                found += cell_words(key, 1, cell)
    return list(dict.fromkeys(found))


def reason(loss: Loss) -> str:
    """What a cell says of *loss*, in English: its ``why``, after what was done instead
    when the thing still travels (the path and the thing are the row's).

    >>> reason(Loss("messages[0].content[0]", "video block", "Gemini takes no video"))
    'Gemini takes no video'
    >>> reason(Loss("p", "JSON output", "tool results hold text", "sent as JSON text"))
    'sent as JSON text, because tool results hold text'
    """
    return loss.why if loss.substitute is None else f"{loss.substitute}, because {loss.why}"


def reasons(cell: Cell) -> list[str]:
    """The reasons of *cell*'s losses, each once, in their order."""
    return list(dict.fromkeys(reason(loss) for loss in cell.losses))


def cell_words(key: str, direction: int, cell: Cell) -> list[tuple[str, str]]:
    """The (msgctxt, msgid) of a cell's words: its status, then where, or why, if it says;
    then the label of its exact texts and the words around its events."""
    status = cell.status
    words = [(CELL_CONTEXT if status in SHARED_WORDS else key, STATUS_WORDS[direction][status])]
    if cell.where is not None:
        words += [(CELL_CONTEXT, WHERE_WORDS[cell.where]), (CELL_CONTEXT, JOIN)]
    elif cell.losses:
        words += [(LOSS_CONTEXT, text) for text in reasons(cell)] + [(CELL_CONTEXT, JOIN)]
        words += [(CELL_CONTEXT, LIST)] if len(reasons(cell)) > 1 else []
        words.append((CELL_CONTEXT, EXACT))
    if cell.events:
        words.append((CELL_CONTEXT, EVENTS))
    return words


def events_text(cell: Cell, tr: Callable[[str, str], str]) -> tuple[str, str] | None:
    """The words before and after the list of a stream cell's events, or None."""
    if not cell.events:
        return None
    before, _, after = tr(CELL_CONTEXT, EVENTS).partition("{events}")
    return before, after


def cell_parts(
    key: str, direction: int, cell: Cell, tr: Callable[[str, str], str]
) -> tuple[str, str | None]:
    """A cell's status, and where the thing went or why it was lost (None when the cell
    says neither), each word translated by *tr(context, text)*."""
    status = tr(*cell_words(key, direction, cell)[0])
    if cell.where is not None:
        return status, tr(CELL_CONTEXT, WHERE_WORDS[cell.where])
    if not cell.losses:
        return status, None
    said, *more = (tr(LOSS_CONTEXT, text) for text in reasons(cell))
    for text in more:
        said = tr(CELL_CONTEXT, LIST).format(first=said, next=text)
    return status, said


def cell_text(key: str, direction: int, cell: Cell, tr: Callable[[str, str], str]) -> str:
    """A cell's first line as the page shows it: its status, and where the thing went or
    why it was lost, joined as the language joins them."""
    status, said = cell_parts(key, direction, cell, tr)
    return status if said is None else tr(CELL_CONTEXT, JOIN).format(status=status, where=said)


def exact_texts(cell: Cell) -> list[str]:
    """The exact texts of *cell*'s losses, as the code reports them (``str(loss)``)."""
    return [str(loss) for loss in cell.losses]


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


def _para(*children: nodes.Node, english: str | None = None) -> nodes.paragraph:
    """A paragraph of the table; *english* is why it shows the English, if it does (a
    state of :mod:`..progress`)."""
    para = nodes.paragraph("", "", *children)
    para["translatable"] = False  # translated here, with its row's context
    if english is not None:
        # As the translation notice marks an English block: lang="en", a tooltip, the
        # page's notice (which counts the paragraphs that have "translated").
        para["translated"] = False
        para[STATE] = english
        para["classes"] += [ENGLISH_CLASS, *([CHANGED_CLASS] if english == CHANGED else [])]
    return para


def _joined(template: str, status: str, where: str) -> list[nodes.Node]:
    """*template* (such as ``{status}: {where}``) filled, the status strong."""
    found: list[nodes.Node] = []
    for part in re.split(r"(\{status\}|\{where\})", template):
        if part == "{status}":
            found.append(nodes.strong("", "", *_marked(status)))
        elif part == "{where}":
            found += _marked(where)
        elif part:
            found.append(nodes.Text(part))
    return found


class ExactTexts(nodes.General, nodes.Element):  # type: ignore[misc]  # docutils: no types
    """The folded exact texts of a cell's losses: ``<details>``."""


class ExactLabel(nodes.TextElement):  # type: ignore[misc]  # docutils: no types
    """What opens them: ``<summary>``."""


def _visit_details(self: Any, node: nodes.Element) -> None:
    self.body.append(self.starttag(node, "details", CLASS="agentmsg-exact"))


def _depart_details(self: Any, node: nodes.Element) -> None:
    self.body.append("</details>\n")


def _visit_summary(self: Any, node: nodes.Element) -> None:
    self.body.append(self.starttag(node, "summary", ""))


def _depart_summary(self: Any, node: nodes.Element) -> None:
    self.body.append("</summary>")


def _skip(self: Any, node: nodes.Element) -> None:
    """Other writers show the folded texts as plain paragraphs."""


Translate = Callable[[str, str], str]
#: A table's two column heads (code names), its row keys and their cells.
_Columns = tuple[str, str, list[str], dict[str, tuple[Cell, Cell]]]
#: Why the given words, each a (msgctxt, msgid), show in English, or None when they do not.
InEnglish = Callable[..., "str | None"]


class ConversionMatrix(SphinxDirective):
    """The table of one format (the argument, such as ``openai_chat``): a row per probe,
    a column per direction."""

    has_content = False
    required_arguments = 1

    #: The direction of each column's cells (0: ``to_*``, 1: reading back).
    directions = (0, 1)

    def run(self) -> list[nodes.Node]:
        fmt, tr, in_english = self._start()
        left, right, keys, cells = self._columns(fmt)
        first, second = self.directions
        rows = [(key, (first, cells[key][0]), (second, cells[key][1])) for key in keys]
        return [self._table(tr, in_english, left, right, rows)]

    def _columns(self, fmt: _cells.Format) -> _Columns:
        """The table's columns (:data:`_Columns`) for *fmt*."""
        keys = [probe.key for probe in probes.PROBES]
        return f"to_{fmt.key}", f"from_{fmt.key}", keys, probes.matrix()[fmt.key]

    def _start(self) -> tuple[_cells.Format, Translate, InEnglish]:
        """The format named by the argument, the translation of the page's words, and
        why some of them show in English (:data:`InEnglish`)."""
        for module in (_cells, probes, replies, events):
            self.env.note_dependency(Path(str(module.__file__)))
        catalog = _catalog(self.env.app, self.env.docname)
        language = built_language(self.env.config)
        source = language.code == SOURCE.code

        def tr(context: str, text: str) -> str:
            return catalog.get((context, text), text)

        def in_english(*pairs: tuple[str, str]) -> str | None:
            if source or all(pair in catalog for pair in pairs):
                return None
            return block_state("untranslated", complete=language.complete)

        formats = {fmt.key: fmt for fmt in _cells.FORMATS}
        fmt = formats.get(self.arguments[0])
        if fmt is None:
            raise self.error(f"no format {self.arguments[0]!r}; one of {', '.join(formats)}")
        return fmt, tr, in_english

    def _table(
        self,
        tr: Translate,
        in_english: InEnglish,
        left: str,
        right: str,
        rows: list[tuple[str, tuple[int, Cell], tuple[int, Cell]]],
    ) -> nodes.table:
        """A table of two columns of cells, headed by the code names *left* and *right*;
        *rows* are (row key, (direction, cell), (direction, cell))."""
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
                self._cell(key, left_direction, left_cell, tr, in_english),
                self._cell(key, right_direction, right_cell, tr, in_english),
            )
        return table

    @staticmethod
    def _cell(
        key: str, direction: int, cell: Cell, tr: Translate, in_english: InEnglish
    ) -> list[nodes.Node]:
        words = cell_words(key, direction, cell)
        status, where = cell_parts(key, direction, cell, tr)
        shown: list[nodes.Node] = (
            [nodes.strong("", "", *_marked(status))]
            if where is None
            else _joined(tr(CELL_CONTEXT, JOIN), status, where)
        )
        said = [pair for pair in words if pair[1] not in (EXACT, EVENTS)]
        parts: list[nodes.Node] = [_para(*shown, english=in_english(*said))]
        if cell.losses:
            # The exact texts, folded: what a developer searches a log for, in English.
            folded = ExactTexts()
            label = ExactLabel("", tr(CELL_CONTEXT, EXACT))
            if in_english((CELL_CONTEXT, EXACT)) is not None:
                label["classes"].append(ENGLISH_CLASS)  # a language that has not translated it
            folded += label
            for text in exact_texts(cell):
                folded += nodes.paragraph("", "", nodes.literal("", text, classes=[ENGLISH_CLASS]))
            parts.append(folded)
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

    directions = (1, 1)

    def _columns(self, fmt: _cells.Format) -> _Columns:
        keys = [probe.key for probe in replies.REPLY_PROBES]
        return f"from_{fmt.key}", fmt.stream.__name__, keys, replies.reply_matrix()[fmt.key]


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
    app.add_node(ExactTexts, html=(_visit_details, _depart_details), text=(_skip, _skip))
    app.add_node(ExactLabel, html=(_visit_summary, _depart_summary), text=(_skip, _skip))
    app.add_directive("conversion-matrix", ConversionMatrix)
    app.add_directive("reply-matrix", ReplyMatrix)
    app.connect("build-finished", _add_to_pot)
