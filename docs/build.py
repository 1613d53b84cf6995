"""Where the documentation build is orchestrated: every ``make`` docs target ends up here.

Usage (from the repository root; ``make html``, ``make gettext``, ... call these)::

    python docs/build.py html [--langs "en zh_CN es"]   # the site, into _build/html/
    python docs/build.py examples                       # run the tutorial scripts only
    python docs/build.py gettext [--outdir DIR]         # extract messages into _build/gettext/
    python docs/build.py update-po                      # ... and merge them into locales/
    python docs/build.py stats                          # translation progress per page

How ``html`` works (the data flow of /work/shared/DESIGN.md):

1. The *examples pass* (:func:`run_examples`): sphinx-gallery executes
   ``docs/examples/*.py`` and generates ``docs/tutorial/`` (pages with captured output,
   ``.py``/``.ipynb``/``.zip`` downloads). Its md5 cache re-executes only the changed
   scripts; a change in the agentmsg package re-runs them all. A script that raises
   stops the build; sphinx-gallery's traceback names the script and line. Meanwhile
   every catalog ``locales/<lang>/LC_MESSAGES/**/*.po`` of the requested languages is
   validated (polib, then ``msgfmt --check`` when installed); a broken one stops the
   build with its file and line.
2. One ``sphinx-build -b html -n -W --keep-going -D language=<lang>`` per language, all
   at once (they only read ``docs/``; ``-D agentmsg_gallery_reuse=1`` makes them reuse
   the examples pass and never execute anything), into ``_build/html/<lang>/`` with
   doctrees in ``_build/doctrees/<lang>/``. Logs go to ``_build/logs/<lang>.log`` too.
   ``docs/_ext/agentmsg_gallery.py`` writes the translated downloads of each language.
3. ``_build/html/index.html`` (:func:`root_index_html`) sends a browser to the language
   it prefers and links to every built language; ``404.html`` and a ``sitemap.xml`` index
   of the languages' sitemaps sit beside it, where web hosts look for them.

Incremental builds: a language is rebuilt, always from scratch, only when something it
reads changed (a content hash of docs/, the generated docs/tutorial/, src/, its catalogs
and the installed distributions, kept in ``_build/stamps/<lang>.sha256``); otherwise it
is skipped. The examples pass is skipped the same way. So an unchanged ``make html``
costs a few hashes, a changed ``.po`` rebuilds its language only, and ``make html
LANGS=en`` followed by ``make html`` builds just the missing languages. The log says
which: ``== <lang>: rebuilding from scratch`` or ``== <lang>: up to date ...``.

Speed (what ``make bench`` measures; none of it changes a byte of the output):

- every Sphinx run is a child forked from this process after it imported Sphinx and the
  extensions (:func:`_preload`), so no run pays for those imports again;
- while the examples run, the language builds are already forked and preload what each
  needs alone (jieba's dictionary for zh_CN, read in one go:
  :func:`_read_jieba_cache_at_once`), and the catalogs are validated; the builds start
  the moment the examples are done;
- the heaviest build (zh_CN, then es) runs at the highest priority, so that on two
  cores no build ends alone while the other core idles;
- in the children, the garbage collector runs less often (:func:`_tune_gc`) and
  translated builds skip avoidable per-paragraph work, and the search index splits each
  distinct text once (:func:`_speed_up_i18n`).

The patches to Sphinx, docutils, myst-parser and jieba named above are switched off by
``AGENTMSG_DOCS_UNPATCHED=1``, for a build to compare with when one is in doubt (a test
builds both ways and compares every byte).

The Sphinx side lives in ``docs/conf.py`` and ``docs/_ext/``; the templates in
``docs/_templates/``. Any failure exits non-zero.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import IO, Any

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
BUILD = ROOT / "_build"
LOCALES = ROOT / "locales"
sys.path.insert(0, str(DOCS / "_ext"))

from agentmsg_languages import LANGUAGES, SITE_URL  # noqa: E402

ALL_LANGS = tuple(language.code for language in LANGUAGES)
TRANSLATED_LANGS = tuple(code for code in ALL_LANGS if code != "en")
SPHINX_STRICT = ("-n", "-W", "--keep-going")
UNPATCHED = "AGENTMSG_DOCS_UNPATCHED"
"""Set to a non-empty value, the build leaves Sphinx and its libraries unpatched."""

__all__ = [
    "ALL_LANGS",
    "TRANSLATED_LANGS",
    "CatalogStats",
    "catalog_files",
    "catalog_stats",
    "copy_repository",
    "main",
    "root_index_html",
    "validate_catalogs",
]


class BuildError(Exception):
    """A step of the build failed; the message says which and where."""


# ----------------------------------------------------------------------------------------
# Catalogs


def catalog_files(lang: str, locales: Path = LOCALES) -> list[Path]:
    """Every ``.po`` file of *lang*, sorted."""
    return sorted((locales / lang / "LC_MESSAGES").rglob("*.po"))


def validate_catalogs(langs: Iterable[str], locales: Path = LOCALES) -> list[str]:
    """Problems in the catalogs of *langs*, each as ``"<file>:<line>: <what>"``.

    Every file is parsed with polib; when GNU ``msgfmt`` is installed it also checks
    each file (``msgfmt --check``: headers, format strings, duplicates).
    """
    import polib

    problems: list[str] = []
    msgfmt = shutil.which("msgfmt")
    for lang in langs:
        for path in catalog_files(lang, locales):
            shown = _shown(path)
            broken = _malformed_lines(path)
            if broken:  # polib would parse these silently, msgfmt names the next line
                problems.extend(
                    f"{shown}:{number}: malformed line {text!r}" for number, text in broken
                )
                continue
            try:
                polib.pofile(str(path))
            except (OSError, ValueError, UnicodeDecodeError) as error:
                problems.append(f"{shown}: {error}")
                continue
            if msgfmt is None:
                continue
            result = subprocess.run(
                [msgfmt, "--check", "-o", os.devnull, str(path)],
                capture_output=True,
                text=True,
                check=False,
            )
            if result.returncode != 0:
                text = result.stderr.strip().replace(str(path), shown)
                problems.append(text or f"{shown}: msgfmt --check failed")
    return problems


_PO_LINE = re.compile(r'(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?"(?:[^"\\]|\\.)*"')


def _malformed_lines(path: Path) -> list[tuple[int, str]]:
    """Lines of a .po file that are neither blank, a comment nor a keyword with a
    complete quoted string (an unterminated string, say), with their 1-based numbers."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []  # polib reports these
    return [
        (number, line)
        for number, line in enumerate(lines, start=1)
        if line.strip() and not line.startswith("#") and not _PO_LINE.fullmatch(line.strip())
    ]


@dataclass(frozen=True)
class CatalogStats:
    """Translation progress of one page's catalog."""

    lang: str
    page: str  # the docname, such as "tutorial/tools"
    translated: int
    untranslated: int
    fuzzy: int

    @property
    def total(self) -> int:
        return self.translated + self.untranslated + self.fuzzy


def catalog_stats(
    langs: Iterable[str] = TRANSLATED_LANGS, locales: Path = LOCALES
) -> list[CatalogStats]:
    """Per language and page: translated, untranslated and fuzzy entries (obsolete ones
    are not counted; a fuzzy entry counts only as fuzzy)."""
    import polib

    rows = []
    for lang in langs:
        base = locales / lang / "LC_MESSAGES"
        for path in catalog_files(lang, locales):
            catalog = polib.pofile(str(path))
            entries = [entry for entry in catalog if not entry.obsolete]
            fuzzy = sum(1 for entry in entries if entry.fuzzy)
            translated = sum(1 for entry in entries if entry.translated())
            untranslated = len(entries) - translated - fuzzy
            page = path.relative_to(base).with_suffix("").as_posix()
            rows.append(CatalogStats(lang, page, translated, untranslated, fuzzy))
    return rows


#: What a private copy of the repository leaves out (top-level names; ``docs/tutorial``).
_NOT_COPIED = {
    ".git",
    ".venv",
    "_build",
    ".hypothesis",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
}


def copy_repository(target: Path, root: Path = ROOT) -> Path:
    """Copy the working tree into *target* the way a fresh checkout looks, and return it.

    Left out: version control, the virtual environment, build output, generated gallery
    pages (``docs/tutorial``), compiled catalogs (``*.mo``) and caches. Builds in the copy
    (``python docs/build.py ...`` run there) never touch the working tree. The tests of
    reproducible and incremental builds and ``make bench`` build in such copies.
    """

    def ignore(folder: str, names: list[str]) -> set[str]:
        here = Path(folder)
        skipped = {n for n in names if n == "__pycache__" or n.endswith(".mo")}
        if here == root:
            skipped |= _NOT_COPIED & set(names)
        if here == root / "docs":
            skipped |= {"tutorial", "sg_execution_times.rst"} & set(names)
        return skipped

    shutil.copytree(root, target, ignore=ignore)
    return target


def _shown(path: Path) -> str:
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


# ----------------------------------------------------------------------------------------
# Running Sphinx
#
# Every Sphinx run of a build (the examples pass, one per language) is a child process
# forked from this one after it has imported Sphinx, the extensions, the search language
# modules and, for zh_CN, jieba's dictionary (see :func:`_preload`), so that no child pays
# for those imports again. Where ``os.fork`` is missing, each child is a fresh interpreter
# (``python docs/build.py _sphinx ...``) instead: slower, same output.


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = "0"
    env.setdefault("SOURCE_DATE_EPOCH", _source_date_epoch())
    return env


def _source_date_epoch() -> str:
    """The time of the checked-out commit (0 outside git): the POT-Creation-Date."""
    try:
        result = subprocess.run(
            ["git", "-C", str(ROOT), "log", "-1", "--format=%ct"],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return "0"
    value = result.stdout.strip()
    return value if result.returncode == 0 and value.isdigit() else "0"


def _speed_up_i18n() -> None:
    """Performance only, in the processes that run Sphinx: what a translated build does
    for every translated paragraph (Sphinx parses each msgstr on its own) and that
    costs more than the parsing itself. Nothing a build writes changes.

    - myst-parser's renderer builds a throwaway docutils document (``make_document()``,
      evaluated as a ``dict.get`` default even when a document is given), which parses
      docutils' default settings with optparse (~2 ms): they are parsed once and copied.
    - myst-parser sets up a new markdown-it parser with its plugins for every parse: one
      per configuration is kept and reused (a fresh one for a parse inside a parse).
    - Sphinx formats each skipped node as XML for a debug message that is not shown
      unless ``-vv``: formatted only when a log record is actually written.
    - Sphinx's reST parser builds a new docutils state machine for every translated
      paragraph, and with it ~15 states that each build their transition tables
      (~0.15 ms, about a third of parsing the paragraph): finished machines are pooled
      and reused (:func:`_pool_rst_state_machines`). docutils does the same for its
      nested state machines (``RSTState.nested_sm_cache``); ``run()`` re-initialises
      every state.
    - The search index splits every text of a page into words, and most texts recur
      (zh_CN: 17,286 splits of 1,912 distinct texts; jieba's segmenter takes ~12 µs a
      split): each distinct text is split once per build (:func:`_memoize_search_split`).
    """
    import copy

    from docutils.frontend import get_default_settings
    from docutils.utils import new_document
    from myst_parser.mdit_to_docutils import base
    from myst_parser.parsers import sphinx_ as myst_sphinx
    from sphinx.util import nodes as sphinx_nodes

    if os.environ.get(UNPATCHED) or getattr(base.make_document, "agentmsg_fast", False):
        return
    defaults: dict[type, Any] = {}

    def make_document(source_path: str = "notset", parser_cls: type = base.RSTParser) -> Any:
        if parser_cls not in defaults:
            defaults[parser_cls] = get_default_settings(parser_cls)
        return new_document(source_path, settings=copy.deepcopy(defaults[parser_cls]))

    make_document.agentmsg_fast = True  # type: ignore[attr-defined]
    base.make_document = make_document

    create_md_parser = myst_sphinx.create_md_parser
    parsers: dict[tuple[int, Any], tuple[Any, Any]] = {}
    depth = [0]

    def cached_md_parser(config: Any, renderer: Any) -> Any:
        if depth[0] > 1:
            return create_md_parser(config, renderer)
        kept = parsers.get((id(config), renderer))
        if kept is None or kept[0] is not config:
            kept = (config, create_md_parser(config, renderer))
            parsers[(id(config), renderer)] = kept
        return kept[1]

    parse = myst_sphinx.MystParser.parse

    def counted_parse(self: Any, inputstring: str, document: Any) -> None:
        depth[0] += 1
        try:
            parse(self, inputstring, document)
        finally:
            depth[0] -= 1

    myst_sphinx.create_md_parser = cached_md_parser
    myst_sphinx.MystParser.parse = counted_parse  # type: ignore[method-assign]

    repr_domxml = sphinx_nodes.repr_domxml

    class LazyXML:
        def __init__(self, node: Any, length: int = 80) -> None:
            self.node, self.length = node, length

        def __str__(self) -> str:
            return repr_domxml(self.node, self.length)

        __repr__ = __str__

    sphinx_nodes.repr_domxml = LazyXML  # type: ignore[assignment]

    _pool_rst_state_machines()
    _memoize_search_split()


def _memoize_search_split() -> None:
    """Remember each search language's split of a text (see :func:`_speed_up_i18n`).

    A split is a function of its text (jieba's and the regular expressions' alike); the
    one side effect, zh_CN noting the Latin words it met, is the same on a repeat. The
    cached words are copied out, so a caller can change its list.
    """
    from sphinx.search import IndexBuilder

    init = IndexBuilder.__init__

    def memoizing_init(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        split = getattr(getattr(self, "lang", None), "split", None)
        if split is None:  # another Sphinx: leave it as it is
            return
        known: dict[str, tuple[str, ...]] = {}

        def memoized_split(text: str) -> list[str]:
            words = known.get(text)
            if words is None:
                words = known[text] = tuple(split(text))
            return list(words)

        self.lang.split = memoized_split

    IndexBuilder.__init__ = memoizing_init  # type: ignore[method-assign]


def _pool_rst_state_machines() -> None:
    """Reuse the state machines with which Sphinx's reST parser reads translated
    paragraphs (see :func:`_speed_up_i18n`).

    Only the parses of ``sphinx.transforms.i18n.publish_msgstr`` give their machine
    back (their document's source ends with ``:<translated>``): those documents are
    thrown away once their nodes are moved into the page. A page's own machine is
    never reused, since its document's reporter keeps asking it for source lines. A
    parse inside a parse takes another machine; a machine whose run raised is dropped.
    Should Sphinx stop making its machines through ``states.RSTStateMachine``, nothing
    is pooled and nothing breaks.
    """
    import types

    from docutils.parsers.rst import states
    from sphinx import parsers as sphinx_parsers

    idle: dict[tuple[Any, ...], list[Any]] = {}

    def machine(state_classes: Any, initial_state: str, debug: bool = False) -> Any:
        key = (tuple(state_classes), initial_state, debug)
        pool = idle.get(key)
        if pool:
            made = pool.pop()
        else:
            made = states.RSTStateMachine(state_classes, initial_state, debug=debug)
            made.agentmsg_key = key
        return made

    # sphinx.parsers reaches the class through its module global ``states``: only that
    # name is redirected, docutils itself is untouched.
    sphinx_parsers.states = types.SimpleNamespace(RSTStateMachine=machine)  # type: ignore[attr-defined]
    parse = sphinx_parsers.RSTParser.parse

    def pooled_parse(self: Any, inputstring: Any, document: Any) -> None:
        parse(self, inputstring, document)  # a machine whose run raised is not kept
        used = getattr(self, "statemachine", None)
        key = getattr(used, "agentmsg_key", None)  # None: not made by machine() above
        if key is not None and str(document.get("source", "")).endswith(":<translated>"):
            idle.setdefault(key, []).append(used)

    sphinx_parsers.RSTParser.parse = pooled_parse  # type: ignore[method-assign]


def _preload(langs: Iterable[str]) -> None:
    """Import in this process what the Sphinx runs of *langs* import, so that the forked
    children share it: Sphinx and its HTML builder, every extension and theme conf.py
    names, the search language modules and jieba's dictionary (zh_CN). Nothing here
    changes what a build produces, and nothing here fails: a module that cannot be
    imported is left to the build, which reports it in its own words."""
    import importlib

    def load(name: str) -> None:
        with contextlib.suppress(Exception):
            importlib.import_module(name)

    try:
        from sphinx.config import eval_config_file
        from sphinx.search import languages as search_languages
        from sphinx.util.tags import Tags

        with _no_output():
            config = eval_config_file(str(DOCS / "conf.py"), Tags())
    except Exception:  # the build reports a broken conf.py itself
        return
    for name in ("sphinx.cmd.build", "sphinx.application", "sphinx.builders.html"):
        load(name)
    for name in ("sphinx.builders.dummy", *config.get("extensions", ())):
        load(name)
    load(config.get("html_theme", "alabaster"))
    with contextlib.suppress(Exception):
        _speed_up_i18n()
    searches = {language.search for language in LANGUAGES if language.code in langs}
    for search in sorted(searches):
        target = search_languages.get(search)
        if isinstance(target, str):
            load(target.rpartition(".")[0])
    if "zh" in searches:
        try:
            import jieba
        except ImportError:
            return  # the zh_CN build reports it
        import logging

        jieba.setLogLevel(logging.WARNING)
        _read_jieba_cache_at_once(jieba)
        with contextlib.suppress(Exception):
            jieba.initialize()  # loads the dictionary: ~0.25 s, once instead of in the build


def _read_jieba_cache_at_once(jieba: Any) -> None:
    """jieba reads its dictionary cache (9 MB) with ``marshal.load(file)``, which reads
    the file in small pieces: 0.55 s here, against 0.15 s for ``marshal.loads`` of the
    whole file read at once. The module's ``marshal`` name is given a ``load`` that does
    the latter; the dictionary it loads is the same, and its cache files are untouched.
    """
    import marshal
    import types

    if not os.environ.get(UNPATCHED) and getattr(jieba, "marshal", None) is marshal:
        jieba.marshal = types.SimpleNamespace(
            load=lambda file: marshal.loads(file.read()), dump=marshal.dump
        )


@contextlib.contextmanager
def _no_output() -> Iterator[None]:
    """Silence stdout (conf.py's extensions may print while it is read for preloading)."""
    with open(os.devnull, "w", encoding="utf-8") as devnull, contextlib.redirect_stdout(devnull):
        yield


#: Whether children are forked: needs os.fork, and this process's hash seed fixed at 0
#: (main() re-executes itself to get it) since a forked child keeps its parent's seed.
_FORK = hasattr(os, "fork") and not sys.flags.hash_randomization


def _text_stream(fd: int, mode: str) -> IO[str]:
    """A UTF-8 text file over the descriptor *fd* (line-buffered when writing)."""
    buffering = 1 if mode == "w" else -1
    return open(fd, mode, buffering, encoding="utf-8", errors="backslashreplace")


class _Child:
    """A child process running an entry point (``"sphinx"`` or ``"examples"``), its
    stdout and stderr in one pipe (:attr:`stream`).

    A *gated* child is forked now, calls *prepare* (to preload what it alone needs), and
    then waits until :meth:`release` says whether to run; without ``os.fork`` it is only
    started by the release.
    """

    def __init__(
        self,
        entry: str,
        args: Sequence[str],
        *,
        gated: bool = False,
        prepare: Callable[[], None] = lambda: None,
    ) -> None:
        self.entry, self.args = entry, list(args)
        self.popen: subprocess.Popen[str] | None = None
        self.pid = 0
        self.gate: int | None = None
        self.stream: IO[str] = io.StringIO()
        if not _FORK:
            if not gated:
                self._start_process()
            return
        sys.stdout.flush()
        sys.stderr.flush()
        read, write = os.pipe()
        gate_read, self.gate = os.pipe() if gated else (None, None)
        pid = os.fork()
        if pid == 0:  # the child: never returns
            code = 1
            try:
                os.close(read)
                os.dup2(write, 1)
                os.dup2(write, 2)
                os.close(write)
                sys.stdout = _text_stream(1, "w")
                sys.stderr = _text_stream(2, "w")
                if gate_read is not None:
                    os.close(self.gate)  # type: ignore[arg-type]
                    prepare()
                    if os.read(gate_read, 1) != b"1":
                        code = 0
                        return  # the finally clause exits
                code = _ENTRIES[entry](list(args))
            except SystemExit as exit_:
                code = exit_.code if isinstance(exit_.code, int) else 1
            except BaseException:  # reported, then the child exits non-zero
                import traceback

                traceback.print_exc()
            finally:
                _child_cleanup()
                os._exit(code)
        os.close(write)
        if gate_read is not None:
            os.close(gate_read)
        self.pid = pid
        self.stream = _text_stream(read, "r")

    def _start_process(self) -> None:
        self.popen = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), f"_{self.entry}", *self.args],
            cwd=ROOT,
            env=_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
        )
        assert self.popen.stdout is not None
        self.stream = self.popen.stdout

    def release(self, run: bool) -> None:
        """Let a gated child run, or make it exit at once (status 0, no output)."""
        if self.gate is not None:
            os.write(self.gate, b"1" if run else b"0")
            os.close(self.gate)
            self.gate = None
        elif run and not _FORK and self.popen is None:
            self._start_process()

    def wait(self) -> int:
        self.stream.close()
        if self.popen is not None:
            return self.popen.wait()
        if not self.pid:
            return 0  # a gated child that was never started
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)


def _child_cleanup() -> None:
    """What a forked child does before ``os._exit``: flush its output and stop the
    multiprocessing manager sphinx-sitemap starts (an orphaned manager process would keep
    the output pipe open, and the orchestrator would wait for it for ever)."""
    with contextlib.suppress(Exception):
        if "multiprocessing.util" in sys.modules:
            sys.modules["multiprocessing.util"]._exit_function()
    with contextlib.suppress(Exception):
        sys.stdout.flush()
        sys.stderr.flush()


def _tune_gc() -> None:
    """Performance only: docutils and Sphinx allocate millions of small objects, and
    CPython's default thresholds run a collection every 700 allocations (~15% of a
    build). Objects inherited from the orchestrator are frozen (never scanned), and
    collections run 70 times less often."""
    import gc

    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


def _sphinx_main(args: list[str]) -> int:
    """Entry point of a child that runs ``sphinx-build ARGS``."""
    from sphinx.cmd.build import main as sphinx_main

    _tune_gc()
    _speed_up_i18n()
    return sphinx_main(args)


def _examples_main(args: list[str]) -> int:
    """Entry point of the examples pass's child: sphinx-gallery runs when Sphinx starts."""
    from sphinx.application import Sphinx
    from sphinx.util.console import nocolor
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    _tune_gc()
    if not sys.stdout.isatty():
        nocolor()

    with patch_docutils(DOCS), docutils_namespace():
        app = Sphinx(
            srcdir=DOCS,
            confdir=DOCS,
            outdir=BUILD / "examples",
            doctreedir=BUILD / "doctrees" / "_examples",
            buildername="dummy",
            confoverrides={"language": "en"},
            freshenv=True,
        )
    gallery_conf = app.config.sphinx_gallery_conf
    failing = gallery_conf["failing_examples"]
    for script, traceback in sorted(failing.items()):
        print(f"\nExample {_shown(Path(script))} failed:\n{traceback}", file=sys.stderr)
    if failing or app._warncount:
        return 1
    return 0


_ENTRIES: dict[str, Callable[[list[str]], int]] = {
    "sphinx": _sphinx_main,
    "examples": _examples_main,
}


def _sphinx_args(builder: str, lang: str, outdir: Path, doctrees: Path) -> list[str]:
    return [
        "-b",
        builder,
        *SPHINX_STRICT,
        "--no-color",
        "-D",
        f"language={lang}",
        "-D",
        "agentmsg_gallery_reuse=1",
        "-d",
        str(doctrees),
        str(DOCS),
        str(outdir),
    ]


def _pump(child: _Child, name: str | None, log: Path | None, lock: threading.Lock) -> None:
    """Copy a child's output to ours (each line prefixed with ``[name]``) and to *log*."""
    prefix = f"[{name}] " if name else ""
    out = sys.stdout  # not the name: _preload may silence sys.stdout meanwhile
    with contextlib.ExitStack() as stack:
        handle = stack.enter_context(log.open("w", encoding="utf-8")) if log else None
        for line in child.stream:
            if handle is not None:
                handle.write(line)
            with lock:
                out.write(prefix + line)
                out.flush()


#: The languages' builds, heaviest first (zh_CN segments its text with jieba to index it).
_BY_WEIGHT = ("zh_CN", "es", "en", "gettext")


def _weight(name: str) -> int:
    return _BY_WEIGHT.index(name) if name in _BY_WEIGHT else len(_BY_WEIGHT)


def _run_parallel(
    jobs: Sequence[tuple[str, list[str]]], ready: dict[str, _Child] | None = None
) -> dict[str, int]:
    """Run ``sphinx-build`` with each job's arguments at once, printing each line with
    its job's name (and into ``_build/logs/<name>.log``); return the exit codes. Jobs
    named in *ready* are gated children started earlier: they are released.

    Every child is started before the first output thread, so no thread exists when
    this process forks.
    """
    logs = BUILD / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    lock = threading.Lock()
    started = time.monotonic()
    ready = ready or {}
    children = [
        (name, ready[name] if name in ready else _Child("sphinx", command))
        for name, command in jobs
    ]
    for rank, (name, child) in enumerate(sorted(children, key=lambda job: _weight(job[0]))):
        if name in ready:
            child.release(run=True)
        pid = child.pid or (child.popen.pid if child.popen is not None else 0)
        if len(children) > 1 and rank and pid and hasattr(os, "setpriority"):
            # Two cores, three builds: the heaviest runs at full priority and the others
            # fill in, so that it does not end alone on one core while the other idles.
            with contextlib.suppress(OSError):
                os.setpriority(os.PRIO_PROCESS, pid, 2 * rank)
    timings: dict[str, float] = {}
    codes: dict[str, int] = {}

    def follow(name: str, child: _Child) -> None:
        _pump(child, name, logs / f"{name}.log", lock)
        codes[name] = child.wait()
        timings[name] = time.monotonic() - started

    threads = [threading.Thread(target=follow, args=job) for job in children]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for name, _ in jobs:
        print(f"== {name}: exit {codes[name]} after {timings[name]:.1f}s", flush=True)
    return codes


# ----------------------------------------------------------------------------------------
# What is up to date: content hashes of every input, in stamps under _build/stamps/
#
# A language's output depends on docs/ (pages, conf.py, templates, static files,
# extensions, this file, and the generated docs/tutorial/), the package's sources
# (autodoc, the examples), its catalogs, the installed distributions and the site URL.
# After a successful build of a language its digest is written to
# _build/stamps/<lang>.sha256; the next build skips the language when the digest is the
# same and its output is still there, and otherwise rebuilds it from scratch (see
# build_html: Sphinx's own incremental builds differ from clean ones). The examples pass
# is skipped the same way when neither its inputs nor docs/tutorial/ changed.

STAMPS = BUILD / "stamps"
_STAMP_FORMAT = "agentmsg-docs-stamp 1"


def _hash_tree(digest: Any, root: Path, skip: Callable[[Path], bool] = lambda _: False) -> None:
    """Feed every file under *root* (relative path and bytes, sorted) into *digest*."""
    if not root.exists():
        digest.update(f"missing {root.name}\n".encode())
        return
    for path in sorted(root.rglob("*")):
        if "__pycache__" in path.parts or path.suffix in {".pyc", ".mo"} or skip(path):
            continue
        if path.is_file():
            data = path.read_bytes()
            name = path.relative_to(root).as_posix()
            digest.update(f"{name}\0{len(data)}\0".encode())
            digest.update(data)


def _environment_digest(digest: Any) -> None:
    """The interpreter, the installed distributions (by their ``*.dist-info`` folder
    names, which carry the versions) and the site URL."""
    digest.update(f"{_STAMP_FORMAT}\0{sys.version}\0{sys.executable}\0{SITE_URL}\0".encode())
    names: set[str] = set()
    for entry in sys.path:
        folder = Path(entry or ".")
        if folder.is_dir() and folder.name in {"site-packages", "dist-packages"}:
            names.update(p for p in os.listdir(folder) if p.endswith((".dist-info", ".egg-info")))
    digest.update("\0".join(sorted(names)).encode())


def _generated(path: Path) -> bool:
    """Files the examples pass rewrites although nothing they show changed (zips with
    fresh timestamps; run times); the builds write their own zips."""
    in_gallery = path.parent.name == GALLERY and path.parent.parent == DOCS
    return in_gallery and (path.suffix == ".zip" or path.name.endswith(".cost.json"))


GALLERY = "tutorial"  # docs/tutorial/, as agentmsg_gallery.GALLERY_DIR


def language_digest(lang: str, command: Sequence[str]) -> str:
    """Content hash of everything the *lang* build reads (see above) and its command."""
    digest = hashlib.sha256()
    _environment_digest(digest)
    digest.update(("\0".join([lang, *command[:-3]])).encode())  # without the paths
    _hash_tree(digest, DOCS, _generated)
    _hash_tree(digest, ROOT / "src")
    _hash_tree(digest, LOCALES / lang)
    return digest.hexdigest()


def examples_digest() -> str:
    """Content hash of the examples pass's inputs and of its output, docs/tutorial/."""
    digest = hashlib.sha256()
    _environment_digest(digest)
    for path in (DOCS / "conf.py", DOCS / "_ext", DOCS / "examples", ROOT / "src"):
        digest.update(f"\0{path.name}\0".encode())
        if path.is_file():
            digest.update(path.read_bytes())
        else:
            _hash_tree(digest, path)
    digest.update(b"\0output\0")
    _hash_tree(digest, DOCS / GALLERY, _generated)
    return digest.hexdigest()


def _stamp(name: str) -> Path:
    return STAMPS / f"{name}.sha256"


def _up_to_date(name: str, digest: str) -> bool:
    stamp = _stamp(name)
    return stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == digest


def _write_stamp(name: str, digest: str) -> None:
    STAMPS.mkdir(parents=True, exist_ok=True)
    _stamp(name).write_text(digest + "\n", encoding="utf-8")


def _forget_stamp(name: str) -> None:
    _stamp(name).unlink(missing_ok=True)


def run_examples(
    meanwhile: Callable[[], None] = lambda: None,
    early: Sequence[tuple[str, list[str]]] = (),
) -> dict[str, _Child] | None:
    """Execute the gallery scripts (sphinx-gallery, md5 cache) into docs/tutorial/.

    Skipped when its inputs and docs/tutorial/ are what the last successful pass left:
    then returns None. Otherwise sphinx-gallery re-executes the scripts whose md5
    changed, or all of them when the agentmsg package changed, in a child process (the
    examples never run inside the orchestrator). Meanwhile this process calls
    *meanwhile*, and the Sphinx builds of *early* (name, arguments) are forked, preload
    what each needs alone (jieba for zh_CN) and wait: they are returned, to be released
    (:meth:`_Child.release`) once the caller knows which to run.
    """
    digest = examples_digest()
    if _up_to_date("examples", digest):
        print("== examples: up to date (docs/tutorial/ is current)", flush=True)
        return None
    _forget_stamp("examples")
    from agentmsg_gallery import PACKAGE_STAMP, example_scripts, package_digest, stale_examples

    stamp = DOCS / GALLERY / PACKAGE_STAMP
    fresh_package = stamp.is_file() and stamp.read_text() == package_digest()
    scripts = stale_examples(DOCS) if fresh_package else example_scripts(DOCS)
    names = ", ".join(path.name for path in scripts) or "none"
    total = len(example_scripts(DOCS))
    print(f"== examples: executing {len(scripts)} of {total}: {names}", flush=True)
    started = time.monotonic()
    _preload(())  # Sphinx and the extensions, before any fork, so that children start warm
    child = _Child("examples", [])
    waiting = {
        name: _Child("sphinx", command, gated=True, prepare=functools.partial(_preload, [name]))
        for name, command in early
    }
    lock = threading.Lock()
    thread = threading.Thread(target=_pump, args=(child, None, None, lock))
    thread.start()  # after the last fork
    try:
        try:
            meanwhile()
        finally:
            thread.join()
            code = child.wait()
        if code != 0:
            msg = "the examples failed (the traceback above names the script and the line)"
            raise BuildError(msg)
    except BaseException:
        for gated in waiting.values():
            gated.release(run=False)
            gated.wait()
        raise
    _write_stamp("examples", examples_digest())
    print(f"== examples: done in {time.monotonic() - started:.1f}s", flush=True)
    return waiting


# ----------------------------------------------------------------------------------------
# Subcommands


def build_html(langs: Sequence[str]) -> None:
    """Build the site for *langs* into ``_build/html/`` (see the module docstring)."""
    unknown = [lang for lang in langs if lang not in ALL_LANGS]
    if unknown or not langs:
        msg = f"--langs must list some of {' '.join(ALL_LANGS)}, not {' '.join(langs)!r}"
        raise BuildError(msg)
    langs = [lang for lang in ALL_LANGS if lang in langs]
    translated = [lang for lang in langs if lang != "en"]

    def check_catalogs(langs: Sequence[str]) -> None:
        problems = validate_catalogs(langs)
        if problems:
            msg = "broken translation catalogs:\n" + "\n".join(f"  {p}" for p in problems)
            raise BuildError(msg)
        _warn_fuzzy(langs)

    commands = {
        lang: _sphinx_args("html", lang, BUILD / "html" / lang, BUILD / "doctrees" / lang)
        for lang in langs
    }
    # When the examples run, every language usually follows (they all read
    # docs/tutorial/): their builds are forked meanwhile and wait, and the catalogs are
    # checked meanwhile; otherwise only the catalogs of stale languages, below.
    waiting = run_examples(
        meanwhile=lambda: check_catalogs(translated),
        early=[(lang, commands[lang]) for lang in langs],
    )
    digests = {lang: language_digest(lang, commands[lang]) for lang in langs}
    stale = [
        lang
        for lang in langs
        if not (
            _up_to_date(lang, digests[lang]) and (BUILD / "html" / lang / "index.html").is_file()
        )
    ]
    try:
        if waiting is None:
            check_catalogs([lang for lang in stale if lang != "en"])
    except BuildError:
        for child in (waiting or {}).values():
            child.release(run=False)
            child.wait()
        raise
    for lang in langs:
        if lang not in stale:
            print(f"== {lang}: up to date (nothing it reads changed), not rebuilt", flush=True)
            if waiting is not None:
                waiting[lang].release(run=False)
                waiting[lang].wait()
    for lang in stale:
        # A stale language is rebuilt from scratch: an incremental Sphinx build writes only
        # the changed pages, so sphinx-sitemap would list only those, and the search index
        # keeps words of removed text and loses its index entries.
        print(f"== {lang}: rebuilding from scratch", flush=True)
        _forget_stamp(lang)
        for old in (BUILD / "html" / lang, BUILD / "doctrees" / lang):
            shutil.rmtree(old, ignore_errors=True)
    if stale and waiting is None:
        _preload(stale)
    jobs = [(lang, commands[lang]) for lang in stale]
    codes = _run_parallel(jobs, waiting) if stale else {}
    failed = [lang for lang, code in codes.items() if code != 0]
    if failed:
        msg = (
            f"the {', '.join(failed)} build failed; the warnings above (also in "
            f"_build/logs/) name the file and line"
        )
        raise BuildError(msg)
    for lang in stale:
        _write_stamp(lang, digests[lang])
    built = [lang for lang in ALL_LANGS if (BUILD / "html" / lang / "index.html").is_file()]
    (BUILD / "html" / "index.html").write_text(root_index_html(built), encoding="utf-8")
    _write_root_extras(BUILD / "html", built)
    # -- in-browser runtime (issue 14): one JupyterLite for every built language ---------
    if str(DOCS) not in sys.path:
        sys.path.insert(0, str(DOCS))
    from builder.lite import LiteError, build_lite

    try:
        build_lite(BUILD / "html", built)
    except LiteError as error:
        raise BuildError(f"the in-browser runtime (_build/html/lite/): {error}") from error
    # -- end of the in-browser runtime's hook -------------------------------------------
    print(f"== site: {_shown(BUILD / 'html' / 'index.html')} ({', '.join(built)})")


def _write_root_extras(html: Path, langs: Sequence[str]) -> None:
    """What hosts look for at the site's root: ``404.html`` (a copy of the first built
    language's, whose URLs are root-absolute) and ``sitemap.xml``, an index of the
    per-language sitemaps."""
    not_found = next(
        (html / lang / "404.html" for lang in langs if (html / lang / "404.html").is_file()),
        None,
    )
    if not_found is not None:
        shutil.copyfile(not_found, html / "404.html")
    sitemaps = [lang for lang in langs if (html / lang / "sitemap.xml").is_file()]
    entries = "".join(
        f"  <sitemap><loc>{escape(SITE_URL)}{lang}/sitemap.xml</loc></sitemap>\n"
        for lang in sitemaps
    )
    (html / "sitemap.xml").write_text(
        "<?xml version='1.0' encoding='utf-8'?>\n"
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"{entries}</sitemapindex>\n",
        encoding="utf-8",
    )


def _warn_fuzzy(langs: Iterable[str]) -> None:
    for lang in langs:
        fuzzy = sum(row.fuzzy for row in catalog_stats([lang]))
        if fuzzy:
            print(f"== note: {lang} has {fuzzy} fuzzy entries, shown in English (make stats)")


def root_index_html(langs: Sequence[str]) -> str:
    """The root page: a script sends the browser to its preferred language among *langs*
    (the first of ``navigator.languages`` we have: ``zh*`` to zh_CN, ``es*`` to es,
    ``en*`` to en; otherwise en); plain links to every built language stay visible."""
    names = {language.code: language for language in LANGUAGES}
    shown = [names[code] for code in ALL_LANGS if code in langs] or [names["en"]]
    links = "\n".join(
        f'      <li><a href="{lang.code}/index.html" hreflang="{lang.tag}" lang="{lang.tag}">'
        f"{escape(lang.name)}</a></li>"
        for lang in shown
    )
    alternates = "\n".join(
        f'  <link rel="alternate" hreflang="{lang.tag}" href="{lang.code}/index.html">'
        for lang in shown
    )
    available = ", ".join(f'"{lang.code}"' for lang in shown)
    # The primary subtag of each language's tag picks it: "zh-TW" -> zh_CN, "es-MX" -> es.
    prefixes = ", ".join(f'"{lang.tag.split("-")[0].lower()}": "{lang.code}"' for lang in LANGUAGES)
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>agentmsg documentation</title>
{alternates}
  <link rel="alternate" hreflang="x-default" href="en/index.html">
  <script>
    (function () {{
      var available = [{available}];
      var byPrefix = {{{prefixes}}};
      var wanted = navigator.languages || [navigator.language || ""];
      var target = "en";
      for (var i = 0; i < wanted.length; i++) {{
        var prefix = String(wanted[i] || "").toLowerCase().split(/[-_]/)[0];
        if (Object.prototype.hasOwnProperty.call(byPrefix, prefix)) {{
          target = byPrefix[prefix];
          break;
        }}
      }}
      if (available.indexOf(target) < 0) {{ target = available[0]; }}
      window.location.replace(target + "/index.html" + window.location.hash);
    }})();
  </script>
  <style>
    body {{ font-family: system-ui, sans-serif; margin: 3rem auto; max-width: 30rem; }}
    li {{ margin: 0.4rem 0; font-size: 1.2rem; }}
  </style>
</head>
<body>
  <main>
    <h1>agentmsg</h1>
    <ul>
{links}
    </ul>
  </main>
</body>
</html>
"""


def build_gettext(outdir: Path | None = None) -> None:
    """Extract the translatable messages of every page into ``_build/gettext/*.pot``
    (or into *outdir*, with its doctrees in ``outdir/.doctrees``)."""
    run_examples()
    doctrees = BUILD / "doctrees" / "gettext" if outdir is None else outdir / ".doctrees"
    outdir = BUILD / "gettext" if outdir is None else outdir
    codes = _run_parallel([("gettext", _sphinx_args("gettext", "en", outdir, doctrees))])
    if codes["gettext"] != 0:
        msg = "the gettext build failed; the warnings above name the file and line"
        raise BuildError(msg)
    stray = sorted(outdir.rglob("sg_execution_times.pot"))
    for path in stray:
        path.unlink()
    _check_example_msgids(outdir)


def _check_example_msgids(potdir: Path) -> None:
    """Say which gallery paragraphs the translated downloads could not find in the .pot."""
    import polib
    from agentmsg_gallery import GALLERY_DIR, example_scripts, text_msgids
    from sphinx_gallery.py_source_parser import split_code_and_text_blocks

    for script in example_scripts(DOCS):
        pot = potdir / GALLERY_DIR / f"{script.stem}.pot"
        if not pot.is_file():
            continue
        known = {entry.msgid for entry in polib.pofile(str(pot))}
        _, blocks = split_code_and_text_blocks(script)
        missing = [
            msgid
            for block in blocks
            if block.type == "text"
            for msgid in text_msgids(block.content)
            if msgid not in known
        ]
        for msgid in missing:
            where = _shown(script)
            print(f"== note: {where}: its translated downloads keep in English: {msgid[:60]!r}")


def update_po(langs: Sequence[str] = TRANSLATED_LANGS) -> None:
    """Refresh ``locales/<lang>/LC_MESSAGES/*.po`` from the pages with sphinx-intl.

    Entries are merged, never reordered by run; with ``gettext_location=False`` and the
    POT-Creation-Date taken from the commit, a re-run on unchanged sources leaves every
    file byte-identical.
    """
    build_gettext()
    command = [sys.executable, "-m", "sphinx_intl", "update", "-p", str(BUILD / "gettext")]
    for lang in langs:
        command += ["-l", lang]
    command += ["-d", str(LOCALES)]
    result = subprocess.run(command, cwd=ROOT, env=_env(), check=False)
    if result.returncode != 0:
        msg = "sphinx-intl update failed"
        raise BuildError(msg)
    pots = {
        p.relative_to(BUILD / "gettext").with_suffix("").as_posix()
        for p in (BUILD / "gettext").rglob("*.pot")
    }
    for lang in langs:
        base = LOCALES / lang / "LC_MESSAGES"
        for path in catalog_files(lang):
            if path.relative_to(base).with_suffix("").as_posix() not in pots:
                print(f"== note: {_shown(path)} belongs to no page any more")


def print_stats(langs: Sequence[str] = TRANSLATED_LANGS) -> None:
    """Print translated / untranslated / fuzzy counts per language and page."""
    rows = catalog_stats(langs)
    width = max([len(row.page) for row in rows] + [len("page"), len("total")])
    for lang in langs:
        mine = [row for row in rows if row.lang == lang]
        print(f"\n{lang}")
        print(f"  {'page':<{width}}  translated  untranslated  fuzzy")
        for row in mine:
            counts = f"{row.translated:>10}  {row.untranslated:>12}  {row.fuzzy:>5}"
            print(f"  {row.page:<{width}}  {counts}")
        translated = sum(row.translated for row in mine)
        total = sum(row.total for row in mine)
        share = 100 * translated // total if total else 0  # 535 of 536 is 99%, not 100%
        print(
            f"  {'total':<{width}}  {translated:>10}  "
            f"{sum(row.untranslated for row in mine):>12}  {sum(row.fuzzy for row in mine):>5}"
            f"   ({share:.0f}% translated)"
        )


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments and arguments[0] in {"_sphinx", "_examples"}:  # a child, without os.fork
        return _ENTRIES[arguments[0][1:]](arguments[1:])
    if argv is None and sys.flags.hash_randomization and hasattr(os, "execve"):
        # Sphinx runs in children forked from this process: give it the builds' fixed
        # hash seed (sets and dicts of strings iterate alike in every build).
        os.execve(
            sys.executable, [sys.executable, str(Path(__file__).resolve()), *arguments], _env()
        )
    os.environ.update({key: value for key, value in _env().items() if key == "SOURCE_DATE_EPOCH"})
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    html = sub.add_parser("html", help="build the site into _build/html/")
    html.add_argument("--langs", default=" ".join(ALL_LANGS), help='e.g. "en zh_CN es"')
    sub.add_parser("examples", help="run the tutorial scripts once into docs/tutorial/")
    gettext = sub.add_parser("gettext", help="extract messages into _build/gettext/")
    gettext.add_argument("--outdir", type=Path, help="write the .pot files here instead")
    sub.add_parser("update-po", help="merge extracted messages into locales/ (sphinx-intl)")
    sub.add_parser("stats", help="translation progress per language and page")
    args = parser.parse_args(arguments)
    try:
        if args.command == "html":
            build_html(args.langs.split())
        elif args.command == "examples":
            run_examples()
        elif args.command == "gettext":
            build_gettext(args.outdir)
        elif args.command == "update-po":
            update_po()
        elif args.command == "stats":
            print_stats()
    except BuildError as error:
        print(f"\ndocs/build.py {args.command}: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
