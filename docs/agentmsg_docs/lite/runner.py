"""Run every code block of a tutorial on its page, in the page's language.

On each tutorial page this extension adds

- ``_static/runner/runner.css``, inlined in the head (so that the room the Run and Reset
  buttons take is there from the first paint, without one more request), and
  ``_static/runner/runner.js`` (deferred, about 3 KB compressed): it makes each code block
  editable and gives it the buttons;
- the runner's settings, rendered from ``_templates/agentmsg-runner.html``: the URL of the
  site's one Pyodide (``lite/static/pyodide/``, built by ``docs/agentmsg_docs/lite/build.py``, whose
  lock file lists agentmsg's wheel), the worker script, the tutorials' data files (served
  under ``lite/files/<lang>/``) and the runner's texts, through gettext like the theme's
  (``sphinx.po``).

Nothing else loads before the reader shows an intent to run (focus, pointer or click on a
block): then ``_static/runner/worker.js`` starts Pyodide in a Web Worker, installs
agentmsg from the lock file and calls ``agentmsg.set_display_language`` with the page's
language.

:func:`language_cells` gives the cells that follow a translated notebook's title cell and
set the display language the same way (``agentmsg_docs.gallery.downloads`` puts them in the
downloads, and so in ``lite/``).
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes

from agentmsg_docs.i18n.languages import SOURCE
from agentmsg_docs.lite.link import EXAMPLE_FOOTER_CLASS, FOOTER_CLASS, LITE_DIR

if TYPE_CHECKING:
    from sphinx.application import Sphinx

__all__ = [
    "CONTENTS_MANIFEST",
    "NOTEBOOK_NOTE",
    "NOTICE",
    "TEMPLATE",
    "add_freshness",
    "data_files",
    "language_cells",
    "runner_settings",
]

TEMPLATE = "agentmsg-runner.html"
STATIC = "runner"  # docs/_static/runner/
#: The Markdown line above the code that sets a translated notebook's language (in the
#: template too, so that ``make update-po`` extracts it into sphinx.po).
NOTEBOOK_NOTE = "Run the next cell to show the chat cards in this notebook's language."
DOCS = Path(__file__).resolve().parents[2]
EXAMPLES = DOCS / "examples"
LOCALES = DOCS.parent / "locales"
FRESH_SCRIPT = DOCS / "lite" / "fresh.js"
CONTENTS_MANIFEST = "agentmsg-contents.json"
"""In ``lite/``: the sha256 of each served notebook, and the stale-copy notice's texts."""
#: The notice ``fresh.js`` shows when it moved a stale saved copy aside (in the template
#: too, for ``make update-po``).
NOTICE = {
    "changed": (
        "This tutorial has changed since you saved your copy, so its new version is open. "
        "Your copy, with your edits, is kept as %s."
    ),
    "open": "Open your copy",
    "close": "Close",
}


def data_files(examples: Path = EXAMPLES) -> list[str]:
    """The files the tutorials read, relative to their folder (``media/icon.png``, ...):
    ``docs/agentmsg_docs/lite/build.py`` serves them beside each language's notebooks."""
    return sorted(
        path.relative_to(examples).as_posix()
        for folder in examples.iterdir()
        if folder.is_dir() and folder.name != "__pycache__"
        for path in folder.rglob("*")
        if path.is_file()
    )


def runner_settings(docname: str, lang: str) -> dict[str, Any]:
    """Where the runner of page *docname* in *lang* finds Pyodide and the data files.

    >>> runner_settings("tutorial/tools", "es")["pyodide"]
    '../../lite/static/pyodide/'
    """
    up = "../" * (docname.count("/") + 1)  # out of the page's folders and its language's
    return {
        "language": lang,
        "pyodide": f"{up}{LITE_DIR}/static/pyodide/",
        "files": [[name, f"{up}{LITE_DIR}/files/{lang}/{name}"] for name in data_files()],
    }


def language_cells(lang: str, note: str) -> list[tuple[str, str]]:
    """The cells a notebook in *lang* starts with, as ``(kind, source)``: none in the
    source language;
    else *note* (translated :data:`NOTEBOOK_NOTE`) and the code that sets the language.

    >>> language_cells("es", "Nota.")[1]
    ('code', 'import agentmsg\\n\\nagentmsg.set_display_language("es")')
    >>> language_cells("en", "Note.")
    []
    """
    if lang == SOURCE.code:
        return []
    return [
        ("markdown", note),
        ("code", f'import agentmsg\n\nagentmsg.set_display_language("{lang}")'),
    ]


def _translations(lang: str) -> dict[str, str]:
    import polib

    path = LOCALES / lang / "LC_MESSAGES" / "sphinx.po"
    if not path.is_file():
        return {}
    return {
        entry.msgid: entry.msgstr
        for entry in polib.pofile(str(path))
        if entry.msgstr and not entry.obsolete and "fuzzy" not in entry.flags
    }


def add_freshness(site: Path, contents: Path) -> None:
    """Make the JupyterLite in *site* (built from *contents*) show a changed tutorial
    instead of the reader's saved copy of its old version (see ``docs/lite/fresh.js``).

    Writes :data:`CONTENTS_MANIFEST`, copies ``fresh.js`` beside it and makes the notebook
    app's page wait for it before starting.

    Raises:
        LookupError: The notebook app's page no longer starts the way this expects.
    """
    files = {
        path.relative_to(contents).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(contents.rglob("*.ipynb"))
    }
    notices = {}
    for lang in sorted({"en", *(name.split("/")[0] for name in files)}):
        ours = _translations(lang) if lang != "en" else {}
        notices[lang] = {key: ours.get(text, text) for key, text in NOTICE.items()}
    manifest = {"files": files, "notices": notices}
    (site / CONTENTS_MANIFEST).write_text(
        json.dumps(manifest, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    shutil.copyfile(FRESH_SCRIPT, site / "agentmsg-fresh.js")
    page = site / "notebooks" / "index.html"
    html = page.read_text(encoding="utf-8")
    boot, config = "await import(", '<script id="jupyter-config-data"'
    if html.count(boot) != 1 or html.count(config) != 1:
        msg = f"{page} does not start JupyterLite with one `{boot}` after its settings"
        raise LookupError(msg)
    html = html.replace(config, '<script src="../agentmsg-fresh.js"></script>\n    ' + config)
    html = html.replace(boot, f"await window.agentmsgFresh;\n        {boot}")
    page.write_text(html, encoding="utf-8")


def _is_tutorial(doctree: nodes.document) -> bool:
    return any(
        FOOTER_CLASS in node["classes"] and EXAMPLE_FOOTER_CLASS in node["classes"]
        for node in doctree.findall(nodes.container)
    )


def _add_settings(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    if app.builder.format != "html" or not _is_tutorial(doctree):
        return
    settings = runner_settings(docname, app.config.language or "en")
    up = "../" * docname.count("/")
    settings["worker"] = f"{up}_static/{STATIC}/worker.js"
    html = app.builder.templates.render(TEMPLATE, settings)
    doctree.append(nodes.raw("", html, format="html"))


def _add_files(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    if doctree is None or not _is_tutorial(doctree):
        return
    # Inline in the head: one render-blocking request fewer than a linked style sheet.
    css = (DOCS / "_static" / STATIC / "runner.css").read_text(encoding="utf-8")
    context["metatags"] = f"{context.get('metatags', '')}\n<style>{css}</style>"
    app.add_js_file(f"{STATIC}/runner.js", defer="defer")


def register(app: Sphinx) -> None:
    app.connect("doctree-resolved", _add_settings)
    app.connect("html-page-context", _add_files)
