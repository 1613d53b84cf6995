"""Speed-ups for Sphinx and its libraries: each one spares work whose result is thrown away.

A translated build parses every translated paragraph on its own (about 1,100 per
language), and what that parse sets up around it costs more than the parse itself. Each
patch below names the upstream function whose behaviour it works around, checks that the
internals it needs are there and steps aside when they are not, so a new release of a
library gives a slower build, never a broken or different one. None of them changes a
byte of the output: ``tests/docs_tooling/test_build.py`` builds the translated languages with and
without them and compares every file. Each one stays because it spares at least 5 % of a
language's build; ``make bench BENCH_ARGS="--only patches"`` measures each by leaving it
out. No upstream tracker has an issue for any of them (searched: Sphinx, myst-parser,
docutils).

``AGENTMSG_DOCS_UNPATCHED=1`` in the environment turns them all off. The extension is
listed in ``docs/conf.py``, so plain ``sphinx-build`` gets the same speed as ``make html``.
"""

from __future__ import annotations

import copy
import gc
import logging as std_logging
import os
import types
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sphinx.util import logging

if TYPE_CHECKING:
    from sphinx.application import Sphinx

__all__ = ["PATCHES", "UNPATCHED", "apply_patches"]

UNPATCHED = "AGENTMSG_DOCS_UNPATCHED"
"""Set to ``1``, this extension patches nothing; set to patch names separated by commas
(``_fewer_collections,_myst_parser_kept``), it leaves those out (to measure each)."""


def _left_out(name: str) -> bool:
    value = os.environ.get(UNPATCHED, "")
    return value == "1" or name in value.split(",")


logger = logging.getLogger(__name__)


def _fewer_collections() -> bool:
    """CPython ``gc``, its default thresholds: a collection every 700 allocations, in a
    build that allocates millions of small, long-lived nodes. Objects that exist now are frozen
    (never scanned again) and collections run 70 times less often."""
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    return True


def _myst_default_settings_once() -> bool:
    """myst-parser ``mdit_to_docutils/base.py``, ``make_document()``: evaluated as a
    ``dict.get`` default on every render, it parses docutils' default settings with
    optparse. The defaults are parsed once per parser class and deep-copied."""
    try:
        from docutils.frontend import get_default_settings
        from docutils.utils import new_document
        from myst_parser.mdit_to_docutils import base
    except ImportError:
        return False
    if not callable(getattr(base, "make_document", None)) or not hasattr(base, "RSTParser"):
        return False
    defaults: dict[type, Any] = {}

    def make_document(source_path: str = "notset", parser_cls: type = base.RSTParser) -> Any:
        if parser_cls not in defaults:
            defaults[parser_cls] = get_default_settings(parser_cls)
        return new_document(source_path, settings=copy.deepcopy(defaults[parser_cls]))

    base.make_document = make_document
    return True


def _myst_parser_kept() -> bool:
    """myst-parser ``parsers/sphinx_.py``, ``MystParser.parse``: builds a new markdown-it
    parser with all its plugins for every parse. One is kept per configuration and
    renderer; a parse inside a parse gets a fresh one."""
    try:
        from myst_parser.parsers import sphinx_ as myst_sphinx
    except ImportError:
        return False
    create_md_parser = getattr(myst_sphinx, "create_md_parser", None)
    parse = getattr(getattr(myst_sphinx, "MystParser", None), "parse", None)
    if create_md_parser is None or parse is None:
        return False
    kept: dict[tuple[int, Any], tuple[Any, Any]] = {}
    depth = [0]

    def cached_md_parser(config: Any, renderer: Any) -> Any:
        if depth[0] > 1:
            return create_md_parser(config, renderer)
        found = kept.get((id(config), renderer))
        if found is None or found[0] is not config:
            found = kept[(id(config), renderer)] = (config, create_md_parser(config, renderer))
        return found[1]

    def counted_parse(self: Any, inputstring: str, document: Any) -> None:
        depth[0] += 1
        try:
            parse(self, inputstring, document)
        finally:
            depth[0] -= 1

    setattr(myst_sphinx, "create_md_parser", cached_md_parser)  # noqa: B010  # not exported
    myst_sphinx.MystParser.parse = counted_parse  # type: ignore[method-assign]
    return True


def _pooled_state_machines() -> bool:
    """Sphinx ``parsers.py``, ``RSTParser.parse``: a new docutils state machine for every
    translated paragraph, with some fifteen states that each build their transition
    tables, a third of the parse. The machines of the parses that
    ``sphinx.transforms.i18n.publish_msgstr`` throws away (their source ends with
    ``:<translated>``) are pooled and reused, as docutils pools its nested machines
    (``RSTState.nested_sm_cache``); a page's own machine is never reused, since its
    reporter keeps asking it for source lines, and one whose run raised is dropped."""
    from docutils.parsers.rst import states
    from sphinx import parsers as sphinx_parsers

    parse = getattr(getattr(sphinx_parsers, "RSTParser", None), "parse", None)
    uses_docutils_states = getattr(sphinx_parsers, "states", None) is states
    if parse is None or not uses_docutils_states:
        return False
    idle: dict[tuple[Any, ...], list[Any]] = {}

    def machine(state_classes: Any, initial_state: str, debug: bool = False) -> Any:
        key = (tuple(state_classes), initial_state, debug)
        pool = idle.get(key)
        if pool:
            return pool.pop()
        made = states.RSTStateMachine(state_classes, initial_state, debug=debug)
        made.agentmsg_key = key
        return made

    def pooled_parse(self: Any, inputstring: Any, document: Any) -> None:
        parse(self, inputstring, document)
        used = getattr(self, "statemachine", None)
        key = getattr(used, "agentmsg_key", None)  # None: not made by machine() above
        if key is not None and str(document.get("source", "")).endswith(":<translated>"):
            idle.setdefault(key, []).append(used)

    # sphinx.parsers reaches the class through its module global ``states``: only that
    # name is redirected, docutils itself is untouched.
    sphinx_parsers.states = types.SimpleNamespace(RSTStateMachine=machine)  # type: ignore[attr-defined]
    sphinx_parsers.RSTParser.parse = pooled_parse  # type: ignore[method-assign]
    return True


PATCHES: tuple[Callable[[], bool], ...] = (
    _fewer_collections,
    _myst_default_settings_once,
    _myst_parser_kept,
    _pooled_state_machines,
)
"""The speed-ups applied when the extension is set up, in order."""

_applied: dict[str, bool] = {}


def apply_patches() -> dict[str, bool]:
    """Apply every patch once per process; return which applied (by function name).

    The patches :data:`UNPATCHED` names are left out.
    """
    if not _applied:
        for patch in PATCHES:
            if not _left_out(patch.__name__):
                _applied[patch.__name__] = patch()
    return dict(_applied)


def _load_jieba_early(app: Sphinx) -> None:
    """Only the Chinese build indexes with jieba: the others need not import it. Its
    dictionary is loaded now rather than at the first word to index, so that it loads
    while ``python -m agentmsg_docs`` still runs the examples (no patch: a call of its
    public API, earlier)."""
    if app.config.html_search_language != "zh" or _left_out("_load_jieba_early"):
        return
    try:
        import jieba
    except ImportError:
        return  # the Chinese build reports a missing jieba itself
    jieba.setLogLevel(std_logging.WARNING)
    jieba.initialize()


def _report(applied: dict[str, bool]) -> None:
    skipped = sorted(name for name, done in applied.items() if not done)
    if skipped:
        logger.info("agentmsg_docs.patches: library internals changed, not patched: %s", skipped)


def register(app: Sphinx) -> None:
    _report(apply_patches())
    app.connect("builder-inited", _load_jieba_early)
