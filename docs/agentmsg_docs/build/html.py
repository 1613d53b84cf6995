"""``make html`` from start to end: examples, languages, root files.

1. The examples pass (:mod:`builder.examples`) runs the tutorial scripts unless
   ``docs/tutorial/`` is current; meanwhile the catalogs of the languages to build are
   checked (:mod:`builder.catalogs`).
2. Every language whose inputs changed since its last build (:mod:`builder.stamps`) is
   rebuilt from scratch, all at once (:mod:`builder.languages`); the others are kept.
3. The root files are written (:mod:`builder.root`).
4. The in-browser runtime, one JupyterLite for every language, is built from the
   languages' notebooks unless they and its other inputs are unchanged
   (:mod:`builder.lite`).

The log says what happened to each language: ``== <lang>: rebuilding from scratch`` or
``== <lang>: up to date (nothing it reads changed), not rebuilt``.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence

from agentmsg_languages import LANGUAGES

from builder import BUILD, BuildError, shown
from builder.catalogs import check_catalogs
from builder.examples import examples_current, run_examples
from builder.languages import SphinxBuilds, run_sphinx_builds, sphinx_command
from builder.lite import LiteError, build_lite
from builder.root import write_root_files
from builder.stamps import forget_stamp, language_digests, up_to_date, write_stamp

__all__ = ["ALL_LANGS", "HTML", "build_html"]

ALL_LANGS = tuple(language.code for language in LANGUAGES)
HTML = BUILD / "html"


def _clear(langs: Sequence[str]) -> None:
    """Forget the stamps and output of *langs*: a stale language is rebuilt from scratch."""
    for lang in langs:
        print(f"== {lang}: rebuilding from scratch", flush=True)
        forget_stamp(lang)
        for old in (HTML / lang, BUILD / "doctrees" / lang):
            shutil.rmtree(old, ignore_errors=True)


def build_html(langs: Sequence[str]) -> None:
    """Build the site for *langs* into ``_build/html/`` (see the module docstring)."""
    unknown = [lang for lang in langs if lang not in ALL_LANGS]
    if unknown or not langs:
        msg = f"--langs must list some of {' '.join(ALL_LANGS)}, not {' '.join(langs)!r}"
        raise BuildError(msg)
    langs = [lang for lang in ALL_LANGS if lang in langs]
    commands = {
        lang: sphinx_command("html", lang, HTML / lang, BUILD / "doctrees" / lang) for lang in langs
    }
    if examples_current():
        print("== examples: up to date (docs/tutorial/ is current)", flush=True)
        digests = language_digests(commands)
        stale = [
            lang
            for lang in langs
            if not (up_to_date(lang, digests[lang]) and (HTML / lang / "index.html").is_file())
        ]
        for lang in langs:
            if lang not in stale:
                print(f"== {lang}: up to date (nothing it reads changed), not rebuilt")
        check_catalogs([lang for lang in stale if lang != "en"])
        _clear(stale)
        codes = run_sphinx_builds([(lang, commands[lang]) for lang in stale]) if stale else {}
    else:
        # The examples' inputs changed, and every language reads them (and docs/tutorial/):
        # all are rebuilt, started now and released once the examples are done, while
        # their catalogs are checked meanwhile.
        _clear(langs)
        builds = SphinxBuilds([(lang, commands[lang]) for lang in langs], gated=True)
        try:
            run_examples(meanwhile=lambda: check_catalogs([lang for lang in langs if lang != "en"]))
        except BaseException:
            builds.cancel()
            raise
        digests = language_digests(commands)
        builds.release()
        codes = builds.wait()
        stale = list(langs)
    failed = [lang for lang, code in codes.items() if code != 0]
    if failed:
        msg = (
            f"the {', '.join(failed)} build failed; the warnings above (also in "
            "_build/logs/) name the file and line"
        )
        raise BuildError(msg)
    for lang in stale:
        write_stamp(lang, digests[lang])
    built = [lang for lang in ALL_LANGS if (HTML / lang / "index.html").is_file()]
    write_root_files(HTML, built)
    try:
        build_lite(HTML, built)
    except LiteError as error:
        msg = f"the in-browser runtime ({shown(HTML / 'lite')}): {error}"
        raise BuildError(msg) from error
    print(f"== site: {shown(HTML / 'index.html')} ({', '.join(built)})")
