"""The conversion matrix page says, in each language, what the converters do.

Each table of the built page is read back from the HTML and compared with the cells
computed here, their words translated from the page's catalog with the row's context.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import polib
import pytest
from bs4 import BeautifulSoup

from _checkout import ROOT
from agentmsg.providers import _matrix
from agentmsg_docs.matrix import (
    HEADER,
    HEADER_CONTEXT,
    ROW_CONTEXT,
    cell_text,
    events_text,
    merge_contexts,
)

LANGS = ("en", "zh_CN", "es")


def words(lang: str) -> dict[tuple[str, str], str]:
    """The matrix's words in *lang*: (msgctxt, msgid) -> text; every one must be there."""
    if lang == "en":
        return {}
    path = ROOT / "locales" / lang / "LC_MESSAGES" / "conversions.po"
    return {
        (entry.msgctxt, entry.msgid): entry.msgstr
        for entry in polib.pofile(str(path))
        if entry.msgctxt and entry.msgstr and "fuzzy" not in entry.flags and not entry.obsolete
    }


def translator(lang: str) -> Callable[[str, str], str]:
    catalog = words(lang)

    def tr(context: str, text: str) -> str:
        if lang == "en":
            return text
        return catalog[(context, text)]  # a KeyError names the untranslated word

    return tr


def expected_reply_rows(lang: str, fmt: _matrix.Format) -> list[list[list[str]]]:
    """The rows the reply table of *fmt* should show: per cell, its paragraphs' texts."""
    tr = translator(lang)

    def cell(key: str, value: _matrix.Cell) -> list[str]:
        texts = [cell_text(key, 1, value, tr).replace("`", ""), *value.losses]
        around = events_text(value, tr)
        if around is not None:
            # Chinese pages join names with the enumeration comma (agentmsg_docs.typography)
            comma = "、" if lang == "zh_CN" else ", "
            texts.append(around[0] + comma.join(value.events) + around[1])
        return texts

    cells = _matrix.reply_matrix()[fmt.key]
    rows = [[[tr(HEADER_CONTEXT, HEADER)], [f"from_{fmt.key}"], [fmt.stream.__name__]]]
    for probe in _matrix.REPLY_PROBES:
        unstreamed, streamed = cells[probe.key]
        rows.append(
            [
                [tr(ROW_CONTEXT, probe.key).replace("`", "")],
                cell(probe.key, unstreamed),
                cell(probe.key, streamed),
            ]
        )
    return rows


def expected_rows(lang: str, fmt: _matrix.Format) -> list[list[list[str]]]:
    """The rows a table should show: per cell, its paragraphs' texts."""
    catalog = words(lang)

    def tr(context: str, text: str) -> str:
        if lang == "en":
            return text
        return catalog[(context, text)]  # a KeyError names the untranslated word

    def cell(key: str, direction: int, value: _matrix.Cell) -> list[str]:
        head = cell_text(key, direction, value, tr)
        return [head.replace("`", ""), *value.losses]

    cells = _matrix.matrix()[fmt.key]
    rows = [[[tr(HEADER_CONTEXT, HEADER)], [f"to_{fmt.key}"], [f"from_{fmt.key}"]]]
    for probe in _matrix.PROBES:
        to_cell, from_cell = cells[probe.key]
        rows.append(
            [
                [tr(ROW_CONTEXT, probe.key).replace("`", "")],
                cell(probe.key, 0, to_cell),
                cell(probe.key, 1, from_cell),
            ]
        )
    return rows


def page_tables(path: Path) -> list[list[list[list[str]]]]:
    soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
    tables = []
    for table in soup.select("table.agentmsg-matrix"):
        rows = []
        for tr in table.select("tr"):
            cells = [[p.get_text() for p in td.find_all("p")] for td in tr.find_all(["th", "td"])]
            for cell in cells:  # the words, not the quoted losses, get typographic quotes
                cell[0] = cell[0].replace("\u2019", "'")
            rows.append(cells)
        tables.append(rows)
    return tables


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_shows_the_cells_the_code_gives(built_site: Path, lang: str) -> None:
    """Every table of the page, in every language, equals a fresh run of the probes: per
    format, the conversions' table and the replies' table."""
    tables = page_tables(built_site / lang / "conversions.html")
    assert tables == [
        rows
        for fmt in _matrix.FORMATS
        for rows in (expected_rows(lang, fmt), expected_reply_rows(lang, fmt))
    ]


def test_known_english_cells(built_site: Path) -> None:
    """Two cells as a reader sees them, written out by hand."""
    chat = page_tables(built_site / "en" / "conversions.html")[0]
    rows = {row[0][0]: row[1:] for row in chat}
    assert rows["thinking block"] == [
        [
            "lost",
            "messages[1].content[0]: thinking block dropped: Chat Completions has no field for it",
        ],
        ["nothing to read back"],
    ]
    assert rows["image in a tool result"][1] == ["kept another way: in another message"]
    replies = page_tables(built_site / "en" / "conversions.html")[1]
    assert replies[0] == [["What"], ["from_openai_chat"], ["OpenAIChatStream"]]
    rows = {row[0][0]: row[1:] for row in replies}
    assert rows["response id"] == [
        ["kept another way: as the message's invocation_id"],
        ["kept another way: as the message's invocation_id", "events: id"],
    ]
    assert rows["thinking the API signed or encrypted"] == [["the format has none"]] * 2


def test_the_loss_texts_are_code_literals(built_site: Path) -> None:
    """A quoted loss is shown as code (the exact text), in every language."""
    soup = BeautifulSoup(
        (built_site / "es" / "conversions.html").read_text(encoding="utf-8"), "html.parser"
    )
    quoted = [code.get_text() for code in soup.select("table.agentmsg-matrix td p > code")]
    assert (
        "messages[1].content[0]: thinking block dropped: Chat Completions has no field for it"
        in quoted
    )


def test_the_api_page_links_to_the_matrix(built_site: Path) -> None:
    """The API reference's "What each format carries" points at the matrix page."""
    soup = BeautifulSoup(
        (built_site / "en" / "api.html").read_text(encoding="utf-8"), "html.parser"
    )
    section = soup.find("section", id="what-each-format-carries")
    assert section is not None
    assert section.find("a", href="conversions.html") is not None


def test_update_po_adds_an_entry_new_by_context_only(tmp_path: Path) -> None:
    """A word a catalog has under one row's context reaches it under another's too,
    marked fuzzy (sphinx-intl alone compares msgids and would leave the catalog as it was)."""
    pot = polib.POFile()
    pot.metadata = {"Content-Type": "text/plain; charset=utf-8"}
    for context in ("text block", "sender name"):
        pot.append(polib.POEntry(msgctxt=context, msgid="kept", msgstr=""))
    (tmp_path / "pot").mkdir()
    pot.save(str(tmp_path / "pot" / "conversions.pot"))
    po_path = tmp_path / "locales" / "es" / "LC_MESSAGES" / "conversions.po"
    po_path.parent.mkdir(parents=True)
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=utf-8", "Language": "es"}
    po.append(polib.POEntry(msgctxt="text block", msgid="kept", msgstr="conservado"))
    po.save(str(po_path))
    assert merge_contexts(tmp_path / "pot", tmp_path / "locales", ["es"]) == [po_path]
    merged = {(e.msgctxt, e.msgid): e for e in polib.pofile(str(po_path))}
    assert set(merged) == {("text block", "kept"), ("sender name", "kept")}
    # the other row's translation is offered for review: a fuzzy entry, never shipped as is
    assert "fuzzy" in merged["sender name", "kept"].flags
    assert "fuzzy" not in merged["text block", "kept"].flags
    assert merge_contexts(tmp_path / "pot", tmp_path / "locales", ["es"]) == []
