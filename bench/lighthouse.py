"""Section ``lighthouse``: how Lighthouse rates three pages of the built site, on a phone.

Lighthouse (npm, pinned in ``bench/package-lock.json``, installed by ``make bench``) runs
with its mobile defaults (a slow phone's CPU and network, simulated) against a plain
static server on 127.0.0.1 serving ``_build/html``, in Debian's Chromium. The pages: the
source language's index and a tutorial in each translated language. Targets: SEO,
accessibility and best practices 100 each, performance at least 95.

The site must be built first (``make html``); the section says so otherwise.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ._common import Check, Options, Row, Section, Table, table_languages
from ._serve import CHROMIUM, CHROMIUM_FLAGS, served

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "_build" / "html"
LIGHTHOUSE = ROOT / "bench" / "node_modules" / ".bin" / "lighthouse"
#: The source language's index, then a tutorial in each translated language.
PAGES = (
    f"{table_languages()[0]}/index.html",
    *(
        f"{lang}/tutorial/{name}.html"
        for lang, name in zip(
            table_languages()[1:], itertools.cycle(("tools", "create_message")), strict=False
        )
    ),
)
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
TARGETS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
# Lighthouse starts Chromium itself, headless, with the flags the other sections use but
# the host rule, OFFLINE_FLAGS (it splits its --chrome-flags at spaces).
CHROME_FLAGS = " ".join(["--headless=new", *CHROMIUM_FLAGS])


def report(url: str, categories: Sequence[str] = CATEGORIES) -> dict[str, Any]:
    """Lighthouse's JSON report of *url* in *categories*, with its mobile defaults."""
    chromium = CHROMIUM if Path(CHROMIUM).is_file() else shutil.which("chromium") or ""
    done = subprocess.run(
        [
            str(LIGHTHOUSE),
            url,
            "--quiet",
            "--output=json",
            "--output-path=stdout",
            f"--only-categories={','.join(categories)}",
            f"--chrome-flags={CHROME_FLAGS}",
        ],
        env={**os.environ, "CHROME_PATH": chromium},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        msg = f"lighthouse failed for {url}:\n{done.stderr[-3000:]}"
        raise SystemExit(msg)
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def lighthouse(url: str) -> dict[str, float]:
    """Lighthouse's category scores (0 to 100) for *url*, with its mobile defaults."""
    scores = report(url)["categories"]
    return {name: 100 * (scores[name]["score"] or 0) for name in CATEGORIES}


def run(options: Options) -> list[Table]:
    if not (SITE / "index.html").is_file():
        msg = "the lighthouse section needs the built site: run `make html` first"
        raise SystemExit(msg)
    if not LIGHTHOUSE.is_file():
        msg = f"lighthouse is missing: {LIGHTHOUSE} (`make bench` installs it)"
        raise SystemExit(msg)
    rows = []
    with served(SITE) as base:
        for page in PAGES:
            rows.append(Row(page, lighthouse(base + page)))
    table = Table(
        key="lighthouse.mobile",
        title="Lighthouse on a phone (mobile defaults), served from 127.0.0.1",
        unit="points",
        rows=rows,
        columns=CATEGORIES,
        compare=False,
        notes=[
            "Scores out of 100; performance is simulated for a slow phone on a slow "
            "network, so it moves a little with the machine's load.",
        ],
    )
    for row in rows:
        for name in CATEGORIES:
            score = row.values[name]
            table.checks.append(
                Check(
                    f"{row.operation}: {name}",
                    f"{score:.0f}",
                    f">= {TARGETS[name]}",
                    score >= TARGETS[name],
                )
            )
    return [table]


SECTION = Section(
    name="lighthouse",
    description="Lighthouse scores of three pages of the built site, on a phone",
    run=run,
)
