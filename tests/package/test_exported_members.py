"""``agentmsg.__all__`` is exactly the documented public API (nothing exported by accident)."""

from __future__ import annotations

import pathlib
import re

import agentmsg

API_PAGE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "api.rst"


def documented_names() -> list[str]:
    """The public names docs/api.rst documents: its ``auto...:: agentmsg.X`` entries and
    its ``py:data:: X`` entries, in page order."""
    page = API_PAGE.read_text(encoding="utf-8")
    return re.findall(r"^\.\. (?:auto\w+:: agentmsg\.|py:data:: )(\w+)", page, re.M)


class TestExportedMembers:
    """The names ``agentmsg`` exports."""

    def test_all_is_the_documented_names(self):
        """``__all__`` holds exactly the names docs/api.rst documents, each documented
        once: adding a public name means adding its entry to the API page."""
        documented = documented_names()

        assert (sorted(agentmsg.__all__), len(documented)) == (
            sorted(documented),
            len(set(documented)),
        )

    def test_all_is_sorted_without_duplicates(self):
        """``__all__`` is kept sorted (as ruff's RUF022 sorts it) and has no duplicates."""
        assert len(set(agentmsg.__all__)) == len(agentmsg.__all__)
        constants = [name for name in agentmsg.__all__ if name.isupper()]
        classes = [name for name in agentmsg.__all__ if name[0].isupper() and not name.isupper()]
        functions = [name for name in agentmsg.__all__ if name[0].islower()]
        assert constants + sorted(classes) + sorted(functions) == agentmsg.__all__

    def test_every_name_is_importable(self):
        """Each exported name is an attribute of the package."""
        assert [] == [name for name in agentmsg.__all__ if not hasattr(agentmsg, name)]

    def test_star_import(self):
        """``from agentmsg import *`` brings exactly ``__all__``."""
        namespace: dict[str, object] = {}
        exec("from agentmsg import *", namespace)
        namespace.pop("__builtins__")

        assert sorted(agentmsg.__all__) == sorted(namespace)

    def test_public_classes_name_the_package(self):
        """Public classes say they live in ``agentmsg``, where users import them from."""
        classes = [
            name
            for name in agentmsg.__all__
            if isinstance(getattr(agentmsg, name), type)
            and not getattr(getattr(agentmsg, name), "__required_keys__", None)
        ]

        assert {name: "agentmsg" for name in classes} == {
            name: getattr(agentmsg, name).__module__ for name in classes
        }
        assert "<class 'agentmsg.Msg'>" == str(agentmsg.Msg)

    def test_version(self):
        """The package has a version string."""
        assert isinstance(agentmsg.__version__, str)
        assert re.fullmatch(r"\d+\.\d+\.\d+.*", agentmsg.__version__)
