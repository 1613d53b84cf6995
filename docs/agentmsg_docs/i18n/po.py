"""The one reader of gettext catalogs (``.po`` files) in the docs tooling: polib.

The extension (downloads, theme strings), the root pages and the catalogs' checks read
catalogs through polib; sphinx-intl (``make update-po``, ``make stats``) reads and writes
them itself, and the package reads only its compiled ``agentmsg.mo`` files.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["context_translations", "entry_states", "translations"]


def translations(path: Path) -> dict[str, str]:
    """The usable translations of the catalog at *path*, by msgid: translated, neither
    fuzzy nor obsolete, singular (``{}`` when there is no such file)."""
    import polib

    if not path.is_file():
        return {}
    return {
        entry.msgid: entry.msgstr
        for entry in polib.pofile(str(path))
        if entry.msgid and entry.msgstr and not entry.obsolete and "fuzzy" not in entry.flags
    }


def context_translations(path: Path) -> dict[tuple[str, str], str]:
    """The usable translations of the entries with a ``msgctxt`` in the catalog at *path*,
    by (msgctxt, msgid) (``{}`` when there is no such file)."""
    import polib

    if not path.is_file():
        return {}
    return {
        (entry.msgctxt, entry.msgid): entry.msgstr
        for entry in polib.pofile(str(path))
        if entry.msgctxt and entry.msgstr and not entry.obsolete and "fuzzy" not in entry.flags
    }


def entry_states(path: Path) -> dict[str, str]:
    """The state of each entry of the catalog at *path*, by msgid: ``"translated"``,
    ``"fuzzy"`` (translated before its English changed) or ``"untranslated"``; obsolete
    entries left out (``{}`` when there is no such file)."""
    import polib

    if not path.is_file():
        return {}
    states = {}
    for entry in polib.pofile(str(path)):
        if not entry.msgid or entry.obsolete:
            continue
        forms = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        translated = all(form.strip() for form in forms)
        states[entry.msgid] = (
            "fuzzy" if entry.fuzzy else "translated" if translated else "untranslated"
        )
    return states
