"""``make release-fixtures``: write ``tests/fixtures/releases/<version>/``, what this
version saves of every tutorial's messages (see ``tests/helpers/releases.py``).

``python tools/write_release_fixtures.py [FOLDER]`` writes into FOLDER instead.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "helpers"))

from releases import write

if __name__ == "__main__":
    print(write(Path(sys.argv[1]) if len(sys.argv) > 1 else None))
