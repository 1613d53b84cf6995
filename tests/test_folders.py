"""The test folders keep to their roles (CONTRIBUTING.md, "Tests"): a test file imports
no other test file, shared code lives in ``tests/helpers/``, which holds no tests, and
the recorders live in ``tools/``."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
FOLDERS = ("package", "docs_tooling", "site", "browser")


def imported_modules(path: Path) -> set[str]:
    """The top-level module names that *path* imports."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def python_files(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*.py") if "node_modules" not in path.parts)


class TestFolders:
    """What each folder of ``tests/`` holds and imports."""

    def test_no_test_file_imports_another(self):
        """No file under ``tests/`` imports a ``test_*`` module or a ``conftest``."""
        test_modules = {path.stem for path in python_files(TESTS) if path.stem.startswith("test_")}
        offenders = {
            str(path.relative_to(ROOT)): sorted(found)
            for path in python_files(TESTS)
            if (found := imported_modules(path) & (test_modules | {"conftest"}))
        }
        assert {} == offenders

    def test_helpers_hold_no_tests(self):
        """``tests/helpers/`` is code the folders share: no ``test_*`` file, no test
        function or class that pytest would collect."""
        found = [
            f"{path.name}:{node.name}"
            for path in python_files(TESTS / "helpers")
            for node in ast.parse(path.read_text(encoding="utf-8")).body
            if isinstance(node, ast.FunctionDef | ast.ClassDef)
            and (node.name.startswith("test_") or node.name.startswith("Test"))
        ]
        names = [path.name for path in python_files(TESTS / "helpers")]
        assert ([], []) == (found, [name for name in names if name.startswith("test_")])

    def test_every_test_file_is_in_a_folder_by_need(self):
        """Every test file sits in one of the four folders named by what it needs (or is
        this file), so ``make test-fast`` and ``make test-pythons`` pick the right ones."""
        stray = [
            str(path.relative_to(TESTS))
            for path in python_files(TESTS)
            if path.stem.startswith("test_")
            and path != Path(__file__).resolve()
            and path.relative_to(TESTS).parts[0] not in FOLDERS
        ]
        assert [] == stray

    def test_test_folders_hold_test_files_only(self):
        """A module beside the tests of a folder is a helper in the wrong place: it goes
        to ``tests/helpers/`` (sample projects in subfolders are data, not modules)."""
        misplaced = [
            f"{folder}/{path.name}"
            for folder in FOLDERS
            for path in sorted((TESTS / folder).glob("*.py"))
            if not path.stem.startswith("test_") and path.stem != "conftest"
        ]
        assert [] == misplaced
