"""The recorded corpus, loaded once: streams (``tests/fixtures/streams``) and response
bodies (``tests/fixtures/responses``) as the APIs sent them; each folder's README names
the sources and their licences. A stream file's first line is that attribution.

Replaying every recording in every test run would make ``make test-fast`` slow, so
:func:`corpus_params` marks all but one recording of each source ``corpus``: ``make
test-fast`` and the other Pythons leave those out, ``make test`` replays them all."""

from __future__ import annotations

import json
import pathlib
from collections.abc import Iterable
from typing import Any

import pytest

FIXTURES = pathlib.Path(__file__).parent.parent / "fixtures"
#: "api/name" -> the events of a recorded stream.
STREAMS: dict[str, list[dict[str, Any]]] = {
    f"{path.parent.name}/{path.stem}": [
        json.loads(line) for line in path.read_text().splitlines()[1:]
    ]
    for path in sorted((FIXTURES / "streams").glob("*/*.jsonl"))
}
#: "api/name" -> a recorded response body (with its source beside it).
BODIES: dict[str, Any] = {
    f"{path.parent.name}/{path.stem}": json.loads(path.read_text())
    for path in sorted((FIXTURES / "responses").glob("*/*.json"))
}


def corpus_params(keys: Iterable[str]) -> list[Any]:
    """*keys* of recordings as test parameters: the first of each API and source (the
    name up to its first '-') unmarked, the others marked ``corpus``."""
    seen: set[tuple[str, str]] = set()
    params = []
    for key in keys:
        api, name = key.split("/", 1)
        source = (api, name.split("-", 1)[0])
        marks = [pytest.mark.corpus] if source in seen else []
        seen.add(source)
        params.append(pytest.param(key, marks=marks, id=key))
    return params
