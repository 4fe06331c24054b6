"""One switch's netmiko session, with its host key verified first and every phase under a hard deadline.

netmiko's own waits add up (the TCP connect, the SSH banner, the key exchange and the login
each get a timeout, then session preparation waits up to 20 s for a prompt more than once),
and it cannot tell a closed connection from a quiet one: it reads an empty channel until
its read timeout. Here:

- the host key goes through `HostKeyPolicy` inside paramiko's connect, before authentication:
  a refused key means no password is sent;
- a watchdog closes the connection when the phase's deadline passes: connecting (TCP, banner,
  host key, login and the first prompt) gets the connect timeout, each command the command
  timeout; whatever netmiko waits on then ends at once;
- every read checks the channel: closed by the watchdog is a timeout, closed otherwise is
  "connection closed by peer".
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hostlint.collect.hostkeys import HostKeyPolicy
from hostlint.collect.paramiko_client import VerifyingClient

if TYPE_CHECKING:
    from netmiko.base_connection import BaseConnection

DISCONNECT_S = 2.0


@dataclass(frozen=True)
class Timeouts:
    """Seconds: `connect` covers TCP, SSH banner, host key, login and the first prompt; `command` each command;
    `total` (when set) the whole device, from the TCP connect to the last command's answer."""

    connect: float = 10.0
    command: float = 30.0
    total: float | None = None


class Expired(Exception):
    """The phase's deadline passed (the watchdog closed the connection)."""


class PeerClosed(Exception):
    """The device closed the connection."""


class Watchdog:
    """The phase a session is in, and a timer that closes its transport when the phase's time is up."""

    def __init__(self, total: float | None = None) -> None:
        self.phase = "connect"
        self.seconds = 0.0
        self.expired = False
        self.total = total
        self.overall = False  # the deadline running is the device's total, not the phase's own
        self._end = None if total is None else time.monotonic() + total
        self.client: VerifyingClient | None = None
        self._transport: Any = None
        self._timer: threading.Timer | None = None
        self._lock = threading.Lock()

    def enter(self, phase: str, seconds: float | None = None) -> None:
        """Start `phase`; with `seconds`, a new deadline from now (else the running one continues)."""
        with self._lock:
            self.phase = phase
            if seconds is None:
                return
            if self._timer is not None:
                self._timer.cancel()
            self.seconds = seconds
            left = None if self._end is None else max(0.0, self._end - time.monotonic())
            self.overall = left is not None and left < seconds and phase != "disconnect"
            self._timer = threading.Timer(left if left is not None and self.overall else seconds, self._expire)
            self._timer.daemon = True
            self._timer.start()

    def attach(self, transport: Any) -> None:
        with self._lock:
            self._transport = transport
            if self.expired:
                transport.close()

    def stop(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            transport = self._transport
        if transport is not None:
            transport.close()

    def check(self, channel: Any) -> None:
        """Raise when the channel can give nothing more: Expired (our deadline) or PeerClosed."""
        if self.expired:
            raise Expired(self.phase)
        if channel is None:
            return
        transport = channel.get_transport()
        if channel.closed or channel.eof_received or transport is None or not transport.is_active():
            if self.expired:
                raise Expired(self.phase)
            raise PeerClosed(self.phase)


_classes: dict[str, type[BaseConnection]] = {}
_classes_lock = threading.Lock()


def _bounded_class(device_type: str) -> type[BaseConnection]:
    """netmiko's class for the platform, with hostlint's SSH client and a read that notices a dead channel."""
    from netmiko.ssh_dispatcher import CLASS_MAPPER

    with _classes_lock:
        if device_type not in _classes:
            base: type[BaseConnection] = CLASS_MAPPER[device_type]

            # Methods of the subclass built below, which carries hostlint's own attributes (`Any` self).
            def _build_ssh_client(self: Any) -> VerifyingClient:
                watchdog: Watchdog = self._hostlint_watchdog
                client = VerifyingClient(self._hostlint_policy, on_phase=watchdog.enter, on_transport=watchdog.attach)
                self._hostlint_client = watchdog.client = client
                return client

            def read_channel(self: Any) -> str:
                output = base.read_channel(self)
                if not output:
                    self._hostlint_watchdog.check(self.remote_conn)
                return output

            def _try_session_preparation(self: Any, *args: Any, **kwargs: Any) -> None:
                self._hostlint_watchdog.enter("prompt")
                return base._try_session_preparation(self, *args, **kwargs)

            methods = {
                "_build_ssh_client": _build_ssh_client,
                "read_channel": read_channel,
                "_try_session_preparation": _try_session_preparation,
            }
            _classes[device_type] = type(f"Bounded{base.__name__}", (base,), methods)
        return _classes[device_type]


def open_session(device_type: str, policy: HostKeyPolicy, watchdog: Watchdog, timeouts: Timeouts, **params: Any) -> Any:
    """A logged-in netmiko connection at its prompt; raises what netmiko raises (or Expired/PeerClosed).

    The caller has already called `watchdog.enter("connect", timeouts.connect)`.
    """
    cls = _bounded_class(device_type)
    connection: Any = cls.__new__(cls)  # given hostlint's attributes before netmiko's __init__ runs
    connection._hostlint_watchdog = watchdog
    connection._hostlint_policy = policy
    connection._hostlint_client = None
    try:
        connection.__init__(
            device_type=device_type,
            # paramiko's own waits (each bounded by the watchdog's deadline anyway)
            conn_timeout=timeouts.connect,
            auth_timeout=timeouts.connect,
            banner_timeout=timeouts.connect,
            # netmiko's reads: per command; the lock wait and blocking reads no longer than that
            timeout=timeouts.command,
            read_timeout_override=timeouts.command,
            session_timeout=timeouts.command,
            blocking_timeout=min(20.0, timeouts.command),
            fast_cli=True,
            global_delay_factor=1,
            # only hostlint's host-key check (VerifyingClient); no keys of paramiko's own
            ssh_strict=True,
            system_host_keys=False,
            alt_host_keys=False,
            **params,
        )
    except BaseException:
        client = connection._hostlint_client
        if client is not None:
            client.close()
        raise
    return connection


def close_session(connection: Any, watchdog: Watchdog) -> None:
    """Say goodbye (within DISCONNECT_S) and close; a session that already broke is just closed."""
    watchdog.enter("disconnect", DISCONNECT_S)
    try:
        connection.disconnect()
    except Exception:  # netmiko's disconnect after a fault has nothing useful to say
        pass
    finally:
        watchdog.stop()
