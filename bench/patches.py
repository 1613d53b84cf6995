"""Section ``patches``: what each speed patch of the docs build (``agentmsg_docs.patches``)
gains, measured by leaving it out.

In a private copy of the repository the examples run once; then each translated
language is built with plain ``python -m sphinx`` (examples reused) with every patch, with
none (``AGENTMSG_DOCS_UNPATCHED=1``) and with each patch left out in turn
(``AGENTMSG_DOCS_UNPATCHED=<name>``), interleaved. The figure is the CPU time of the build
(its processes' user and system time), steadier than wall time on a shared machine. A
patch's gain is how much longer the build takes without it; one that gains under 5 % in
every language does not earn its place (target).
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from ._common import Check, Options, Row, Section, Table, table_languages
from .docs_build import copy_repository

UNPATCHED = "AGENTMSG_DOCS_UNPATCHED"
PATCHES = (
    "_fewer_collections",
    "_myst_default_settings_once",
    "_myst_parser_kept",
    "_pooled_state_machines",
)
GAIN_TARGET = 0.05
"""The least a patch must spare in some language (a share of the build without it)."""


def _cpu_of_build(repo: Path, lang: str, out: Path, left_out: str) -> float:
    """CPU seconds of ``python -m sphinx`` building *lang* in *repo* with *left_out*."""
    shutil.rmtree(out, ignore_errors=True)
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "docs", str(out)]
    command += ["-D", f"language={lang}", "-D", "agentmsg_gallery_reuse=1"]
    env = {**os.environ, "PYTHONPATH": str(repo / "docs")}
    env.pop(UNPATCHED, None)
    if left_out:
        env[UNPATCHED] = left_out
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        msg = f"the {lang} build without {left_out or 'nothing'} failed:\n{done.stderr[-3000:]}"
        raise SystemExit(msg)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run(options: Options) -> list[Table]:
    repeats = 3 if options.repeats >= 5 else 2
    langs = table_languages()[1:]
    configs = {"every patch": "", "no patch": "1", **{name: name for name in PATCHES}}
    samples: dict[str, dict[str, list[float]]] = {
        name: {lang: [] for lang in langs} for name in configs
    }
    with tempfile.TemporaryDirectory(prefix="agentmsg-bench-patches-") as tmp:
        repo = copy_repository(Path(tmp) / "repo")
        examples = subprocess.run(
            [sys.executable, "-m", "agentmsg_docs", "examples"],
            cwd=repo,
            env={**os.environ, "PYTHONPATH": str(repo / "docs")},
            capture_output=True,
            text=True,
            check=False,
        )
        if examples.returncode != 0:
            raise SystemExit(f"the examples pass failed:\n{examples.stderr[-3000:]}")
        for repeat in range(repeats):  # interleaved, the order alternating
            order = list(configs) if repeat % 2 == 0 else list(reversed(configs))
            for name in order:
                for lang in langs:
                    out = Path(tmp) / f"out-{lang}"
                    samples[name][lang].append(_cpu_of_build(repo, lang, out, configs[name]))
    median = {
        name: {lang: statistics.median(values) for lang, values in by.items()}
        for name, by in samples.items()
    }
    every = median["every patch"]
    rows = []
    checks = []
    for name in configs:
        if name == "every patch":
            continue
        gains = {lang: median[name][lang] / every[lang] - 1 for lang in langs}
        label = "without any patch" if name == "no patch" else f"without {name}"
        rows.append(Row(operation=label, values=dict(median[name]), samples=samples[name]))
        if name in PATCHES:
            best = max(gains.values())
            checks.append(
                Check(
                    f"{name} spares at least {GAIN_TARGET:.0%} somewhere",
                    " / ".join(f"{lang} {gains[lang]:+.1%}" for lang in langs),
                    f">= {GAIN_TARGET:.0%}",
                    best >= GAIN_TARGET,
                )
            )
    rows.insert(0, Row(operation="every patch", values=dict(every), samples=samples["every patch"]))
    table = Table(
        key="patches",
        title="Speed patches of the docs build: CPU time of one language's build without each",
        unit="s",
        rows=rows,
        columns=tuple(langs),
        compare=False,
        checks=checks,
        parameters={"repeats": repeats, "languages": list(langs)},
        notes=[
            "`python -m sphinx -b html docs OUT -D language=LANG -D agentmsg_gallery_reuse=1` "
            "in a private copy after one examples pass; CPU seconds (median); gain = how much "
            "longer the build takes without the patch.",
        ],
    )
    return [table]


SECTION = Section(
    name="patches",
    description="docs build: CPU time of one language's build without each speed patch",
    run=run,
)
