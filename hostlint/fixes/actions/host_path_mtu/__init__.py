"""host-path-mtu: raise a KVM guest's host path (NICs, bond, VLAN, bridge) to the guest's MTU where the
switch ports under it already carry it; its templates and rollback are in action.yaml.

The order keeps every hop at least as large as the one below it at each moment: physical NICs one
at a time (a NIC whose driver resets on an MTU change drops its link alone while the bond's other
members forward), then the bond (the kernel pushes its MTU onto its members: already there), then
VLAN devices (a VLAN's MTU may not exceed its parent's), then the bridge last. A Linux bridge's MTU
follows its smallest port unless it was set by hand (br_mtu_auto_adjust, net/bridge/br_if.c): the
step sets it, so it stays at the guest's MTU when a smaller tap joins."""

from __future__ import annotations

from typing import Any

from hostlint.fixes.actions import KVM_HOST_PLATFORMS, Applier, Expander
from hostlint.fixes.apply import ApplyError, _kvm_host
from hostlint.fixes.facts import require
from hostlint.fixes.site import Site
from hostlint.fixes.steps import CannotFix, Change
from hostlint.join.facts import Fact, GuestNicFact
from hostlint.join.kvm import guest_path_names, nic_ids
from hostlint.snapshot import Snapshot
from hostlint.snapshot.kvm import KvmHost

# Raise order by interface kind: the bottom of the path first.
RANK = {"physical": 0, "veth": 0, "bond": 1, "vlan": 2, "ovs": 3, "bridge": 3}


def _ovs_names(host: KvmHost) -> set[str]:
    """Interfaces Open vSwitch owns (its bridges and their ports, its bonds' members): their MTU is
    OVSDB's `mtu_request`; one set with `ip link` is reset by ovs-vswitchd."""
    names = {b.name for b in host.bridges if b.implementation == "ovs"}
    names |= {m for b in host.bridges if b.implementation == "ovs" for m in b.members}
    names |= {m.name for b in host.bonds if b.implementation == "ovs" for m in b.members}
    return names


def host_path_mtu(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    nic: GuestNicFact = require(fact, GuestNicFact)
    mtu = int(params["mtu"])
    host = site.kvm_host(nic.host)
    domain = next((d for d in host.domains if d.name == nic.domain), None) if host else None
    nic_id = nic.object.rsplit("/", 1)[-1]
    if host is None or domain is None or nic_id not in nic_ids(domain):
        raise CannotFix(f"{nic.object}: its host path is not in the snapshot")
    interface = domain.interfaces[nic_ids(domain).index(nic_id)]
    if nic.switch_path_mtu is None or nic.switch_path_mtu < mtu:
        raise CannotFix(f"{nic.object}: the switch ports under its path do not carry {mtu}: raise them first")
    if nic.path_max_mtu is not None and nic.path_max_mtu < mtu:
        raise CannotFix(f"{nic.object}: a driver on its path accepts at most {nic.path_max_mtu}")
    by_name = {i.name: i for i in host.interfaces}
    ovs = _ovs_names(host)
    # An Open vSwitch bond is a Port, not an Interface (no netdev of its own): its members carry its MTU.
    ovs_bonds = {b.name for b in host.bonds if b.implementation == "ovs"}
    path = [n for n in guest_path_names(host, interface) if n not in ovs_bonds]
    names = sorted(path, key=lambda n: RANK.get(by_name[n].kind, 2))
    hops: list[dict[str, Any]] = [
        {"name": n, "kind": by_name[n].kind, "before": by_name[n].mtu, "ovs": n in ovs}
        for n in names
        if (by_name[n].mtu or 0) < mtu
    ]
    if not hops:
        return []
    unread = [str(h["name"]) for h in hops if h["before"] is None]
    if unread:
        raise CannotFix(f"{nic.object}: the MTU of {', '.join(unread)} was not read, so no rollback can be written")
    top = str(nic.bridge or nic.source or hops[-1]["name"])
    nics = [h for h in hops if h["kind"] in ("physical", "veth")]
    reset = ""
    if nics:
        reset = "; many NIC drivers reset the link on an MTU change: one NIC at a time" + (
            ", the bond's other members forward meanwhile"
            if any(h["kind"] == "bond" for h in hops)
            else f": no bond, so everything on {top} loses the network for a moment"
        )
    notes = [
        f"the switch ports under {top} carry {nic.switch_path_mtu} ({', '.join(nic.switch_path)}): "
        f"raised bottom up, so no hop is ever larger than the one below it{reset}",
        f"{nic.domain}'s interface is already defined at {mtu}: it uses it from the domain's next start "
        f"(libvirt then creates its tap at {mtu}); other guests on {top} keep their MTU",
    ]
    if interface.source_type == "network":
        notes.append(
            f"{top} is the bridge of libvirt network {interface.source}: set <mtu size='{mtu}'/> in its "
            f"definition too (virsh net-edit {interface.source}), or libvirt sets it back when the network restarts"
        )
    if any(h["kind"] == "bridge" and not h["ovs"] for h in hops):
        notes.append(
            f"a Linux bridge's MTU follows its smallest port unless set by hand: {top} is set to {mtu} "
            "last, so it stays there when a guest's smaller tap joins"
        )
    return [
        Change(
            action="host-path-mtu",
            device=nic.host,
            platforms=KVM_HOST_PLATFORMS,
            target=top,
            values={"top": top, "hops": hops, "guest": nic.domain},
            after=mtu,
            before=nic.path_mtu,
            notes=notes,
        )
    ]


def _host_path_mtu(snapshot: Snapshot, change: Change) -> None:
    host = _kvm_host(snapshot, change.device)
    by_name = {i.name: i for i in host.interfaces}
    for hop in change.values["hops"]:
        if hop["name"] not in by_name:
            raise ApplyError(f"no interface {hop['name']} on {host.name}")
        by_name[hop["name"]].mtu = int(change.after)


EXPAND: Expander = host_path_mtu
APPLY: Applier = _host_path_mtu
