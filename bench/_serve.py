"""What the sections that open the built site in Chromium share: the browser, its flags
(no network but this machine), a local web server and the pages' request handler."""

from __future__ import annotations

import functools
import http.server
import json
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = [
    "CHROMIUM",
    "CHROMIUM_FLAGS",
    "OFFLINE_FLAGS",
    "local_routes",
    "offline_chromium",
    "served",
]

CHROMIUM = "/usr/bin/chromium"
#: How the bench and the browser tests (``tests/helpers/_browser.py``) start Chromium.
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: Chromium resolves no host name but 127.0.0.1: a request that escaped the route fails.
OFFLINE_FLAGS = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]


def offline_chromium(playwright: Any) -> Any:
    """Debian's Chromium, started by *playwright*, resolving no host but 127.0.0.1."""
    return playwright.chromium.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_FLAGS, *OFFLINE_FLAGS]
    )


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


class _Server(http.server.ThreadingHTTPServer):
    """Takes a request the browser cancelled (a closed connection) as no error."""

    def handle_error(self, request: object, client_address: object) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)  # type: ignore[arg-type]


@contextmanager
def served(
    site: Path, handler: type[http.server.SimpleHTTPRequestHandler] = _Quiet, path: str = "/"
) -> Iterator[str]:
    """``http://127.0.0.1:<port><path>``, *handler* serving *site* for as long as the block
    runs (the browser tests' handler serves it under the site's path)."""
    server = _Server(("127.0.0.1", 0), functools.partial(handler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{path}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def local_routes(
    base: str, outside: list[str], pages: Mapping[str, str] | None = None
) -> Callable[[Any], None]:
    """A playwright route handler for the site served at *base*: a request elsewhere is
    refused and its URL added to *outside*; a path below *base* that *pages* names is
    answered with that HTML; JupyterLite's settings are told to expose its app object,
    so that a section can read the kernel's state."""
    pages = pages or {}

    def handle(route: Any) -> None:
        url = route.request.url.split("?")[0]
        if not url.startswith(base):
            outside.append(url)
            route.abort()
        elif url[len(base) :] in pages:
            route.fulfill(body=pages[url[len(base) :]], content_type="text/html")
        elif url == f"{base}lite/jupyter-lite.json":
            response = route.fetch()
            settings = response.json()
            settings["jupyter-config-data"]["exposeAppInBrowser"] = True
            route.fulfill(response=response, body=json.dumps(settings))
        else:
            route.continue_()

    return handle
