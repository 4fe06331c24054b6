"""One collection: bulk retrievals, then per-host hints, then conversion into a snapshot."""

from __future__ import annotations

import http.client
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TypeVar

from pyVmomi import vim, vmodl

from hostlint.collect.limits import VSPHERE_CONCURRENCY as DEFAULT_CONCURRENCY
from hostlint.collect.progress import Progress
from hostlint.collect.vsphere import convert
from hostlint.collect.vsphere.deadline import NoAnswer
from hostlint.collect.vsphere.fastretrieve import Parser, parser_from_env
from hostlint.collect.vsphere.faults import PhaseFailed, fault_text
from hostlint.collect.vsphere.health import add_health, uplink_port_keys
from hostlint.collect.vsphere.hints import HintQueries
from hostlint.collect.vsphere.record import Recorder
from hostlint.collect.vsphere.retrieve import (
    DEFAULT_PAGE_SIZE,
    HOST_SLICE,
    Places,
    Retrieved,
    RoundTrips,
    retrieve_hosts,
    retrieve_switches_and_places,
    retrieve_vms,
)
from hostlint.gcpause import gc_paused
from hostlint.snapshot import Snapshot
from hostlint.snapshot.common import CollectionError
from hostlint.snapshot.esxi import DvsHostMember

T = TypeVar("T")


@dataclass
class Collection:
    snapshot: Snapshot
    trips: RoundTrips = field(default_factory=RoundTrips)


def dvs_members(hosts: list[Retrieved]) -> dict[str, list[DvsHostMember]]:
    """Distributed switch uuid -> which pNIC backs which uplink on each member host."""
    members: dict[str, list[DvsHostMember]] = {}
    for host in hosts:
        network = host.get("config.network")
        for proxy in (network.proxySwitch if network else None) or []:
            members.setdefault(proxy.dvsUuid, []).append(
                DvsHostMember(
                    host=host.get("name"),
                    host_id=host.ref._moId,
                    uplinks=convert.host_uplinks(proxy),
                    mtu=getattr(proxy, "mtu", None) or None,
                )
            )
    return members


def _switch_id(portgroup: Retrieved) -> str | None:
    return getattr(portgroup.get("config.distributedVirtualSwitch"), "_moId", None)


def _host_errors(host: Retrieved, hint_errors: list[str]) -> list[CollectionError]:
    name = host.get("name") or host.ref._moId
    state = convert.connection_state(host)
    if state != "connected":
        return [CollectionError(target=name, kind="esxi", reason=f"host is {state}; its facts may be stale or missing")]
    errors = [
        CollectionError(target=name, kind="esxi", reason=f"property {path} not returned: {reason}")
        for path, reason in sorted(host.missing.items())
    ]
    errors += [CollectionError(target=name, kind="esxi", reason=reason) for reason in hint_errors]
    return errors


def _part(source: str, what: str, read: Callable[[], T], empty: T, refused: list[CollectionError]) -> T:
    """One bulk retrieval; a fault the server answers with is recorded and `empty` stands for the part.

    A time-out (NoAnswer) or a broken connection (PhaseFailed) ends the collection, naming the retrieval.
    """
    try:
        return read()
    except TimeoutError as exc:
        raise NoAnswer(phase=f"retrieval of {what}") from exc
    except (OSError, http.client.HTTPException) as exc:
        raise PhaseFailed(f"retrieval of {what}", exc) from exc
    except vmodl.MethodFault as fault:
        refused.append(
            CollectionError(target=source, kind="vcenter", reason=f"{what} not retrieved: {fault_text(fault)}")
        )
        return empty


@gc_paused()  # no cyclic GC while the hosts' objects pile up (hostlint.gcpause)
def collect(
    service_instance: vim.ServiceInstance,
    source: str,
    page_size: int = DEFAULT_PAGE_SIZE,
    concurrency: int = DEFAULT_CONCURRENCY,
    progress: Progress | None = None,
    parallel: int = 2,
    parser: Parser | None = None,
    slice_size: int = HOST_SLICE,
) -> Collection:
    """Everything hostlint reads from one vCenter or ESXi host, as a snapshot (never raises for one bad host).

    A retrieval the server refuses (NoPermission) becomes a collection error naming the fault, the
    privilege and the object, and the rest is still collected; a server that stops answering
    (NoAnswer: a call ran past its deadline, hostlint.collect.vsphere.deadline) ends the collection.

    `parser`: how the bulk retrievals' answers are read, `lxml` (fast) or `pyvmomi`; by default
    HOSTLINT_VSPHERE_PARSER, else lxml. Both give the same snapshot (tests/test_vsphere_fastparse.py).
    """
    parser = parser or parser_from_env()
    progress = progress or Progress()
    trips = RoundTrips()
    # Keep a connection for every concurrent call: pyvmomi closes what does not fit in its pool,
    # and each reopening costs a TLS handshake.
    stub = service_instance._stub
    stub.poolSize = max(stub.poolSize, concurrency, parallel + 2)
    content = service_instance.content
    vcenter = source if content.about.apiType == "VirtualCenter" else None

    # The distributed switches and the VMs come in on other connections while the hosts are retrieved in
    # slices of `slice_size`, `parallel` at a time: the server prepares one slice while the client reads
    # another (bench/vsphere.py --sweep).
    # Each host's own calls (CDP/LLDP hints, iSCSI bindings) start as soon as its page has arrived.
    refused: list[CollectionError] = []
    queries = HintQueries(concurrency, trips, on_host=lambda host: progress.on_host(host.get("name")), parser=parser)
    try:
        with ThreadPoolExecutor(max_workers=2, thread_name_prefix="hostlint-retrieve") as pool:
            switches_future = pool.submit(retrieve_switches_and_places, content, page_size, trips, parser)
            vms_future = pool.submit(retrieve_vms, content, page_size, trips, parser)
            hosts: list[Retrieved] = _part(
                source,
                "hosts",
                lambda: retrieve_hosts(
                    content, page_size, trips, queries.submit, parallel=parallel, parser=parser, slice_size=slice_size
                ),
                [],
                refused,
            )
            progress.on_total(len(hosts))
            no_switches: tuple[list[Retrieved], list[Retrieved], Places] = ([], [], Places())
            switches, dv_portgroups, places = _part(
                source, "distributed switches", switches_future.result, no_switches, refused
            )
            vms: list[Retrieved] = _part(source, "virtual machines", vms_future.result, [], refused)
        hints = queries.results()
    finally:
        queries.close()
    for host in hosts:
        if convert.connection_state(host) != "connected":
            progress.on_host(host.get("name"))

    names = convert.NetworkNames(
        dvs={dvs.get("uuid"): dvs.get("name") for dvs in switches},
        portgroups={pg.get("key"): pg.get("name") for pg in dv_portgroups},
        nsx=frozenset(pg.get("key") for pg in dv_portgroups if pg.get("config.backingType") == "nsx"),
    )
    about = content.about
    origin = convert.Source(
        vcenter=vcenter,
        instance_uuid=(getattr(about, "instanceUuid", None) or None) if vcenter else None,
        datacenters={
            item.ref._moId: found
            for item in (*hosts, *switches)
            if (found := places.datacenter(item.get("parent"))) is not None
        },
    )
    vms_on = convert.vms_by_host(vms, names.portgroups, refused)
    snapshot = Snapshot(collected_at=datetime.now(UTC), source=f"vsphere:{source}", collection_errors=refused)
    members = dvs_members(hosts)
    port_keys = uplink_port_keys(hosts)  # before the hosts' properties are let go below
    for host in sorted(hosts, key=lambda h: h.get("name") or ""):
        host_hints = hints.get(host.ref._moId)
        # A field the snapshot refuses is unknown with a collection error; a refused host name (a control
        # character) leaves the host out, named, never silently.
        rec = Recorder(host.get("name") or host.ref._moId, "esxi")
        esxi = convert.esxi_host(host, host_hints, origin, names, rec)
        snapshot.collection_errors += rec.errors
        if esxi is None:
            continue
        esxi.vms = vms_on.get(host.ref._moId, [])
        snapshot.esxi_hosts.append(esxi)
        snapshot.collection_errors += _host_errors(host, host_hints.errors if host_hints else [])
        # The host is in the snapshot now; its API objects go, so that the peak is one copy of the hosts, not two.
        host.props.clear()
        hints.pop(host.ref._moId, None)
    for dvs in sorted(switches, key=lambda d: d.get("name") or ""):
        own = [pg for pg in dv_portgroups if _switch_id(pg) == dvs.ref._moId]
        rec = Recorder(dvs.get("name") or dvs.ref._moId, "vcenter")
        converted = convert.distributed_switch(
            dvs, own, sorted(members.get(dvs.get("uuid"), []), key=lambda m: m.host), origin, rec
        )
        if converted is not None:
            add_health(converted, dvs, port_keys, rec)
        snapshot.collection_errors += rec.errors
        snapshot.collection_errors += [
            CollectionError(
                target=rec.target, kind="vcenter", reason=f"distributed switch: property {path} not returned: {why}"
            )
            for path, why in sorted(dvs.missing.items())
        ]
        if converted is not None:
            snapshot.distributed_switches.append(converted)
    return Collection(snapshot=snapshot, trips=trips)
