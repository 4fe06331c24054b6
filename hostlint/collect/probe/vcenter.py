"""Log in to vCenter for `hostlint probe`: the session its esxcli calls reuse, and each host's id."""

from __future__ import annotations

import ssl
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from hostlint.collect.credentials import MissingCredential, Prompt, vsphere_password
from hostlint.collect.probe.esxcli import Session
from hostlint.collect.vsphere.connect import (
    UnreachableError,
    UsageError,
    connect,
    disconnect,
    parse_server,
    tls_context,
)

if TYPE_CHECKING:
    from pyVmomi import vim


class ProbeLoginFailed(Exception):
    """No session: `usage` when the user must change something (credentials, certificate, server name)."""

    def __init__(self, message: str, usage: bool):
        super().__init__(message)
        self.usage = usage


@dataclass(frozen=True)
class Connected:
    session: Session
    # host name -> HostSystem managed object id
    host_moids: dict[str, str]
    server: str


@contextmanager
def logged_in(
    server: str, user: str, insecure: bool, ca_bundle: Path | None, timeout: float, prompt: Prompt | None
) -> Iterator[Connected]:
    """A vCenter (or ESXi) session for the probes, logged out when the block ends."""
    if insecure and ca_bundle:
        raise ProbeLoginFailed("--insecure and --ca-bundle exclude each other", usage=True)
    try:
        endpoint = parse_server(server)
        context: ssl.SSLContext = tls_context(insecure, ca_bundle)
        password = vsphere_password(str(endpoint), user, prompt)
    except (UsageError, MissingCredential) as exc:
        raise ProbeLoginFailed(str(exc), usage=True) from exc
    try:
        service_instance = connect(endpoint, user, password, context, timeout)
    except (UsageError, UnreachableError) as exc:
        raise ProbeLoginFailed(str(exc), usage=isinstance(exc, UsageError)) from exc
    try:
        host_moids = _host_ids(service_instance)
        session = Session.of(service_instance, endpoint.host, endpoint.port, endpoint.path, context)
        yield Connected(session, host_moids, str(endpoint))
    finally:
        disconnect(service_instance)


def _host_ids(service_instance: vim.ServiceInstance) -> dict[str, str]:
    """Every host's name and managed object id, in one retrieval through a container view."""
    from pyVmomi import vim, vmodl

    content = service_instance.RetrieveContent()
    if content.viewManager is None or content.propertyCollector is None:
        raise ProbeLoginFailed(f"{service_instance._stub.host}: no view manager to list the hosts", usage=False)
    view = content.viewManager.CreateContainerView(content.rootFolder, [vim.HostSystem], True)
    try:
        spec = vmodl.query.PropertyCollector.FilterSpec(
            objectSet=[
                vmodl.query.PropertyCollector.ObjectSpec(
                    obj=view,
                    skip=True,
                    selectSet=[vmodl.query.PropertyCollector.TraversalSpec(path="view", type=vim.view.ContainerView)],
                )
            ],
            propSet=[vmodl.query.PropertyCollector.PropertySpec(type=vim.HostSystem, pathSet=["name"])],
        )
        found: dict[str, str] = {}
        for item in content.propertyCollector.RetrieveContents([spec]):
            for prop in item.propSet:
                found[str(prop.val)] = item.obj._moId
        return found
    finally:
        view.Destroy()
