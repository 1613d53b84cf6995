"""Pyodide's lock file for the in-browser runtime: an entry for every wheel it serves.

``pyodide-lock.json`` lists, for each package the kernel may load, its file, sha256,
importable names and dependencies. Pyodide's own lock lists packages that live on its CDN;
``docs/agentmsg_docs/lite/build.py`` replaces them with entries for the wheels the site
serves, written here from each wheel's metadata (the ``pyodide-lock`` tool that does this
needs Python 3.12, this machine has 3.11).
"""

from __future__ import annotations

import hashlib
import re
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["LockError", "canonical", "lock_entries", "sha256"]


class LockError(Exception):
    """The wheels do not make a complete set: one needs a distribution not among them."""


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def canonical(name: str) -> str:
    """A distribution's name as Pyodide's lock file keys it (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _metadata(wheel: zipfile.ZipFile) -> tuple[str, str, list[str], list[str]]:
    """Name, version, ``Requires-Dist`` lines and importable top-level names of a wheel."""
    names = wheel.namelist()
    info = next(n for n in names if re.fullmatch(r"[^/]+\.dist-info/METADATA", n))
    text = wheel.read(info).decode("utf-8")
    header = text.split("\n\n", 1)[0]
    fields: dict[str, list[str]] = {}
    for line in header.splitlines():
        key, _, value = line.partition(":")
        fields.setdefault(key.strip(), []).append(value.strip())
    tops: set[str] = set()
    for name in names:
        first, _, rest = name.partition("/")
        if first.endswith((".dist-info", ".data")):
            continue
        if rest and rest.split("/")[0] and first.isidentifier():
            if f"{first}/__init__.py" in names:
                tops.add(first)
        elif first.endswith(".py") and first[:-3].isidentifier():
            tops.add(first[:-3])
    return fields["Name"][0], fields["Version"][0], fields.get("Requires-Dist", []), sorted(tops)


def _environment(python: str) -> dict[str, str]:
    """Marker values of Pyodide's interpreter (for ``Requires-Dist`` markers)."""
    return {
        "implementation_name": "cpython",
        "os_name": "posix",
        "platform_machine": "wasm32",
        "platform_python_implementation": "CPython",
        "platform_system": "Emscripten",
        "python_full_version": python,
        "python_version": ".".join(python.split(".")[:2]),
        "sys_platform": "emscripten",
        "extra": "",
    }


def lock_entries(wheels: Iterable[Path], python: str) -> dict[str, dict[str, Any]]:
    """Pyodide lock entries for *wheels*, keyed by canonical name.

    Dependencies are read from each wheel's metadata, with markers evaluated for Pyodide's
    interpreter (version *python*, ``sys_platform == "emscripten"``).

    Raises:
        LockError: A wheel needs a distribution that is not among *wheels*.
    """
    from packaging.requirements import Requirement

    environment = _environment(python)
    entries: dict[str, dict[str, Any]] = {}
    needs: dict[str, list[str]] = {}
    for path in wheels:
        with zipfile.ZipFile(path) as wheel:
            name, version, requires, imports = _metadata(wheel)
        key = canonical(name)
        needs[key] = sorted(
            {
                canonical(requirement.name)
                for requirement in map(Requirement, requires)
                if requirement.marker is None or requirement.marker.evaluate(environment)
            }
        )
        entries[key] = {
            "name": key,
            "version": version,
            "file_name": path.name,
            "install_dir": "site",
            "sha256": sha256(path),
            "package_type": "package",
            "imports": imports,
            "depends": needs[key],
            "unvendored_tests": False,
        }
    unmet = [
        f"{key} needs {dep}" for key, deps in needs.items() for dep in deps if dep not in entries
    ]
    if unmet:
        msg = (
            f"the kernel's wheels are incomplete: {'; '.join(unmet)} (docs/lite/pyodide-wheels.txt)"
        )
        raise LockError(msg)
    return dict(sorted(entries.items()))
