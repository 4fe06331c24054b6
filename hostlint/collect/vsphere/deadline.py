"""One deadline per vSphere call, end to end: TCP connect, TLS handshake, request, answer and every byte of it.

A socket timeout bounds one read: a server that sends a byte just before each read would time
out keeps a call (and the collection) going for ever. Here each call sets a deadline for the
thread that makes it (`deadline(seconds)`), and every socket operation on the way waits only for
what is left of it:

- the name lookup and TCP connect of a new connection (`DeadlineHTTPSConnection`; getaddrinfo has no
  timeout, so it runs in a thread the call stops waiting for);
- every TLS operation, the handshake included (`DeadlineSSLSocket`, installed on the call's
  `ssl.SSLContext` through `sslsocket_class`, which the ssl module documents as overridable for
  this); a read that finds the deadline passed raises TimeoutError before it waits.

pyvmomi's `SoapStubAdapter` makes each call in the calling thread, from `GetConnection` to the
last byte of the answer, so a deadline per thread is a deadline per call; `DeadlineStub` sets
one around each `InvokeMethod` (hostlint's own streaming calls in fastretrieve use
`stub_deadline`). A call that fails once its deadline has passed, with whatever the socket or
parser said, is a time-out: `NoAnswer`.
"""

from __future__ import annotations

import contextlib
import http.client
import math
import socket
import ssl
import threading
import time
from collections.abc import Iterator
from typing import Any

from pyVmomi import vmodl
from pyVmomi.SoapAdapter import SoapStubAdapter

_local = threading.local()


class NoAnswer(TimeoutError):
    """A call did not end within its deadline. `phase`: what was asked, when the caller names it."""

    def __init__(self, message: str = "no answer within the deadline", phase: str | None = None) -> None:
        super().__init__(message)
        self.phase = phase


def remaining() -> float | None:
    """Seconds left for this thread's call, None when no deadline is set; raises NoAnswer once it has passed."""
    end: float | None = getattr(_local, "end", None)
    if end is None:
        return None
    left = end - time.monotonic()
    if left <= 0:
        raise NoAnswer()
    return left


@contextlib.contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Bound everything this thread waits on inside the block to `seconds` from now, all together.

    Nested, the earlier end wins (a call inside a bounded phase cannot outlast the phase). A
    failure once the end has passed is raised as NoAnswer (from the original error); a fault
    the server answered with (vmodl.MethodFault) stays what it is.
    """
    outer: float | None = getattr(_local, "end", None)
    end = math.inf if seconds is None else time.monotonic() + seconds
    if outer is not None:
        end = min(end, outer)
    _local.end = None if end == math.inf else end
    try:
        yield
    except vmodl.MethodFault:
        raise
    except NoAnswer:
        raise
    except TimeoutError as exc:  # a socket wait bounded by what was left: the deadline, or a shorter own timeout
        raise NoAnswer() from exc
    except Exception as exc:
        if _local.end is not None and time.monotonic() >= _local.end:
            raise NoAnswer() from exc
        raise
    finally:
        _local.end = outer


def _bound(sock: ssl.SSLSocket) -> None:
    left = remaining()
    if left is not None:
        sock.settimeout(left)


class DeadlineSSLSocket(ssl.SSLSocket):
    """An SSLSocket whose every wait (handshake, read, write) ends at the calling thread's deadline.

    `recv`, `recv_into` and `sendall` go through `read` and `send`; the C layer applies the
    socket timeout to one operation as a whole (its own deadline), so setting it to what is
    left before each operation bounds the call.
    """

    def do_handshake(self, block: bool = False) -> None:
        _bound(self)
        super().do_handshake(block)

    def read(self, len: int = 1024, buffer: Any = None) -> Any:
        _bound(self)
        return super().read(len, buffer)

    def send(self, data: Any, flags: int = 0) -> int:
        _bound(self)
        return super().send(data, flags)


def bounded_context(context: ssl.SSLContext) -> ssl.SSLContext:
    """`context`, its sockets made DeadlineSSLSocket (they behave as SSLSocket outside a deadline)."""
    context.sslsocket_class = DeadlineSSLSocket
    return context


def _resolve(host: str, port: int, left: float) -> list[Any]:
    """getaddrinfo, given up after `left` seconds: the C resolver has no timeout of its own to pass.

    It runs in a daemon thread that is left behind if the resolver hangs (it ends with the
    resolver's own time-outs, resolv.conf `options timeout:`); the call does not wait for it.
    """
    answer: list[Any] = []
    failure: list[BaseException] = []

    def lookup() -> None:
        try:
            answer.extend(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except OSError as exc:
            failure.append(exc)

    resolver = threading.Thread(target=lookup, name=f"hostlint-resolve-{host}", daemon=True)
    resolver.start()
    resolver.join(left)
    if resolver.is_alive():
        raise NoAnswer(f"no answer from the name resolver for {host} within the deadline")
    if failure:
        raise failure[0]
    return answer


def _create_connection(address: tuple[str, int], timeout: Any = None, source_address: Any = None) -> socket.socket:
    """socket.create_connection with the name lookup and each connect attempt inside the thread's deadline."""
    left = remaining()
    if left is None:
        return socket.create_connection(address, timeout, source_address)
    host, port = address
    last: OSError | None = None
    for family, kind, proto, _, sockaddr in _resolve(host, port, left):
        sock = socket.socket(family, kind, proto)
        try:
            sock.settimeout(remaining())
            if source_address:
                sock.bind(source_address)
            sock.connect(sockaddr)
            return sock
        except OSError as exc:
            sock.close()
            if isinstance(exc, TimeoutError):
                raise
            last = exc
    raise last or OSError(f"{host}: no address to connect to")


class DeadlineHTTPSConnection(http.client.HTTPSConnection):
    """Name lookup and TCP connect wait only for what is left of the call's deadline; TLS is bounded by the context."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._create_connection = _create_connection


class DeadlineStub(SoapStubAdapter):
    """pyvmomi's SOAP stub with one deadline of `call_timeout` seconds per call, end to end.

    `timed_out` is set by the first call that ran out of time: the server has stopped answering,
    and cleanup (logout) does not wait on it again.
    """

    session_manager: Any = None  # set at login: logout needs no call to find it

    def __init__(self, *args: Any, call_timeout: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[no-untyped-call]  # pyvmomi is unannotated
        scheme: Any = DeadlineHTTPSConnection
        self.scheme = scheme
        context = self.schemeArgs.get("context")
        if context is not None:
            bounded_context(context)
        self.call_timeout = call_timeout
        self.timed_out = threading.Event()

    def InvokeMethod(self, mo: Any, info: Any, args: Any, outerStub: Any = None) -> Any:
        with stub_deadline(self):
            return super().InvokeMethod(mo, info, args, outerStub)  # type: ignore[no-untyped-call]


@contextlib.contextmanager
def stub_deadline(stub: Any) -> Iterator[None]:
    """One call on `stub` under its deadline (no deadline for a stub that is not a DeadlineStub)."""
    if not isinstance(stub, DeadlineStub):
        yield
        return
    try:
        with deadline(stub.call_timeout):
            yield
    except NoAnswer:
        stub.timed_out.set()
        raise
