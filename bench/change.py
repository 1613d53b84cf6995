"""Section ``change``: agentmsg now against agentmsg at an earlier revision, side by side.

The earlier revision (``AGENTMSG_BENCH_BEFORE``, by default the commit before the
redesign of issue 18, :data:`DEFAULT_BEFORE`) is read from git and imported beside the
current package as ``agentmsg_before``; both are timed in this run, interleaved repeat by
repeat, on the work users do: the realistic messages (build, to_dict, from_dict, to_json,
from_json), the 20-message tool conversation written for each model API and the
unstreamed reply read back, and each API's streamed reply assembled (the synthetic one
and the recorded ones of the ``streams`` section). A row passes when the current package
takes at most :data:`SLOWER_LIMIT` times the earlier one's time (the median of the
per-repeat ratios). A recorded stream the earlier revision refuses is named, not timed.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from . import providers as provider_section
from . import streams as stream_section
from ._common import Options, Section, Table
from ._revision import load_revision, revision_table
from .messages import NAME
from .workloads import WORKLOADS

DEFAULT_BEFORE = "5f6b603"
"""The commit before issue 18's redesign (one block spec, one module per model API)."""
SLOWER_LIMIT = 1.05
"""Each row may take at most this many times what it took at the earlier revision."""


def _message_rows(now: Any, before: Any) -> dict[str, dict[str, Callable[[], object]]]:
    """The five operations on each realistic message, for both revisions."""
    rows: dict[str, dict[str, Callable[[], object]]] = {}
    for key, workload in WORKLOADS.items():
        for label, module in (("now", now), ("before", before)):
            cls = module.Msg
            message = cls(NAME, workload.blocks(), "assistant")
            data, text = message.to_dict(), message.to_json()
            operations: dict[str, Callable[[], object]] = {
                "build": lambda cls=cls, blocks=workload.blocks: cls(NAME, blocks(), "assistant"),
                "to_dict": message.to_dict,
                "from_dict": lambda cls=cls, data=data: cls.from_dict(data),
                "to_json": message.to_json,
                "from_json": lambda cls=cls, text=text: cls.from_json(text),
            }
            for operation, function in operations.items():
                rows.setdefault(f"{key}: {operation}", {})[label] = function
    return rows


def _provider_rows(now: Any, before: Any) -> dict[str, dict[str, Callable[[], object]]]:
    """Each API: the tool conversation written, its unstreamed reply read, its streamed
    reply assembled; the recorded streams assembled."""
    from agentmsg.providers import FORMATS

    # Each format by its public names (the registry is newer than some revisions).
    stream_names = {key: api.stream.__name__ for key, api in FORMATS.items()}
    rows: dict[str, dict[str, Callable[[], object]]] = {}
    for label, module in (("now", now), ("before", before)):
        messages = provider_section.block_messages(module.Msg)
        for key in FORMATS:
            write, read = getattr(module, f"to_{key}"), getattr(module, f"from_{key}")
            stream_class = getattr(module, stream_names[key])
            events, response, _ = stream_section.REPLIES[key]()
            rows.setdefault(f"{key}: write the conversation", {})[label] = (
                lambda write=write, messages=messages: write(messages)
            )
            rows.setdefault(f"{key}: read the reply", {})[label] = (
                lambda read=read, response=response: read(response)
            )
            rows.setdefault(f"{key}: assemble the streamed reply", {})[label] = _assembler(
                stream_class, events
            )
        for title, key, events in stream_section.recorded_streams():
            stream_class = getattr(module, stream_names[key])
            rows.setdefault(f"recorded: {title}", {})[label] = _assembler(stream_class, events)
    return rows


def _assembler(stream_class: Any, events: list[dict[str, Any]]) -> Callable[[], object]:
    def assemble() -> object:
        stream = stream_class()
        stream.extend(events)
        return stream.result()

    return assemble


def run(options: Options) -> list[Table]:
    import agentmsg

    commit = os.environ.get("AGENTMSG_BENCH_BEFORE") or DEFAULT_BEFORE
    before = load_revision(commit, "agentmsg_before")
    pairs = {**_message_rows(agentmsg, before), **_provider_rows(agentmsg, before)}
    notes = [
        f"The earlier revision: src/agentmsg at {commit} (AGENTMSG_BENCH_BEFORE), read from "
        "git and imported beside the current package; the two timed in this run, "
        "interleaved repeat by repeat.",
        f"Target: every row at most {SLOWER_LIMIT:g}x the earlier revision's time.",
    ]
    checked = {label: f"{label}: now / at {commit[:7]}" for label in pairs}
    return [
        revision_table(
            "change",
            commit,
            pairs,
            options,
            limit=SLOWER_LIMIT,
            checked=checked,
            parameters={"before": commit},
            notes=notes,
        )
    ]


SECTION = Section(
    name="change",
    description=(
        "agentmsg now against an earlier revision (AGENTMSG_BENCH_BEFORE, default the "
        "commit before issue 18): messages, model API conversions and streams"
    ),
    run=run,
)
