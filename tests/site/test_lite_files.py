"""The in-browser runtime as built (``_build/html/lite/``): each tutorial page links to its
notebook in its language, the runtime serves those notebooks and everything Pyodide loads
itself, and it is rebuilt only when an input changes. ``tests/browser/test_lite.py`` runs
the notebooks in Chromium.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from agentmsg_docs.i18n.languages import LANGUAGES
from agentmsg_docs.lite.build import LITE_DIR, lite_digest, tutorial_names
from agentmsg_docs.lite.link import notebook_href

ROOT = Path(__file__).resolve().parents[2]
LANGS = [language.code for language in LANGUAGES]
TUTORIALS = tutorial_names()
NOTEBOOKS = [(lang, name) for name in TUTORIALS for lang in LANGS]


# ----------------------------------------------------------------------------------------
# The site as built


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


class TestRunLink:
    """Every tutorial page links to its notebook in its language, beside the downloads."""

    @pytest.mark.parametrize(("lang", "name"), NOTEBOOKS)
    def test_link_in_the_footer(self, built_site: Path, lang: str, name: str) -> None:
        """The footer of download buttons holds one plain link whose URL is under
        ``lite/`` and names ``<lang>/<name>.ipynb``; its target page exists."""
        page = built_site / lang / "tutorial" / f"{name}.html"
        links = soup(page).select("div.sphx-glr-footer div.agentmsg-lite a[href]")
        hrefs = [link["href"] for link in links]
        expected = f"../../{LITE_DIR}/notebooks/index.html?path={lang}/{name}.ipynb"
        target = (page.parent / expected.split("?")[0]).resolve()
        assert ([expected], True) == (hrefs, target.is_file())

    def test_label_is_translated(self, built_site: Path) -> None:
        """The link reads "Run in the browser" in English and differently (translated)
        in every other language, the same on every tutorial page of a language."""
        labels = {
            lang: {
                soup(built_site / lang / "tutorial" / f"{name}.html")
                .select_one("div.agentmsg-lite a")
                .get_text(strip=True)
                for name in TUTORIALS
            }
            for lang in LANGS
        }
        english = labels.pop("en")
        assert {"Run in the browser"} == english
        assert {lang: 1 for lang in labels} == {lang: len(found) for lang, found in labels.items()}
        assert [] == [lang for lang, found in labels.items() if found == english]

    def test_href_helper(self) -> None:
        """``notebook_href`` climbs out of the page's folder and its language's."""
        assert "../../lite/notebooks/index.html?path=es/tools.ipynb" == notebook_href(
            "tutorial/tools", "es"
        )


class TestContents:
    """The runtime holds each language's translated notebooks with the media beside them."""

    @pytest.mark.parametrize(("lang", "name"), NOTEBOOKS)
    def test_notebook_is_the_download(self, built_site: Path, lang: str, name: str) -> None:
        """``lite/files/<lang>/<name>.ipynb`` is byte for byte the notebook the page of
        that language offers for download."""
        (download,) = sorted((built_site / lang / "_downloads").glob(f"*/{name}.ipynb"))
        served = built_site / LITE_DIR / "files" / lang / f"{name}.ipynb"
        assert download.read_bytes() == served.read_bytes()

    @pytest.mark.parametrize("lang", LANGS)
    def test_media_beside_the_notebooks(self, built_site: Path, lang: str) -> None:
        """Every file of ``docs/examples/media`` is served in ``lite/files/<lang>/media``."""
        source = ROOT / "docs" / "examples" / "media"
        served = built_site / LITE_DIR / "files" / lang / "media"
        assert {p.name: p.read_bytes() for p in source.iterdir()} == {
            p.name: p.read_bytes() for p in served.iterdir()
        }

    def test_one_runtime_for_every_language(self, built_site: Path) -> None:
        """Pyodide is in the site once, under ``lite/static/pyodide``, not per language."""
        found = sorted(p.relative_to(built_site).as_posix() for p in built_site.rglob("*.wasm"))
        assert [f"{LITE_DIR}/static/pyodide/pyodide.asm.wasm"] == found


class TestSelfHosted:
    """The runtime's configuration points only into the site."""

    def test_pyodide_from_the_site(self, built_site: Path) -> None:
        """The kernel loads Pyodide from ``./static/pyodide``, never falls back to PyPI,
        and preloads every package of the lock file, agentmsg included."""
        config = json.loads((built_site / LITE_DIR / "jupyter-lite.json").read_text("utf-8"))
        kernel = config["jupyter-config-data"]["litePluginSettings"][
            "@jupyterlite/pyodide-kernel-extension:kernel"
        ]
        lock = json.loads(
            (built_site / LITE_DIR / "static" / "pyodide" / "pyodide-lock.json").read_text("utf-8")
        )
        assert ("./static/pyodide/pyodide.mjs", True, sorted(lock["packages"]), True) == (
            kernel["pyodideUrl"],
            kernel["disablePyPIFallback"],
            sorted(kernel["loadPyodideOptions"]["packages"]),
            "agentmsg" in lock["packages"],
        )

    def test_lock_lists_what_is_served(self, built_site: Path) -> None:
        """Each package of Pyodide's lock file is a wheel served beside it, with the
        sha256 of that file, and nothing else is listed."""
        import hashlib

        folder = built_site / LITE_DIR / "static" / "pyodide"
        lock = json.loads((folder / "pyodide-lock.json").read_text("utf-8"))
        listed = {entry["file_name"]: entry["sha256"] for entry in lock["packages"].values()}
        served = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.glob("*.whl")}
        assert served == listed

    def test_no_cdn_in_the_configuration(self, built_site: Path) -> None:
        """No settings file, package index, lock file or contents index of the runtime
        names a URL outside it."""
        lite = built_site / LITE_DIR
        files = [
            *lite.rglob("jupyter-lite.json"),
            lite / "static" / "pyodide" / "pyodide-lock.json",
            *(lite / "extensions").rglob("pypi/all.json"),
            *(lite / "api" / "contents").rglob("all.json"),
        ]
        texts = {path.relative_to(lite).as_posix(): path.read_text("utf-8") for path in files}
        assert len(texts) >= 4 + len(LANGS)
        assert {} == {name: text for name, text in texts.items() if "://" in text}


# ----------------------------------------------------------------------------------------
# Rebuilding


class TestStamp:
    """The runtime is rebuilt only when one of its inputs changes."""

    def test_digest_follows_the_notebooks(self, built_site: Path, tmp_path: Path) -> None:
        """Changing one byte of one served notebook changes the inputs' digest; the
        same inputs give the same digest."""
        from agentmsg_docs.lite.build import find_inputs

        inputs = find_inputs(built_site, LANGS)
        copy = tmp_path / "changed.ipynb"
        key = (LANGS[-1], TUTORIALS[0])
        copy.write_bytes(inputs.notebooks[key].read_bytes() + b" ")
        changed = dataclasses.replace(inputs, notebooks={**inputs.notebooks, key: copy})
        assert (True, False) == (
            lite_digest(inputs) == lite_digest(find_inputs(built_site, LANGS)),
            lite_digest(inputs) == lite_digest(changed),
        )
