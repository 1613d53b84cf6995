"""The package as the index shows it: one version, its links, the Pythons it is tested on."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import agentmsg

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
MAKEFILE = (ROOT / "Makefile").read_text(encoding="utf-8")


def makefile_variable(name: str) -> str:
    match = re.search(rf"^{name} \??:?= *(.*)$", MAKEFILE, re.MULTILINE)
    assert match is not None, name
    return match.group(1).strip()


class TestVersion:
    """The version is written once, in the package."""

    def test_version_comes_from_the_package(self) -> None:
        """pyproject declares the version dynamic and reads it from ``__version__``."""
        assert "version" not in PROJECT["project"]
        assert ["version"] == PROJECT["project"]["dynamic"]
        source = ROOT / PROJECT["tool"]["hatch"]["version"]["path"]
        text = source.read_text(encoding="utf-8")
        assert [agentmsg.__version__] == re.findall(r'^__version__ = "(.*)"$', text, re.M)


class TestProjectUrls:
    """The index links to the documentation, the source, the changelog and the issues."""

    def test_urls(self) -> None:
        """Each of the four links is an https URL."""
        urls = PROJECT["project"]["urls"]
        assert {"Documentation", "Source", "Changelog", "Issues"} == set(urls)
        assert [] == [name for name, url in urls.items() if not url.startswith("https://")]

    def test_changelog_is_on_the_documentation_site(self) -> None:
        """The changelog link is a page of the documentation site."""
        urls = PROJECT["project"]["urls"]
        assert urls["Changelog"].startswith(urls["Documentation"])
        assert (ROOT / "docs" / "changelog.md").is_file()


class TestClassifiers:
    """The classifiers name exactly the Pythons the tests run on."""

    def test_python_versions_are_the_tested_ones(self) -> None:
        """``make test`` runs the package's tests on the venv's Python (the lowest
        supported, ``requires-python``) and on ``OTHER_PYTHONS``; the browser tests run
        the tutorials on Pyodide's Python. The classifiers list those, no more."""
        lowest = PROJECT["project"]["requires-python"].removeprefix(">=")
        tested = {
            lowest,
            *makefile_variable("OTHER_PYTHONS").split(),
            makefile_variable("PYODIDE_PYTHON"),
        }
        prefix = "Programming Language :: Python :: 3."
        listed = {
            classifier.removeprefix("Programming Language :: Python :: ")
            for classifier in PROJECT["project"]["classifiers"]
            if classifier.startswith(prefix)
        }
        assert tested == listed

    def test_development_status(self) -> None:
        """One development status is declared."""
        statuses = [
            classifier
            for classifier in PROJECT["project"]["classifiers"]
            if classifier.startswith("Development Status :: ")
        ]
        assert 1 == len(statuses)
