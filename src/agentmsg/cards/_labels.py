"""The language of the chat cards: their labels in English, Simplified Chinese or Spanish.

A card writes its labels ("Tool call", "image (image/png, 112 bytes)", ...) in the display
language (:func:`set_display_language`, :func:`display_language`; English by default), and
the message's own data as it is. The translations are the catalogs
``locale/<lang>/LC_MESSAGES/agentmsg.po`` beside this module, which ``make update-po``
keeps and compiles into the ``agentmsg.mo`` files read here; numbers follow the language's
conventions, which its catalog shows by translating two sample numbers. The docs build
installs a writer (:func:`writing_labels`) that writes each :class:`Label` as a marker.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import os
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

from .._validate import must_be

if TYPE_CHECKING:
    import gettext as _gettext

_LOCALE = os.path.join(os.path.dirname(__file__), "locale")
_MO = os.path.join("LC_MESSAGES", "agentmsg.mo")


def _compiled_languages() -> tuple[str, ...]:
    try:
        names = os.listdir(_LOCALE)
    except OSError:
        return ()
    return tuple(sorted(n for n in names if os.path.isfile(os.path.join(_LOCALE, n, _MO))))


LANGUAGES: tuple[str, ...] = ("en", *_compiled_languages())
"""The display languages, by their gettext codes: English and each compiled catalog's."""

_default = "en"
_current: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "agentmsg_display_language", default=None
)
_writer: contextvars.ContextVar[Callable[[Label], str] | None] = contextvars.ContextVar(
    "agentmsg_label_writer", default=None
)


def resolve_language(language: object, path: str = "language") -> str:
    """The code of :data:`LANGUAGES` that *language* (a code or a BCP 47 tag, in any case)
    names, else the first with its primary subtag (``"en"`` for ``"en-GB"``)."""
    if isinstance(language, str):
        lowered = language.strip().lower().replace("_", "-")
        for code in LANGUAGES:
            if lowered == code.lower().replace("_", "-"):
                return code
        primary = lowered.split("-")[0]
        for code in LANGUAGES:
            if primary == code.lower().replace("_", "-").split("-")[0]:
                return code
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
    """Write every card label with *writer* (its text is escaped like any label) inside a
    ``with`` block, instead of in the display language; context-local."""
    token = _writer.set(writer)
    try:
        yield
    finally:
        _writer.reset(token)


# -- catalogs ----------------------------------------------------------------------

_catalogs: dict[str, _gettext.NullTranslations] = {}


def _catalog(language: str) -> _gettext.NullTranslations:
    """The compiled translations of *language* (untranslated and fuzzy entries are not in
    them: their English is shown); the plural rule is the catalog header's."""
    found = _catalogs.get(language)
    if found is None:
        import gettext

        try:
            with open(os.path.join(_LOCALE, language, _MO), "rb") as handle:
                found = gettext.GNUTranslations(handle)
        except OSError:
            found = gettext.NullTranslations()
        _catalogs[language] = found
    return found


def card_labels(language: str) -> dict[str, str]:
    """The chat cards' labels that *language* translates: each English label, with its
    ``{name}`` fields, mapped to its translation (for a label that counts, the English
    singular to the first form).

    A label missing from the result is shown in English in that language's cards; English
    itself translates none. Tools that write the labels elsewhere, such as this site's
    build, read it to mark what a reader sees in English.

    Args:
        language: ``"en"``, ``"zh_CN"`` or ``"es"``, written as :func:`set_display_language`
            takes it.

    Raises:
        MessageError: *language* is none of them.

    Example:
        >>> from agentmsg import card_labels
        >>> card_labels("es")["Metadata"]
        'Metadatos'
        >>> card_labels("zh-CN")["Tool call"]
        '工具调用'
        >>> card_labels("en")
        {}
    """
    translated: dict[object, str] = getattr(_catalog(resolve_language(language)), "_catalog", {})
    found: dict[str, str] = {}
    for key, text in translated.items():
        msgid, form = key if isinstance(key, tuple) else (key, 0)
        if msgid and form == 0:
            found[str(msgid)] = text
    return found


# -- numbers -----------------------------------------------------------------------


class Size(NamedTuple):
    """A byte count, shown as ``512 bytes``, ``7.9 KiB`` or ``3 MiB`` in the language."""

    amount: int


@functools.cache
def _conventions(language: str) -> tuple[str, str, int]:
    """The decimal sign, the group sign and the fewest digits that are grouped, as the
    catalog of *language* writes :data:`_FOUR_DIGITS` and :data:`_FIVE_DIGITS` (Spanish:
    ``1234`` and ``12 345,6``, as the RAE and ISO 80000 advise)."""
    five = re.fullmatch(r"12(\D*)345(\D+)6", _FIVE_DIGITS.text(language))
    if five is None:  # a translation that is no sample number: the English way
        return ".", ",", 4
    grouped_at_four = re.fullmatch(r"1\D+234", _FOUR_DIGITS.text(language)) is not None
    return five.group(2), five.group(1), 4 if grouped_at_four else 5


def _number(value: float, language: str, decimals: int = 0) -> str:
    """*value* with the language's digit grouping and decimal sign (:func:`_conventions`)."""
    text = f"{value:,.{decimals}f}"
    decimal, group, fewest = _conventions(language)
    whole, _, fraction = text.partition(".")
    digits = whole.replace(",", "")
    grouped = whole.replace(",", group) if len(digits.lstrip("-")) >= fewest else digits
    return f"{grouped}{decimal}{fraction}" if fraction else grouped


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
    """A message (English, with ``{name}`` fields), its plural and count *n* for one that
    counts things (else None), and the values of its fields, not yet in a language."""

    msgid: str
    plural: str | None
    n: int | None
    args: dict[str, Any]

    def text(self, language: str) -> str:
        """The message in *language* (a code of :data:`LANGUAGES`), its fields filled."""
        english = self.msgid if self.plural is None or self.n == 1 else self.plural
        catalog = _catalog(language)
        if self.plural is None:
            template = catalog.gettext(self.msgid)
        else:
            template = catalog.ngettext(self.msgid, self.plural, self.n or 0)
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


def translated(message: Label) -> str:
    """A :func:`label` in the display language (or as the installed writer writes it)."""
    writer = _writer.get()
    return message.text(current_language()) if writer is None else writer(message)


def gettext(msgid: str, **args: Any) -> str:
    """*msgid* in the display language, with ``{name}`` fields filled from *args*: strings
    as they are, numbers in the language's format, :class:`Size` and labels translated."""
    return translated(Label(msgid, None, None, args))


def ngettext(singular: str, plural: str, n: int, **args: Any) -> str:
    """Like :func:`gettext`, choosing the form the language uses for *n* things."""
    return translated(Label(singular, plural, n, args))


def label(msgid: str, **args: Any) -> Label:
    """A message translated where it is shown: as another message's argument, or by
    :func:`translated`."""
    return Label(msgid, None, None, args)


# Sample numbers whose translations show how the language writes numbers (English
# leaves them as they are); :func:`_conventions` reads them.
# Translators: this four-digit number as your language writes it (no group sign if it
# groups only numbers of five digits or more).
_FOUR_DIGITS = label("1,234")
# Translators: this number as your language writes it: group sign, decimal sign.
_FIVE_DIGITS = label("12,345.6")
