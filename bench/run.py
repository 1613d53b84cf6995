"""Run the benchmarks, print their tables and write them as JSON.

Usage (from the repository root, as a module of the ``bench`` package, with the installed
agentmsg; ``make bench`` installs the peers and runs it)::

    python -m bench.run                      # every section
    python -m bench.run --only messages      # one section (repeat or comma-separate)
    python -m bench.run --quick              # fewer repeats: a smoke run, not figures
    python -m bench.run --json out.json      # somewhere else than _build/bench/results.json

Sections are modules listed in ``SECTION_MODULES``, each with a ``SECTION`` attribute;
another section (the docs-build figures, say) is one more module and one more line there.

Exit status: 0 when every target is met, 1 when one is missed (the tables and the JSON
are written first), 2 for a usage error.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import sys
from dataclasses import asdict
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from ._common import Options, Section, Table, format_table

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_JSON = ROOT / "_build" / "bench" / "results.json"
SECTION_MODULES = (
    "bench.messages",
    "bench.providers",
    "bench.streams",
    "bench.imports",
    "bench.change",
    "bench.docs_build",
    "bench.search",
    "bench.patches",
    "bench.lite",
    "bench.runner",
    "bench.lighthouse",
)
DISTRIBUTIONS = ("agentmsg", "langchain-core", "agentscope", "pydantic", "mcp", "msgspec")
QUICK = Options(repeats=3, min_time=0.05, import_repeats=3, memory_count=2_000)


def load_sections() -> dict[str, Section]:
    """Every registered section, by name, in run order."""
    sections: dict[str, Section] = {}
    for module_name in SECTION_MODULES:
        section = importlib.import_module(module_name).SECTION
        sections[section.name] = section
    return sections


def environment() -> dict[str, Any]:
    """What the figures depend on: versions, interpreter, machine and its load."""
    versions: dict[str, str | None] = {}
    for name in DISTRIBUTIONS:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return {
        "versions": versions,
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average_at_start": list(os.getloadavg()),
    }


def parse_arguments(argv: list[str], sections: dict[str, Section]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.run",
        description="agentmsg benchmarks, side by side with langchain-core and agentscope.",
        epilog="sections: "
        + "; ".join(f"{name}: {section.description}" for name, section in sections.items()),
    )
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="SECTION",
        help="run only this section (repeatable, or comma-separated)",
    )
    parser.add_argument("--quick", action="store_true", help="few repeats: a smoke run")
    parser.add_argument(
        "--json",
        type=Path,
        default=DEFAULT_JSON,
        metavar="PATH",
        help=f"where to write the results (default: {DEFAULT_JSON.relative_to(ROOT)})",
    )
    arguments = parser.parse_args(argv)
    chosen = [name for value in arguments.only for name in value.split(",") if name]
    unknown = [name for name in chosen if name not in sections]
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; known: {', '.join(sections)}")
    arguments.sections = chosen or list(sections)
    return arguments


def main(argv: list[str] | None = None) -> int:
    sections = load_sections()
    arguments = parse_arguments(sys.argv[1:] if argv is None else argv, sections)
    options = QUICK if arguments.quick else Options()
    env = environment()
    versions = ", ".join(f"{name} {version}" for name, version in env["versions"].items())
    print(f"Python {env['python']} on {env['platform']}, {env['cpus']} CPUs")
    print(f"Versions: {versions}")
    load = ", ".join(f"{value:.2f}" for value in env["load_average_at_start"])
    print(f"Load average at start: {load} (other work on the machine skews timings)")
    if arguments.quick:
        print("QUICK RUN: few repeats; use it to try the code, not for figures.")

    results: dict[str, list[Table]] = {}
    for name in arguments.sections:
        print(f"\n[{name}] {sections[name].description} ...", flush=True)
        results[name] = sections[name].run(options)
        for table in results[name]:
            print()
            print(format_table(table))

    checks = [
        {"section": name, **target}
        for name, tables in results.items()
        for table in tables
        for target in table.targets()
    ]
    failed = [check for check in checks if not check["passed"]]
    document = {
        "format": 1,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "quick": arguments.quick,
        "options": asdict(options),
        "environment": env,
        "sections": {
            name: {
                "description": sections[name].description,
                "tables": [table.to_json() for table in tables],
            }
            for name, tables in results.items()
        },
        "checks": checks,
        "passed": not failed,
    }
    arguments.json.parent.mkdir(parents=True, exist_ok=True)
    arguments.json.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")

    print("\nTargets")
    print("=======")
    for check in checks:
        verdict = "PASS" if check["passed"] else "FAIL"
        if "figure" in check:
            print(
                f"{verdict}  {check['table']}: {check['operation']}: {check['figure']}, "
                f"target {check['target']}"
            )
            continue
        excluded = "".join(f"; {peer} excluded" for peer in check["excluded_peers"])
        print(
            f"{verdict}  {check['table']}: {check['operation']}: {check['ratio']:.2f}x "
            f"(vs {check['best_peer']}{excluded}), target >= {check['target']:g}x"
        )
    try:
        shown = arguments.json.resolve().relative_to(ROOT)
    except ValueError:
        shown = arguments.json
    print(f"\nWrote {shown}")
    if failed:
        print(f"FAIL: {len(failed)} of {len(checks)} targets missed.")
        return 1
    print(f"PASS: all {len(checks)} targets met.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
