"""sphinx-gallery, adapted to a site built in several languages from one run of the examples.

What this extension adds to sphinx-gallery (configured in ``docs/conf.py``):

- :class:`TutorialOrder` and :func:`reset_deterministic`: the tutorial order, and a fresh
  :func:`agentmsg.deterministic` block per example (seeded with the script's name), so
  ids and timestamps in the rendered output never change between builds.
- The *examples pass* and *reuse mode* (``-D agentmsg_gallery_reuse=1``). The build
  (``python -m agentmsg_docs``) executes the examples once (sphinx-gallery's normal
  generation, re-run in full when the agentmsg package changed since the last run). Every
  language build then runs in reuse mode: it checks that ``docs/tutorial/`` is current for
  every script (sphinx-gallery's md5 cache) and does not run sphinx-gallery's generation at
  all, so it executes nothing and writes nothing into the shared folder; the builds can
  therefore run concurrently. ``python -m agentmsg_docs`` starts them while the examples
  still run: with :data:`WAIT_FOR_EXAMPLES` set, a build waits for a line on its standard
  input before that check.
- Accessible gallery cards: sphinx-gallery hides a card's link text (axe-core
  ``link-name``) and repeats the title in raw HTML that gettext cannot translate. Each card
  becomes one real link whose text is the tutorial's title (translated like any page
  title); ``_static/agentmsg.css`` shows that text under the thumbnail.

The downloads (``.py``, ``.ipynb``, ``.zip``) each language links to are written by
``agentmsg_docs.gallery.downloads``.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.errors import ExtensionError
from sphinx.transforms import SphinxTransform
from sphinx.util import logging

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

__all__ = [
    "TUTORIALS",
    "TUTORIAL_ORDER",
    "WAIT_FOR_EXAMPLES",
    "TutorialOrder",
    "example_scripts",
    "reset_deterministic",
]

logger = logging.getLogger(__name__)

#: The tutorials, in gallery order, each with the one line its gallery card shows under
#: its title (translated like any paragraph: the card's text goes through gettext).
#: Scripts not listed come after, by name, without a line.
TUTORIALS: dict[str, str] = {
    "create_message": "Build a message from text and typed blocks, then read it back.",
    "role_messages": "Write a chat as human, system, AI and function messages, with tokens.",
    "multimodal": "Put images, sound and video into a message, from files, bytes or URLs.",
    "tools": "Answer a model's tool calls with results whose ids match them.",
    "saving_loading": "Save messages as JSON, load them safely, check them with a schema.",
    "use_cases": "Follow one help-desk story through reports, hand-offs and lessons.",
    "model_apis": "Send one conversation to four model APIs and see what each one drops.",
    "streaming": "Show a streamed reply as it arrives, and get what the whole reply gives.",
    "migration": "Run code written for AgentScope 1.x or ERNIE Bot Agent, and see what differs.",
}
TUTORIAL_ORDER = tuple(TUTORIALS)
"""The order of the tutorials in the gallery."""
#: Each tutorial's thumbnail: an SVG drawn in the theme's colours (light and dark).
THUMBNAILS = Path(__file__).resolve().parents[2] / "_static" / "thumbs"
EXAMPLES_DIR = "examples"  # relative to docs/
GALLERY_DIR = "tutorial"  # relative to docs/
INPUTS_STAMP = ".agentmsg-inputs.md5"  # in docs/tutorial/: see inputs_digest()

# ----------------------------------------------------------------------------------------
# Order and determinism (referenced by name from conf.py, so the config stays picklable)


class TutorialOrder:
    """Sort key for ``within_subsection_order``: :data:`TUTORIAL_ORDER`, then by name."""

    def __init__(self, src_dir: str) -> None:
        self.src_dir = src_dir

    def __call__(self, filename: str) -> tuple[int, str]:
        stem = Path(filename).stem
        rank = TUTORIAL_ORDER.index(stem) if stem in TUTORIAL_ORDER else len(TUTORIAL_ORDER)
        return (rank, stem)

    def __repr__(self) -> str:  # sphinx-gallery hashes the config through repr()
        return f"<{type(self).__name__}: {', '.join(TUTORIAL_ORDER)}>"


_active: list[Any] = []


def reset_deterministic(gallery_conf: dict[str, Any], fname: str, when: str) -> None:
    """``reset_modules`` hook: run each example inside ``agentmsg.deterministic(<name>)``,
    with the chat cards' labels deferred (``agentmsg_docs.gallery.cards`` writes them in each
    build's language).

    Called with ``when="before"`` and ``"after"`` (``reset_modules_order="both"``).
    """
    while _active:  # leave the previous example's blocks, even if "after" never came
        _active.pop().__exit__(None, None, None)
    if when == "before":
        import agentmsg
        from agentmsg_docs.gallery.cards import deferred

        for block in (agentmsg.deterministic(seed=Path(fname).stem), deferred()):
            block.__enter__()
            _active.append(block)


# ----------------------------------------------------------------------------------------
# The examples pass and reuse mode


def example_scripts(srcdir: Path) -> list[Path]:
    """The gallery scripts, in tutorial order."""
    order = TutorialOrder("")
    return sorted((srcdir / EXAMPLES_DIR).glob("*.py"), key=lambda path: order(path.name))


def installed_distributions() -> list[str]:
    """The ``*.dist-info`` folder names on the import path (they carry the versions)."""
    names: set[str] = set()
    for entry in sys.path:
        folder = Path(entry or ".")
        if folder.is_dir() and folder.name in {"site-packages", "dist-packages"}:
            names.update(p for p in os.listdir(folder) if p.endswith((".dist-info", ".egg-info")))
    return sorted(names)


def inputs_digest(srcdir: Path) -> str:
    """An md5 over what every example's output depends on besides its own script: the
    agentmsg package's files (modules, the cards' style sheet and catalogs), ``conf.py``,
    this module (its hooks run around each script), the interpreter and the installed
    distributions.

    With sphinx-gallery's md5 of each script, it is the one cache over the executed
    examples: every script runs again when it changes, a changed script alone otherwise.
    """
    import agentmsg

    digest = hashlib.md5()
    digest.update("\0".join([sys.version, *installed_distributions()]).encode())
    root = Path(agentmsg.__file__).parent
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".mo":
            digest.update(f"{path.relative_to(root).as_posix()}\0".encode())
            digest.update(path.read_bytes())
    for path in (srcdir / "conf.py", Path(__file__)):  # this module runs around each script
        digest.update(path.read_bytes())
    return digest.hexdigest()


def examples_current(srcdir: Path) -> bool:
    """Whether ``docs/tutorial/`` holds every script's output from today's inputs."""
    stamp = srcdir / GALLERY_DIR / INPUTS_STAMP
    current = stamp.is_file() and stamp.read_text() == inputs_digest(srcdir)
    return current and not stale_examples(srcdir)


def stale_examples(srcdir: Path) -> list[Path]:
    """Scripts whose generated page in docs/tutorial/ is missing or out of date."""
    from sphinx_gallery.utils import get_md5sum

    stale = []
    for script in example_scripts(srcdir):
        target = srcdir / GALLERY_DIR / script.name
        md5_file = target.with_name(target.name + ".md5")
        current = (
            md5_file.is_file()
            and target.with_suffix(".rst").is_file()
            and md5_file.read_text() == get_md5sum(script, mode="t")
        )
        if not current:
            stale.append(script)
    return stale


def _config_inited(app: Sphinx, config: Config) -> None:
    from sphinx_gallery import gen_gallery

    srcdir = Path(app.srcdir)
    if config.agentmsg_gallery_reuse:
        # Drop sphinx-gallery's generation: this build executes and writes nothing there.
        for event, handler in (
            ("builder-inited", gen_gallery.generate_gallery_rst),
            ("build-finished", gen_gallery.summarize_failing_examples),
        ):
            for listener in list(app.events.listeners.get(event, [])):
                if listener.handler is handler:
                    app.disconnect(listener.id)
        app.connect("builder-inited", _check_reusable, priority=900)
    else:
        stamp = srcdir / GALLERY_DIR / INPUTS_STAMP
        if not stamp.is_file() or stamp.read_text() != inputs_digest(srcdir):
            config.sphinx_gallery_conf["run_stale_examples"] = True
        app.connect("builder-inited", _write_inputs_stamp, priority=900)


#: Set by ``python -m agentmsg_docs`` for a build it starts while the examples still run: the build
#: sets itself up, then waits for a line on its standard input before it reads anything,
#: and goes on when the line is ``go`` (otherwise it exits at once).
WAIT_FOR_EXAMPLES = "AGENTMSG_GALLERY_WAIT_FOR_EXAMPLES"


def _check_reusable(app: Sphinx) -> None:
    if os.environ.get(WAIT_FOR_EXAMPLES) and sys.stdin.readline().strip() != "go":
        raise SystemExit(2)  # the examples failed: stop here, quietly
    stale = stale_examples(Path(app.srcdir))
    if stale:
        names = ", ".join(path.name for path in stale)
        msg = (
            f"docs/{GALLERY_DIR}/ is missing or out of date for {names}: run the examples "
            "first (`python -m agentmsg_docs examples`, or `make html`, which does)."
        )
        raise ExtensionError(msg)
    count = len(example_scripts(Path(app.srcdir)))
    logger.info(
        "sphinx-gallery: executed 0 of %d examples (reusing the results in docs/%s/)",
        count,
        GALLERY_DIR,
    )


def _write_inputs_stamp(app: Sphinx) -> None:
    conf = app.config.sphinx_gallery_conf
    if not conf["failing_examples"]:
        srcdir = Path(app.srcdir)
        (srcdir / GALLERY_DIR / INPUTS_STAMP).write_text(inputs_digest(srcdir))


# ----------------------------------------------------------------------------------------
# Accessible, translatable gallery cards

_TOOLTIP = re.compile(r'\s+tooltip="[^"]*"')
_CARD_TITLE = re.compile(r'<div class="sphx-glr-thumbnail-title">.*?</div>', re.S)


_THUMB = re.compile(r"sphx_glr_(\w+?)_thumb\.\w+$")


class GalleryCards(SphinxTransform):
    """Make each gallery card one link named by the tutorial's title, with its own
    thumbnail and a one-line description.

    sphinx-gallery writes a card as raw HTML (``<div ... tooltip="intro">``), an image and
    a ``:doc:`` link whose text its CSS hides, then the title again in raw HTML. Here the
    tooltip (untranslatable English) and the raw title go; the ``:doc:`` link, whose text
    is the target page's (translated) title, is kept out of the catalogs; the placeholder
    image becomes the tutorial's SVG (``_static/thumbs/<name>.svg``, inline so that it
    takes the theme's colours); and the line of :data:`TUTORIALS` follows the link, as a
    translatable paragraph.
    """

    default_priority = 15  # before sphinx.transforms.i18n.Locale (20) and the gettext builder

    def apply(self, **kwargs: Any) -> None:
        for raw in list(self.document.findall(nodes.raw)):
            text = raw.astext()
            if 'class="sphx-glr-thumbcontainer"' in text:
                new = _TOOLTIP.sub("", text, count=1)
                card = raw.next_node(descend=False, siblings=True)
                if card is not None:
                    self._fill(card, raw.source or self.document["source"], raw.line or 1)
            elif "sphx-glr-thumbnail-title" in text:
                new = _CARD_TITLE.sub("", text).strip()
            else:
                continue
            raw.replace_self(nodes.raw(new, new, format="html"))

    @staticmethod
    def _fill(card: nodes.Node, source: str, line: int) -> None:
        for paragraph in card.findall(nodes.paragraph):
            paragraph["translatable"] = False
        for image in list(card.findall(nodes.image)):
            found = _THUMB.search(str(image.get("uri", "")))
            name = found.group(1) if found else ""
            svg = THUMBNAILS / f"{name}.svg"
            if svg.is_file():
                drawing = (
                    svg.read_text(encoding="utf-8")
                    .strip()
                    .replace(
                        "<svg ",
                        '<svg class="agentmsg-thumb" aria-hidden="true" focusable="false" ',
                        1,
                    )
                )
                image.replace_self(nodes.raw(drawing, drawing, format="html"))
            summary = TUTORIALS.get(name)
            links = list(card.findall(nodes.paragraph))
            if summary and links:
                link = links[-1]
                paragraph = nodes.paragraph(summary, summary, classes=["agentmsg-card-line"])
                # A source and line make it a message gettext extracts (Sphinx leaves
                # nodes without them, its own, untranslated).
                paragraph.source, paragraph.line = source, line
                link.parent.insert(link.parent.index(link) + 1, paragraph)


def register(app: Sphinx) -> None:
    app.add_config_value("agentmsg_gallery_reuse", False, "", types=frozenset({bool}))
    app.connect("config-inited", _config_inited, priority=800)
    app.add_transform(GalleryCards)
