"""One ``python -m sphinx`` per language, all at once, each into ``_build/html/<lang>/``.

Each build is a plain Sphinx command (:func:`sphinx_command`), the one a contributor can
run by hand after the examples pass; ``-D agentmsg_gallery_reuse=1`` makes it reuse
``docs/tutorial/`` without running sphinx-gallery's generation, so the builds only read
``docs/`` and can run side by side. Their output is copied to ours, each line prefixed
with the language, and into ``_build/logs/<lang>.log``.

Two measured choices (``make bench`` has the figures):

- A clean build starts the language builds while the examples still run (*gated*, see
  :class:`SphinxBuilds`): each sets itself up (imports, configuration, jieba's dictionary
  for Chinese) and then waits for a line on its standard input, which it gets once the
  examples are done (``docs/agentmsg_docs/gallery/tutorials.py``, ``WAIT_FOR_EXAMPLES``).
- On two cores, three builds would share them evenly and all end late; the heaviest
  (Chinese, whose search index is segmented with jieba) keeps full priority and the others
  yield to it, so that it does not end alone while the other core idles.
- While they wait for the examples, gated builds also yield to the examples pass
  (:data:`GATED_NICENESS`): the pass is what every build waits for, and their set-up
  would otherwise take half its core (a clean build's examples pass: 1.9 s instead of
  1.5 s). :meth:`SphinxBuilds.release` gives back the priority they had; an unprivileged
  user may not raise a priority again, and then they keep yielding to other work on the
  machine, not to each other.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from agentmsg_docs.build import BUILD, DOCS, child_env
from agentmsg_docs.gallery.tutorials import WAIT_FOR_EXAMPLES
from agentmsg_docs.i18n.languages import SOURCE, TRANSLATED

__all__ = ["LOGS", "SphinxBuilds", "run_sphinx_builds", "sphinx_command"]

LOGS = BUILD / "logs"
STRICT = ("-n", "-W", "--keep-going")
#: The builds, heaviest first; the others yield to those before them: a language whose
#: search index is segmented with jieba, then the translated ones, the source, gettext.
BY_WEIGHT = (
    *(language.code for language in TRANSLATED if language.search == "zh"),
    *(language.code for language in TRANSLATED if language.search != "zh"),
    SOURCE.code,
    "gettext",
)
#: How much lower a gated build's priority is (a ``nice`` increment) until it is released.
GATED_NICENESS = 5


def sphinx_command(builder: str, lang: str, outdir: Path, doctrees: Path) -> list[str]:
    """The arguments of ``python -m sphinx`` for one language (paths last)."""
    return [
        "-b",
        builder,
        *STRICT,
        "--no-color",
        "-D",
        f"language={lang}",
        "-D",
        "agentmsg_gallery_reuse=1",
        "-d",
        str(doctrees),
        str(DOCS),
        str(outdir),
    ]


def _weight(name: str) -> int:
    return BY_WEIGHT.index(name) if name in BY_WEIGHT else len(BY_WEIGHT)


def _niceness(rank: int) -> int:
    """How much a build yields to the heavier ones (a ``nice`` increment), by its rank."""
    return 2 * rank


def _renice(pid: int, niceness: int) -> None:
    """Set process *pid*'s nice value to ours plus *niceness*, where the system lets us
    (performance only: a build runs the same at any priority)."""
    if hasattr(os, "setpriority"):
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, pid, os.getpriority(os.PRIO_PROCESS, 0) + niceness)


class SphinxBuilds:
    """``python -m sphinx ARGS`` for every ``(name, ARGS)`` of *jobs*, started at once.

    With *gated*, each build waits after setting itself up until :meth:`release`.
    """

    def __init__(self, jobs: Sequence[tuple[str, list[str]]], *, gated: bool = False) -> None:
        LOGS.mkdir(parents=True, exist_ok=True)
        env = child_env()
        if gated:
            env[WAIT_FOR_EXAMPLES] = "1"
        self.names = [name for name, _ in jobs]
        self.started = time.monotonic()
        self.codes: dict[str, int] = {}
        self.timings: dict[str, float] = {}
        self._lock = threading.Lock()
        self._children: list[tuple[str, subprocess.Popen[str]]] = []
        for rank, (name, args) in enumerate(sorted(jobs, key=lambda job: _weight(job[0]))):
            child = subprocess.Popen(
                [sys.executable, "-m", "sphinx", *args],
                cwd=DOCS.parent,
                env=env,
                stdin=subprocess.PIPE if gated else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                encoding="utf-8",
                errors="backslashreplace",
            )
            _renice(child.pid, _niceness(rank) + (GATED_NICENESS if gated else 0))
            self._children.append((name, child))
        self._threads = [
            threading.Thread(target=self._follow, args=child) for child in self._children
        ]
        for thread in self._threads:
            thread.start()

    def _follow(self, name: str, child: subprocess.Popen[str]) -> None:
        assert child.stdout is not None  # for mypy: stdout=PIPE above
        with (LOGS / f"{name}.log").open("w", encoding="utf-8") as log:
            for line in child.stdout:
                log.write(line)
                with self._lock:
                    sys.stdout.write(f"[{name}] {line}")
                    sys.stdout.flush()
        self.codes[name] = child.wait()
        self.timings[name] = time.monotonic() - self.started

    def _tell(self, word: str) -> None:
        for _, child in self._children:
            if child.stdin is not None:
                with contextlib.suppress(BrokenPipeError):
                    child.stdin.write(f"{word}\n")
                    child.stdin.close()

    def release(self) -> None:
        """Let gated builds go on."""
        self.started = time.monotonic()
        for rank, (_, child) in enumerate(self._children):  # in the order they started
            _renice(child.pid, _niceness(rank))
        self._tell("go")

    def cancel(self) -> None:
        """Make gated builds exit where they wait (the examples failed), and wait for
        them. They exit rather than being killed, so that what they started (sphinx-sitemap's
        multiprocessing manager) stops with them."""
        self._tell("stop")
        self.wait(report=False)

    def wait(self, *, report: bool = True) -> dict[str, int]:
        """Wait for every build; return the exit codes by name."""
        for thread in self._threads:
            thread.join()
        if report:
            for name in self.names:
                print(f"== {name}: exit {self.codes[name]} after {self.timings[name]:.1f}s")
        return self.codes


def run_sphinx_builds(jobs: Sequence[tuple[str, list[str]]]) -> dict[str, int]:
    """Run every job's build at once and return the exit codes by name."""
    return SphinxBuilds(jobs).wait()
