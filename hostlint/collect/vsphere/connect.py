"""Logging in to vCenter or ESXi: where (`--server`), how TLS is checked, and what goes wrong."""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import re
import socket
import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from xml.etree import ElementTree

from pyVmomi import vim, vmodl
from pyVmomi.VmomiSupport import GetServiceVersions, versionIdMap

from hostlint.collect.limits import VSPHERE_TIMEOUT_S as DEFAULT_TIMEOUT_S
from hostlint.collect.vsphere.deadline import DeadlineHTTPSConnection, DeadlineStub, bounded_context, deadline
from hostlint.collect.vsphere.faults import fault_text


class VsphereError(Exception):
    """A failure to reach or log in to vSphere; the message is meant for the user."""


class UsageError(VsphereError):
    """Wrong credentials, an untrusted certificate, a bad server name: the user must change something."""


class UnreachableError(VsphereError):
    """vCenter/ESXi did not answer (refused, timed out, name unknown)."""


class NoAnswerError(UnreachableError):
    """The server took the connection but did not answer in time; names the server and the phase."""

    def __init__(self, endpoint: Endpoint | str, phase: str, timeout: float):
        super().__init__(f"{endpoint}: no answer within {timeout:g} s during {phase}")
        self.phase = phase


@dataclass(frozen=True)
class Endpoint:
    host: str
    port: int = 443
    path: str = "/sdk"

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port == 443 else f"{host}:{self.port}"


def parse_server(server: str) -> Endpoint:
    """A host name, `host:port`, `[v6]:port` or URL (`https://vc.example.net/sdk`).

    A user name or password inside it is refused, and the message never repeats the text: the
    password could be in it. The user goes in --user, the password in the environment, the
    keyring or the prompt.
    """
    text = server.strip()
    if not text:
        raise UsageError("--server is empty")
    if "@" in text:
        raise UsageError(
            "--server must not contain a user name or password (USER:PASSWORD@HOST): give the user with --user "
            "and the password in HOSTLINT_VSPHERE_PASSWORD, the keyring or the prompt"
        )
    if "://" not in text:
        _refuse_bare_ipv6(text, text)
        text = f"https://{text}"
    else:
        _refuse_bare_ipv6(text.split("://", 1)[1].split("/", 1)[0], server.strip())
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise UsageError(f"--server {server!r}: {exc}") from exc
    if parts.scheme != "https":
        raise UsageError(f"--server {server!r}: only https is supported")
    if not parts.hostname:
        raise UsageError(f"--server {server!r}: no host name")
    path = parts.path.rstrip("/") or "/sdk"
    return Endpoint(host=parts.hostname, port=port or 443, path=path)


_IPV6_LIKE = re.compile(r"[0-9A-Fa-f:.]+(%\w+)?")


def _refuse_bare_ipv6(authority: str, server: str) -> None:
    """An IPv6 address written without brackets: its colons cannot be told from a port's."""
    if authority.count(":") < 2 or authority.startswith("[") or not _IPV6_LIKE.fullmatch(authority):
        return
    address = _ipv6(authority)
    example = f"[{address}]" if address else "[ADDRESS]"
    raise UsageError(
        f"--server {server!r}: an IPv6 address goes in brackets: use {example}, or {example}:PORT with a port"
    )


def _ipv6(text: str) -> str | None:
    try:
        return str(ipaddress.IPv6Address(text))
    except ValueError:
        return None


def display_server(server: str) -> str:
    """How a --server (or inventory `server:`) is named in messages and source names: `vc01`, `[::1]:8443`.

    What cannot be parsed is named without anything up to an `@`, where a password could be.
    """
    try:
        return str(parse_server(server))
    except UsageError:
        return server.strip().rpartition("@")[2]


def tls_context(insecure: bool = False, ca_bundle: Path | None = None) -> ssl.SSLContext:
    """Verified TLS (system trust store, or `ca_bundle`) unless `insecure` is asked for."""
    if insecure:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        return context
    try:
        return ssl.create_default_context(cafile=str(ca_bundle) if ca_bundle else None)
    except (OSError, ssl.SSLError) as exc:
        raise UsageError(f"--ca-bundle {ca_bundle}: cannot load certificates: {exc}") from exc


def _certificate_error(endpoint: Endpoint, exc: ssl.SSLCertVerificationError) -> UsageError:
    reason = exc.verify_message or exc.reason or str(exc)
    return UsageError(
        f"{endpoint}: TLS certificate not trusted ({reason}); pass --ca-bundle with the CA that signed it, "
        "or --insecure to skip verification"
    )


def escaped(text: str, limit: int = 200) -> str:
    """`text` as one safe line: control and non-ASCII characters escaped (\\x1b, \\n), cut at `limit`."""
    safe = text.encode("unicode_escape").decode("ascii")
    return safe if len(safe) <= limit else f"{safe[:limit]} ... ({len(text)} characters)"


def shown(reply: str, limit: int = 60) -> str:
    """A foreign server's raw words, quoted, escaped and cut (`escaped`)."""
    safe = reply.encode("unicode_escape").decode("ascii").replace("'", "\\'")
    return f"'{safe[:limit]}'" + (f" ... ({len(reply)} characters)" if len(safe) > limit else "")


def _probe_version(endpoint: Endpoint, context: ssl.SSLContext, timeout: float) -> str:
    """The newest API version both pyvmomi and the server speak, from `<path>/vimServiceVersions.xml`.

    pyVim's SmartConnect asks this on a connection of its own that has no timeout: a server that
    takes the connection and never answers would hang it forever. Here the whole probe (connect,
    TLS, request, answer) is one deadline.
    """
    connection = DeadlineHTTPSConnection(endpoint.host, endpoint.port, context=context, timeout=timeout)
    try:
        with deadline(timeout):
            connection.request("GET", f"{endpoint.path}/vimServiceVersions.xml")
            response = connection.getresponse()
            body = response.read()
    finally:
        connection.close()
    if response.status != 200:
        raise UnreachableError(f"{endpoint}: not a vSphere API endpoint (HTTP {response.status} for the version list)")
    try:
        root = ElementTree.fromstring(body)
    except ElementTree.ParseError as exc:
        raise UnreachableError(f"{endpoint}: not a vSphere API endpoint (unreadable version list: {exc})") from exc
    offered = {text for namespace in root.iter("namespace") for text in _namespace_versions(namespace)}
    versions: list[str] = GetServiceVersions("vim25")
    for version in versions:
        if versionIdMap.get(version) in offered:
            return version
    known = ", ".join(sorted(offered))
    raise UnreachableError(f"{endpoint}: speaks no vSphere API version this pyvmomi knows ({escaped(known)})")


def _namespace_versions(namespace: ElementTree.Element) -> list[str]:
    found = [namespace.findtext("version") or ""]
    return found + [v.text or "" for v in namespace.findall("priorVersions/version")]


def _login(endpoint: Endpoint, user: str, password: str, context: ssl.SSLContext, version: str, timeout: float) -> Any:
    """The session, logged in: pyVim's Connect, with every call under a deadline and no fault made up.

    pyVim's Connect turns any error of its first call (a time-out included) into HostConnectFault;
    here a time-out stays a time-out, so that it is reported as one, naming the login phase.
    The service content and the login are one phase, bounded as a whole by `timeout`.
    """
    stub = DeadlineStub(
        host=endpoint.host,
        port=endpoint.port,
        path=endpoint.path,
        version=version,
        sslContext=context,
        httpConnectionTimeout=timeout,
        call_timeout=timeout,
    )
    service_instance = vim.ServiceInstance("ServiceInstance", stub)
    with deadline(timeout):
        content: Any = service_instance.RetrieveContent()
        content.sessionManager.Login(user, password, None)
    stub.session_manager = content.sessionManager
    return service_instance


def connect(
    endpoint: Endpoint, user: str, password: str, context: ssl.SSLContext, timeout: float = DEFAULT_TIMEOUT_S
) -> vim.ServiceInstance:
    """Log in; every failure becomes a UsageError or UnreachableError naming the server, never the password.

    The version probe and the login are each bounded by `timeout` seconds end to end, as is each
    later SOAP call on the returned session (hostlint.collect.vsphere.deadline); a server that
    does not answer in time raises NoAnswerError naming the phase.
    """
    bounded_context(context)
    phase = "the version probe"
    try:
        version = _probe_version(endpoint, context, timeout)
        phase = "login"
        service_instance: vim.ServiceInstance = _login(endpoint, user, password, context, version, timeout)
        return service_instance
    except vim.fault.InvalidLogin as exc:
        raise UsageError(f"{endpoint}: login failed for user {user!r}: wrong user name or password") from exc
    except ssl.SSLCertVerificationError as exc:
        raise _certificate_error(endpoint, exc) from exc
    except TimeoutError as exc:
        raise NoAnswerError(endpoint, phase, timeout) from exc
    except ssl.SSLError as exc:
        raise UnreachableError(f"{endpoint}: TLS handshake failed: {exc.reason or exc}") from exc
    except socket.gaierror as exc:
        raise UnreachableError(f"{endpoint}: unknown host name ({exc.strerror})") from exc
    except http.client.BadStatusLine as exc:
        reply = shown(str(exc.args[0]) if exc.args else "")
        raise UnreachableError(f"{endpoint}: not an HTTP server: during {phase} it answered {reply}") from exc
    except (OSError, http.client.HTTPException) as exc:
        raise UnreachableError(f"{endpoint}: cannot connect during {phase}: {escaped(str(exc))}") from exc
    except vim.fault.NotAuthenticated as exc:
        raise UsageError(f"{endpoint}: not authenticated: {getattr(exc, 'msg', None)}") from exc
    except vmodl.MethodFault as exc:
        raise UnreachableError(f"{endpoint}: {phase} refused: {fault_text(exc)}") from exc


LOGOUT_S = 5.0  # a server that answers logs out in milliseconds; the session expires on its own otherwise


def disconnect(service_instance: vim.ServiceInstance) -> None:
    """Log out, bounded: at most LOGOUT_S (or the call timeout if shorter), and not at all once a call timed out.

    A server that stopped answering would only make logout wait as long again for nothing.
    """
    stub = service_instance._stub
    session_manager = getattr(stub, "session_manager", None)
    try:
        if session_manager is None or (isinstance(stub, DeadlineStub) and stub.timed_out.is_set()):
            return
        # logging out of a session that is gone already changes nothing
        bound = min(LOGOUT_S, getattr(stub, "call_timeout", LOGOUT_S))
        with deadline(bound), contextlib.suppress(OSError, http.client.HTTPException, vmodl.MethodFault):
            session_manager.Logout()
    finally:
        stub.DropConnections()
