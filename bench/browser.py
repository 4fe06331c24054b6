"""Headless Chromium driven over the Chrome DevTools Protocol, with the standard library only.

Chromium started with `--remote-debugging-pipe` reads protocol commands from its file descriptor 3
and writes replies and events to descriptor 4, each message JSON ended by a NUL byte (Chromium's
`content/browser/devtools/devtools_pipe_handler.cc`). A pipe needs no TCP port on a shared machine,
no websocket library and no Node.js (playwright-core would bring both, and a second copy of what
the CDP already gives: a page, mouse events and script evaluation).

    with Browser() as browser:
        page = browser.open(Path("report.html"))
        page.evaluate("document.title")
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any

# What tests/test_html.py passes too: no sandbox (root in a container), nothing fetched from the network.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


def chromium_path() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if found := shutil.which(name):
            return found
    raise SystemExit("bench: no chromium on PATH (Debian: apt-get install chromium)")


class BrowserError(RuntimeError):
    pass


class Browser:
    """One Chromium process with a fresh profile; `open` gives a page session."""

    def __init__(self, width: int = 1280, height: int = 900, timeout: float = 120.0) -> None:
        self.timeout = timeout
        self._profile = tempfile.TemporaryDirectory(prefix="hostlint-chromium-")
        to_browser_read, to_browser_write = os.pipe()
        from_browser_read, from_browser_write = os.pipe()

        def descriptors() -> None:
            # In the child: the protocol's descriptors 3 (commands in) and 4 (replies out). Copied out of
            # the way first: the pipes themselves may be 3 or 4, and dup2 onto itself keeps close-on-exec.
            commands, replies = os.dup(to_browser_read), os.dup(from_browser_write)
            os.dup2(commands, 3)
            os.dup2(replies, 4)

        command = [
            chromium_path(),
            *FLAGS,
            f"--user-data-dir={self._profile.name}",
            f"--window-size={width},{height}",
            "--remote-debugging-pipe",
            "about:blank",
        ]
        self._process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            # The descriptors 3 and 4 are made in preexec_fn, which runs before close_fds would close them;
            # Python's own descriptors are not inheritable, so nothing else leaks into the browser.
            close_fds=False,
            preexec_fn=descriptors,  # only dup2; this process starts no threads
        )
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._out = os.fdopen(to_browser_write, "wb", buffering=0)
        self._in = os.fdopen(from_browser_read, "rb", buffering=0)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []

    def __enter__(self) -> Browser:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        with contextlib.suppress(BrowserError, OSError):
            self.send("Browser.close")
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._out.close()
        self._in.close()
        self._profile.cleanup()

    def _read_message(self) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise BrowserError("no reply from chromium in time")
            chunk = self._in.read(1 << 16)
            if not chunk:
                raise BrowserError(f"chromium closed the pipe (exit {self._process.poll()})")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        decoded: dict[str, Any] = json.loads(message)
        return decoded

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> dict[str, Any]:
        """Send one command and wait for its reply; events that arrive meanwhile are kept in `events`."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self._out.write(json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read_message()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result
            self.events.append(reply)

    def wait_event(self, method: str, session: str | None = None) -> dict[str, Any]:
        while True:
            for n, event in enumerate(self.events):
                if event.get("method") == method and (session is None or event.get("sessionId") == session):
                    return self.events.pop(n)
            self.events.append(self._read_message())

    def open(self, page: Path) -> Page:
        targets = self.send("Target.getTargets")["targetInfos"]
        target = next(t["targetId"] for t in targets if t["type"] == "page")
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.send("Page.enable", session=session)
        self.send("Runtime.enable", session=session)
        self.send("Page.navigate", {"url": page.resolve().as_uri()}, session=session)
        self.wait_event("Page.loadEventFired", session)
        return Page(self, session)


class Page:
    def __init__(self, browser: Browser, session: str) -> None:
        self.browser = browser
        self.session = session

    def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.browser.send(method, params, self.session)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression (a promise is awaited)."""
        reply = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True})
        if "exceptionDetails" in reply:
            raise BrowserError(f"{expression[:60]}: {reply['exceptionDetails'].get('text')}")
        return reply["result"].get("value")

    def click(self, x: float, y: float) -> None:
        """A real left click at page coordinates (CSS pixels), as a mouse would."""
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def screenshot(self, path: Path, full_page: bool = False) -> None:
        import base64

        params: dict[str, Any] = {"format": "png"}
        if full_page:
            size = self.send("Page.getLayoutMetrics")["cssContentSize"]
            clip = {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}
            params |= {"captureBeyondViewport": True, "clip": clip}
        data = self.send("Page.captureScreenshot", params)["data"]
        path.write_bytes(base64.b64decode(data))
