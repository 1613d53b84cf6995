"""agentmsg now against agentmsg at an earlier commit, side by side: what the ``change``
section and the ``messages`` section's baseline table share.

The earlier commit's ``src/agentmsg`` is read from git and imported beside the current
package under another name; both are timed in this run, interleaved repeat by repeat. A
row's check is the median of the per-repeat ratios now / before, wall time with the CPU
time of the same repeats beside it (issue 18: steadier on a shared machine than a ratio
of medians).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ._common import SUBJECT, Check, Options, Row, Table, cpu_label, paired_ratio, time_side_by_side

Pair = Mapping[str, Callable[[], object]]
"""One operation for both revisions: ``{"now": ..., "before": ...}``."""


def load_revision(commit: str, name: str) -> Any:
    """agentmsg at *commit*, imported from a copy of that commit's ``src/agentmsg`` as the
    package *name* (beside the current ``agentmsg``, which it does not touch)."""
    import atexit
    import importlib.util
    import io
    import shutil
    import subprocess
    import sys
    import tarfile
    import tempfile
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    archive = subprocess.run(
        ["git", "-C", str(root), "archive", commit, "src/agentmsg"],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        msg = (
            f"cannot read agentmsg at {commit[:7]} from git "
            f"({archive.stderr.decode(errors='replace').strip()})"
        )
        raise SystemExit(msg)
    folder = Path(tempfile.mkdtemp(prefix=f"{name}-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(folder, filter="data")
    package = folder / name
    (folder / "src" / "agentmsg").rename(package)
    # Imported from its folder by name, without putting the folder on sys.path.
    spec = importlib.util.spec_from_file_location(
        name, package / "__init__.py", submodule_search_locations=[str(package)]
    )
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot import agentmsg at {commit[:7]} from {package}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def revision_table(
    key: str,
    commit: str,
    pairs: Mapping[str, Pair],
    options: Options,
    *,
    limit: float,
    checked: Mapping[str, str],
    parameters: dict[str, Any],
    notes: list[str],
) -> Table:
    """The table of *pairs* timed now and at *commit*: a row each, and a check (at most
    *limit* times the earlier time) for each row *checked* names, under the name it gives.
    An operation the earlier revision refuses is named in a note, not timed."""
    column = f"at {commit[:7]}"
    rows, checks, refused = [], [], []
    numbers: dict[str, dict[str, int]] = {}
    for label, pair in pairs.items():
        try:
            pair["before"]()
        except Exception as error:
            refused.append(f"{label}: {type(error).__name__}")
            continue
        medians, samples, numbers[label] = time_side_by_side(
            {SUBJECT: pair["now"], column: pair["before"]}, options
        )
        rows.append(Row(label, medians, samples=samples))
        if label not in checked:
            continue
        wall = paired_ratio(samples[SUBJECT], samples[column]) or medians[SUBJECT] / medians[column]
        cpu = paired_ratio(samples[cpu_label(SUBJECT)], samples[cpu_label(column)])
        figure = f"{wall:.2f}x" if cpu is None else f"{wall:.2f}x (cpu {cpu:.2f}x)"
        checks.append(Check(checked[label], figure, f"<= {limit:g}x", wall <= limit))
    notes = [
        *notes,
        "A check's figure is the median of the per-repeat ratios now / before, of the wall "
        "times and (in brackets) of the CPU times of the same repeats; the wall ratio decides.",
    ]
    if refused:
        notes.append("Not timed (the earlier revision refuses them): " + "; ".join(refused) + ".")
    return Table(
        key=key,
        title=f"agentmsg now and at {commit[:7]}: median time (lower is better)",
        unit="s",
        rows=rows,
        columns=(SUBJECT, column),
        compare=False,
        checks=checks,
        parameters={
            **parameters,
            "repeats": options.repeats,
            "min_time_per_repeat": options.min_time,
            "loops_per_repeat": numbers,
        },
        notes=notes,
    )
