"""``make test-record``: run the docs build's examples pass, then re-record
``tests/expected/`` from what each tutorial showed (see ``tests/helpers/_outputs.py``).

``python tools/record_outputs.py [TUTORIAL ...]`` re-records the named tutorials only;
with no name, every tutorial's file, and the files of tutorials that no longer exist are
removed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "helpers"))

# The helpers folder is put on the path first.
from _checkout import ROOT, docs_command, docs_env
from _outputs import record, tutorial_names


def main(argv: Sequence[str]) -> int:
    examples = subprocess.run(
        docs_command(sys.executable, "examples"), cwd=ROOT, env=docs_env(ROOT, dict(os.environ))
    )
    if examples.returncode != 0:
        return examples.returncode
    named = [Path(arg).stem for arg in argv]
    print(*record(named or tutorial_names(), prune=not named), sep="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
