"""Loopback servers that answer one byte at a time, every `interval` seconds: no read ever times out, yet
the answer never ends. A deadline per read never fires on them; only a deadline per call does.

with DrippingPeer(tls=True) as peer:             # TLS handshake at once, then an endless HTTP header, dripped
    peer.port
with DrippingProxy(upstream_port, passed=2) as proxy:  # the first `passed` connections relayed as they come,
    proxy.port                                          # the later ones with the server's bytes dripped
"""

from __future__ import annotations

import contextlib
import socket
import ssl
import tempfile
import threading
from pathlib import Path

from hung_peer import self_signed

DRIP_S = 2.0
# An HTTP answer that never ends: the status line, then header lines for as long as anyone reads.
ENDLESS_ANSWER = b"HTTP/1.1 200 OK\r\n" + b"X-Drip: " + b"a" * 100_000


class _Loop:
    """Accepts on 127.0.0.1 in a thread; `serve(conn, index)` runs in a thread of its own per connection."""

    def __init__(self) -> None:
        self.accepted = 0
        self._stop = threading.Event()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.2)
        self.port = self._listener.getsockname()[1]
        self._threads: list[threading.Thread] = []
        self._sockets: list[socket.socket] = []
        self._thread = threading.Thread(target=self._accept, daemon=True)

    def serve(self, conn: socket.socket, index: int) -> None:
        raise NotImplementedError

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                continue
            self.accepted += 1
            self._sockets.append(conn)
            thread = threading.Thread(target=self._guarded, args=(conn, self.accepted), daemon=True)
            self._threads.append(thread)
            thread.start()

    def _guarded(self, conn: socket.socket, index: int) -> None:
        with contextlib.suppress(OSError):
            self.serve(conn, index)

    def drip(self, conn: socket.socket | ssl.SSLSocket, data: bytes, interval: float) -> None:
        for offset in range(len(data)):
            if self._stop.wait(interval):
                return
            conn.sendall(data[offset : offset + 1])

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._stop.set()
        self._thread.join(5)
        for conn in self._sockets:
            with contextlib.suppress(OSError):
                conn.close()
        for thread in self._threads:
            thread.join(5)
        self._listener.close()


class DrippingPeer(_Loop):
    """Takes each connection (with a completed TLS handshake when `tls`) and drips `answer` (an endless HTTP one)."""

    def __init__(self, tls: bool = False, interval: float = DRIP_S, answer: bytes = ENDLESS_ANSWER) -> None:
        super().__init__()
        self.interval = interval
        self.answer = answer
        self._context: ssl.SSLContext | None = None
        if tls:
            self._folder = tempfile.TemporaryDirectory()
            self._context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            self._context.load_cert_chain(*self_signed(Path(self._folder.name)))

    def serve(self, conn: socket.socket, index: int) -> None:
        stream: socket.socket | ssl.SSLSocket = conn
        if self._context is not None:
            conn.settimeout(10)
            stream = self._context.wrap_socket(conn, server_side=True)
            self._sockets.append(stream)
        self.drip(stream, self.answer, self.interval)

    def __exit__(self, *exc_info) -> None:
        super().__exit__(*exc_info)
        if self._context is not None:
            self._folder.cleanup()


class DrippingProxy(_Loop):
    """A TCP relay to `upstream_port`: the first `passed` connections as they come, then the server's bytes dripped.

    The client's bytes always go through at once, so the server answers in time; only its answer crawls.
    """

    def __init__(self, upstream_port: int, passed: int, interval: float = DRIP_S, close_later: bool = False) -> None:
        super().__init__()
        self.upstream_port = upstream_port
        self.passed = passed
        self.interval = interval
        self.close_later = close_later  # the later connections are closed at once instead of dripped
        self.dripped = 0

    def serve(self, conn: socket.socket, index: int) -> None:
        if self.close_later and index > self.passed:
            conn.close()
            return
        upstream = socket.create_connection(("127.0.0.1", self.upstream_port), timeout=10)
        self._sockets.append(upstream)
        upstream.settimeout(None)
        conn.settimeout(None)
        dripping = index > self.passed
        self.dripped += dripping
        forward = threading.Thread(target=self._pump, args=(conn, upstream, None), daemon=True)
        self._threads.append(forward)
        forward.start()
        self._pump(upstream, conn, self.interval if dripping else None)

    def _pump(self, source: socket.socket, sink: socket.socket, interval: float | None) -> None:
        with contextlib.suppress(OSError):
            while not self._stop.is_set():
                data = source.recv(65536)
                if not data:
                    break
                if interval is None:
                    sink.sendall(data)
                else:
                    self.drip(sink, data, interval)
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)
