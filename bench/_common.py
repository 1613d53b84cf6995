"""What the benchmark sections share: options, timing, result tables and their text form.

A section is a module with a ``SECTION`` attribute (a :class:`Section`). Its ``run``
function takes the :class:`Options` of the run and returns :class:`Table` objects.
Every measurement in a table is a cost (seconds or bytes): lower is better.

A comparison table (the default) has one column per library. A row's *ratio* is the
best peer's cost divided by agentmsg's, so a ratio above 1 means agentmsg wins; a row
with a *target* passes when its ratio reaches it. Where a row holds the repeats of a
side-by-side timing, the ratio is the median of the per-repeat ratios (each repeat times
every library back to back, so a drift of the machine hits both sides of a pair alike),
and the CPU time of the same repeats gives a second ratio beside the wall time's. A row
may leave a peer out of its ratio and target (``excluded``, with the reason): the figure
is still shown and stored, and the table says why it does not count. A table with
``compare=False`` has columns of its own choosing (say ``"3 languages"`` and ``"English
only"`` for the docs build) and neither ratio nor target; a row may then carry its own
unit.
"""

from __future__ import annotations

import gc
import statistics
import textwrap
import time
import timeit
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SUBJECT = "agentmsg"
PEERS = ("langchain-core", "agentscope")
LIBRARIES = (SUBJECT, *PEERS)


@dataclass(frozen=True)
class Options:
    """Knobs shared by every section; ``--quick`` shrinks them for a smoke run."""

    repeats: int = 7
    """How many timed repeats each timing row takes (the median is reported)."""
    min_time: float = 0.2
    """Seconds one repeat of an in-process timing should last at least."""
    import_repeats: int = 7
    """How many fresh interpreters each import measurement starts."""
    memory_count: int = 10_000
    """How many messages the memory measurement keeps alive at once."""


CHECK_FIELDS = ("operation", "figure", "target", "passed")


@dataclass(frozen=True)
class Check:
    """A target that is not a ratio against the peers (a build-time ratio, a rebuild
    that must touch only one language): what was measured, the target, the verdict."""

    operation: str
    figure: str
    target: str
    passed: bool


@dataclass
class Row:
    """One operation measured for agentmsg and each peer."""

    operation: str
    values: dict[str, float]
    """Cost per library label (seconds or bytes, as the table's unit says)."""
    target: float | None = None
    """The smallest ratio that passes, or None when the row is only reported."""
    samples: dict[str, list[float]] = field(default_factory=dict)
    """The raw repeats behind each value, for the JSON form."""
    unit: str | None = None
    """This row's unit when it differs from its table's."""
    excluded: dict[str, str] = field(default_factory=dict)
    """Peers left out of the ratio and the target, each with the documented reason."""

    @property
    def compared_peers(self) -> tuple[str, ...]:
        """The peers the ratio and the target are about."""
        return tuple(peer for peer in PEERS if peer not in self.excluded)

    @property
    def best_peer(self) -> str:
        """The compared peer with the lowest cost."""
        return min(self.compared_peers, key=lambda name: self.values[name])

    @property
    def ratio(self) -> float:
        """Best compared peer's cost / agentmsg's cost (above 1: agentmsg is cheaper)."""
        return self.ratio_to(self.best_peer)

    def ratio_to(self, peer: str) -> float:
        """*peer*'s cost / agentmsg's cost: the median of the per-repeat ratios where the
        row has paired repeats, else the ratio of the two values."""
        paired = paired_ratio(self.samples.get(peer), self.samples.get(SUBJECT))
        if paired is not None:
            return paired
        subject = self.values[SUBJECT]
        return self.values[peer] / subject if subject > 0 else float("inf")

    @property
    def cpu_ratio(self) -> float | None:
        """The ratio of the CPU times of the same repeats; None without them."""
        return paired_ratio(
            self.samples.get(cpu_label(self.best_peer)), self.samples.get(cpu_label(SUBJECT))
        )

    @property
    def passed(self) -> bool | None:
        """Whether the ratio reaches the target; None without a target."""
        return None if self.target is None else self.ratio >= self.target


@dataclass
class Table:
    """A table of rows, printed aligned and stored in the JSON."""

    key: str
    title: str
    unit: str
    """``"s"`` (seconds) or ``"B"`` (bytes), unless a row says otherwise."""
    rows: list[Row]
    notes: list[str] = field(default_factory=list)
    parameters: dict[str, Any] = field(default_factory=dict)
    columns: tuple[str, ...] = LIBRARIES
    """The value columns; a comparison table needs agentmsg and every peer among them."""
    compare: bool = True
    """Whether the rows compare agentmsg with its peers (ratio and target columns)."""
    checks: list[Check] = field(default_factory=list)
    """Targets of this table that are not peer ratios; ``run.py`` counts them too."""

    def header(self) -> list[str]:
        ratios = ("ratio", "cpu ratio", "target") if self.has_cpu else ("ratio", "target")
        return ["operation", *self.columns, *(ratios if self.compare else ())]

    @property
    def has_cpu(self) -> bool:
        """Whether a row holds CPU times (then a "cpu ratio" column is shown)."""
        return self.compare and any(row.cpu_ratio is not None for row in self.rows)

    def targets(self) -> list[dict[str, Any]]:
        """Each target of the table and its verdict, as the JSON's ``checks`` hold them:
        the compared rows that have a target, then the table's own checks."""
        rows = [
            {
                "table": self.key,
                "operation": row.operation,
                "ratio": row.ratio,
                "best_peer": row.best_peer,
                "excluded_peers": row.excluded,
                "target": row.target,
                "passed": row.passed,
            }
            for row in self.rows
            if self.compare and row.target is not None
        ]
        return rows + [
            {"table": self.key, **{key: getattr(check, key) for key in CHECK_FIELDS}}
            for check in self.checks
        ]

    def to_json(self) -> dict[str, Any]:
        """The table as JSON values: raw numbers in their unit, not formatted text."""
        rows = []
        for row in self.rows:
            entry: dict[str, Any] = {
                "operation": row.operation,
                "unit": row.unit or self.unit,
                "values": row.values,
                "samples": row.samples,
            }
            if self.compare:
                entry |= {
                    "ratio": row.ratio,
                    "cpu_ratio": row.cpu_ratio,
                    "best_peer": row.best_peer,
                    "ratio_per_peer": {
                        peer: row.ratio_to(peer) for peer in PEERS if peer in row.values
                    },
                    "excluded_peers": row.excluded,
                    "target": row.target,
                    "passed": row.passed,
                }
            rows.append(entry)
        data: dict[str, Any] = {
            "key": self.key,
            "title": self.title,
            "unit": self.unit,
            "columns": self.header(),
            "parameters": self.parameters,
            "rows": rows,
            "notes": self.notes,
        }
        if self.compare:
            data["ratio"] = "best peer's cost / agentmsg's cost (above 1: agentmsg is cheaper)"
        return data


@dataclass(frozen=True)
class Section:
    """A named group of tables; ``run.py --only NAME`` selects it."""

    name: str
    description: str
    run: Callable[[Options], list[Table]]


# -- measuring ---------------------------------------------------------------------


def table_languages() -> tuple[str, ...]:
    """The codes of the site's languages, in the order of their one table
    (``locales/languages.toml``; the first is the source language)."""
    table = Path(__file__).resolve().parent.parent / "locales" / "languages.toml"
    rows = tomllib.loads(table.read_text(encoding="utf-8"))["language"]
    return tuple(str(row["code"]) for row in rows)


def calibrate(timer: timeit.Timer, min_time: float) -> int:
    """The loop count (1, 2, 5, 10, 20, ...) that makes one repeat last *min_time*."""
    number = 1
    while True:
        for factor in (1, 2, 5):
            count = number * factor
            if timer.timeit(count) >= min_time:
                return count
        number *= 10


def cpu_label(label: str) -> str:
    """The key of a library's CPU-time repeats in a row's samples."""
    return f"{label} (cpu)"


def paired_ratio(peer: Sequence[float] | None, subject: Sequence[float] | None) -> float | None:
    """The median of ``peer[i] / subject[i]`` over paired repeats; None without pairs.

    >>> paired_ratio([2.0, 3.0, 9.0], [1.0, 1.0, 1.0])
    3.0
    """
    if not peer or not subject or len(peer) != len(subject) or min(subject) <= 0:
        return None
    return statistics.median(a / b for a, b in zip(peer, subject, strict=True))


def _seconds_per_call(function: Callable[[], object], number: int) -> tuple[float, float]:
    """Wall and CPU seconds per call over *number* calls, garbage collection off."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(number):
            function()
        return (time.perf_counter() - wall) / number, (time.process_time() - cpu) / number
    finally:
        if collecting:
            gc.enable()


def time_side_by_side(
    candidates: Mapping[str, Callable[[], object]], options: Options
) -> tuple[dict[str, float], dict[str, list[float]], dict[str, int]]:
    """Time each callable, interleaving the libraries so drift hits them all alike.

    Each repeat runs every library once, starting with a different one each time.
    Returns the median wall seconds per call; every repeat's wall seconds per call, and
    under :func:`cpu_label` its CPU seconds, so that a :class:`Row` pairs the repeats;
    and the loop count used, each per library label. Garbage collection is off while
    timing (as in ``timeit``).
    """
    numbers = {
        name: calibrate(timeit.Timer(function), options.min_time)
        for name, function in candidates.items()
    }
    samples: dict[str, list[float]] = {}
    names = list(candidates)
    for repeat in range(options.repeats):
        shift = repeat % len(names)
        for name in names[shift:] + names[:shift]:
            wall, cpu = _seconds_per_call(candidates[name], numbers[name])
            samples.setdefault(name, []).append(wall)
            samples.setdefault(cpu_label(name), []).append(cpu)
    medians = {name: statistics.median(samples[name]) for name in names}
    return medians, samples, numbers


# -- printing ----------------------------------------------------------------------


def format_value(value: float, unit: str) -> str:
    """A cost written for people: ``1.23 µs``, ``45.6 ms``, ``1,234 B``."""
    if unit == "B":
        return f"{value:,.0f} B"
    if unit == "points":  # a score out of 100, such as Lighthouse's
        return f"{value:.0f}"
    if unit != "s":
        msg = f"unknown unit {unit!r}"
        raise ValueError(msg)
    for scale, name in ((1e-6, "µs"), (1e-3, "ms"), (1.0, "s")):
        if abs(value) < scale * 1000 or name == "s":
            return f"{value / scale:.2f} {name}"
    raise AssertionError("unreachable")  # the loop always returns at "s"


def format_table(table: Table) -> str:
    """The table as aligned plain text, its notes below it."""
    header = table.header()
    lines: list[Sequence[str]] = [header]
    for row in table.rows:
        cells = [row.operation]
        cells.extend(
            format_value(row.values[name], row.unit or table.unit) for name in table.columns
        )
        if table.compare:
            cells.append(f"{row.ratio:.2f}x" + ("*" if row.excluded else ""))
            if table.has_cpu:
                cpu = row.cpu_ratio
                cells.append("-" if cpu is None else f"{cpu:.2f}x")
            if row.target is None:
                cells.append("-")
            else:
                cells.append(f">= {row.target:g}x {'PASS' if row.passed else 'FAIL'}")
        lines.append(cells)
    widths = [max(len(line[column]) for line in lines) for column in range(len(header))]
    # The operation (and the verdict, when there is one) align left, numbers right.
    last_numeric = len(header) - 1 if table.compare else len(header)

    def render(cells: Sequence[str]) -> str:
        out = [cells[0].ljust(widths[0])]
        out.extend(cells[i].rjust(widths[i]) for i in range(1, last_numeric))
        out.extend(cells[i].ljust(widths[i]) for i in range(last_numeric, len(cells)))
        return "  ".join(out).rstrip()

    rule = "  ".join("-" * width for width in widths)
    out = [table.title, "=" * len(table.title), render(header), rule]
    out.extend(render(line) for line in lines[1:])
    notes = list(table.notes)
    for row in table.rows:
        if row.excluded:
            reasons = "; ".join(f"{peer}: {why}" for peer, why in row.excluded.items())
            notes.append(
                f"{row.operation} *: ratio and target against "
                f"{', '.join(row.compared_peers)} only, a documented exception ({reasons})."
            )
    for note in notes:
        out.extend(textwrap.wrap(note, 100, initial_indent="  * ", subsequent_indent="    "))
    return "\n".join(out)
