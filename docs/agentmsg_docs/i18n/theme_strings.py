"""Translate the texts the site's scripts show from agentmsg's own ``sphinx.po``.

- Sphinx's search page takes its texts ("Search finished, found 3 pages...") from
  ``_static/translations.js``, which Sphinx writes from its own catalog for the language.
  Some of those entries are empty or missing (Spanish has no search summary at all).
- sphinx-copybutton's script carries its messages ("Copy", "Copied!") for a few
  languages, picked by ``<html lang>``; its Chinese ones use Western punctuation.

After a translated build, this extension lays the entries of
``locales/<lang>/LC_MESSAGES/sphinx.po`` over both files, so the scripts speak the page's
language as the templates do. The HTML templates' strings need nothing of this: Sphinx
already prefers ``locale_dirs`` catalogs to its own.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

from agentmsg_docs.i18n.po import translations

_PREFIX = "Documentation.addTranslations("
# The search summary is a plural entry in translations.js, keyed by its singular form.
# Templates cannot declare plural messages for extraction, so the catalog holds the two
# forms as two plain entries, and the plural entry is assembled from them here.
_ONE = "Search finished, found one page matching the search query."
_MANY = "Search finished, found ${resultCount} pages matching the search query."
_SOME = "Search finished, found ${resultCount} page(s) matching the search query."


def merged_translations(js_text: str, po_path: Path) -> str:
    """*js_text* (a ``translations.js``) with the non-empty entries of *po_path* laid over it."""
    start, end = js_text.index(_PREFIX) + len(_PREFIX), js_text.rindex(");")
    catalog: dict[str, Any] = json.loads(js_text[start:end])
    messages: dict[str, Any] = catalog["messages"]
    ours = translations(po_path)
    # Matched with white space folded: Sphinx's entries from its templates keep their
    # line breaks ("...the search\n    functionality.").
    keys = {" ".join(msgid.split()): msgid for msgid in messages}
    for msgid, msgstr in ours.items():
        key = keys.get(" ".join(msgid.split()))
        if key is not None and msgid not in (_ONE, _MANY):
            messages[key] = msgstr
    if _ONE in ours and _MANY in ours:
        # As many forms as Sphinx's entry has (one when the language has no plural, as
        # Chinese); form 0 is the one for n == 1 wherever there are several.
        known = messages.get(_ONE)
        if isinstance(known, list):
            count = len(known)
        else:
            count = 1 if catalog.get("plural_expr", "0").strip() == "0" else 2
        messages[_ONE] = [ours[_ONE]] + [ours[_MANY]] * (count - 1) if count > 1 else [ours[_MANY]]
        if count == 1 and _SOME in messages:
            messages[_SOME] = ours[_MANY]  # older scripts' key; one wording in both places
    text = json.dumps(catalog, ensure_ascii=False, indent=4, sort_keys=True)
    return f"{_PREFIX}{text});\n"


#: sphinx-copybutton's message keys, by the English text each holds.
COPYBUTTON_MESSAGES = {
    "copy": "Copy",
    "copy_to_clipboard": "Copy to clipboard",
    "copy_success": "Copied!",
    "copy_failure": "Failed to copy",
}


def copybutton_messages(js_text: str, tag: str, po_path: Path) -> str:
    """*js_text* (sphinx-copybutton's script) with the messages for ``<html lang>`` *tag*
    taken from *po_path*: its entry replaced, or added when the script has none."""
    ours = translations(po_path)
    messages = {key: ours.get(english, english) for key, english in COPYBUTTON_MESSAGES.items()}
    body = "".join(
        f"    {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},\n"
        for key, value in messages.items()
    )
    entry = f"  {json.dumps(tag)}: {{\n{body}  }},\n"
    start = js_text.index("const messages = {") + len("const messages = {\n")
    existing = re.compile(rf"^  ['\"]{re.escape(tag)}['\"]\s*:\s*\{{.*?^  \}},?\n", re.M | re.S)
    if existing.search(js_text, start):
        return existing.sub(lambda _: entry, js_text, count=1)
    return js_text[:start] + entry + js_text[start:]


def _build_finished(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html" or app.config.language == "en":
        return
    po_path = Path(app.confdir, "..", "locales", app.config.language, "LC_MESSAGES", "sphinx.po")
    if not po_path.is_file():
        return
    js_path = Path(app.outdir, "_static", "translations.js")
    if js_path.is_file():
        js_path.write_text(
            merged_translations(js_path.read_text(encoding="utf-8"), po_path), encoding="utf-8"
        )
    copybutton = Path(app.outdir, "_static", "copybutton.js")
    if copybutton.is_file():
        tag = app.config.language.replace("_", "-")
        text = copybutton_messages(copybutton.read_text(encoding="utf-8"), tag, po_path)
        copybutton.write_text(text, encoding="utf-8")


def register(app: Sphinx) -> None:
    app.connect("build-finished", _build_finished)
