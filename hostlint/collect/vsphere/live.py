"""A live vCenter or ESXi host into a snapshot: log in, collect, log out. No user interface here.

The command line (`hostlint collect vsphere`, `check --vsphere`) and the scheduled scan
(`scan --inventory`) both call `live_snapshot`; they differ only in how they ask for a password
(a prompt on a terminal, or none) and where they show what happened.
"""

from __future__ import annotations

import http.client
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from hostlint.collect.credentials import MissingCredential, Prompt, vsphere_password
from hostlint.collect.limits import VSPHERE_CONCURRENCY as DEFAULT_CONCURRENCY
from hostlint.collect.limits import VSPHERE_TIMEOUT_S as DEFAULT_TIMEOUT_S
from hostlint.collect.probe.esxcli import Session
from hostlint.collect.progress import Progress
from hostlint.collect.vsphere.collector import collect
from hostlint.collect.vsphere.connect import (
    NoAnswerError,
    UnreachableError,
    UsageError,
    connect,
    disconnect,
    escaped,
    parse_server,
    tls_context,
)
from hostlint.collect.vsphere.fastretrieve import ParserChoiceError, parser_from_env
from hostlint.collect.vsphere.faults import PhaseFailed
from hostlint.collect.vsphere.lacp import collect_lacp
from hostlint.collect.vsphere.retrieve import DEFAULT_PAGE_SIZE
from hostlint.snapshot import Snapshot
from hostlint.wording import plural

if TYPE_CHECKING:
    from hostlint.collect.vsphere.esxi_ssh import SshSettings


class CollectFailed(Exception):
    """No snapshot at all; the message names the server and why. `usage`: the user must change something."""

    def __init__(self, message: str, usage: bool = False):
        super().__init__(message)
        self.usage = usage


@dataclass(frozen=True)
class VsphereTarget:
    """One vCenter or ESXi host and how to collect it."""

    server: str
    user: str = "administrator@vsphere.local"
    insecure: bool = False
    ca_bundle: Path | None = None
    concurrency: int = DEFAULT_CONCURRENCY
    page_size: int = DEFAULT_PAGE_SIZE
    timeout: float = DEFAULT_TIMEOUT_S
    esxi_ssh: SshSettings | None = None


def live_snapshot(
    target: VsphereTarget,
    prompt: Prompt | None = None,
    progress: Progress | None = None,
    log: Callable[[str], None] = lambda message: None,
) -> Snapshot:
    """Log in, collect, log out; raises CollectFailed when there is nothing to show.

    The snapshot may carry collection errors (a disconnected host, a denied retrieval), which the
    caller turns into exit 3. Every wait on the server is bounded by `target.timeout`.
    """
    from pyVmomi import vmodl

    if target.insecure and target.ca_bundle:
        raise CollectFailed("--insecure and --ca-bundle exclude each other", usage=True)
    try:
        endpoint = parse_server(target.server)
        context = tls_context(target.insecure, target.ca_bundle)
        parser = parser_from_env()
        password = vsphere_password(str(endpoint), target.user, prompt)
    except (UsageError, MissingCredential, ParserChoiceError) as exc:
        raise CollectFailed(str(exc), usage=True) from exc
    try:
        service_instance = connect(endpoint, target.user, password, context, target.timeout)
    except (UsageError, UnreachableError) as exc:
        raise CollectFailed(str(exc), usage=isinstance(exc, UsageError)) from exc
    try:
        collection = collect(
            service_instance, str(endpoint), target.page_size, target.concurrency, progress, parser=parser
        )
        # ESXi's LACP view where a host has a LAG: through the same session, before it logs out.
        session = Session.of(service_instance, endpoint.host, endpoint.port, endpoint.path, context)
        collect_lacp(collection.snapshot, session, target.timeout, target.concurrency)
    except TimeoutError as exc:
        phase = getattr(exc, "phase", None) or "retrieval"
        raise CollectFailed(str(NoAnswerError(endpoint, phase, target.timeout))) from exc
    except PhaseFailed as exc:
        raise CollectFailed(f"{endpoint}: collection failed during {exc.phase}: {escaped(exc.reason)}") from exc
    except (vmodl.MethodFault, OSError, http.client.HTTPException) as exc:
        reason = getattr(exc, "msg", None) or str(exc) or type(exc).__name__
        raise CollectFailed(f"{endpoint}: collection failed: {escaped(reason)}") from exc
    finally:
        disconnect(service_instance)  # bounded, and skipped once a call has timed out (connect.disconnect)
    snapshot = collection.snapshot
    log(
        f"{plural(len(snapshot.esxi_hosts), 'host')}, "
        f"{plural(len(snapshot.distributed_switches), 'distributed switch', 'distributed switches')} "
        f"from {endpoint} in {plural(collection.trips.total, 'call')}"
    )
    if target.esxi_ssh is not None:
        from hostlint.collect.vsphere.esxi_ssh import collect_pcie_links

        snapshot.collection_errors += collect_pcie_links(snapshot.esxi_hosts, target.esxi_ssh, target.concurrency)
    return snapshot
