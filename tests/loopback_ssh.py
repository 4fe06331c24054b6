"""The part every test SSH peer shares: asyncssh servers on 127.0.0.1, run by an event loop in a thread."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import asyncssh


class LoopbackSsh:
    """Listen with `self.listen(...)` (returns the port); `close()` or a `with` block stops everything."""

    def __init__(self, thread_name: str) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name=thread_name, daemon=True)
        self._thread.start()
        self.host_key = asyncssh.generate_private_key("ssh-ed25519")
        self._servers: list[asyncssh.SSHAcceptor] = []
        self.ports: list[int] = []

    def _run(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(timeout=30)

    def listen(self, **options: Any) -> int:
        """An asyncssh server on a free port of 127.0.0.1 with this peer's host key."""

        async def start() -> asyncssh.SSHAcceptor:
            return await asyncssh.listen(
                "127.0.0.1", 0, server_host_keys=[self.host_key], keepalive_interval=0, login_timeout=30, **options
            )

        acceptor = self._run(start())
        self._servers.append(acceptor)
        port = acceptor.sockets[0].getsockname()[1]
        self.ports.append(port)
        return port

    def known_hosts_line(self, port: int) -> str:
        """This peer's host key for one port, as a known_hosts line (`[127.0.0.1]:port ssh-ed25519 AAAA...`)."""
        key = self.host_key.export_public_key("openssh").decode().strip()
        return f"[127.0.0.1]:{port} {key}\n"

    def write_known_hosts(self, path: Path) -> Path:
        """A known_hosts file trusting this peer's key on every port it listens on so far."""
        path.write_text("".join(self.known_hosts_line(port) for port in self.ports), encoding="utf-8")
        return path

    def close(self) -> None:
        async def stop() -> None:
            for server in self._servers:
                server.close()
                await server.wait_closed()

        self._run(stop())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()
