"""Section ``search``: what the site's search costs the build and the reader, and how fast
it answers.

- Build: one clean build of every language in a private copy of the repository (as
  ``docs_build`` copies it); each language's build records the CPU seconds of its search
  index (Sphinx's indexing and dump, and ``agentmsg_docs.site.search``'s counting and ranking
  data) in ``_build/doctrees/<lang>/agentmsg-search.json``. Their sum, against the CPU
  time of the whole build: at most 10 %.
- Download: the bytes a reader's browser fetches to search, per language, beyond what
  every page loads: ``searchindex.js``, ``language_data.js`` (stemmer, splitter,
  ranking) and ``searchtools.js``, uncompressed (from the working tree's ``_build/html``).
- Query: the search page of each language opened in headless Chromium, the index loaded,
  then every query of ``tests/browser/search_queries/<lang>.toml`` run as typing runs it
  (results ranked and listed; the summaries that follow as pages arrive are not
  counted), timed in the page: the median under 100 ms.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import tomllib
from pathlib import Path

from ._common import Check, Options, Row, Section, Table, table_languages
from ._serve import CHROMIUM, served

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "_build" / "html"
QUERIES = ROOT / "tests" / "browser" / "search_queries"
LANGS = table_languages()
BUILD_SHARE_TARGET = 0.10
QUERY_TARGET_MS = 100.0
#: What a reader downloads to search, beyond what every page of the site loads.
DOWNLOADS = ("searchindex.js", "_static/language_data.js", "_static/searchtools.js")

#: Runs each query as typing does (agentmsg-search.js's Search.performSearch) and times
#: it until its results are listed.
_TIME_QUERIES = """queries => queries.map(query => {
  const start = performance.now();
  Search.performSearch(query);
  const took = performance.now() - start;
  if (document.getElementById("search-results").dataset.query !== query) {
    throw new Error(`no results listed for ${query}`);
  }
  return took;
})"""


def build_share(options: Options) -> Table:
    """The search index's CPU seconds in a clean build of every language, against the
    build's."""
    from .docs_build import build, copy_repository, make_clean

    with tempfile.TemporaryDirectory(prefix="agentmsg-bench-search-") as folder:
        repo = copy_repository(Path(folder) / "repo")
        make_clean(repo)
        done = build(repo)
        seconds = {}
        for lang in LANGS:
            timing = repo / "_build" / "doctrees" / lang / "agentmsg-search.json"
            seconds[lang] = float(json.loads(timing.read_text("utf-8"))["cpu_seconds"])
    total = sum(seconds.values())
    share = total / done.cpu
    rows = [Row(f"search index, {lang}", {"CPU": seconds[lang]}) for lang in LANGS]
    rows.append(Row("search index, every language", {"CPU": total}))
    rows.append(Row("clean build, every language", {"CPU": done.cpu}))
    table = Table(
        key="search.build",
        title="The search index in a clean build of every language",
        unit="s",
        rows=rows,
        columns=("CPU",),
        compare=False,
        notes=[
            f"Search index: {share:.1%} of the clean build's CPU time "
            f"({done.wall:.0f} s wall); the examples pass included, as a clean build runs it.",
        ],
    )
    table.checks.append(
        Check(
            "search index / clean build (CPU)",
            f"{share:.1%}",
            f"<= {BUILD_SHARE_TARGET:.0%}",
            share <= BUILD_SHARE_TARGET,
        )
    )
    return table


def downloads() -> Table:
    """The bytes a reader downloads to search, per language."""
    rows = []
    for lang in LANGS:
        sizes = {name: float((SITE / lang / name).stat().st_size) for name in DOWNLOADS}
        rows.append(Row(lang, {**sizes, "total": sum(sizes.values())}))
    return Table(
        key="search.download",
        title="What a reader downloads to search (uncompressed)",
        unit="B",
        rows=rows,
        columns=(*DOWNLOADS, "total"),
        compare=False,
        notes=["Beyond the theme's files, which every page of the site loads."],
    )


def query_times(options: Options) -> Table:
    """The median time of a query on each language's search page, in headless Chromium."""
    from playwright.sync_api import sync_playwright

    rows: list[Row] = []
    table = Table(
        key="search.query",
        title="A query on the search page, once the index has loaded (headless Chromium)",
        unit="s",
        rows=rows,
        columns=("median", "slowest"),
        compare=False,
        notes=["Ranked and listed; the summaries that follow as pages arrive are not timed."],
    )
    with served(SITE) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            for lang in LANGS:
                path = QUERIES / f"{lang}.toml"
                if not path.is_file():
                    continue
                queries = [
                    query["text"] for query in tomllib.loads(path.read_text("utf-8"))["query"]
                ]
                page = browser.new_page()
                page.goto(f"{base}{lang}/search.html")
                page.wait_for_function("() => typeof Search !== 'undefined' && Search.hasIndex()")
                times: list[float] = []
                for _ in range(max(1, options.repeats // 3)):
                    times.extend(page.evaluate(_TIME_QUERIES, queries))
                page.close()
                median = statistics.median(times)
                rows.append(Row(lang, {"median": median / 1000, "slowest": max(times) / 1000}))
                table.notes.append(f"{lang}: {len(queries)} queries x {len(times) // len(queries)}")
                table.checks.append(
                    Check(
                        f"{lang}: median query",
                        f"{median:.1f} ms",
                        f"< {QUERY_TARGET_MS:.0f} ms",
                        median < QUERY_TARGET_MS,
                    )
                )
        finally:
            browser.close()
    return table


def run(options: Options) -> list[Table]:
    if not (SITE / "index.html").is_file():
        msg = "the search section needs the built site: run `make html` first"
        raise SystemExit(msg)
    return [downloads(), query_times(options), build_share(options)]


SECTION = Section(
    name="search",
    description="The search index's share of a clean build, its download, a query's time",
    run=run,
)
