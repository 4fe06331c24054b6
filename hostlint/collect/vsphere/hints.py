"""Per-host calls the API offers only per host: CDP/LLDP hints and iSCSI port bindings.

`HostNetworkSystem.QueryNetworkHint` and `IscsiManager.QueryBoundVnics` take one host (one
HBA) at a time, so they run in a bounded thread pool: enough to hide the latency of a
vCenter that is far away, few enough not to load it.

Only what can answer is asked, decided from the facts the bulk retrieval already gave:
one `QueryNetworkHint` per host naming all its pNICs whose link is up (a pNIC without a link
has no CDP/LLDP neighbour; a host with none is not asked), and `QueryBoundVnics` only for
software and dependent iSCSI adapters (an independent adapter has its own network stack and
no port binding). With the lxml parser their answers are read by the fast builder too.
"""

from __future__ import annotations

import http.client
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from pyVmomi import vim, vmodl

from hostlint.collect.limits import VSPHERE_CONCURRENCY as DEFAULT_CONCURRENCY
from hostlint.collect.vsphere import fastretrieve
from hostlint.collect.vsphere.fastretrieve import Parser
from hostlint.collect.vsphere.faults import fault_text
from hostlint.collect.vsphere.retrieve import Retrieved, RoundTrips


@dataclass
class HostHints:
    network: list[Any] = field(default_factory=list)
    bound_vnics: dict[str, list[Any]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


def iscsi_hba_names(host: Retrieved) -> list[str]:
    adapters = host.get("config.storageDevice.hostBusAdapter") or []
    return [hba.device for hba in adapters if isinstance(hba, vim.host.InternetScsiHba)]


def bindable_hba_names(host: Retrieved) -> list[str]:
    """The iSCSI adapters that take VMkernel port bindings: software and dependent hardware ones."""
    adapters = host.get("config.storageDevice.hostBusAdapter") or []
    return [
        hba.device
        for hba in adapters
        if isinstance(hba, vim.host.InternetScsiHba)
        and (hba.isSoftwareBased or hba.networkBindingSupport == "required")
    ]


def linked_pnics(host: Retrieved) -> list[str]:
    """pNICs whose link is up (the API gives a link speed only then)."""
    network = host.get("config.network")
    return [pnic.device for pnic in (network.pnic if network else None) or [] if pnic.linkSpeed is not None]


def _call(mo: Any, method: str, parser: Parser, **kwargs: Any) -> Any:
    """One per-host method, its answer read by the fast builder when the parser is lxml."""
    stub = fastretrieve.fast_stub(mo) if parser == "lxml" else None
    if stub is None:
        return getattr(mo, method)(**kwargs)
    info = mo._GetMethodInfo(method)
    args = [kwargs.get(param.name) for param in info.params]
    return fastretrieve.call(stub, mo, method, args)


def _fault_text(exc: Exception) -> str:
    if isinstance(exc, vmodl.MethodFault):
        return fault_text(exc)  # a refusal names the privilege and the object, as for the retrievals
    message = getattr(exc, "msg", None) or str(exc) or type(exc).__name__
    return f"{type(exc).__name__}: {message}" if message != type(exc).__name__ else message


NOT_ASKED = "not asked: the server stopped answering"


def _no_answer(mo: Any) -> str:
    seconds = getattr(getattr(mo, "_stub", None), "call_timeout", None)
    return f"no answer within {seconds:g} s" if seconds else "no answer within the timeout"


def _host_hints(host: Retrieved, trips: RoundTrips, hung: threading.Event, parser: Parser = "lxml") -> HostHints:
    """One host's hints; a call that times out marks the server `hung` and the calls after it are not made."""
    hints = HostHints()
    network_system = host.get("configManager.networkSystem")
    linked = linked_pnics(host)
    if network_system is not None and linked:
        try:
            hints.network = list(_call(network_system, "QueryNetworkHint", parser, device=linked) or [])
        except TimeoutError:
            hung.set()
            hints.errors.append(f"CDP/LLDP hints: {_no_answer(network_system)}")
        except (vmodl.MethodFault, OSError, http.client.HTTPException) as exc:
            hints.errors.append(f"CDP/LLDP hints: {_fault_text(exc)}")
        trips.add("QueryNetworkHint")
    iscsi_manager = host.get("configManager.iscsiManager")
    for hba in bindable_hba_names(host):
        if iscsi_manager is None:
            hints.errors.append(f"iSCSI bindings of {hba}: the host has no iSCSI manager")
            break
        if hung.is_set():
            hints.errors.append(f"iSCSI bindings of {hba}: {NOT_ASKED}")
            continue
        try:
            hints.bound_vnics[hba] = list(_call(iscsi_manager, "QueryBoundVnics", parser, iScsiHbaName=hba) or [])
        except TimeoutError:
            hung.set()
            hints.errors.append(f"iSCSI bindings of {hba}: {_no_answer(iscsi_manager)}")
        except (vmodl.MethodFault, OSError, http.client.HTTPException) as exc:
            hints.errors.append(f"iSCSI bindings of {hba}: {_fault_text(exc)}")
        trips.add("QueryBoundVnics")
    return hints


class HintQueries:
    """Per-host calls started as hosts arrive, so they overlap the retrieval of the hosts still coming.

    `submit` takes a page of retrieved hosts (a host seen before is not asked twice: a retried
    query may deliver it again); `results` waits for every call. Hosts that are not connected
    are not asked. Once one call times out, the hosts not yet asked are not asked (each would
    wait as long again), and each says so in its errors.
    """

    def __init__(
        self,
        concurrency: int = DEFAULT_CONCURRENCY,
        trips: RoundTrips | None = None,
        on_host: Callable[[Retrieved], None] | None = None,
        parser: Parser = "lxml",
    ) -> None:
        self._trips = trips if trips is not None else RoundTrips()
        self._on_host = on_host
        self._parser: Parser = parser
        self._hung = threading.Event()
        self._pool = ThreadPoolExecutor(max_workers=max(1, concurrency), thread_name_prefix="hostlint-hints")
        self._futures: dict[str, Future[HostHints]] = {}
        self._lock = threading.Lock()

    def _one(self, host: Retrieved) -> HostHints:
        try:
            if self._hung.is_set():
                return HostHints(errors=[f"CDP/LLDP hints and iSCSI bindings: {NOT_ASKED}"])
            return _host_hints(host, self._trips, self._hung, self._parser)
        finally:
            if self._on_host is not None:
                self._on_host(host)

    def submit(self, hosts: list[Retrieved]) -> None:
        with self._lock:
            for host in hosts:
                key = host.ref._moId
                if key in self._futures or host.get("runtime.connectionState") != "connected":
                    continue
                self._futures[key] = self._pool.submit(self._one, host)

    def results(self) -> dict[str, HostHints]:
        """Each asked host's hints, by managed object id, once every call has ended."""
        try:
            with self._lock:
                futures = dict(self._futures)
            return {key: future.result() for key, future in futures.items()}
        finally:
            self._pool.shutdown(wait=True)

    def close(self) -> None:
        """Stop: calls not started are dropped, those under way end within their timeout."""
        self._pool.shutdown(wait=True, cancel_futures=True)


def query_hints(
    hosts: list[Retrieved],
    concurrency: int = DEFAULT_CONCURRENCY,
    trips: RoundTrips | None = None,
    on_host: Callable[[Retrieved], None] | None = None,
    parser: Parser = "lxml",
) -> dict[str, HostHints]:
    """Hints for each host (by managed object id), all hosts known beforehand (see HintQueries)."""
    queries = HintQueries(concurrency, trips, on_host, parser)
    try:
        queries.submit(hosts)
        return queries.results()
    finally:
        queries.close()
