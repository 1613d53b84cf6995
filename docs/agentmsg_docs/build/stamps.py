"""What is up to date: content hashes of every input, kept in ``_build/stamps/``.

A language's pages depend on ``docs/`` (pages, ``conf.py``, templates, static files,
extensions, and the generated ``docs/tutorial/``), the package's sources (autodoc, the
examples), its catalogs, the installed distributions and the site's URL. After a
successful build of a language, the hash of all that is written to
``_build/stamps/<lang>.sha256``; the next build skips the language when the hash is the
same and its pages are still there, and otherwise rebuilds it from scratch (an
incremental Sphinx build writes only the changed pages, so the sitemap would list only
those and the search index would keep words of removed text). The examples pass is
skipped when ``docs/tutorial/`` is current
(:func:`agentmsg_docs.gallery.tutorials.examples_current`).
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from agentmsg_docs.build import BUILD, DOCS, LOCALES, ROOT
from agentmsg_docs.gallery.tutorials import installed_distributions
from agentmsg_docs.i18n.languages import SITE_URL, TABLE

__all__ = [
    "GALLERY",
    "STAMPS",
    "forget_stamp",
    "gettext_digest",
    "language_digest",
    "language_digests",
    "up_to_date",
    "write_stamp",
]

STAMPS = BUILD / "stamps"
GALLERY = DOCS / "tutorial"  # written by the examples pass
_FORMAT = "agentmsg-docs-stamp 2"

Hash = Any  # a hashlib object


def _hash_tree(digest: Hash, root: Path, skip: Callable[[Path], bool] = lambda _: False) -> None:
    """Feed every file under *root* (relative path and bytes, sorted) into *digest*."""
    if not root.exists():
        digest.update(f"missing {root.name}\n".encode())
        return
    for path in sorted(root.rglob("*")):
        if "__pycache__" in path.parts or path.suffix in {".pyc", ".mo"} or skip(path):
            continue
        if path.is_file():
            data = path.read_bytes()
            digest.update(f"{path.relative_to(root).as_posix()}\0{len(data)}\0".encode())
            digest.update(data)


def _environment(digest: Hash) -> None:
    """The interpreter, the installed distributions (their ``*.dist-info`` folder names
    carry the versions) and the site's URL."""
    digest.update(f"{_FORMAT}\0{sys.version}\0{sys.executable}\0{SITE_URL}\0".encode())
    digest.update("\0".join(installed_distributions()).encode())


def _rewritten_anyway(path: Path) -> bool:
    """Files the examples pass rewrites although nothing they show changed (zips with
    fresh timestamps; run times). The language builds write their own zips."""
    return path.parent == GALLERY and (path.suffix == ".zip" or path.name.endswith(".cost.json"))


def _shared_inputs() -> Hash:
    """The part of every language's hash that all languages share (computed once): the
    table of languages too, whose rows every page's language links and marks read."""
    digest = hashlib.sha256()
    _environment(digest)
    _hash_tree(digest, DOCS, _rewritten_anyway)
    _hash_tree(digest, ROOT / "src")
    digest.update(TABLE.read_bytes())
    return digest


def _card_catalog(path: Path) -> bool:
    return "locale" in path.relative_to(ROOT / "src").parts


def gettext_digest(command: Sequence[str]) -> str:
    """The hash of everything the gettext build reads (the English pages: not the
    catalogs, the cards' included, nor the table of languages) and of its *command*
    (without the paths)."""
    digest = hashlib.sha256()
    _environment(digest)
    _hash_tree(digest, DOCS, _rewritten_anyway)
    _hash_tree(digest, ROOT / "src", _card_catalog)
    digest.update("\0".join(["gettext", *command[:-3]]).encode())
    return digest.hexdigest()


def language_digests(commands: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """For each language, the hash of everything its build reads and of its command
    (without the paths, its last three arguments)."""
    shared = _shared_inputs()
    digests = {}
    for lang, command in commands.items():
        digest = shared.copy()
        digest.update("\0".join([lang, *command[:-3]]).encode())
        _hash_tree(digest, LOCALES / lang)
        digests[lang] = digest.hexdigest()
    return digests


def language_digest(lang: str, command: Sequence[str]) -> str:
    """The hash of everything the *lang* build reads (see :func:`language_digests`)."""
    return language_digests({lang: command})[lang]


def _stamp(name: str) -> Path:
    return STAMPS / f"{name}.sha256"


def up_to_date(name: str, digest: str) -> bool:
    """Whether the last successful build of *name* had this *digest*."""
    stamp = _stamp(name)
    return stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == digest


def write_stamp(name: str, digest: str) -> None:
    STAMPS.mkdir(parents=True, exist_ok=True)
    _stamp(name).write_text(digest + "\n", encoding="utf-8")


def forget_stamp(name: str) -> None:
    _stamp(name).unlink(missing_ok=True)
