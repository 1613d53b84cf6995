"""The chat cards' labels in English, Simplified Chinese and Spanish."""

from __future__ import annotations

import gettext
import re
import threading
from pathlib import Path

import pytest

import agentmsg
from agentmsg import MessageError, Msg, display_language, set_display_language
from agentmsg.cards._html import escape
from agentmsg.cards._labels import (
    LANGUAGES,
    Label,
    _number,
    _size,
    resolve_language,
    writing_labels,
)

LOCALE = Path(agentmsg.__file__).parent / "cards" / "locale"
TRANSLATED = [code for code in LANGUAGES if code != "en"]


def card(**fields: object) -> Msg:
    """A message whose card shows most labels: thinking, media, a tool call, metadata."""
    content = [
        {"type": "thinking", "thinking": "x" * 45},
        {
            "type": "image",
            "source": {"type": "base64", "media_type": "image/png", "data": "A" * 10800},
        },
        {"type": "tool_use", "id": "c1", "name": "get_weather", "input": {"city": "Lima"}},
    ]
    defaults: dict[str, object] = {"name": "tutor", "role": "assistant", "content": content}
    return Msg(**{**defaults, **fields}, metadata={"k": 1})  # type: ignore[arg-type]


def labels(html: str) -> list[str]:
    """The accessible names, captions, summaries and column headings of a card."""
    found = re.findall(r'(?:aria-label|alt)="([^"]*)"', html)
    found += re.findall(r'<span class="agentmsg-tag">([^<]*)</span>', html)
    found += re.findall(r'<th scope="col">([^<]*)</th>', html)
    found += re.findall(r"<summary>([^<]*)<", html)
    return found


class TestResolveLanguage:
    """Languages may be named as gettext codes or as BCP 47 tags."""

    @pytest.mark.parametrize(
        ("name", "code"),
        [
            ("en", "en"),
            ("en-GB", "en"),
            ("zh_CN", "zh_CN"),
            ("zh-CN", "zh_CN"),
            ("zh", "zh_CN"),
            ("zh-Hans", "zh_CN"),
            ("es", "es"),
            ("es-MX", "es"),
            ("ES", "es"),
        ],
    )
    def test_names(self, name: str, code: str) -> None:
        """Each spelling gives the catalog's code."""
        assert code == resolve_language(name)

    @pytest.mark.parametrize("name", ["fr", "", "klingon", None, 3])
    def test_unknown_language_is_refused(self, name: object) -> None:
        """Any other language is a MessageError that names the value."""
        with pytest.raises(
            MessageError, match=r"`language` must be one of the card languages .*'en'.*not"
        ):
            resolve_language(name)


class TestDisplayLanguage:
    """:func:`set_display_language` and :func:`display_language` choose the labels."""

    def test_english_by_default(self) -> None:
        """Without a choice, the labels are English."""
        assert "Metadata" in labels(card()._repr_html_())

    def test_set_for_the_process(self) -> None:
        """After ``set_display_language("es")`` every card is Spanish, until it is set back."""
        set_display_language("es")
        try:
            assert "Metadatos" in labels(card()._repr_html_())
        finally:
            set_display_language("en")
        assert "Metadata" in labels(card()._repr_html_())

    def test_block_is_context_local(self) -> None:
        """Inside ``with display_language("zh-CN")`` cards are Chinese; another thread at
        the same time still shows English."""
        seen: list[list[str]] = []
        with display_language("zh-CN") as code:
            assert "zh_CN" == code
            thread = threading.Thread(target=lambda: seen.append(labels(card()._repr_html_())))
            thread.start()
            thread.join()
            assert "元数据" in labels(card()._repr_html_())
        assert "Metadata" in seen[0]
        assert "Metadata" in labels(card()._repr_html_())

    def test_bad_choice_changes_nothing(self) -> None:
        """Choosing an unknown language raises and keeps the current one."""
        with pytest.raises(MessageError):
            set_display_language("fr")
        assert "Metadata" in labels(card()._repr_html_())

    @pytest.mark.parametrize(
        ("language", "expected"),
        [
            (
                "es",
                [
                    "mensaje de tutor (rol assistant)",
                    "imagen (image/png, 7,9 KiB)",
                    "Llamada a herramienta",
                    "Metadatos",
                    "argumento",
                    "valor",
                    "clave",
                    "valor",
                    "Razonamiento ",
                ],
            ),
            (
                "zh_CN",
                [
                    "来自 tutor 的 assistant 消息",
                    "图像（image/png，7.9 KiB）",
                    "工具调用",
                    "元数据",
                    "参数",
                    "值",
                    "键",
                    "值",
                    "思考",
                ],
            ),
        ],
    )
    def test_labels_in_the_language_data_as_written(
        self, language: str, expected: list[str]
    ) -> None:
        """Every label is translated, numbers follow the language, and the message's data
        (sender, role, media type, tool name) stays as the code wrote it."""
        with display_language(language):
            html = card()._repr_html_()
        assert expected == labels(html)
        assert "get_weather" in html and "Lima" in html


class TestNumbers:
    """Byte counts and numbers are written the way each language writes them."""

    @pytest.mark.parametrize(
        ("count", "en", "zh", "es"),
        [
            (1, "1 byte", "1 字节", "1 byte"),
            (112, "112 bytes", "112 字节", "112 bytes"),
            (8089, "7.9 KiB", "7.9 KiB", "7,9 KiB"),
            (2048, "2 KiB", "2 KiB", "2 KiB"),
            (3 * 1024**2, "3 MiB", "3 MiB", "3 MiB"),
        ],
    )
    def test_sizes(self, count: int, en: str, zh: str, es: str) -> None:
        """A whole number of KiB or MiB drops its ``.0``; Spanish writes a decimal comma."""
        assert (en, zh, es) == tuple(_size(count, lang) for lang in ("en", "zh_CN", "es"))

    @pytest.mark.parametrize(
        ("value", "en", "es"),
        [
            (1234, "1,234", "1234"),
            (12345, "12,345", "12\u00a0345"),
            (1234567, "1,234,567", "1\u00a0234\u00a0567"),
        ],
    )
    def test_grouping(self, value: int, en: str, es: str) -> None:
        """Spanish groups digits with a space only from five digits on (RAE, ISO 80000)."""
        assert (en, es) == (_number(value, "en"), _number(value, "es"))


class TestLabelWriter:
    """``writing_labels`` hands every label of a card to the installed writer."""

    def test_writer_gets_each_label(self) -> None:
        """Inside the block the card holds what the writer returns; outside, the text."""
        written: list[Label] = []

        def writer(found: Label) -> str:
            written.append(found)
            return "<label>"

        with writing_labels(writer):
            html = card()._repr_html_()
        assert "Metadata" not in html
        assert "&lt;label&gt;" in html  # escaped like any label
        assert "Metadata" in [found.msgid for found in written]
        assert "Metadata" in labels(card()._repr_html_())

    @pytest.mark.parametrize("language", LANGUAGES)
    def test_labels_written_later_match_direct_rendering(self, language: str) -> None:
        """Labels kept by the writer and put in *language* afterwards (escaped, as the card
        escapes them) give the card shown in that language."""
        message = card()
        pending: list[Label] = []

        def keep(found: Label) -> str:
            pending.append(found)
            return f"@{len(pending) - 1}@"

        with writing_labels(keep):
            marked = message._repr_html_()
        filled = re.sub(r"@(\d+)@", lambda m: escape(pending[int(m[1])].text(language)), marked)
        with display_language(language):
            assert message._repr_html_() == filled


def catalog(language: str) -> str:
    return (LOCALE / language / "LC_MESSAGES" / "agentmsg.po").read_text(encoding="utf-8")


class TestCatalogs:
    """The package's catalogs are complete and agree with the code."""

    @pytest.mark.parametrize("language", TRANSLATED)
    def test_compiled_catalog_is_current(self, language: str) -> None:
        """The ``agentmsg.mo`` the package reads is its catalog compiled (``make
        update-po`` and ``make html`` compile it): nothing edited since is lost."""
        import polib

        po = LOCALE / language / "LC_MESSAGES" / "agentmsg.po"
        assert polib.pofile(str(po)).to_binary() == po.with_suffix(".mo").read_bytes(), (
            f"{po.with_suffix('.mo').name} of {language} is stale: run `make update-po`"
        )

    def test_languages_are_the_compiled_catalogs(self) -> None:
        """The card languages are English and each folder holding a compiled catalog."""
        compiled = sorted(p.parents[1].name for p in LOCALE.glob("*/LC_MESSAGES/agentmsg.mo"))
        assert ["en", *compiled] == list(LANGUAGES)

    @pytest.mark.parametrize("language", TRANSLATED)
    def test_plural_rule_is_the_catalogs(self, language: str) -> None:
        """The plural form picked for n things is the one the catalog's header declares."""
        header = re.search(
            r"Plural-Forms: nplurals=\d+; plural=(.*?);", catalog(language).replace('"\n"', "")
        )
        assert header is not None
        rule = gettext.c2py(header.group(1))
        from agentmsg.cards._labels import _catalog

        compiled = _catalog(language)
        assert isinstance(compiled, gettext.GNUTranslations)
        assert [rule(n) for n in range(0, 3_000_001, 7919)] == [
            compiled.plural(n) for n in range(0, 3_000_001, 7919)
        ]

    @pytest.mark.parametrize("language", TRANSLATED)
    def test_translations_keep_their_fields(self, language: str) -> None:
        """Every translation has the same ``{fields}`` as its English message."""
        import polib

        problems = []
        for entry in polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "agentmsg.po")):
            fields = sorted(re.findall(r"\{(\w+)\}", entry.msgid))
            forms = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
            for form in forms:
                if sorted(re.findall(r"\{(\w+)\}", form)) != fields:
                    problems.append(f"{entry.msgid!r}: {form!r}")
        assert [] == problems


class TestCardLabels:
    """``card_labels``: what a language translates, as its catalog says."""

    @pytest.mark.parametrize("language", TRANSLATED)
    def test_the_catalogs_translated_entries(self, language: str) -> None:
        """Each translated, not fuzzy entry of the catalog, by its English (a counting
        label by its singular, with the first form)."""
        import polib

        po = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "agentmsg.po"))
        expected = {
            entry.msgid: entry.msgstr_plural[0] if entry.msgid_plural else entry.msgstr
            for entry in po.translated_entries()
            if "fuzzy" not in entry.flags
        }
        assert expected == agentmsg.card_labels(language)

    def test_english_translates_none(self) -> None:
        """English cards show every label as it is: nothing is translated."""
        assert {} == agentmsg.card_labels("en-GB")

    def test_a_tag_names_the_language(self) -> None:
        """A BCP 47 tag reads the labels of its language, as ``display_language`` does."""
        assert agentmsg.card_labels("zh_CN") == agentmsg.card_labels("zh-Hans")

    def test_an_unknown_language_is_refused(self) -> None:
        """A language with no cards raises MessageError naming it."""
        with pytest.raises(MessageError, match="'tlh'"):
            agentmsg.card_labels("tlh")
