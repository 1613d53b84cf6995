"""The conversion matrix page says, in each language, what the converters do.

Each table of the built page is read back from the HTML and compared with the cells
computed here, their words translated from the page's catalog with the row's context;
the exact texts of the losses, folded under each cell, with what the code reports.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import polib
import pytest
from bs4 import BeautifulSoup, Tag

from _checkout import ROOT
from _languages import COMPLETE
from agentmsg import Loss
from agentmsg_docs.matrix import cells as _cells
from agentmsg_docs.matrix import probes, replies
from agentmsg_docs.matrix.cells import Cell, Format
from agentmsg_docs.matrix.directive import (
    HEADER,
    HEADER_CONTEXT,
    ROW_CONTEXT,
    cell_text,
    events_text,
    exact_texts,
    merge_contexts,
    messages,
    reason,
)

LANGS = ("en", "zh_CN", "es")
#: The exact text of Chat Completions' loss of a thinking block.
THINKING_LOST = (
    "messages[1].content[0]: thinking block dropped: Chat Completions has no field for it"
)
#: A cell as the page shows it: its paragraphs' texts, and the folded exact texts.
Shown = tuple[list[str], list[str]]


def words(lang: str) -> dict[tuple[str, str], str]:
    """The matrix's words in *lang*: (msgctxt, msgid) -> text."""
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
        found = catalog.get((context, text))
        if found is None:
            msg = (
                f"locales/{lang}/LC_MESSAGES/conversions.po does not translate "
                f"(msgctxt {context!r}, msgid {text!r}): run `make update-po` and translate it"
            )
            raise AssertionError(msg)
        return found

    return tr


def _shown_cell(lang: str, tr: Callable[[str, str], str], key: str, d: int, value: Cell) -> Shown:
    texts = [cell_text(key, d, value, tr).replace("`", "")]
    around = events_text(value, tr)
    if around is not None:
        # Chinese pages join names with the enumeration comma (agentmsg_docs.zh.typography)
        comma = "、" if lang == "zh_CN" else ", "
        texts.append(around[0] + comma.join(value.events) + around[1])
    return texts, exact_texts(value)


def _expected_table(
    lang: str,
    heads: tuple[str, str],
    directions: tuple[int, int],
    keys: list[str],
    cells: dict[str, tuple[Cell, Cell]],
) -> list[list[Shown]]:
    """The rows a table should show: its head (two code names), then a row per key, each
    column's cells read in its direction."""
    tr = translator(lang)
    rows = [[([tr(HEADER_CONTEXT, HEADER)], []), *(([head], []) for head in heads)]]
    for key in keys:
        rows.append(
            [
                ([tr(ROW_CONTEXT, key).replace("`", "")], []),
                *(
                    _shown_cell(lang, tr, key, direction, cell)
                    for direction, cell in zip(directions, cells[key], strict=True)
                ),
            ]
        )
    return rows


def expected_reply_rows(lang: str, fmt: Format) -> list[list[Shown]]:
    """The rows the reply table of *fmt* should show."""
    keys = [probe.key for probe in replies.REPLY_PROBES]
    heads = (f"from_{fmt.key}", fmt.stream.__name__)
    return _expected_table(lang, heads, (1, 1), keys, replies.reply_matrix()[fmt.key])


def expected_rows(lang: str, fmt: Format) -> list[list[Shown]]:
    """The rows a conversion table should show."""
    keys = [probe.key for probe in probes.PROBES]
    heads = (f"to_{fmt.key}", f"from_{fmt.key}")
    return _expected_table(lang, heads, (0, 1), keys, probes.matrix()[fmt.key])


def _plain_quotes(text: str) -> str:
    """*text* with the typographic quotes of Sphinx's smartquotes made straight again."""
    return text.replace("\u2019", "'").replace("\u2018", "'")


def page_tables(path: Path) -> list[list[list[Shown]]]:
    """Each matrix table of the page at *path*: its rows, each cell's paragraphs (outside
    the fold) and folded exact texts."""
    soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
    tables = []
    for table in soup.select("table.agentmsg-matrix"):
        rows = []
        for tr in table.select("tr"):
            cells = []
            for td in tr.find_all(["th", "td"]):
                folded = [p.get_text() for p in td.select("details p")]
                shown = [
                    _plain_quotes(p.get_text())
                    for p in td.find_all("p")
                    if not p.find_parent("details")
                ]
                cells.append((shown, folded))
            rows.append(cells)
        tables.append(rows)
    return tables


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_shows_the_cells_the_code_gives(built_site: Path, lang: str) -> None:
    """Every table of the page, in every language, equals a fresh run of the probes: per
    format, the conversions' table and the replies' table."""
    expected = [
        rows
        for fmt in _cells.FORMATS
        for rows in (expected_rows(lang, fmt), expected_reply_rows(lang, fmt))
    ]
    assert expected == page_tables(built_site / lang / "conversions.html")


def test_known_english_cells(built_site: Path) -> None:
    """Cells as a reader sees them, written out by hand."""
    chat = page_tables(built_site / "en" / "conversions.html")[0]
    rows = {row[0][0][0]: row[1:] for row in chat}
    assert rows["thinking block"] == [
        (
            ["lost: Chat Completions has no field for it"],
            [THINKING_LOST],
        ),
        (["nothing to read back"], []),
    ]
    assert rows["image in a tool result"][1] == (["kept another way: in another message"], [])
    replies_table = page_tables(built_site / "en" / "conversions.html")[1]
    assert replies_table[0] == [
        (["What"], []),
        (["from_openai_chat"], []),
        (["OpenAIChatStream"], []),
    ]
    rows = {row[0][0][0]: row[1:] for row in replies_table}
    assert rows["response id"] == [
        (["kept another way: as the message's invocation_id"], []),
        (["kept another way: as the message's invocation_id", "events: id"], []),
    ]
    assert rows["thinking the API signed or encrypted"] == [(["the format has none"], [])] * 2


@pytest.mark.parametrize("lang", ["zh_CN", "es"])
def test_known_translated_cells(built_site: Path, lang: str) -> None:
    """A lost cell reads in the page's language, written out by hand; its exact text is
    folded under it."""
    chat = page_tables(built_site / lang / "conversions.html")[0]
    thinking = chat[3]
    expected = {
        "zh_CN": "丢失：Chat Completions 没有可以存放它的字段",
        "es": "perdido: Chat Completions no tiene ningún campo para ello",
    }
    assert (
        [expected[lang]],
        [THINKING_LOST],
    ) == thinking[1]


@pytest.mark.parametrize("lang", COMPLETE)
def test_complete_languages_show_no_english_run(built_site: Path, lang: str) -> None:
    """In a complete language, nothing in a matrix table shows in English: the only
    ``lang="en"`` there are the exact texts, folded in a closed ``<details>`` whose label
    is in the page's language."""
    soup = BeautifulSoup(
        (built_site / lang / "conversions.html").read_text(encoding="utf-8"), "html.parser"
    )
    tables = soup.select("table.agentmsg-matrix")
    assert len(tables) == 8
    shown = [
        tag
        for table in tables
        for tag in table.find_all(lang="en")
        if not isinstance(tag.find_parent("details"), Tag)
        or tag.find_parent("details").has_attr("open")
    ]
    assert [] == shown
    assert [] == [tag for table in tables for tag in table.select(".untranslated")]
    labels = {
        summary.get_text() for table in tables for summary in table.select("details > summary")
    }
    assert {words(lang)[("matrix cell", "exact text")]} == labels
    folded = [code for table in tables for code in table.select("details code")]
    assert folded
    assert {"en"} == {code.get("lang") for code in folded}


def test_the_exact_texts_are_code_and_folded(built_site: Path) -> None:
    """A loss's exact text is code in a folded ``<details>``, in every language."""
    for lang in LANGS:
        soup = BeautifulSoup(
            (built_site / lang / "conversions.html").read_text(encoding="utf-8"), "html.parser"
        )
        quoted = [
            code.get_text() for code in soup.select("table.agentmsg-matrix td details p > code")
        ]
        assert THINKING_LOST in quoted, lang
        assert [] == soup.select("table.agentmsg-matrix details[open]")


@pytest.mark.parametrize("lang", COMPLETE)
def test_every_word_of_the_matrix_is_translated(lang: str) -> None:
    """Each word the matrix shows (a status, a row, a loss's reason, ...) has a usable
    translation in a complete language's catalog, so a loss text the code changed fails
    here, naming the entry, before any build."""
    catalog = words(lang)
    assert [] == [pair for pair in messages() if pair not in catalog]


def test_a_changed_loss_text_fails_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """A converter whose loss reads differently gives a reason no catalog translates: the
    expected rows fail, naming the catalog and the entry, instead of an English cell."""
    fmt = _cells.FORMATS[0]

    def reworded(*args: object, **kwargs: object) -> object:
        result = fmt.to(*args, **kwargs)
        return result._replace(
            losses=tuple(x._replace(why=f"{x.why} (reworded)") for x in result.losses)
        )

    monkeypatch.setattr(probes, "FORMATS", (fmt._replace(to=reworded), *_cells.FORMATS[1:]))
    with pytest.raises(AssertionError, match=r"conversions\.po does not translate .*reworded"):
        expected_rows("es", fmt)


class TestReason:
    def test_a_drop_says_why(self) -> None:
        """A dropped thing's reason is the loss's ``why``."""
        assert "Gemini takes no video" == reason(Loss("p", "video block", "Gemini takes no video"))

    def test_a_substitute_comes_first(self) -> None:
        """A thing that travels another way says how, then why."""
        loss = Loss("p", "refusal", "agentmsg has no refusal block", "kept as a text block")
        assert "kept as a text block, because agentmsg has no refusal block" == reason(loss)


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


class TestUntranslatedWords:
    def test_a_word_without_translation_is_marked_as_english(self) -> None:
        """A cell whose words a complete language does not translate yet (a loss text the
        code changed) is marked as the translation notice marks an English block: not
        translated, ``lang="en"`` and the "changed" state, which opens the page's notice."""
        from docutils import nodes

        from agentmsg_docs.i18n.progress import CHANGED, CHANGED_CLASS, ENGLISH_CLASS, STATE
        from agentmsg_docs.matrix.directive import _para

        para = _para(nodes.Text("lost: Chat Completions takes no video"), english=CHANGED)
        assert (False, CHANGED, [ENGLISH_CLASS, CHANGED_CLASS]) == (
            para["translated"],
            para[STATE],
            para["classes"],
        )

    def test_a_translated_word_is_left_alone(self) -> None:
        """A translated cell carries no translation state: it is counted nowhere."""
        from docutils import nodes

        from agentmsg_docs.matrix.directive import _para

        para = _para(nodes.Text("perdido"))
        assert ("translated" in para, para["classes"]) == (False, [])
