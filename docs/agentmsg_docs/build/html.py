"""``make html`` from start to end: examples, languages, root files.

1. The examples pass (:mod:`agentmsg_docs.build.examples`) runs the tutorial scripts unless
   ``docs/tutorial/`` is current; meanwhile the catalogs of the languages to build are
   checked (:mod:`agentmsg_docs.i18n.catalogs`).
2. Every language whose inputs changed since its last build (:mod:`agentmsg_docs.build.stamps`) is
   rebuilt from scratch, all at once (:mod:`agentmsg_docs.build.sphinx_runs`); the others are kept.
3. The root files are written (:mod:`agentmsg_docs.site.root_pages`).
4. The in-browser runtime, one JupyterLite for every language, is built from the
   languages' notebooks unless they and its other inputs are unchanged
   (:mod:`agentmsg_docs.lite.build`).

The log says what happened to each language: ``== <lang>: rebuilding from scratch`` or
``== <lang>: up to date (nothing it reads changed), not rebuilt``.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence

from agentmsg_docs.build import BUILD, BuildError, shown
from agentmsg_docs.build.examples import examples_current, run_examples
from agentmsg_docs.build.sphinx_runs import SphinxBuilds, run_sphinx_builds, sphinx_command
from agentmsg_docs.build.stamps import forget_stamp, language_digests, up_to_date, write_stamp
from agentmsg_docs.i18n.catalogs import check_catalogs, compile_package_catalogs
from agentmsg_docs.i18n.languages import LANGUAGES, SOURCE
from agentmsg_docs.lite.build import LiteError, build_lite
from agentmsg_docs.site.root_pages import write_root_files

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
    compile_package_catalogs()  # before anything reads the cards' labels
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
        check_catalogs([lang for lang in stale if lang != SOURCE.code])
        _clear(stale)
        codes = run_sphinx_builds([(lang, commands[lang]) for lang in stale]) if stale else {}
    else:
        # The examples' inputs changed, and every language reads them (and docs/tutorial/):
        # all are rebuilt, started now and released once the examples are done, while
        # their catalogs are checked meanwhile.
        _clear(langs)
        builds = SphinxBuilds([(lang, commands[lang]) for lang in langs], gated=True)
        try:
            run_examples(
                meanwhile=lambda: check_catalogs([lang for lang in langs if lang != SOURCE.code])
            )
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
