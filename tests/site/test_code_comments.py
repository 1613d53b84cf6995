"""Comments in code are in the reader's language; the code is the same in every language.

For every page and every notebook (downloads and ``lite/files``), the code with its
comments removed is compared with the English; and the comments the catalogs translate
do appear translated.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from _languages import pages

ROOT = Path(__file__).resolve().parents[2]

from agentmsg_docs.i18n.comments import strip_comments  # noqa: E402
from agentmsg_docs.lite.runner import language_cells  # noqa: E402

pytestmark = pytest.mark.docs

TRANSLATED = ["zh_CN", "es"]


def _language(block: BeautifulSoup) -> str:
    for cls in block.get("class", []):
        if cls.startswith("highlight-"):
            return cls.removeprefix("highlight-").lower()
    return ""


def page_code(path: Path) -> list[tuple[str, str]]:
    """The code blocks of a page (not their output), each as (language, code without
    comments)."""
    page = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
    found = []
    for block in page.select("article div[class*='highlight-']"):
        if block.find_parent(class_="sphx-glr-script-out"):
            continue
        pre = block.find("pre")
        if pre is not None:
            language = _language(block)
            found.append((language, strip_comments(pre.get_text(), language)))
    return found


def notebook_code(path: Path, lang: str = "") -> list[str]:
    """The code cells of a notebook without their comments, leaving out the cell that sets
    the display language of a notebook in *lang* and the one that installs agentmsg (after
    the title; it prints a line in the reader's language) (the tutorial's own code is the
    same)."""
    added = (
        {source for kind, source in language_cells(lang, "") if kind == "code"} if lang else set()
    )
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [
        strip_comments("".join(cell["source"]), "python")
        for cell in cells[:1] + cells[2:]
        if cell["cell_type"] == "code" and "".join(cell["source"]) not in added
    ]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_pages_have_the_english_code(built_site: Path, lang: str) -> None:
    """Each page's code blocks, comments removed, are the English page's."""
    english = pages(built_site, "en")
    translated = pages(built_site, lang)
    assert set(english) == set(translated)
    differ = [
        str(name) for name in english if page_code(english[name]) != page_code(translated[name])
    ]
    assert [] == differ
    assert sum(len(page_code(path)) for path in english.values()) > 50


@pytest.mark.parametrize("lang", TRANSLATED)
def test_notebooks_have_the_english_code(built_site: Path, lang: str) -> None:
    """Each translated notebook (download and JupyterLite copy) has the English code."""
    pairs = []
    for english in sorted((built_site / "en" / "_downloads").rglob("*.ipynb")):
        relative = english.relative_to(built_site / "en")
        pairs.append((english, built_site / lang / relative))
    for english in sorted((built_site / "lite" / "files" / "en").glob("*.ipynb")):
        pairs.append((english, built_site / "lite" / "files" / lang / english.name))
    assert len(pairs) >= 16
    assert [] == [str(t) for e, t in pairs if notebook_code(e) != notebook_code(t, lang)]


@pytest.mark.parametrize(
    ("lang", "page", "comment"),
    [
        ("zh_CN", "installation.html", "# 运行全部测试"),
        ("es", "installation.html", "# ejecuta todas las pruebas"),
        ("zh_CN", "tutorial/use_cases.html", "# 投影仪"),
        ("es", "tutorial/role_messages.html", "# Estilo 2: la instrucción viaja por separado."),
    ],
)
def test_comments_are_translated(built_site: Path, lang: str, page: str, comment: str) -> None:
    """The pages show their comments in the reader's language."""
    page_text = BeautifulSoup((built_site / lang / page).read_text("utf-8"), "html.parser")
    assert comment in page_text.get_text()


@pytest.mark.parametrize("lang", TRANSLATED)
def test_notebook_comments_are_translated(built_site: Path, lang: str) -> None:
    """A downloaded notebook's code comments are the page's."""
    expected = {"zh_CN": "# 投影仪", "es": "# proyector"}[lang]
    notebook = next((built_site / lang / "_downloads").rglob("use_cases.ipynb"))
    code = ["".join(c["source"]) for c in json.loads(notebook.read_text("utf-8"))["cells"]]
    assert any(expected in cell for cell in code)


def test_strip_comments_sees_a_changed_line() -> None:
    """The comparison catches a change to code beside a comment (meta-test)."""
    assert strip_comments("x = 1  # one", "python") == strip_comments("x = 1  # 一", "python")
    assert strip_comments("x = 1  # one", "python") != strip_comments("x = 2  # one", "python")
    assert strip_comments("make test  # run", "bash") == "make test"
