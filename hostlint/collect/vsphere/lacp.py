"""ESXi's own LACP view of its LAG members: `esxcli network vswitch dvs vmware lacp status get`, through vCenter.

The same esxcli executor `hostlint probe` uses (hostlint.collect.probe.esxcli): the host's
ManagedMethodExecuter, moid `ha-cli-handler-network-vswitch-dvs-vmware-lacp-status`, method
`vim.EsxCLI.network.vswitch.dvs.vmware.lacp.status.get` (govmomi cli/esx: `ha-cli-handler-` and the
namespace joined by dashes; the method `vim.EsxCLI.` and the command joined by dots). It takes no
arguments and answers one item per LAG (DVSwitch, LAGID, Mode, Nic List), each NIC with its State
(Bundled, Independent, Stand-alone, Hot-standby, Down) and the LACP port state flags its end and its
partner send (Port State `ACT,AGG,SYN,COL,DIST,`).

It is read during `collect vsphere`, not opt-in: it is a read (no frame is sent), one call per host,
and only for hosts on a distributed switch with a LAG (enhanced LACP) or basic LACP enabled, where the
switch's member states alone cannot say which end is wrong. A refusal (a user without the privilege
esxcli through vCenter needs) is a collection error naming the host; the host is kept, its LACP view
unknown.
"""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any
from xml.etree import ElementTree

from hostlint.collect.probe import esxcli
from hostlint.collect.vsphere.record import Recorder
from hostlint.snapshot import Snapshot
from hostlint.snapshot.common import CollectionError
from hostlint.snapshot.esxi import EsxiHost, LacpNicStatus

MOID = "ha-cli-handler-network-vswitch-dvs-vmware-lacp-status"
METHOD = "vim.EsxCLI.network.vswitch.dvs.vmware.lacp.status.get"
# ESXi's State text -> the snapshot's (LacpNicState); anything else is `other`, its text kept.
STATES = {
    "bundled": "bundled",
    "independent": "individual",
    "individual": "individual",
    "stand-alone": "individual",
    "standalone": "individual",
    "hot-standby": "hot-standby",
    "hot standby": "hot-standby",
    "down": "down",
}


def _local(element: ElementTree.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _child(element: ElementTree.Element, name: str) -> ElementTree.Element | None:
    return next((child for child in element if _local(child) == name), None)


def _text(element: ElementTree.Element | None, name: str) -> str | None:
    found = _child(element, name) if element is not None else None
    text = (found.text or "").strip() if found is not None else ""
    return text or None


def _port_state(info: ElementTree.Element | None) -> list[str] | None:
    """`ACT,AGG,SYN,COL,DIST,` of the information block (its own or inside one DataObject)."""
    if info is None:
        return None
    inner = _child(info, "DataObject")
    holder = inner if inner is not None else info
    text = _text(holder, "PortState")
    return None if text is None else [flag.strip() for flag in text.split(",") if flag.strip()]


def _nics(element: ElementTree.Element, dvswitch: str | None, lag: str | None) -> Iterator[dict[str, Any]]:
    """Every NIC entry (an element with a Nic and a State) under `element`, with the switch and LAG above it."""
    dvswitch = _text(element, "DVSwitch") or dvswitch
    lag = _text(element, "LAGID") or lag
    nic = _text(element, "Nic")
    if nic is not None and _child(element, "State") is not None:
        state_text = _text(element, "State")
        partner = _child(element, "PartnerInformation")
        partner_object = _child(partner, "DataObject") if partner is not None else None
        yield {
            "dvswitch": dvswitch,
            "lag_id": lag,
            "nic": nic,
            "state": STATES.get((state_text or "").lower(), "other") if state_text else None,
            "state_text": state_text,
            "local_port_state": _port_state(_child(element, "LocalInformation")),
            "partner_port_state": _port_state(partner),
            "partner_device": _text(partner_object if partner_object is not None else partner, "DeviceID"),
        }
        return
    for child in element:
        yield from _nics(child, dvswitch, lag)


def parse(document: ElementTree.Element, rec: Recorder) -> list[LacpNicStatus]:
    """The LAG members of one host's answer; an entry without its switch or NIC is left out, named."""
    found: list[LacpNicStatus] = []
    for values in _nics(document, None, None):
        rec.append(found, LacpNicStatus, f"LACP status of {values['nic']}", **values)
    return found


def lacp_hosts(snapshot: Snapshot) -> list[EsxiHost]:
    """Connected hosts on a distributed switch with a LAG or basic LACP enabled."""
    wanted: set[str] = set()
    for dvs in snapshot.distributed_switches:
        basic = any(pg.uplink and pg.lacp in ("active", "passive") for pg in dvs.portgroups)
        if dvs.lags or basic:
            wanted |= {member.host_id or member.host for member in dvs.hosts}
    return [
        host
        for host in snapshot.esxi_hosts
        if host.connection_state == "connected" and host.moid is not None and {host.moid, host.name} & wanted
    ]


def _one(session: esxcli.Session, host: EsxiHost, timeout: float) -> list[CollectionError]:
    rec = Recorder(host.name, "esxi")
    try:
        mme = esxcli.executer(session, host.moid or "", timeout)  # lacp_hosts keeps hosts with an id only
        host.lacp_status = parse(esxcli.run(session, mme, MOID, METHOD, timeout), rec)
    except esxcli.SoapFault as fault:
        detail = f" (privilege {fault.privilege})" if fault.privilege else ""
        rec.note(f"LACP status (esxcli {METHOD}) not read: {fault.kind}{detail}: {fault}")
    except (esxcli.NoAnswer, OSError, http.client.HTTPException) as exc:
        rec.note(f"LACP status (esxcli {METHOD}) not read: {exc or type(exc).__name__}")
    return rec.errors


def collect_lacp(snapshot: Snapshot, session: esxcli.Session, timeout: float, concurrency: int) -> None:
    """ESXi's LACP view of each host that has a LAG, into the snapshot (errors into its collection errors)."""
    hosts = lacp_hosts(snapshot)
    if not hosts:
        return
    workers = max(1, min(concurrency, len(hosts)))
    # Two small calls per host: each thread keeps its connection (a TLS handshake per call was most of
    # their CPU). Both calls only read, so one the server closed while idle is sent again.
    with (
        esxcli.KeptConnections() as connections,
        ThreadPoolExecutor(max_workers=workers, thread_name_prefix="hostlint-lacp") as pool,
    ):
        kept = replace(session, connections=connections)
        for errors in pool.map(lambda host: _one(kept, host, timeout), hosts):
            snapshot.collection_errors += errors
