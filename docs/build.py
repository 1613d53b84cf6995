"""Where the documentation build is orchestrated: every ``make`` docs target ends up here.

Usage (from the repository root; ``make html``, ``make gettext``, ... call these)::

    python docs/build.py html [--langs "en zh_CN es"]   # the site, into _build/html/
    python docs/build.py examples                       # run the tutorial scripts only
    python docs/build.py gettext [--outdir DIR]         # extract messages into _build/gettext/
    python docs/build.py update-po                      # ... and merge them into locales/
    python docs/build.py stats                          # translation progress per page

How ``html`` works (the data flow of /work/shared/DESIGN.md):

1. Every catalog ``locales/<lang>/LC_MESSAGES/**/*.po`` of the requested languages is
   validated (polib, then ``msgfmt --check`` when installed); a broken one stops the
   build with its file and line.
2. The *examples pass* (:func:`run_examples`): sphinx-gallery executes
   ``docs/examples/*.py`` once and generates ``docs/tutorial/`` (pages with captured
   output, ``.py``/``.ipynb``/``.zip`` downloads). Its md5 cache skips unchanged scripts;
   a change in the agentmsg package re-runs them all. A script that raises stops the
   build; sphinx-gallery's traceback names the script and line.
3. One ``sphinx-build -b html -n -W --keep-going -D language=<lang>`` per language, all
   at once (they only read ``docs/``; ``-D agentmsg_gallery_reuse=1`` makes them reuse
   the examples pass and never execute anything), into ``_build/html/<lang>/`` with
   doctrees in ``_build/doctrees/<lang>/``. Logs go to ``_build/logs/<lang>.log`` too.
   ``docs/_ext/agentmsg_gallery.py`` writes the translated downloads of each language.
4. ``_build/html/index.html`` (:func:`root_index_html`) sends a browser to the language
   it prefers and links to every built language; ``404.html`` and a ``sitemap.xml`` index
   of the languages' sitemaps sit beside it, where web hosts look for them.

The Sphinx side lives in ``docs/conf.py`` and ``docs/_ext/``; the templates in
``docs/_templates/``. Any failure exits non-zero.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
BUILD = ROOT / "_build"
LOCALES = ROOT / "locales"
sys.path.insert(0, str(DOCS / "_ext"))

from agentmsg_languages import LANGUAGES, SITE_URL  # noqa: E402

ALL_LANGS = tuple(language.code for language in LANGUAGES)
TRANSLATED_LANGS = tuple(code for code in ALL_LANGS if code != "en")
SPHINX_STRICT = ("-n", "-W", "--keep-going")

__all__ = [
    "ALL_LANGS",
    "TRANSLATED_LANGS",
    "CatalogStats",
    "catalog_files",
    "catalog_stats",
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


def _shown(path: Path) -> str:
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


# ----------------------------------------------------------------------------------------
# Running Sphinx


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


def run_examples() -> None:
    """Execute the gallery scripts once (sphinx-gallery, md5 cache) into docs/tutorial/.

    Runs in a child process, so the examples never run inside the orchestrator.
    """
    print("== examples: running docs/examples/*.py with sphinx-gallery", flush=True)
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "_examples-pass"],
        env=_env(),
        check=False,
    )
    if result.returncode != 0:
        msg = "the examples failed (the traceback above names the script and the line)"
        raise BuildError(msg)
    print(f"== examples: done in {time.monotonic() - started:.1f}s", flush=True)


def _examples_pass() -> int:
    """The child process of :func:`run_examples`: sphinx-gallery runs when Sphinx starts."""
    from sphinx.application import Sphinx
    from sphinx.util.console import nocolor
    from sphinx.util.docutils import docutils_namespace, patch_docutils

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


def _sphinx_command(builder: str, lang: str, outdir: Path, doctrees: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "sphinx",
        "build",
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


def _run_parallel(jobs: Sequence[tuple[str, list[str]]]) -> dict[str, int]:
    """Run the commands at once, printing each line with its job's name; return codes."""
    logs = BUILD / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    lock = threading.Lock()
    codes: dict[str, int] = {}
    timings: dict[str, float] = {}

    def pump(name: str, process: subprocess.Popen[str], started: float) -> None:
        assert process.stdout is not None
        with (logs / f"{name}.log").open("w", encoding="utf-8") as log:
            for line in process.stdout:
                log.write(line)
                with lock:
                    sys.stdout.write(f"[{name}] {line}")
                    sys.stdout.flush()
        codes[name] = process.wait()
        timings[name] = time.monotonic() - started

    threads = []
    for name, command in jobs:
        started = time.monotonic()
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
        )
        thread = threading.Thread(target=pump, args=(name, process, started))
        thread.start()
        threads.append(thread)
    for thread in threads:
        thread.join()
    for name, _ in jobs:
        print(f"== {name}: exit {codes[name]} after {timings[name]:.1f}s", flush=True)
    return codes


# ----------------------------------------------------------------------------------------
# Subcommands


def build_html(langs: Sequence[str]) -> None:
    """Build the site for *langs* into ``_build/html/`` (see the module docstring)."""
    unknown = [lang for lang in langs if lang not in ALL_LANGS]
    if unknown or not langs:
        msg = f"--langs must list some of {' '.join(ALL_LANGS)}, not {' '.join(langs)!r}"
        raise BuildError(msg)
    problems = validate_catalogs(lang for lang in langs if lang != "en")
    if problems:
        msg = "broken translation catalogs:\n" + "\n".join(f"  {p}" for p in problems)
        raise BuildError(msg)
    _warn_fuzzy(lang for lang in langs if lang != "en")
    run_examples()
    for lang in langs:
        # Always a clean build per language (a few seconds): an incremental one writes
        # only the changed pages, so sphinx-sitemap lists only those, and the search
        # index keeps words of removed text and loses its index entries.
        for stale in (BUILD / "html" / lang, BUILD / "doctrees" / lang):
            shutil.rmtree(stale, ignore_errors=True)
    jobs = [
        (
            lang,
            _sphinx_command("html", lang, BUILD / "html" / lang, BUILD / "doctrees" / lang),
        )
        for lang in langs
    ]
    codes = _run_parallel(jobs)
    failed = [lang for lang, code in codes.items() if code != 0]
    if failed:
        msg = (
            f"the {', '.join(failed)} build failed; the warnings above (also in "
            f"_build/logs/) name the file and line"
        )
        raise BuildError(msg)
    built = [lang for lang in ALL_LANGS if (BUILD / "html" / lang / "index.html").is_file()]
    (BUILD / "html" / "index.html").write_text(root_index_html(built), encoding="utf-8")
    _write_root_extras(BUILD / "html", built)
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
    codes = _run_parallel([("gettext", _sphinx_command("gettext", "en", outdir, doctrees))])
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
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    html = sub.add_parser("html", help="build the site into _build/html/")
    html.add_argument("--langs", default=" ".join(ALL_LANGS), help='e.g. "en zh_CN es"')
    sub.add_parser("examples", help="run the tutorial scripts once into docs/tutorial/")
    gettext = sub.add_parser("gettext", help="extract messages into _build/gettext/")
    gettext.add_argument("--outdir", type=Path, help="write the .pot files here instead")
    sub.add_parser("update-po", help="merge extracted messages into locales/ (sphinx-intl)")
    sub.add_parser("stats", help="translation progress per language and page")
    sub.add_parser("_examples-pass", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
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
        elif args.command == "_examples-pass":
            return _examples_pass()
    except BuildError as error:
        print(f"\ndocs/build.py {args.command}: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
