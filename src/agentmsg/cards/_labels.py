"""The language of the chat cards: their labels in English, Simplified Chinese or Spanish.

A card (:meth:`Msg._repr_html_ <agentmsg.Msg._repr_html_>`) writes its labels ("Tool call",
"Metadata", "image (image/png, 112 bytes)", ...) in the display language, English unless
:func:`set_display_language` or :func:`display_language` chose another. The message's own
data (names, texts, field values) is shown as it is.

The translations are gettext catalogs beside this module,
``locale/<lang>/LC_MESSAGES/agentmsg.po``, kept up to date by ``make update-po`` with the
documentation's. Numbers follow the language's conventions (``7,9 KiB`` in Spanish).

A caller that needs the labels in another form installs a writer with
:func:`writing_labels`: the docs build, which runs its examples once for every language,
writes each :class:`Label` as a marker and translates the markers per language later.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import re
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from .._validate import must_be

__all__ = [
    "LANGUAGES",
    "Label",
    "Size",
    "current_language",
    "display_language",
    "gettext",
    "label",
    "ngettext",
    "resolve_language",
    "set_display_language",
    "translated",
    "writing_labels",
]

LANGUAGES: tuple[str, ...] = ("en", "zh_CN", "es")
"""The display languages, by their gettext codes."""

#: Other ways to name them: BCP 47 tags and bare primary subtags.
_ALIASES = {"zh": "zh_CN", "zh-cn": "zh_CN", "zh-hans": "zh_CN", "zh_cn": "zh_CN"}

_default = "en"
_current: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "agentmsg_display_language", default=None
)
_writer: contextvars.ContextVar[Callable[[Label], str] | None] = contextvars.ContextVar(
    "agentmsg_label_writer", default=None
)


def resolve_language(language: object, path: str = "language") -> str:
    """The gettext code of *language*: ``"zh_CN"`` for ``"zh-CN"``, ``"zh"`` or
    ``"zh_Hans"``; ``"es"`` for ``"es-MX"``; ``"en"`` for ``"en-GB"``.

    Raises:
        MessageError: *language* is not a string naming one of :data:`LANGUAGES`.
    """
    if isinstance(language, str):
        lowered = language.strip().lower().replace("_", "-")
        if lowered in _ALIASES or lowered.replace("-", "_") in _ALIASES:
            return _ALIASES.get(lowered, "zh_CN")
        for code in LANGUAGES:
            if lowered == code.lower().replace("_", "-"):
                return code
        primary = lowered.split("-")[0]
        if primary in ("en", "es"):
            return primary
        if primary == "zh":
            return "zh_CN"
    names = ", ".join(repr(code) for code in LANGUAGES)
    raise must_be(path, f"one of the card languages {names}", language)


def set_display_language(language: str) -> None:
    """Show the chat cards' labels in *language* from now on, in this process.

    Args:
        language: ``"en"``, ``"zh_CN"`` or ``"es"`` (also written ``"zh-CN"``, ``"zh"``,
            ``"es-MX"``, ...).

    Raises:
        MessageError: *language* is none of them.

    Example:
        >>> from agentmsg import Msg, set_display_language
        >>> set_display_language("es")
        >>> "Metadatos" in Msg("Ana", "Hola", "user", metadata={"k": 1})._repr_html_()
        True
        >>> set_display_language("en")
    """
    global _default
    _default = resolve_language(language)


@contextlib.contextmanager
def display_language(language: str) -> Iterator[str]:
    """Show the chat cards' labels in *language* inside a ``with`` block.

    The choice is context-local (like :func:`~agentmsg.deterministic`): other threads and
    asyncio tasks keep theirs. It yields the language's code.

    Raises:
        MessageError: *language* is not one of ``"en"``, ``"zh_CN"`` and ``"es"``.

    Example:
        >>> from agentmsg import Msg, display_language
        >>> card = Msg("Li", "你好", "user", metadata={"k": 1})
        >>> with display_language("zh-CN"):
        ...     "元数据" in card._repr_html_()
        True
    """
    token = _current.set(resolve_language(language))
    try:
        yield _current.get() or _default
    finally:
        _current.reset(token)


def current_language() -> str:
    """The language cards are shown in here and now."""
    return _current.get() or _default


@contextlib.contextmanager
def writing_labels(writer: Callable[[Label], str]) -> Iterator[None]:
    """Write every card label with *writer* inside a ``with`` block, instead of in the
    display language.

    The choice is context-local, like :func:`display_language`. The text *writer* returns
    is escaped by the card like any label.
    """
    token = _writer.set(writer)
    try:
        yield
    finally:
        _writer.reset(token)


# -- catalogs ----------------------------------------------------------------------

_LOCALE = os.path.join(os.path.dirname(__file__), "locale")
_catalogs: dict[str, dict[tuple[str, str | None], list[str]]] = {}
#: Which plural form a language uses for n things: its catalog's ``Plural-Forms`` in
#: Python (a test compares them); Spanish has one for exact millions ("un millón de").
_PLURAL_FORM: dict[str, Callable[[int], int]] = {
    "en": lambda n: int(n != 1),
    "es": lambda n: 0 if n == 1 else 1 if n != 0 and n % 1_000_000 == 0 else 2,
    "zh_CN": lambda n: 0,
}
_PO_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _unquote(text: str) -> str:
    import json

    value: str = json.loads(f'"{text}"')
    return value


def _catalog(language: str) -> dict[tuple[str, str | None], list[str]]:
    """The translations of *language*, by ``(msgid, msgid_plural)``: the forms of each.

    Untranslated and fuzzy entries are left out (their English is shown).
    """
    found = _catalogs.get(language)
    if found is not None:
        return found
    entries: dict[tuple[str, str | None], list[str]] = {}
    path = os.path.join(_LOCALE, language, "LC_MESSAGES", "agentmsg.po")
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        for entry in text.split("\n\n"):
            fields: dict[str, str] = {}
            key = ""
            fuzzy = False
            for line in entry.splitlines():
                if line.startswith("#,") and "fuzzy" in line:
                    fuzzy = True
                if line.startswith("#") or not line.strip():
                    continue
                keyword, _, rest = line.partition(" ")
                if line.startswith('"'):
                    fields[key] += "".join(_unquote(s) for s in _PO_STRING.findall(line))
                else:
                    key = keyword
                    fields[key] = "".join(_unquote(s) for s in _PO_STRING.findall(rest))
            msgid = fields.get("msgid")
            forms = [fields[k] for k in sorted(fields) if k.startswith("msgstr")]
            if msgid and not fuzzy and forms and all(forms):
                entries[(msgid, fields.get("msgid_plural"))] = forms
    _catalogs[language] = entries
    return entries


# -- numbers -----------------------------------------------------------------------


class Size(NamedTuple):
    """A byte count, shown as ``512 bytes``, ``7.9 KiB`` or ``3 MiB`` in the language."""

    amount: int


def _number(value: float, language: str, decimals: int = 0) -> str:
    """*value* with the language's digit grouping and decimal sign.

    English and Chinese group thousands with commas and write a decimal point; Spanish
    writes a decimal comma and groups numbers of five digits or more with a space
    (``1234``, ``12 345``), as the RAE and ISO 80000 advise.
    """
    text = f"{value:,.{decimals}f}"
    if language != "es":
        return text
    whole, _, fraction = text.partition(".")
    digits = whole.replace(",", "")
    grouped = whole.replace(",", "\u00a0") if len(digits.lstrip("-")) > 4 else digits
    return f"{grouped},{fraction}" if fraction else grouped


def _size(count: int, language: str) -> str:
    if count < 1024:
        return Label("{count} byte", "{count} bytes", count, {"count": count}).text(language)
    number, unit = (count / 1024, "KiB") if count < 1024 * 1024 else (count / 1024**2, "MiB")
    shown = _number(number, language, 1)
    for point in (".0", ",0"):
        shown = shown.removesuffix(point)
    return f"{shown} {unit}"


# -- labels ------------------------------------------------------------------------


class Label(NamedTuple):
    """A message and its arguments, not yet in a language.

    Attributes:
        msgid: The English message, with ``{name}`` fields.
        plural: Its English plural, for a message that counts *n* things; else None.
        n: How many things (chooses the plural form), or None.
        args: The values of the fields: strings, numbers, :class:`Size` or labels.
    """

    msgid: str
    plural: str | None
    n: int | None
    args: dict[str, Any]

    def text(self, language: str) -> str:
        """The message in *language* (a code of :data:`LANGUAGES`), its fields filled."""
        english = self.msgid if self.plural is None or self.n == 1 else self.plural
        template = english
        forms = _catalog(language).get((self.msgid, self.plural)) if language != "en" else None
        if forms:
            index = 0 if self.plural is None else _PLURAL_FORM[language](self.n or 0)
            template = forms[min(index, len(forms) - 1)]
        args = {key: _shown(item, language) for key, item in self.args.items()}
        try:
            return template.format(**args)
        except (KeyError, IndexError, ValueError):  # a broken translation: show the English
            return english.format(**args)


def _shown(value: Any, language: str) -> str:
    if isinstance(value, Size):
        return _size(value.amount, language)
    if isinstance(value, Label):
        return value.text(language)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    return _number(value, language)


def _render(label: Label) -> str:
    writer = _writer.get()
    return label.text(current_language()) if writer is None else writer(label)


def gettext(msgid: str, **args: Any) -> str:
    """*msgid* in the display language, with ``{name}`` fields filled from *args*.

    An argument is shown as it is (a string), as a number in the language's format (an
    int), as a byte count (:class:`Size`), or translated itself (a label made with
    :func:`label`).
    """
    return _render(Label(msgid, None, None, args))


def ngettext(singular: str, plural: str, n: int, **args: Any) -> str:
    """Like :func:`gettext`, choosing the form the language uses for *n* things."""
    return _render(Label(singular, plural, n, args))


def label(msgid: str, **args: Any) -> Label:
    """A message translated where it is shown: as another message's argument, or by
    :func:`translated`."""
    return Label(msgid, None, None, args)


def translated(message: Label) -> str:
    """A :func:`label` in the display language (or as the installed writer writes it)."""
    return _render(message)
