"""The glossaries as a check: ``python -m agentmsg_docs.i18n.glossary`` (part of ``make lint``).

Each ``locales/<lang>/GLOSSARY.md`` holds, besides its table for people, a fenced ``toml``
block of rules a program reads::

    [[rule]]
    id = "image"                      # named in every report
    english = '\\bimages?\\b'          # a regex searched in the msgid (case-insensitive)
    required = ['图像']               # then one of these must be in the msgstr
    forbidden = ['图片']              # never in a msgstr of the rule's catalogs
    files = ["tutorial/*.po"]         # optional: the catalogs it covers (default: all)
    first = true                      # optional: `required` holds for a catalog's first match only
    code = true                       # optional: match the raw text, code included
    note = "image is 图像"            # optional: printed with the report

Code is left out on both sides before matching (inline literals, code roles, link targets),
so ``ImageBlock`` or ``carry=`` in code never counts, unless the rule says ``code = true``.
An entry that breaks a rule on purpose says so in a translator comment,
``# glossary-ok: <id>``, which ``msgmerge`` keeps.

One check belongs to no glossary (:data:`SAME`): an entry whose msgstr is its English
msgid fails, unless that text has nothing to translate (:func:`has_words`: it is code,
names, numbers, URLs or placeholders). An English word that the language writes the same
(Spanish «audio») is marked ``# glossary-ok: same-as-english``.

The catalogs are those of the pages (``locales/<lang>/LC_MESSAGES``) and of the chat cards
(``src/agentmsg/cards/locale/<lang>/LC_MESSAGES``).
"""

from __future__ import annotations

import builtins
import fnmatch
import re
import sys
import tomllib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polib

__all__ = [
    "SAME",
    "Problem",
    "Rule",
    "check_catalog",
    "check_language",
    "has_words",
    "main",
    "read_rules",
    "terms",
]

ROOT = Path(__file__).resolve().parents[3]
_BLOCK = re.compile(r"^```toml[^\n]*\n(.*?)^```", re.DOTALL | re.MULTILINE)
_EXCEPTION = re.compile(r"glossary-ok:\s*([\w, -]+)")

# What is code or a link target, not prose: ``x``, `x`, :class:`x`, {class}`x`, <target>, (url).
_CODE = re.compile(
    r"``.+?``"
    r"|:(?:py:)?(?:class|func|meth|attr|mod|data|obj|exc|const|envvar|file|program)"
    r":`[^`]+`"
    r"|\{(?:py:)?(?:class|func|meth|attr|mod|data|obj|exc)\}`[^`]+`"
    r"|`[^`<]*?`(?!_)"
    r"|\s*<[^<>\s]+>"
    r"|\]\([^)\s]+\)"
)


def prose(text: str) -> str:
    """*text* with its code and link targets left out (each replaced by a space)."""
    return _CODE.sub(" ", text)


#: The id of the check that a translation is not left as its English.
SAME = "same-as-english"
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
_URL = re.compile(r"\b[a-z][a-z+.-]*://\S+")
_PLACEHOLDER = re.compile(r"\$?\{[^{}\s]*\}|%(?:\([^)]*\))?[sdifr]")
_WORD = re.compile(r"[^\W\d_]{2,}")
#: Lower-case names that are code, not English: ``str``, ``dict``, ``tuple``...
_BUILTINS = frozenset(dir(builtins))


def has_words(text: str) -> bool:
    """Whether *text* has a word to translate: a word of two letters or more, in lower
    case, that is no Python built-in, once code, link targets, URLs, HTML tags and
    placeholders are left out. Names (``Chat Completions``, ``ERNIE Bot Agent``),
    numbers and types (``tuple[Loss, ...]``) have none.

    >>> has_words("ERNIE Bot Agent ``cookbook/memory.ipynb``"), has_words("dict[str, Any]")
    (False, False)
    >>> has_words("{label} {note}"), has_words("ERNIE Bot Agent (docstrings)")
    (False, True)
    """
    rest = _PLACEHOLDER.sub(" ", prose(_URL.sub(" ", _TAG.sub(" ", text))))
    return any(word[0].islower() and word not in _BUILTINS for word in _WORD.findall(rest))


def _left_in_english(entry: polib.POEntry) -> bool:
    """Whether *entry* is translated by its msgid itself, though it has words to translate."""
    if entry.msgid_plural:
        sources = {entry.msgid, entry.msgid_plural}
        same = all(text in sources for text in entry.msgstr_plural.values())
    else:
        same = entry.msgstr == entry.msgid
    return same and has_words(entry.msgid)


@dataclass(frozen=True)
class Rule:
    """One line of a glossary that a program checks."""

    id: str
    english: str = ""
    required: tuple[str, ...] = ()
    forbidden: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    first: bool = False
    code: bool = False
    note: str = ""

    def covers(self, catalog: str) -> bool:
        """Whether the catalog at *catalog* (a path relative to LC_MESSAGES) is checked."""
        return not self.files or any(fnmatch.fnmatch(catalog, glob) for glob in self.files)


@dataclass(frozen=True, order=True)
class Problem:
    """A catalog entry that breaks a rule: where, which rule, what is wrong."""

    path: str
    line: int
    rule: str
    text: str = field(compare=False)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: [{self.rule}] {self.text}"


_ROW = re.compile(r"^\|(.*)\|\s*$", re.MULTILINE)
_SEPARATOR = re.compile(r"^[\s|:-]+$")


def terms(glossary: Path) -> list[str]:
    """The translations of the table in *glossary* (its second column), in table order:
    each cell split at ``/`` into its renderings, a parenthesised part left out
    (``文心一言（ERNIE Bot）`` gives ``文心一言``). The header row is not a term.

    A glossary without a table has no terms.
    """
    found: list[str] = []
    rows = [row.group(1) for row in _ROW.finditer(glossary.read_text(encoding="utf-8"))]
    for row in rows[1:]:  # the first row is the header
        cells = [cell.strip() for cell in row.split("|")]
        if len(cells) < 2 or _SEPARATOR.match(row):
            continue
        for rendering in cells[1].split("/"):
            term = re.sub(r"（[^）]*）|\([^)]*\)", "", rendering).strip()
            if term and term not in found:
                found.append(term)
    return found


def read_rules(glossary: Path) -> list[Rule]:
    """The rules of the ``toml`` blocks in *glossary* (a ``GLOSSARY.md``).

    Raises:
        ValueError: a rule has no id, an unknown key, no condition, or a bad regex.
    """
    rules = []
    known = set(Rule.__dataclass_fields__)
    for block in _BLOCK.findall(glossary.read_text(encoding="utf-8")):
        for index, raw in enumerate(tomllib.loads(block).get("rule", [])):
            unknown = set(raw) - known
            if unknown or not raw.get("id"):
                msg = f"{glossary}: rule {index + 1} has no `id` or unknown keys {sorted(unknown)}."
                raise ValueError(msg)
            values: dict[str, Any] = {
                key: tuple(value) if isinstance(value, list) else value
                for key, value in raw.items()
            }
            rule = Rule(**values)
            if not (rule.forbidden or (rule.english and rule.required)):
                msg = (
                    f"{glossary}: rule {rule.id!r} checks nothing (no `forbidden`, no `required`)."
                )
                raise ValueError(msg)
            for pattern in (rule.english, *rule.required, *rule.forbidden):
                try:
                    re.compile(pattern)
                except re.error as error:
                    msg = f"{glossary}: rule {rule.id!r} has a bad regex {pattern!r}: {error}."
                    raise ValueError(msg) from error
            rules.append(rule)
    return rules


def _exceptions(entry: polib.POEntry) -> set[str]:
    found: set[str] = set()
    for match in _EXCEPTION.finditer(entry.tcomment or ""):
        found.update(part.strip() for part in match.group(1).split(","))
    return found


def _translations(entry: polib.POEntry) -> list[str]:
    if entry.msgid_plural:
        return [text for _, text in sorted(entry.msgstr_plural.items())]
    return [entry.msgstr]


def check_catalog(path: Path, rules: Sequence[Rule], name: str, shown: str) -> list[Problem]:
    """The problems of the catalog at *path*, known as *name* to the rules' ``files``
    (its path under LC_MESSAGES) and as *shown* in the reports."""
    rules = [rule for rule in rules if rule.covers(name)]
    problems = []
    seen_first: set[str] = set()
    for entry in polib.pofile(str(path)):
        if entry.obsolete or (not entry.msgstr and not entry.msgstr_plural):
            continue
        raw_source = " ".join(filter(None, (entry.msgid, entry.msgid_plural)))
        raw_targets = _translations(entry)
        allowed = _exceptions(entry)
        if SAME not in allowed and _left_in_english(entry):
            shown_id = entry.msgid if len(entry.msgid) <= 60 else entry.msgid[:57] + "..."
            problems.append(
                Problem(
                    shown,
                    entry.linenum,
                    SAME,
                    f"msgstr is the English msgid {shown_id!r}: translate it, or mark a "
                    f"word the language writes the same `# glossary-ok: {SAME}`",
                )
            )
        for rule in rules:
            if rule.id in allowed:
                continue
            if rule.code:
                source, targets = raw_source, raw_targets
            else:
                source, targets = prose(raw_source), [prose(text) for text in raw_targets]
            for pattern in rule.forbidden:
                hit = next((m for t in targets if (m := re.search(pattern, t))), None)
                if hit:
                    problems.append(
                        Problem(shown, entry.linenum, rule.id, _say(f"«{hit.group()}»", rule))
                    )
            if not rule.required or not re.search(rule.english, source, re.IGNORECASE):
                continue
            if rule.first:
                if rule.id in seen_first:
                    continue
                seen_first.add(rule.id)
            if not all(any(re.search(p, t) for p in rule.required) for t in targets):
                wanted = " or ".join(f"«{p}»" for p in rule.required)
                problems.append(
                    Problem(shown, entry.linenum, rule.id, _say(f"{wanted} missing", rule))
                )
    return problems


def _say(what: str, rule: Rule) -> str:
    return f"{what}: {rule.note}" if rule.note else what


def _catalogs(language: str, root: Path) -> Iterator[tuple[Path, str]]:
    for folder in (root / "locales", root / "src" / "agentmsg" / "cards" / "locale"):
        messages = folder / language / "LC_MESSAGES"
        for path in sorted(messages.rglob("*.po")):
            yield path, path.relative_to(messages).as_posix()


def check_language(language: str, root: Path | None = None) -> list[Problem]:
    """Every problem of *language*'s catalogs against its ``GLOSSARY.md`` (in the
    repository at *root*, by default this one)."""
    root = root or ROOT
    rules = read_rules(root / "locales" / language / "GLOSSARY.md")
    problems = []
    for path, name in _catalogs(language, root):
        problems += check_catalog(path, rules, name, path.relative_to(root).as_posix())
    return sorted(problems)


def main(argv: Sequence[str] = ()) -> int:
    """Check the languages named in *argv* (default: every folder with a GLOSSARY.md)."""
    languages = list(argv) or sorted(
        p.parent.name for p in (ROOT / "locales").glob("*/GLOSSARY.md")
    )
    problems = [problem for language in languages for problem in check_language(language)]
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} glossary problem(s); mark an intended one `# glossary-ok: <id>`.")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
