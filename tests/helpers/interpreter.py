"""Code run in a fresh Python interpreter: what ``import agentmsg`` loads is seen only
in a process that has not imported anything yet."""

from __future__ import annotations

import subprocess
import sys


def printed_by(code: str, *options: str) -> str:
    """What a fresh interpreter (this one's executable, with *options*) prints running
    *code*; an error in the code fails the test with its traceback."""
    done = subprocess.run(
        [sys.executable, *options, "-c", code], capture_output=True, text=True, check=True
    )
    return done.stdout
