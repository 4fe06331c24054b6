"""Bulk retrieval: one PropertyCollector query per object kind through a ContainerView, paged.

No attribute walking: reading `host.config.network` on a pyvmomi managed object costs a round
trip per object and per property; one `RetrievePropertiesEx` returns them for every host at once,
`maxObjects` at a time, and `ContinueRetrievePropertiesEx` fetches the following pages.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from pyVmomi import vim, vmodl

from hostlint.collect.vsphere import fastretrieve
from hostlint.collect.vsphere.fastparse import Projection
from hostlint.collect.vsphere.fastretrieve import Parser

PC = vmodl.query.PropertyCollector

HOST_PROPERTIES = (
    "name",
    "runtime.connectionState",
    "runtime.inMaintenanceMode",
    "config.product.version",
    "config.network",
    "config.virtualNicManagerInfo",
    "config.storageDevice.hostBusAdapter",
    "configManager.networkSystem",
    "configManager.iscsiManager",
    "hardware.pciDevice",
    "parent",  # its cluster or compute resource: the way to its datacenter (retrieve_places)
)
# Of the large host properties, the parts convert.py and hints.py read: the fast parser builds only
# these (PCI devices and the VMkernel NICs offered to each service are most of a host's XML). A
# field not named here holds fastparse.NotRead, which raises when used; the pyvmomi parser builds all.
# Of a network policy (a vSwitch's, a port group's own and its computed one) the teaming alone is read:
# security, traffic shaping and offload are most of each. Of a storage adapter, what tells an iSCSI
# adapter's kind, its NIC and its targets (its capabilities and properties are most of it).
_TEAMING_ONLY = Projection.only("nicTeaming")
HOST_PROJECTIONS = {
    "config.network": Projection.only(
        "pnic",
        "vnic",
        "proxySwitch",
        "opaqueNetwork",
        vswitch=Projection.within(spec=Projection.within(policy=_TEAMING_ONLY)),
        portgroup=Projection.within(spec=Projection.within(policy=_TEAMING_ONLY), computedPolicy=_TEAMING_ONLY),
    ),
    "config.virtualNicManagerInfo": Projection.within(
        netConfig=Projection.within(candidateVnic=Projection.only("key", "device"))
    ),
    "config.storageDevice.hostBusAdapter": Projection.only(
        "device", "pci", "isSoftwareBased", "networkBindingSupport", "configuredSendTarget", "configuredStaticTarget"
    ),
    "hardware.pciDevice": Projection.only("id", "classId", "vendorName", "deviceName", "deviceClassName"),
}
VM_PROPERTIES = (
    "name",
    "runtime.host",
    "config.template",
    "config.hardware.numCPU",
    "config.cpuHotAddEnabled",
    "config.hardware.device",
)
# `runtime`: the health check results of each host member (hostlint.collect.vsphere.health).
DVS_PROPERTIES = ("name", "uuid", "config", "parent", "runtime")
PORTGROUP_PROPERTIES = ("name", "key", "config.distributedVirtualSwitch", "config.defaultPortConfig", "config.uplink")
# Since vSphere API 7.0 (DVPortgroupConfigInfo.backingType, `nsx` for a port group NSX created): asked
# only of servers that have it, as an unknown property path fails the whole query.
PORTGROUP_PROPERTIES_7 = (*PORTGROUP_PROPERTIES, "config.backingType")
# The containers between a host or switch and its datacenter: what qualifies a name that repeats.
PLACES: dict[type, Sequence[str]] = {
    vim.Datacenter: ("name",),
    vim.Folder: ("parent",),
    vim.ComputeResource: ("parent",),
}

DEFAULT_PAGE_SIZE = 500
HOST_SLICE = 50  # hosts per query when hosts are retrieved in parallel: bench/vsphere.py --sweep


@dataclass
class Retrieved:
    """One managed object's requested properties; `missing` holds properties the server would not give."""

    ref: vim.ManagedEntity
    props: dict[str, Any]
    missing: dict[str, str] = field(default_factory=dict)

    def get(self, path: str, default: Any = None) -> Any:
        return self.props.get(path, default)


@dataclass
class RoundTrips:
    """SOAP calls made, by method: the benchmark's and the progress bar's measure of work.

    `fallbacks`: objects the fast parser handed to pyvmomi, by reason (see fastretrieve).
    """

    calls: dict[str, int] = field(default_factory=dict)
    fallbacks: dict[str, int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, method: str, count: int = 1) -> None:
        with self._lock:
            self.calls[method] = self.calls.get(method, 0) + count

    def fell_back(self, reasons: dict[str, int]) -> None:
        with self._lock:
            for reason, count in reasons.items():
                self.fallbacks[reason] = self.fallbacks.get(reason, 0) + count

    @property
    def total(self) -> int:
        return sum(self.calls.values())


def _fault_reason(fault: Any) -> str:
    return getattr(fault, "msg", None) or type(fault).__name__


def _missing_reason(missing: vmodl.query.PropertyCollector.MissingProperty) -> str:
    return _fault_reason(missing.fault)


def _paged(
    collector: vmodl.query.PropertyCollector,
    spec: vmodl.query.PropertyCollector.FilterSpec,
    page_size: int,
    trips: RoundTrips,
    on_page: Callable[[list[Retrieved]], None] | None,
    parser: Parser = "lxml",
    projections: dict[str, Projection] | None = None,
) -> list[Retrieved]:
    stub = fastretrieve.fast_stub(collector) if parser == "lxml" else None
    if stub is not None:
        return _paged_fast(collector, stub, spec, page_size, trips, on_page, projections)
    result = collector.RetrievePropertiesEx([spec], PC.RetrieveOptions(maxObjects=page_size))
    trips.add("RetrievePropertiesEx")
    found: list[Retrieved] = []
    while result is not None:
        page = [
            Retrieved(
                ref=item.obj,
                props={prop.name: prop.val for prop in item.propSet},
                missing={m.path: _missing_reason(m) for m in item.missingSet or []},
            )
            for item in result.objects
        ]
        found += page
        if on_page is not None:
            on_page(page)
        if not result.token:
            break
        result = collector.ContinueRetrievePropertiesEx(result.token)
        trips.add("ContinueRetrievePropertiesEx")
    return found


def _paged_fast(
    collector: vmodl.query.PropertyCollector,
    stub: Any,
    spec: vmodl.query.PropertyCollector.FilterSpec,
    page_size: int,
    trips: RoundTrips,
    on_page: Callable[[list[Retrieved]], None] | None,
    projections: dict[str, Projection] | None,
) -> list[Retrieved]:
    found: list[Retrieved] = []
    for page in fastretrieve.retrieve_pages(collector, stub, spec, page_size, trips.add, projections):
        trips.fell_back(page.fallbacks)
        retrieved = [
            Retrieved(
                ref=item.ref,
                props=item.props,
                missing={path: _fault_reason(fault) for path, fault in item.missing.items()},
            )
            for item in page.items
        ]
        found += retrieved
        if on_page is not None:
            on_page(retrieved)
    return found


def retrieve(
    content: vim.ServiceInstanceContent,
    kinds: dict[type, Sequence[str]],
    page_size: int = DEFAULT_PAGE_SIZE,
    trips: RoundTrips | None = None,
    on_page: Callable[[list[Retrieved]], None] | None = None,
    parser: Parser = "lxml",
    projections: dict[str, Projection] | None = None,
) -> list[Retrieved]:
    """Properties `kinds[type]` of every object of those types in the inventory, in one paged query."""
    trips = trips if trips is not None else RoundTrips()
    if content.viewManager is None:  # every vCenter and ESXi host has one
        raise vmodl.fault.NotSupported(msg="the server offers no ViewManager")
    view = content.viewManager.CreateContainerView(content.rootFolder, list(kinds), True)
    trips.add("CreateContainerView")
    try:
        traversal = PC.TraversalSpec(name="view", type=vim.view.ContainerView, path="view", skip=False)
        spec = PC.FilterSpec(
            objectSet=[PC.ObjectSpec(obj=view, skip=True, selectSet=[traversal])],
            propSet=[PC.PropertySpec(type=kind, pathSet=list(paths), all=False) for kind, paths in kinds.items()],
        )
        return _paged(content.propertyCollector, spec, page_size, trips, on_page, parser, projections)
    finally:
        view.DestroyView()
        trips.add("DestroyView")


def retrieve_objects(
    content: vim.ServiceInstanceContent,
    kind: type,
    refs: Sequence[vim.ManagedEntity],
    paths: Sequence[str],
    page_size: int = DEFAULT_PAGE_SIZE,
    trips: RoundTrips | None = None,
    on_page: Callable[[list[Retrieved]], None] | None = None,
    parser: Parser = "lxml",
    projections: dict[str, Projection] | None = None,
) -> list[Retrieved]:
    """Properties of the objects named in `refs` (no view), in one paged query.

    An object removed since its reference was read fails the whole query; it is left out and
    the query repeated.
    """
    trips = trips if trips is not None else RoundTrips()
    remaining = list(refs)
    while remaining:
        spec = PC.FilterSpec(
            objectSet=[PC.ObjectSpec(obj=ref, skip=False) for ref in remaining],
            propSet=[PC.PropertySpec(type=kind, pathSet=list(paths), all=False)],
        )
        try:
            return _paged(content.propertyCollector, spec, page_size, trips, on_page, parser, projections)
        except vmodl.fault.ManagedObjectNotFound as exc:
            gone = getattr(exc.obj, "_moId", None)
            if gone is None or gone not in {ref._moId for ref in remaining}:
                raise
            remaining = [ref for ref in remaining if ref._moId != gone]
    return []


def retrieve_hosts(
    content: vim.ServiceInstanceContent,
    page_size: int = DEFAULT_PAGE_SIZE,
    trips: RoundTrips | None = None,
    on_page: Callable[[list[Retrieved]], None] | None = None,
    parallel: int = 1,
    parser: Parser = "lxml",
    slice_size: int = HOST_SLICE,
    projections: dict[str, Projection] | None = HOST_PROJECTIONS,
) -> list[Retrieved]:
    """Every host's properties; with `parallel` > 1, in queries over slices of `slice_size` hosts
    (at most `page_size`), `parallel` of them in flight.

    A server builds a whole page before it sends its first byte, and the client parses under the
    GIL: small slices, a few in flight, keep both busy, the server preparing the next slice while
    the client reads one. `projections`: what the fast parser builds (None: everything).
    """
    trips = trips if trips is not None else RoundTrips()
    if parallel <= 1:
        return retrieve(content, {vim.HostSystem: HOST_PROPERTIES}, page_size, trips, on_page, parser, projections)
    refs = [host.ref for host in retrieve(content, {vim.HostSystem: ("name",)}, page_size, trips, parser=parser)]
    size = max(1, min(slice_size, page_size))
    slices = [refs[start : start + size] for start in range(0, len(refs), size)]
    with ThreadPoolExecutor(
        max_workers=min(parallel, len(slices)) or 1, thread_name_prefix="hostlint-retrieve"
    ) as pool:
        parts = pool.map(
            lambda part: retrieve_objects(
                content, vim.HostSystem, part, HOST_PROPERTIES, page_size, trips, on_page, parser, projections
            ),
            slices,
        )
        return [host for part in parts for host in part]


def retrieve_switches(
    content: vim.ServiceInstanceContent,
    page_size: int = DEFAULT_PAGE_SIZE,
    trips: RoundTrips | None = None,
    parser: Parser = "lxml",
) -> tuple[list[Retrieved], list[Retrieved]]:
    """Distributed switches and their port groups, in one query."""
    switches, portgroups, _ = retrieve_switches_and_places(content, page_size, trips, parser, places=False)
    return switches, portgroups


def retrieve_switches_and_places(
    content: vim.ServiceInstanceContent,
    page_size: int = DEFAULT_PAGE_SIZE,
    trips: RoundTrips | None = None,
    parser: Parser = "lxml",
    places: bool = True,
) -> tuple[list[Retrieved], list[Retrieved], Places]:
    """Distributed switches, their port groups and (with `places`) the datacenters and the containers
    between them and the hosts and switches, in one query: no round trip more than the switches alone."""
    portgroup_paths = PORTGROUP_PROPERTIES_7 if _api_major(content) >= 7 else PORTGROUP_PROPERTIES
    kinds: dict[type, Sequence[str]] = {
        vim.DistributedVirtualSwitch: DVS_PROPERTIES,
        vim.dvs.DistributedVirtualPortgroup: portgroup_paths,
        **(PLACES if places else {}),
    }
    found = retrieve(content, kinds, page_size, trips, parser=parser)
    switches = [r for r in found if isinstance(r.ref, vim.DistributedVirtualSwitch)]
    portgroups = [r for r in found if isinstance(r.ref, vim.dvs.DistributedVirtualPortgroup)]
    containers = [r for r in found if isinstance(r.ref, tuple(PLACES))]
    return switches, portgroups, _places(containers)


def retrieve_vms(
    content: vim.ServiceInstanceContent,
    page_size: int = DEFAULT_PAGE_SIZE,
    trips: RoundTrips | None = None,
    parser: Parser = "lxml",
) -> list[Retrieved]:
    return retrieve(content, {vim.VirtualMachine: VM_PROPERTIES}, page_size, trips, parser=parser)


def _api_major(content: vim.ServiceInstanceContent) -> int:
    version = getattr(content.about, "apiVersion", None) or ""
    head = version.split(".", 1)[0]
    return int(head) if head.isdigit() else 0


@dataclass
class Places:
    """Datacenter names and each container's parent, by managed object id (retrieve_places)."""

    datacenters: dict[str, str] = field(default_factory=dict)
    parents: dict[str, str | None] = field(default_factory=dict)

    def datacenter(self, parent: Any) -> str | None:
        """The name of the datacenter above an object whose `parent` property is `parent`."""
        step: str | None = getattr(parent, "_moId", None)
        for _ in range(64):  # folders nest; a cycle would be a server's bug, not a reason to hang
            if step is None or step in self.datacenters:
                break
            step = self.parents.get(step)
        return self.datacenters.get(step) if step is not None else None


def _places(found: list[Retrieved]) -> Places:
    return Places(
        datacenters={item.ref._moId: item.get("name") for item in found if isinstance(item.ref, vim.Datacenter)},
        parents={item.ref._moId: getattr(item.get("parent"), "_moId", None) for item in found},
    )
