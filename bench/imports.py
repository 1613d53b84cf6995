"""Section ``imports``: what importing each library's message module costs.

Each import runs in a fresh interpreter (``python -c "import ..."``), timed as wall
time from start to exit; the median of an empty interpreter (``python -c pass``) is
subtracted from the median of each import. One untimed run of each statement comes
first, so every measurement finds the bytecode caches already written, as they are in
an installed package: the children run without ``PYTHONDONTWRITEBYTECODE``, which would
otherwise make every import of the source checkout compile agentmsg afresh.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

from ._common import SUBJECT, Options, Row, Section, Table

STATEMENTS = {
    SUBJECT: "import agentmsg",
    "langchain-core": "import langchain_core.messages",
    "agentscope": "import agentscope.message",
}
BASELINE = "pass"
IMPORT_TARGET = 4.0
"""agentmsg's import may cost at most a quarter of the cheapest peer's."""


CHILD_ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def wall_time(statement: str) -> float:
    """Seconds from starting ``python -c statement`` to its exit; raise if it fails."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", statement],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=CHILD_ENV,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        error = done.stderr.decode(errors="replace").strip().splitlines()
        msg = f"`python -c {statement!r}` failed: {error[-1] if error else done.returncode}"
        raise SystemExit(msg)
    return elapsed


CACHE_PROBE = (
    "import os, sys, agentmsg; "
    "print(all(os.path.exists(module.__cached__) for name, module in sys.modules.items() "
    "if name.partition('.')[0] == 'agentmsg'))"
)


def agentmsg_bytecode_cached() -> bool:
    """Whether every module that ``import agentmsg`` loads has its bytecode cache on disk."""
    done = subprocess.run(
        [sys.executable, "-c", CACHE_PROBE],
        capture_output=True,
        text=True,
        env=CHILD_ENV,
        check=True,
    )
    return done.stdout.strip() == "True"


def run(options: Options) -> list[Table]:
    statements = {BASELINE: BASELINE, **STATEMENTS}
    for statement in statements.values():  # warm-up: write the .pyc files, fill the OS cache
        wall_time(statement)
    cached = agentmsg_bytecode_cached()
    samples: dict[str, list[float]] = {name: [] for name in statements}
    names = list(statements)
    for repeat in range(options.import_repeats):
        shift = repeat % len(names)
        for name in names[shift:] + names[:shift]:
            samples[name].append(wall_time(statements[name]))
    baseline_samples = samples.pop(BASELINE)
    baseline = statistics.median(baseline_samples)
    values = {name: statistics.median(times) - baseline for name, times in samples.items()}
    row = Row("import (wall over bare python)", values, target=IMPORT_TARGET, samples=samples)
    return [
        Table(
            key="imports.time",
            title="Import cost: wall time over a bare interpreter (lower is better)",
            unit="s",
            rows=[row],
            parameters={
                "repeats": options.import_repeats,
                "baseline_seconds": baseline,
                "baseline_samples": baseline_samples,
                "agentmsg_bytecode_cached": cached,
                "statements": STATEMENTS,
            },
            notes=[
                "Statements: "
                + "; ".join(f"{name}: `{code}`" for name, code in STATEMENTS.items())
                + " (importing agentscope.message imports the whole agentscope package).",
                f"Median of {options.import_repeats} fresh interpreters each, interleaved, "
                f"minus the median of `python -c pass` ({baseline * 1e3:.1f} ms); "
                + (
                    "bytecode caches warm (PYTHONDONTWRITEBYTECODE unset for the children)."
                    if cached
                    else "WARNING: agentmsg's bytecode cache could not be written, so its "
                    "figure includes compiling its source."
                ),
                "ratio = cheapest peer's import / agentmsg's; the target (>= 4x) is "
                "agentmsg costing at most a quarter of the cheapest peer.",
            ],
        )
    ]


SECTION = Section(
    name="imports",
    description="import time of each library's message module, in fresh interpreters",
    run=run,
)
