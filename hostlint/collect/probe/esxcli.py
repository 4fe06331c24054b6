"""esxcli through vCenter, without SSH: `network diag ping` on a host's ManagedMethodExecuter.

This is how `govc host.esxcli` (govmomi cli/esx) and PowerCLI's `Get-EsxCli -V2` reach a host:
`HostSystem.RetrieveManagedMethodExecuter()` gives the host's executer; `ExecuteSoap` on it with moid
`ha-dynamic-type-manager-local-cli-cliinfo`, method `vim.CLIInfo.FetchCLIInfo` tells the declared
order of a command's parameters, and `ExecuteSoap` with moid `ha-cli-handler-network-diag`, method
`vim.EsxCLI.network.diag.ping` runs the ping, its arguments in that order, each value an XML
fragment (`<size>8972</size>`). Current pyVmomi ships no types for these internal calls, so the SOAP
bodies are posted here over the session pyVmomi logged in (its cookie), with the same TLS context.

The answer is an XML document inside `<response>` (a Summary: Transmitted, Recieved [sic],
PacketLost, round trips; a Trace per reply) or an esxcli fault in `<fault><faultMsg>`: "sendto()
failed (Message too long)" when the source vmk's own MTU is below the probe.
"""

from __future__ import annotations

import http.client
import ssl
import threading
import time
from dataclasses import dataclass, field
from typing import Any
from xml.etree import ElementTree
from xml.sax.saxutils import escape

SOAP_NS = "http://schemas.xmlsoap.org/soap/envelope/"
ESXCLI_VERSION = "urn:vim25/5.0"
CLIINFO_MOID = "ha-dynamic-type-manager-local-cli-cliinfo"
DIAG_MOID = "ha-cli-handler-network-diag"
PING_METHOD = "vim.EsxCLI.network.diag.ping"
# `esxcli network diag ping --help` lists the parameters in this order (by long name); used when the
# host does not describe the command.
DEFAULT_PING_ORDER = (
    *("count", "debug", "df", "host", "interface", "interval", "ipv4"),
    *("ipv6", "netstack", "nexthop", "size", "ttl", "wait"),
)
MAX_ANSWER = 4 << 20  # bytes: a ping answer is a few kilobytes


class SoapFault(Exception):
    """The server refused the call: `kind` is the fault type (NoPermission, InvalidArgument...)."""

    def __init__(self, message: str, kind: str, privilege: str | None = None, target: str | None = None):
        super().__init__(message)
        self.kind = kind
        self.privilege = privilege
        self.target = target


class NoAnswer(Exception):
    """The call did not return within its deadline."""


@dataclass(frozen=True)
class PingAnswer:
    sent: int | None
    received: int | None
    round_trip_ms: float | None
    fault: str | None  # an esxcli fault message (the ping did not run or could not send)


class KeptConnections:
    """One open HTTPS connection per thread, reused from call to call (HTTP keep-alive), closed together.

    A new connection per call costs a TCP connect and a TLS handshake on both ends: for the small calls
    `collect vsphere` makes per host (two for ESXi's LACP view), the handshake was most of the call's CPU
    (2.2 ms of the collector's CPU a call; bench/README.md, "Kept connections for the LACP view").
    """

    def __init__(self) -> None:
        self._local = threading.local()
        self._lock = threading.Lock()
        self._open: set[http.client.HTTPSConnection] = set()

    def take(self, session: Session, timeout: float) -> tuple[http.client.HTTPSConnection, bool]:
        """This thread's connection to `session`'s server and whether it has carried a call before."""
        kept: http.client.HTTPSConnection | None = getattr(self._local, "connection", None)
        if kept is not None:
            return kept, True
        connection = http.client.HTTPSConnection(session.host, session.port, context=session.context, timeout=timeout)
        self._local.connection = connection
        with self._lock:
            self._open.add(connection)
        return connection, False

    def drop(self, connection: http.client.HTTPSConnection) -> None:
        """Closes `connection` (its state unknown after a failure, or the server said it closes)."""
        connection.close()
        if getattr(self._local, "connection", None) is connection:
            self._local.connection = None
        with self._lock:
            self._open.discard(connection)

    def close(self) -> None:
        with self._lock:
            connections, self._open = list(self._open), set()
        for connection in connections:
            connection.close()

    def __enter__(self) -> KeptConnections:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


# A kept connection the server has closed meanwhile (its idle time-out) fails at once, before any answer
# (closed with or without TLS's close_notify): the call is sent again on a new connection. Kept
# connections carry calls that only read, which are safe to send twice.
_STALE = (
    http.client.RemoteDisconnected,
    BrokenPipeError,
    ConnectionResetError,
    ConnectionAbortedError,
    ssl.SSLEOFError,
    ssl.SSLZeroReturnError,
)


@dataclass(frozen=True)
class Session:
    """A logged-in vSphere session: where to post and the cookie that authenticates it.

    With `connections`, calls reuse one connection per thread (`KeptConnections`); without, each call
    opens and closes its own (a probe's few calls).
    """

    host: str
    port: int
    path: str
    cookie: str
    context: ssl.SSLContext
    soap_action: str = "urn:vim25/8.0.0.0"
    connections: KeptConnections | None = field(default=None, compare=False)

    @classmethod
    def of(cls, service_instance: Any, host: str, port: int, path: str, context: ssl.SSLContext) -> Session:
        """The session pyVmomi logged in (its cookie), posting to the same server with the same TLS context."""
        stub = service_instance._stub
        version = getattr(stub, "versionId", None)
        return cls(
            host=host,
            port=port,
            path=path,
            cookie=stub.cookie or "",
            context=context,
            soap_action=f"urn:vim25/{version.strip(chr(34)).removeprefix('urn:vim25/')}"
            if version
            else "urn:vim25/8.0.0.0",
        )

    def call(self, body: str, timeout: float) -> ElementTree.Element:
        """Post one SOAP body; the whole call (connect, send, every byte back) ends by `timeout`."""
        deadline = time.monotonic() + timeout
        envelope = f'<soapenv:Envelope xmlns:soapenv="{SOAP_NS}"><soapenv:Body>{body}</soapenv:Body></soapenv:Envelope>'
        try:
            status, raw = self._post(envelope.encode(), timeout, deadline)
        except TimeoutError as exc:
            raise NoAnswer(f"no answer within {timeout:g} s") from exc
        try:
            root = ElementTree.fromstring(raw)
        except ElementTree.ParseError as exc:
            raise SoapFault(f"unreadable answer (HTTP {status}): {exc}", "ParseError") from exc
        fault = root.find(f".//{{{SOAP_NS}}}Fault")
        if fault is not None:
            raise _fault(fault)
        return root

    def _post(self, envelope: bytes, timeout: float, deadline: float) -> tuple[int, bytes]:
        """The answer's HTTP status and body, on a kept connection (sent again once on a new one when the
        kept one turns out closed) or on one of its own."""
        headers = {"Content-Type": "text/xml; charset=utf-8", "SOAPAction": self.soap_action, "Cookie": self.cookie}
        if self.connections is None:
            connection = http.client.HTTPSConnection(self.host, self.port, context=self.context, timeout=timeout)
            try:
                status, raw, _ = _exchange(connection, self.path, envelope, headers, deadline)
            finally:
                connection.close()
            return status, raw
        while True:
            connection, reused = self.connections.take(self, timeout)
            try:
                status, raw, closes = _exchange(connection, self.path, envelope, headers, deadline)
            except _STALE:
                self.connections.drop(connection)
                if reused:
                    continue
                raise
            except BaseException:
                self.connections.drop(connection)
                raise
            if closes:
                self.connections.drop(connection)
            return status, raw


def _exchange(
    connection: http.client.HTTPSConnection, path: str, envelope: bytes, headers: dict[str, str], deadline: float
) -> tuple[int, bytes, bool]:
    """Send one request and read its whole answer: its status, its body and whether the server closes the
    connection after it."""
    _bound(connection, deadline)
    connection.request("POST", path, body=envelope, headers=headers)
    _bound(connection, deadline)
    response = connection.getresponse()
    raw = _read_until(connection, response, deadline)
    return response.status, raw, response.will_close


def _bound(connection: http.client.HTTPSConnection, deadline: float) -> None:
    """The socket's next wait ends at the call's deadline, not a full timeout after the last byte."""
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise TimeoutError
    if connection.sock is not None:
        connection.sock.settimeout(remaining)


def _read_until(connection: http.client.HTTPSConnection, response: http.client.HTTPResponse, deadline: float) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        _bound(connection, deadline)
        chunk = response.read1(65536)
        if not chunk:
            # read1 leaves a response with a length open at its end; closed, its connection takes the next call
            response.close()
            return b"".join(chunks)
        size += len(chunk)
        if size > MAX_ANSWER:
            raise SoapFault(f"answer larger than {MAX_ANSWER} bytes", "TooLarge")
        chunks.append(chunk)


def _local(element: ElementTree.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _fault(fault: ElementTree.Element) -> SoapFault:
    message = " ".join((fault.findtext("faultstring") or "fault").split())
    kind, privilege, target = "ServerFault", None, None
    detail = fault.find("detail")
    if detail is not None and len(detail):
        first = detail[0]
        xsi_type = first.get("{http://www.w3.org/2001/XMLSchema-instance}type")
        kind = xsi_type or _local(first).removesuffix("Fault")
        for child in first:
            if _local(child) == "privilegeId":
                privilege = (child.text or "").strip() or None
            elif _local(child) == "object":
                target = (child.text or "").strip() or None
    return SoapFault(message, kind, privilege, target)


def _find(root: ElementTree.Element, name: str) -> ElementTree.Element | None:
    for element in root.iter():
        if _local(element) == name:
            return element
    return None


def executer(session: Session, host_moid: str, timeout: float) -> str:
    """The host's ManagedMethodExecuter (its managed object id)."""
    root = session.call(
        f'<RetrieveManagedMethodExecuter xmlns="urn:vim25"><_this type="HostSystem">{escape(host_moid)}</_this>'
        "</RetrieveManagedMethodExecuter>",
        timeout,
    )
    found = _find(root, "returnval")
    if found is None or not (found.text or "").strip():
        raise SoapFault("RetrieveManagedMethodExecuter returned no executer", "NoExecuter")
    return (found.text or "").strip()


def _execute(
    session: Session, mme: str, moid: str, method: str, arguments: list[tuple[str, str]], timeout: float
) -> ElementTree.Element:
    argument_xml = "".join(
        f"<argument><name>{name}</name><val>{escape(f'<{name}>{escape(value)}</{name}>')}</val></argument>"
        for name, value in arguments
    )
    root = session.call(
        f'<ExecuteSoap xmlns="urn:vim25"><_this type="ManagedMethodExecuter">{escape(mme)}</_this>'
        f"<moid>{moid}</moid><version>{ESXCLI_VERSION}</version><method>{method}</method>{argument_xml}</ExecuteSoap>",
        timeout,
    )
    returnval = _find(root, "returnval")
    if returnval is None:
        raise SoapFault(f"{method}: no answer in ExecuteSoapResponse", "NoReturnval")
    return returnval


def run(session: Session, mme: str, moid: str, method: str, timeout: float) -> ElementTree.Element:
    """Run one esxcli command that takes no arguments; its answer document (`<obj>`). An esxcli fault
    raises SoapFault of kind `EsxcliFault` with esxcli's message."""
    returnval = _execute(session, mme, moid, method, [], timeout)
    fault = _find(returnval, "faultMsg")
    if fault is not None:
        raise SoapFault(" ".join((fault.text or "esxcli fault").split()), "EsxcliFault")
    response = _find(returnval, "response")
    if response is None or not response.text:
        raise SoapFault(f"{method}: empty answer", "EmptyAnswer")
    try:
        return ElementTree.fromstring(response.text)
    except ElementTree.ParseError as exc:
        raise SoapFault(f"{method}: unreadable answer: {exc}", "ParseError") from exc


def ping_order(session: Session, mme: str, timeout: float) -> tuple[str, ...]:
    """The declared order of `network diag ping`'s parameters, as the host describes the command."""
    try:
        returnval = _execute(
            session, mme, CLIINFO_MOID, "vim.CLIInfo.FetchCLIInfo", [("typeName", "vim.EsxCLI.network.diag")], timeout
        )
    except SoapFault:
        return DEFAULT_PING_ORDER
    response = _find(returnval, "response")
    if response is None or not response.text:
        return DEFAULT_PING_ORDER
    try:
        info = ElementTree.fromstring(response.text)
    except ElementTree.ParseError:
        return DEFAULT_PING_ORDER
    for method in (element for element in info.iter() if _local(element) == "method"):
        name = next((child.text for child in method if _local(child) == "name"), None)
        if name == "ping":
            order = tuple(
                (param.findtext("{urn:vim25}name") or param.findtext("name") or "")
                for param in method
                if _local(param) == "param"
            )
            if order:
                return order
    return DEFAULT_PING_ORDER


def ping(session: Session, mme: str, order: tuple[str, ...], values: dict[str, str], timeout: float) -> PingAnswer:
    """Run `esxcli network diag ping` with `values` (only parameters the host declares are sent)."""
    unknown = sorted(set(values) - set(order))
    if unknown:
        raise SoapFault(f"this host's esxcli has no ping parameter {', '.join(unknown)}", "UnknownParameter")
    arguments = [(name, values[name]) for name in order if name in values]
    returnval = _execute(session, mme, DIAG_MOID, PING_METHOD, arguments, timeout)
    fault = _find(returnval, "faultMsg")
    if fault is not None:
        return PingAnswer(None, None, None, " ".join((fault.text or "esxcli fault").split()))
    response = _find(returnval, "response")
    if response is None or not response.text:
        raise SoapFault("network diag ping: empty answer", "EmptyAnswer")
    try:
        document = ElementTree.fromstring(response.text)
    except ElementTree.ParseError as exc:
        raise SoapFault(f"network diag ping: unreadable answer: {exc}", "ParseError") from exc
    summary = _find(document, "Summary")
    if summary is None:
        raise SoapFault("network diag ping: the answer has no Summary", "NoSummary")
    fields = {_local(child): (child.text or "").strip() for child in summary}
    received = fields.get("Recieved", fields.get("Received"))
    average = fields.get("RoundtripAvg")
    return PingAnswer(
        sent=_int(fields.get("Transmitted")),
        received=_int(received),
        # RoundtripAvg is in microseconds (RoundtripAvgMS the same, truncated to milliseconds).
        round_trip_ms=None if _int(average) is None else round((_int(average) or 0) / 1000, 3),
        fault=None,
    )


def _int(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None
