"""What the in-browser runtime's tests share (``test_lite`` and ``test_runner``): Chromium
kept offline, the site served with JupyterLite's application exposed, and the comparison
of a notebook's outputs with ``tests/expected/``."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from bench._serve import OFFLINE_FLAGS

import agentmsg
from _browser import CHROMIUM_FLAGS, chromium, serve_site
from _outputs import EXPECTED, cards_in, cell_title, readable_html
from agentmsg_docs.i18n.languages import LANGUAGES
from agentmsg_docs.lite.build import LITE_DIR, tutorial_names

LANGS = [language.code for language in LANGUAGES]

TUTORIALS = tutorial_names()

#: Cells that print something else in the browser, on purpose, with the reason.
#: Keyed by tutorial and the cell's first line of code (its heading in tests/expected/).
BROWSER_OUTPUTS: dict[tuple[str, str], tuple[str, str]] = {
    ("saving_loading", "records = [message.to_dict() for message in conversation]"): (
        "valid records: 4\nwrong record passes: False",
        "jsonschema is not served (its compiled dependency rpds-py exists only on Pyodide's "
        "CDN), so the cell takes its documented fallback",
    ),
    # AgentScope and ERNIE Bot Agent cannot be installed in Pyodide: the cells that use
    # them say so and skip their examples, as the tutorial tells its readers.
    ("migration", "import agentmsg.compat.agentscope"): (
        "`agentmsg.compat.agentscope.install()` needs agentscope, which is not installed "
        "(`pip install agentscope`).",
        "the frameworks are not installable in Pyodide",
    ),
    ("migration", "import asyncio"): (
        "AgentScope is not installed here: this example is skipped.",
        "the frameworks are not installable in Pyodide",
    ),
    ("migration", "if frameworks:"): (
        "ERNIE Bot Agent is not installed here: this example is skipped.",
        "the frameworks are not installable in Pyodide",
    ),
}


@pytest.fixture(scope="module")
def site_url(built_site: Path) -> Iterator[str]:
    """``http://127.0.0.1:<port><SITE_PATH>``, serving the built site as test_browser does."""
    with serve_site(built_site) as url:
        yield url


@pytest.fixture(scope="module")
def lite_browser() -> Iterator[Any]:
    """Chromium for this module: no host name but 127.0.0.1 resolves, and Playwright
    routes the service worker's requests too (skipped locally when Chromium is missing)."""
    sync_playwright, executable = chromium()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS", "1")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=executable, args=[*CHROMIUM_FLAGS, *OFFLINE_FLAGS]
            )
            yield browser
            browser.close()


@dataclass
class Traffic:
    """What the browser asked for while one notebook ran."""

    outside: list[str]  #: refused: every URL that would have left 127.0.0.1
    inside: list[str]  #: served by the site


def _route(base: str, traffic: Traffic) -> Any:
    """A route handler: the site's requests go through (``jupyter-lite.json`` with
    ``exposeAppInBrowser`` on), every other one is refused and counted."""
    origin = base[: base.index("/", len("http://"))]
    config = f"{base}{LITE_DIR}/jupyter-lite.json"

    def handle(route: Any) -> None:
        url = route.request.url
        if not url.startswith(origin + "/"):
            traffic.outside.append(url)
            route.abort("internetdisconnected")
            return
        traffic.inside.append(url)
        if url.split("?")[0] == config:
            response = route.fetch()
            settings = response.json()
            settings["jupyter-config-data"]["exposeAppInBrowser"] = True
            route.fulfill(response=response, body=json.dumps(settings))
            return
        route.continue_()

    return handle


_ANSI = re.compile(r"\x1B(?:[@-Z\\-_]|\[[0-?]*[ -/]*[@-~])")


def _text(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def shown(cell: dict[str, Any]) -> tuple[str, str | None]:
    """The printed text (stdout and stderr, then the repr of the last value when it has
    no HTML) and the HTML of the last value, as ``tests/expected/`` records them."""
    text, html = "", None
    for output in cell["outputs"]:
        kind = output["output_type"]
        if kind == "stream":
            text += _text(output["text"])
        elif kind == "execute_result":
            data = output["data"]
            if "text/html" in data:
                html = _text(data["text/html"])
            else:
                text = f"{text}\n{_text(data.get('text/plain', ''))}"
        elif kind != "error":
            text += f"[{kind} output: {sorted(output.get('data', {}))}]\n"
    text = text.expandtabs()
    return ("" if text.isspace() else _ANSI.sub("", text)), html


def sections(cells: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """``(heading, body)`` of each cell that shows something, as in ``tests/expected/``."""
    found = []
    for cell in cells:
        text, html = shown(cell)
        if not text and html is None:
            continue
        lines = text.rstrip().splitlines() if text else []
        if html is not None:
            lines += ["[html]", *readable_html(html).splitlines()]
        found.append((cell_title(cell["source"]), "\n".join(lines)))
    return found


def recorded(name: str) -> list[tuple[str, str]]:
    """``(heading, body)`` of each cell in ``tests/expected/<name>.txt``."""
    text = (EXPECTED / f"{name}.txt").read_text(encoding="utf-8")
    parts = re.split(r"^## (.*)$", text, flags=re.M)[1:]
    return [
        (heading, body.strip("\n")) for heading, body in zip(parts[::2], parts[1::2], strict=True)
    ]


def expected_sections(name: str, lang: str) -> list[tuple[str, str]]:
    """What the browser should show of tutorial *name* in *lang*: :func:`recorded`, with
    the cells of :data:`BROWSER_OUTPUTS` as they print there and the cards in *lang*."""
    found = recorded(name)
    for key, (text, _reason) in BROWSER_OUTPUTS.items():
        if key[0] == name:
            found = [(h, text if h == key[1] else body) for h, body in found]
    return cards_in(lang, name, found)


_ID = r"[A-Za-z0-9_-]{22}"

_TIME = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}"


def seeded_values(name: str, count: int = 2000) -> tuple[set[str], set[str]]:
    """The ids and timestamps of the first *count* messages made in the docs build's
    ``agentmsg.deterministic(seed=name)`` block."""
    with agentmsg.deterministic(seed=name):
        made = [agentmsg.Msg("seed", "", "user") for _ in range(count)]
    return {msg.id for msg in made}, {msg.timestamp for msg in made}


class Matcher:
    """Matches recorded sections with the browser's, a seeded id or time standing for
    any id or time, the same one each time it recurs in the notebook."""

    def __init__(self, name: str) -> None:
        self.ids, self.times = seeded_values(name)
        self.seen: dict[str, str] = {}  # recorded value -> the browser's value

    def match(self, expected: str, actual: str) -> bool:
        pattern, groups = [], {}
        tokens = re.compile(rf"(?<![\w-])(?:{_ID})(?![\w-])|{_TIME}")
        position = 0
        for token in tokens.finditer(expected):
            pattern.append(re.escape(expected[position : token.start()]))
            value = token.group()
            if value in self.seen:  # as before, or as recorded (made by a seeded block)
                pattern.append(f"(?:{re.escape(self.seen[value])}|{re.escape(value)})")
            elif value in self.ids or value in self.times:
                if value in groups:
                    pattern.append(f"(?P={groups[value]})")
                else:
                    groups[value] = f"g{len(groups)}"
                    pattern.append(f"(?P<{groups[value]}>{_TIME if value in self.times else _ID})")
            else:
                pattern.append(re.escape(value))
            position = token.end()
        pattern.append(re.escape(expected[position:]))
        found = re.fullmatch("".join(pattern), actual)
        if found is None:
            return False
        self.seen.update({value: found.group(group) for value, group in groups.items()})
        return True
