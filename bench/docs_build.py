"""Section ``docs_build``: what building the documentation site costs, and what it weighs.

Every build runs ``python -m agentmsg_docs html`` in a private copy of the repository (the
way the tests copy it, ``tests/helpers/_checkout.py``: the files git would check out, no
``_build``, generated ``docs/tutorial`` or compiled ``.mo`` files), so the working tree is
never touched, and
is timed as wall time from start to exit; the CPU time of the build's processes
(``RUSAGE_CHILDREN``) is recorded beside it, because wall time on a shared 2-core machine
depends on what else runs.

- Clean builds (``_build``, ``docs/tutorial`` and the ``.mo`` files removed first): all
  three languages and English only, interleaved, the median of the repeats. Both run the
  examples pass; their ratio has a target (<= 1.6x). With ``AGENTMSG_BENCH_BASELINE=<git
  revision>`` (``make bench BASELINE=<rev>``), that revision's tree (``git archive``) is
  built the same way, interleaved with the working tree's builds: before and after, side
  by side in one run.
- One language with plain Sphinx: after a complete build, es is rebuilt by
  ``python -m agentmsg_docs html --langs es`` (its stamp removed) and by the command a contributor
  types, ``python -m sphinx -b html docs OUT -D language=es``, interleaved; plain Sphinx
  stays within 10% of the orchestrator.
- Incremental builds, after a clean all-languages build: nothing changed (target <= 5%
  of the clean build), one ``.po`` changed (which languages were rebuilt), one tutorial
  script changed (which examples were executed: the ``docs/tutorial/*.rst`` files the
  examples pass rewrote).
- Page weight per language: each tutorial page plus every local file it loads (style
  sheets, scripts, images, icons, and the fonts and images those style sheets reference),
  each counted once per page, uncompressed.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ._common import Check, Options, Row, Section, Table, table_languages

ROOT = Path(__file__).resolve().parent.parent
LANGS = table_languages()
EVERY = " + ".join(LANGS)  # a column: every language built
#: The language rebuilt alone (one catalog changed; plain Sphinx against the orchestrator).
ONE = LANGS[-1]
RATIO_TARGET = 1.6
"""A clean build of all languages costs at most this many clean English-only builds."""
PLAIN_TARGET = 1.10
"""Plain ``python -m sphinx`` of one language takes at most this many times the
orchestrator's build of that language."""
BASELINE = "AGENTMSG_BENCH_BASELINE"
"""Environment variable naming a git revision to build side by side with the tree."""
NOOP_TARGET = 0.05
"""A build with nothing changed costs at most this share of a clean build."""
PO_CHANGED = (ONE, f"locales/{ONE}/LC_MESSAGES/installation.po")
TUTORIAL_CHANGED = "docs/examples/tools.py"


def copy_repository(target: Path) -> Path:
    """Copy the working tree into *target* as a fresh checkout looks (the helper the
    tests use, ``tests/helpers/_checkout.py``, loaded by path: ``tests/`` is no package)."""
    import importlib.util

    module = sys.modules.get("_checkout")
    if module is None:
        path = ROOT / "tests" / "helpers" / "_checkout.py"
        spec = importlib.util.spec_from_file_location("_checkout", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["_checkout"] = module
        spec.loader.exec_module(module)
    copied: Path = module.copy_repository(target)
    return copied


@dataclass
class Build:
    """One timed ``python -m agentmsg_docs html`` run."""

    wall: float
    cpu: float
    output: str

    @property
    def rebuilt(self) -> list[str]:
        """The languages the build rebuilt, from its ``== <lang>: rebuilding`` lines."""
        return re.findall(r"^== (\S+): rebuilding from scratch", self.output, re.M)

    @property
    def examples_line(self) -> str:
        found = re.search(r"^== examples: (.*)$", self.output, re.M)
        return found.group(1) if found else "?"


def _timed(command: list[str], repo: Path, what: str) -> Build:
    """Run *command* in *repo*, timed (wall, and CPU of its processes); raise naming
    *what* if it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        command,
        cwd=repo,
        env={**os.environ, "PYTHONPATH": str(repo / "docs")},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        msg = f"{what} failed in {repo}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        raise SystemExit(msg)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Build(wall, cpu, done.stdout)


def build(repo: Path, langs: tuple[str, ...] = LANGS) -> Build:
    """Run ``python -m agentmsg_docs html --langs ...`` in *repo*; raise if it fails."""
    return _timed([*docs_command(repo), "html", "--langs", " ".join(langs)], repo, "the build")


def docs_command(repo: Path) -> list[str]:
    """The build's command line in *repo*: ``docs/build.py`` before it moved into
    ``docs/agentmsg_docs`` (a ``BASELINE`` revision may predate the move)."""
    if (repo / "docs" / "build.py").is_file():
        return [sys.executable, "docs/build.py"]
    return [sys.executable, "-m", "agentmsg_docs"]


def make_clean(repo: Path) -> None:
    """Remove every build product, as ``make clean`` does, and the compiled catalogs."""
    shutil.rmtree(repo / "_build", ignore_errors=True)
    shutil.rmtree(repo / "docs" / "tutorial", ignore_errors=True)
    (repo / "docs" / "sg_execution_times.rst").unlink(missing_ok=True)
    for path in (repo / "locales").rglob("*.mo"):
        path.unlink()


def executed_examples(repo: Path, before: dict[str, int]) -> list[str]:
    """The tutorial scripts whose generated page the examples pass rewrote."""
    return sorted(
        f"{name}.py" for name, mtime in rst_mtimes(repo).items() if before.get(name) != mtime
    )


def rst_mtimes(repo: Path) -> dict[str, int]:
    return {path.stem: path.stat().st_mtime_ns for path in (repo / "docs/tutorial").glob("*.rst")}


def change_po(repo: Path, mark: str) -> None:
    """Append *mark* to the first translated entry of the changed catalog."""
    path = repo / PO_CHANGED[1]
    text = path.read_text(encoding="utf-8")
    found = re.search(r'^msgid "[^"\n]+"\nmsgstr "([^"\n]+)"$', text, re.M)
    if found is None:
        msg = f"{PO_CHANGED[1]} has no one-line translated entry to change"
        raise SystemExit(msg)
    new = text[: found.end(1)] + f" {mark}" + text[found.end(1) :]
    path.write_text(new, encoding="utf-8")


def change_tutorial(repo: Path, mark: str) -> None:
    """Append a statement to the changed tutorial's last cell."""
    path = repo / TUTORIAL_CHANGED
    path.write_text(
        path.read_text(encoding="utf-8").rstrip("\n") + f"\n\n_bench_mark = {mark!r}\n",
        encoding="utf-8",
    )


def baseline_tree(revision: str, target: Path) -> Path:
    """The tree of *revision* (``git archive``) in *target*."""
    target.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", revision],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        msg = f"{BASELINE}={revision}: git archive failed: {archive.stderr.decode()[-500:]}"
        raise SystemExit(msg)
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target


def plain_sphinx(repo: Path, lang: str, out: Path) -> Build:
    """``python -m sphinx -b html docs OUT -D language=LANG`` in *repo*, timed."""
    shutil.rmtree(out, ignore_errors=True)
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "docs", str(out)]
    return _timed([*command, "-D", f"language={lang}"], repo, "plain sphinx-build")


def orchestrated(repo: Path, lang: str) -> Build:
    """``python -m agentmsg_docs html --langs LANG`` after forgetting LANG's stamp: the examples
    are current, so it rebuilds that one language."""
    (repo / "_build" / "stamps" / f"{lang}.sha256").unlink(missing_ok=True)
    return build(repo, (lang,))


# -- page weight -------------------------------------------------------------------


class _Assets(HTMLParser):
    """The local URLs a page loads: style sheets, icons, scripts, images."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "link" and found.get("href"):
            rel = (found.get("rel") or "").lower().split()
            if {"stylesheet", "icon", "preload", "modulepreload"} & set(rel):
                self.urls.append(found["href"] or "")
        elif tag in {"script", "img", "source"} and found.get("src"):
            self.urls.append(found["src"] or "")
        if tag in {"img", "source"} and found.get("srcset"):
            self.urls.extend(part.split()[0] for part in (found["srcset"] or "").split(","))


_CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)['"]?\s*\)|@import\s+['"]([^'"]+)['"]""")


def _local(base: Path, url: str, site: Path) -> Path | None:
    """The file *url* (relative to the file *base*) names inside *site*, if local."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not parts.path:
        return None  # data:, http:, or a fragment only
    path = (base.parent / unquote(parts.path)).resolve()
    return path if path.is_file() and path.is_relative_to(site) else None


def page_weight(page: Path, site: Path) -> int:
    """Bytes of *page* plus every local file it loads, style sheets' imports and fonts
    included, each counted once."""
    collector = _Assets()
    collector.feed(page.read_text(encoding="utf-8"))
    seen: set[Path] = set()
    todo = [path for url in collector.urls if (path := _local(page, url, site))]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        if path.suffix == ".css":
            css = path.read_text(encoding="utf-8", errors="replace")
            for match in _CSS_URL.finditer(css):
                found = _local(path, match.group(1) or match.group(2), site)
                if found:
                    todo.append(found)
    return page.stat().st_size + sum(path.stat().st_size for path in seen)


def page_weights(site: Path) -> Table:
    pages = sorted(
        path.stem
        for path in (site / "en" / "tutorial").glob("*.html")
        if path.stem not in {"index", "sg_execution_times"}
    )
    rows = []
    for name in ["index", *pages]:
        values = {
            lang: float(page_weight(site / lang / "tutorial" / f"{name}.html", site.resolve()))
            for lang in LANGS
        }
        rows.append(Row(f"tutorial/{name}.html", values))
    rows.append(
        Row(
            "mean of the tutorial pages",
            {lang: statistics.mean(row.values[lang] for row in rows[1:]) for lang in LANGS},
        )
    )
    return Table(
        key="docs_build.page_weight",
        title="Page weight: a tutorial page plus the CSS, JS, images and fonts it loads",
        unit="B",
        rows=rows,
        columns=LANGS,
        compare=False,
        notes=[
            "Uncompressed bytes of the HTML page and of every local file it loads "
            "(<link rel=stylesheet|icon|preload>, <script src>, <img src>, and url()/@import "
            "in those style sheets, fonts included), each counted once per page; downloads "
            "(.py, .ipynb, .zip) are linked, not loaded, and are not counted.",
            "The languages differ by their text and by the _static/translations.js "
            "(Sphinx's strings in the page's language, ~4 KB) that translated pages load.",
        ],
    )


# -- the section -------------------------------------------------------------------


def run(options: Options) -> list[Table]:
    repeats = 3 if options.repeats >= 5 else 2
    load_before = list(os.getloadavg())
    revision = os.environ.get(BASELINE, "")
    with tempfile.TemporaryDirectory(prefix="agentmsg-bench-") as tmp:
        repo = copy_repository(Path(tmp) / "repo")
        trees = {"tree": repo}
        if revision:
            trees["baseline"] = baseline_tree(revision, Path(tmp) / "baseline")
        clean: dict[str, list[Build]] = {
            f"{tree} {kind}": [] for tree in trees for kind in ("all", "en")
        }
        for repeat in range(repeats):  # interleaved, the order alternating
            order = ("en", "all") if repeat % 2 == 0 else ("all", "en")
            for tree, kind in ((tree, kind) for kind in order for tree in trees):
                make_clean(trees[tree])
                langs = ("en",) if kind == "en" else LANGS
                clean[f"{tree} {kind}"].append(build(trees[tree], langs))
        # The last build left a complete site (the last repeat ends with "all" when odd).
        if order[-1] != "all":
            make_clean(repo)
            build(repo)
        plain: dict[str, list[Build]] = {"python -m agentmsg_docs": [], "python -m sphinx": []}
        for _ in range(repeats):
            plain["python -m agentmsg_docs"].append(orchestrated(repo, ONE))
            plain["python -m sphinx"].append(plain_sphinx(repo, ONE, Path(tmp) / f"plain-{ONE}"))
        noop = [build(repo) for _ in range(repeats)]
        po: list[Build] = []
        for repeat in range(repeats):
            change_po(repo, f"bench{repeat}")
            po.append(build(repo))
        tutorial: list[Build] = []
        executed: list[list[str]] = []
        for repeat in range(repeats):
            change_tutorial(repo, f"bench{repeat}")
            before = rst_mtimes(repo)
            tutorial.append(build(repo))
            executed.append(executed_examples(repo, before))
        weights = page_weights(repo / "_build" / "html")
    load_after = list(os.getloadavg())

    def median(builds: list[Build], what: str = "wall") -> float:
        return statistics.median(getattr(b, what) for b in builds)

    all_wall, en_wall = median(clean["tree all"]), median(clean["tree en"])
    ratio = all_wall / en_wall
    cpu_ratio = median(clean["tree all"], "cpu") / median(clean["tree en"], "cpu")
    verdict = "PASS" if ratio <= RATIO_TARGET else "FAIL"

    def clean_rows(tree: str, label: str) -> list[Row]:
        all_builds, en_builds = clean[f"{tree} all"], clean[f"{tree} en"]
        return [
            Row(
                f"{label}: wall time (median of {repeats})",
                {EVERY: median(all_builds), "en only": median(en_builds)},
                samples={
                    EVERY: [b.wall for b in all_builds],
                    "en only": [b.wall for b in en_builds],
                },
            ),
            Row(
                f"{label}: CPU time of the build's processes",
                {
                    EVERY: median(all_builds, "cpu"),
                    "en only": median(en_builds, "cpu"),
                },
                samples={
                    EVERY: [b.cpu for b in all_builds],
                    "en only": [b.cpu for b in en_builds],
                },
            ),
        ]

    rows = clean_rows("tree", "this tree")
    notes = [
        f"ratio all languages / English only: {ratio:.2f}x wall, target <= "
        f"{RATIO_TARGET:g}x: {verdict}; {cpu_ratio:.2f}x CPU time (the wall ratio "
        "approaches it when other work takes the second core).",
    ]
    if revision:
        rows += clean_rows("baseline", f"baseline {revision}")
        before_ratio = median(clean["baseline all"]) / median(clean["baseline en"])
        notes.append(
            f"baseline {revision}, built interleaved with this tree: {before_ratio:.2f}x; "
            f"this tree's clean build of all languages takes "
            f"{all_wall / median(clean['baseline all']):.2f}x the baseline's, English "
            f"only {en_wall / median(clean['baseline en']):.2f}x."
        )
    notes.append(
        "Each clean build starts without _build/, docs/tutorial/ and .mo files, in a "
        "private copy of the repository, and runs the examples pass first; "
        "`python -m agentmsg_docs html --langs ...`, timed from start to exit. Clean "
        f"builds interleaved; load average {load_before[0]:.2f} before, "
        f"{load_after[0]:.2f} after."
    )
    clean_table = Table(
        key="docs_build.clean",
        title="Clean docs build: all languages vs English only (both run the examples)",
        unit="s",
        columns=(EVERY, "en only"),
        compare=False,
        rows=rows,
        parameters={
            "repeats": repeats,
            "ratio_wall": ratio,
            "ratio_cpu": cpu_ratio,
            "target_ratio_at_most": RATIO_TARGET,
            "passed": ratio <= RATIO_TARGET,
            "baseline": revision or None,
            "cpus": os.cpu_count(),
            "load_average_before": load_before,
            "load_average_after": load_after,
        },
        notes=notes,
    )

    plain_share = median(plain["python -m sphinx"]) / median(plain["python -m agentmsg_docs"])
    plain_table = Table(
        key="docs_build.plain",
        title=f"One language ({ONE}), examples current: the orchestrator vs plain Sphinx",
        unit="s",
        columns=("wall", "CPU"),
        compare=False,
        rows=[
            Row(
                command,
                {"wall": median(builds), "CPU": median(builds, "cpu")},
                samples={"wall": [b.wall for b in builds], "CPU": [b.cpu for b in builds]},
            )
            for command, builds in plain.items()
        ],
        parameters={"repeats": repeats, "plain_over_orchestrator": plain_share},
        notes=[
            f"plain Sphinx takes {plain_share:.2f}x the orchestrator's time (target <= "
            f"{PLAIN_TARGET:.2f}x): `python -m agentmsg_docs html --langs {ONE}` with its stamp "
            "removed, "
            f"against `python -m sphinx -b html docs OUT -D language={ONE}`, interleaved.",
        ],
    )
    plain_table.checks.append(
        Check(
            "plain python -m sphinx / python -m agentmsg_docs, one language (wall)",
            f"{plain_share:.2f}x",
            f"<= {PLAIN_TARGET:.2f}x",
            plain_share <= PLAIN_TARGET,
        )
    )

    noop_rebuilt = ", ".join(sorted({lang for b in noop for lang in b.rebuilt})) or "none"
    noop_wall = median(noop)
    noop_share = noop_wall / all_wall
    rebuilt_po = sorted({lang for b in po for lang in b.rebuilt})
    examples_po = sorted({b.examples_line for b in po})
    executed_names = sorted({name for names in executed for name in names})
    incremental = Table(
        key="docs_build.incremental",
        title="Incremental docs builds, all languages, after a clean build",
        unit="s",
        columns=("incremental", "clean build"),
        compare=False,
        rows=[
            Row(
                "nothing changed",
                {"incremental": noop_wall, "clean build": all_wall},
                samples={"incremental": [b.wall for b in noop]},
            ),
            Row(
                f"one .po changed ({PO_CHANGED[1]})",
                {"incremental": median(po), "clean build": all_wall},
                samples={"incremental": [b.wall for b in po]},
            ),
            Row(
                f"one tutorial changed ({TUTORIAL_CHANGED})",
                {"incremental": median(tutorial), "clean build": all_wall},
                samples={"incremental": [b.wall for b in tutorial]},
            ),
        ],
        parameters={
            "repeats": repeats,
            "noop_share_of_clean": noop_share,
            "noop_target_at_most": NOOP_TARGET,
            "noop_passed": noop_share <= NOOP_TARGET,
            "noop_rebuilt": sorted({lang for b in noop for lang in b.rebuilt}),
            "po_changed_rebuilt": rebuilt_po,
            "po_changed_examples": examples_po,
            "tutorial_changed_rebuilt": sorted({lang for b in tutorial for lang in b.rebuilt}),
            "tutorial_changed_executed": executed,
            "tutorial_changed_examples_line": [b.examples_line for b in tutorial],
        },
        notes=[
            f"nothing changed: {noop_share:.0%} of a clean build (target <= "
            f"{NOOP_TARGET:.0%}: {'PASS' if noop_share <= NOOP_TARGET else 'FAIL'}); "
            f"languages rebuilt: {noop_rebuilt}.",
            f"one .po changed: rebuilt {', '.join(rebuilt_po) or 'nothing'} (expected "
            f"{PO_CHANGED[0]} only); examples pass: {'; '.join(examples_po)}.",
            f"one tutorial changed: examples executed {', '.join(executed_names) or 'none'} "
            f"(expected {Path(TUTORIAL_CHANGED).name} only); languages rebuilt: "
            f"{', '.join(sorted({lang for b in tutorial for lang in b.rebuilt}))} (every "
            "language shows the tutorial).",
            f"Median of {repeats} builds each; each repeat changes the file again.",
        ],
    )
    clean_table.checks.append(
        Check(
            "clean build, all languages / English only (wall)",
            f"{ratio:.2f}x",
            f"<= {RATIO_TARGET:g}x",
            ratio <= RATIO_TARGET,
        )
    )
    incremental.checks.extend(
        [
            Check(
                "nothing changed, share of a clean build",
                f"{noop_share:.0%} (rebuilt: {noop_rebuilt})",
                f"<= {NOOP_TARGET:.0%}, nothing rebuilt",
                noop_share <= NOOP_TARGET and noop_rebuilt == "none",
            ),
            Check(
                "one .po changed, languages rebuilt",
                ", ".join(rebuilt_po) or "none",
                f"{PO_CHANGED[0]} only",
                rebuilt_po == [PO_CHANGED[0]],
            ),
            Check(
                "one tutorial changed, examples executed",
                ", ".join(executed_names) or "none",
                f"{Path(TUTORIAL_CHANGED).name} only",
                executed_names == [Path(TUTORIAL_CHANGED).name],
            ),
        ]
    )
    return [clean_table, plain_table, incremental, weights]


SECTION = Section(
    name="docs_build",
    description="docs site: clean and incremental build times, page weight per language",
    run=run,
)
