"""Logging in to vCenter or ESXi: where (`--server`), how TLS is checked, and what goes wrong."""

from __future__ import annotations

import contextlib
import http.client
import socket
import ssl
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit
from xml.etree import ElementTree

from pyVim.connect import Connect, Disconnect
from pyVmomi import vim
from pyVmomi.VmomiSupport import GetServiceVersions, versionIdMap

from hostlint.collect.limits import VSPHERE_TIMEOUT_S as DEFAULT_TIMEOUT_S


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
    """A host name, `host:port`, `[v6]:port` or URL (`https://vc.example.net/sdk`)."""
    text = server.strip()
    if not text:
        raise UsageError("--server is empty")
    if "://" not in text:
        text = f"https://{text}"
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


def _probe_version(endpoint: Endpoint, context: ssl.SSLContext, timeout: float) -> str:
    """The newest API version both pyvmomi and the server speak, from `<path>/vimServiceVersions.xml`.

    pyVim's SmartConnect asks this on a connection of its own that has no timeout: a server that
    takes the connection and never answers would hang it forever. Here every wait is bounded.
    """
    connection = http.client.HTTPSConnection(endpoint.host, endpoint.port, context=context, timeout=timeout)
    try:
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
    raise UnreachableError(f"{endpoint}: speaks no vSphere API version this pyvmomi knows ({known})")


def _namespace_versions(namespace: ElementTree.Element) -> list[str]:
    found = [namespace.findtext("version") or ""]
    return found + [v.text or "" for v in namespace.findall("priorVersions/version")]


def connect(
    endpoint: Endpoint, user: str, password: str, context: ssl.SSLContext, timeout: float = DEFAULT_TIMEOUT_S
) -> vim.ServiceInstance:
    """Log in; every failure becomes a UsageError or UnreachableError naming the server, never the password.

    Every wait (TCP connect, TLS handshake, the version probe, login and each later SOAP call on the
    returned session) is bounded by `timeout` seconds; a server that does not answer in time raises
    NoAnswerError naming the phase.
    """
    phase = "the version probe"
    try:
        version = _probe_version(endpoint, context, timeout)
        phase = "login"
        service_instance: vim.ServiceInstance = Connect(
            host=endpoint.host,
            port=endpoint.port,
            path=endpoint.path,
            user=user,
            pwd=password,
            version=version,
            sslContext=context,
            httpConnectionTimeout=timeout,
        )
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
    except (OSError, http.client.HTTPException) as exc:
        raise UnreachableError(f"{endpoint}: cannot connect: {exc}") from exc
    except vim.fault.NotAuthenticated as exc:
        raise UsageError(f"{endpoint}: not authenticated: {getattr(exc, 'msg', None)}") from exc
    except vim.fault.VimFault as exc:
        raise UnreachableError(f"{endpoint}: {type(exc).__name__}: {getattr(exc, 'msg', None)}") from exc


def disconnect(service_instance: vim.ServiceInstance) -> None:
    # logging out of a session that is gone already changes nothing
    with contextlib.suppress(OSError, http.client.HTTPException, vim.fault.VimFault):
        Disconnect(service_instance)
