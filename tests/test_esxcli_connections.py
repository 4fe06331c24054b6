"""esxcli calls through vCenter on kept connections (hostlint.collect.probe.esxcli.KeptConnections).

`collect vsphere` reads ESXi's LACP view with two small calls per host; a connection per call cost a
TLS handshake each. Against a real HTTPS server on 127.0.0.1 (http.server over TLS, counting the
connections it accepts and the requests it answers): calls on a session with kept connections share
one connection per thread, a connection the server closed while idle is replaced and the call sent
again, once, and a session without them opens one per call as before.
"""

from __future__ import annotations

import ssl
import tempfile
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from hung_peer import self_signed

from hostlint.collect.probe import esxcli

ANSWER = (
    '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>'
    '<RetrieveManagedMethodExecuterResponse xmlns="urn:vim25"><returnval type="ManagedMethodExecuter">'
    "mme-{n}</returnval></RetrieveManagedMethodExecuterResponse></soapenv:Body></soapenv:Envelope>"
).format


@dataclass
class Counts:
    connections: int = 0
    requests: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


class SoapServer(ThreadingHTTPServer):
    """Answers every POST with an executer named for the request's number; `idle_close` closes the
    connection after each answer without saying so (as a server whose idle time-out has passed)."""

    daemon_threads = True

    def __init__(self, context: ssl.SSLContext, idle_close: bool):
        self.counts, self.idle_close, self.context = Counts(), idle_close, context
        super().__init__(("127.0.0.1", 0), Handler)

    def get_request(self):  # type: ignore[no-untyped-def]
        sock, address = super().get_request()
        with self.counts.lock:
            self.counts.connections += 1
        return self.context.wrap_socket(sock, server_side=True), address


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: SoapServer

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        with self.server.counts.lock:
            self.server.counts.requests += 1
            body = ANSWER(n=self.server.counts.requests).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/xml; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = self.server.idle_close

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def tls() -> Iterator[tuple[ssl.SSLContext, ssl.SSLContext]]:
    with tempfile.TemporaryDirectory() as folder:
        cert, key = self_signed(Path(folder))
        server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        server.load_cert_chain(cert, key)
        client = ssl.create_default_context(cafile=str(cert))
        client.check_hostname = False  # hung_peer's certificate names 127.0.0.1 as its CN, not as an IP SAN
        yield server, client


def serve(context: ssl.SSLContext, idle_close: bool = False) -> SoapServer:
    server = SoapServer(context, idle_close)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def session(server: SoapServer, client: ssl.SSLContext, kept: esxcli.KeptConnections | None) -> esxcli.Session:
    port = server.server_address[1]
    return esxcli.Session("127.0.0.1", port, "/sdk", "vmware_soap_session=x", client, connections=kept)


def test_kept_connections_carry_every_call_of_a_thread(tls):
    server_context, client = tls
    server = serve(server_context)
    try:
        with esxcli.KeptConnections() as kept, ThreadPoolExecutor(2) as pool:
            calls = session(server, client, kept)
            executers = list(pool.map(lambda n: esxcli.executer(calls, f"host-{n}", 10), range(20)))
    finally:
        server.shutdown()
    assert sorted(executers) == sorted(f"mme-{n}" for n in range(1, 21))
    assert server.counts.requests == 20
    assert server.counts.connections <= 2


def test_a_connection_the_server_closed_is_replaced_and_the_call_sent_once_more(tls):
    server_context, client = tls
    server = serve(server_context, idle_close=True)
    try:
        with esxcli.KeptConnections() as kept:
            calls = session(server, client, kept)
            executers = [esxcli.executer(calls, f"host-{n}", 10) for n in range(3)]
    finally:
        server.shutdown()
    assert executers == ["mme-1", "mme-2", "mme-3"]
    # every call found its kept connection closed and opened another: nothing answered twice
    assert (server.counts.requests, server.counts.connections) == (3, 3)


def test_without_kept_connections_each_call_has_its_own(tls):
    server_context, client = tls
    server = serve(server_context)
    try:
        calls = session(server, client, None)
        executers = [esxcli.executer(calls, f"host-{n}", 10) for n in range(3)]
    finally:
        server.shutdown()
    assert executers == ["mme-1", "mme-2", "mme-3"]
    assert (server.counts.requests, server.counts.connections) == (3, 3)
