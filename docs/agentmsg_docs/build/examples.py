"""The examples pass: sphinx-gallery runs the tutorial scripts once, into ``docs/tutorial/``.

sphinx-gallery executes ``docs/examples/*.py`` and writes ``docs/tutorial/``: a page per
script with the output each cell printed or displayed, and its ``.py``, ``.ipynb`` and
``.zip`` downloads. Its md5 cache re-executes only the scripts that changed; a change in
what every script depends on (the package, ``conf.py``, the gallery hooks, the installed
distributions) re-runs them all (:func:`agentmsg_docs.gallery.tutorials.inputs_digest`).
Every language build then reuses these results and executes nothing.

The pass runs in a child process, ``python -m agentmsg_docs.build.examples``: a Sphinx application
with the dummy builder whose start-up runs sphinx-gallery; nothing is read or written
beyond that, so it costs the scripts' run time and Sphinx's start. A script that raises
fails the pass, and sphinx-gallery's traceback names the script and the line.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, cast

from agentmsg_docs.build import BUILD, DOCS, BuildError, child_env, shown

__all__ = ["examples_current", "run_examples"]


def examples_current() -> bool:
    """Whether ``docs/tutorial/`` is what the examples make from today's inputs (the
    inputs stamp and sphinx-gallery's md5 of each script,
    :mod:`agentmsg_docs.gallery.tutorials`)."""
    from agentmsg_docs.gallery.tutorials import examples_current as current

    return current(DOCS)


def run_examples(meanwhile: Callable[[], None] = lambda: None) -> bool:
    """Run the examples pass unless ``docs/tutorial/`` is current; return whether it ran.

    When it runs, *meanwhile* is called while the scripts run. A failing script raises
    :class:`~agentmsg_docs.build.BuildError` once *meanwhile* has returned.
    """
    if examples_current():
        print("== examples: up to date (docs/tutorial/ is current)", flush=True)
        return False
    started = time.monotonic()
    child = subprocess.Popen(
        [sys.executable, "-m", "agentmsg_docs.build.examples"],
        cwd=DOCS.parent,
        env=child_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        encoding="utf-8",
        errors="backslashreplace",
    )
    try:
        meanwhile()
    finally:
        assert child.stdout is not None  # for mypy: stdout=PIPE above
        for line in child.stdout:
            print(line, end="", flush=True)
        code = child.wait()
    if code != 0:
        msg = "the examples failed (the traceback above names the script and the line)"
        raise BuildError(msg)
    print(f"== examples: done in {time.monotonic() - started:.1f}s", flush=True)
    return True


class _Counting:
    """A text stream that passes writes on and counts them (Sphinx's warning stream)."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream, self.count = stream, 0

    def write(self, text: str) -> int:
        self.count += bool(text.strip())
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()


def _execute() -> int:
    """What the child does: start Sphinx, whose start-up runs sphinx-gallery."""
    from sphinx.application import Sphinx
    from sphinx.util.console import nocolor
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    from agentmsg_docs.gallery.tutorials import (
        GALLERY_DIR,
        INPUTS_STAMP,
        example_scripts,
        inputs_digest,
        stale_examples,
    )

    nocolor()
    stamp = DOCS / GALLERY_DIR / INPUTS_STAMP
    inputs_unchanged = stamp.is_file() and stamp.read_text() == inputs_digest(DOCS)
    scripts = stale_examples(DOCS) if inputs_unchanged else example_scripts(DOCS)
    names = ", ".join(path.name for path in scripts) or "none"
    print(f"== examples: executing {len(scripts)} of {len(example_scripts(DOCS))}: {names}")
    warnings = _Counting(sys.stderr)
    with patch_docutils(DOCS), docutils_namespace():
        app = Sphinx(
            srcdir=DOCS,
            confdir=DOCS,
            outdir=BUILD / "examples",
            doctreedir=BUILD / "doctrees" / "_examples",
            buildername="dummy",
            confoverrides={"language": "en"},
            warning=cast(IO[str], warnings),
            freshenv=True,
        )
    failing: dict[str, Any] = app.config.sphinx_gallery_conf["failing_examples"]
    for script, traceback in sorted(failing.items()):
        print(f"\nExample {shown(Path(script))} failed:\n{traceback}", file=sys.stderr)
    return 1 if failing or warnings.count else 0


if __name__ == "__main__":
    sys.exit(_execute())
