"""KVM hosts' Open vSwitch ports and Linux 802.1Q VLAN devices to `portgroups` facts: each one's VLAN
over the uplinks its frames leave by.

A Linux VLAN device (`bond0.120`, `eno1.30`; `ip link add link bond0 name bond0.120 type vlan id 120`)
tags every frame it sends with its id on its parent (ip-link(8), "VLAN Type Support"), so the switch
trunk under the parent's NICs must carry that VLAN, as for an OVS access port.

What OVS does with a port's `tag`, `trunks` and `vlan_mode` (ovs-vswitchd.conf.db(5), Port table,
"VLAN Configuration"): with no `vlan_mode`, a port with a `tag` is an access port of that VLAN and a
port without one a trunk; a trunk with an empty `trunks` carries every VLAN. `native-tagged` and
`native-untagged` trunk `trunks` and carry `tag` as the native VLAN.
"""

from __future__ import annotations

from hostlint import vlans
from hostlint.join.facts import PortgroupFact, UplinkFact
from hostlint.join.sources import kvm_unknown
from hostlint.join.state import host_missing
from hostlint.snapshot.kvm import Bridge, KvmHost, OvsPort


def _uplink_names(host: KvmHost, bridge: Bridge) -> list[str]:
    """The NICs a bridge's frames leave the host on: its bonds' members and its physical NICs."""
    bonds = {b.name: b for b in host.bonds}
    physical = {i.name for i in host.interfaces if i.kind == "physical"}
    names: list[str] = []
    for member in bridge.members:
        if member in bonds:
            names += [m.name for m in bonds[member].members]
        elif member in physical:
            names.append(member)
    return names


def _nics_below(host: KvmHost, name: str) -> list[str]:
    """The NICs a device's frames leave by: a bond's members, a physical NIC itself."""
    bonds = {b.name: b for b in host.bonds}
    if name in bonds:
        return [m.name for m in bonds[name].members]
    return [name] if name in {i.name for i in host.interfaces if i.kind == "physical"} else []


def vlan_device_portgroups(host: KvmHost, uplinks: dict[str, UplinkFact]) -> list[PortgroupFact]:
    """One fact per Linux VLAN device (in a bridge or not): its VLAN id, tagged over its parent's NICs."""
    bridge_of = {member: bridge.name for bridge in host.bridges for member in bridge.members}
    facts = []
    for vlan in host.vlans:
        nics = _nics_below(host, vlan.parent)
        bridge = bridge_of.get(vlan.name)
        fact = PortgroupFact(
            object=f"{host.name}/{bridge}/{vlan.name}" if bridge else f"{host.name}/{vlan.name}",
            host=host.name,
            host_kind="kvm",
            missing=host_missing(host),
            portgroup=vlan.name,
            vswitch=bridge or vlan.parent,
            switch_kind="linux-vlan",
            vlan_type="vlan",
            vlan=vlan.vlan_id,
            uplinks=[uplinks[nic] for nic in nics if nic in uplinks],
        )
        if not fact.uplinks:
            # Its parent's NICs are not known uplinks (the parent was not read): which trunk carries it is unknown.
            fact.missing.setdefault("switch", f"{host.name} {vlan.name}: its parent {vlan.parent} has no known uplink")
        for uplink in fact.uplinks:
            for kind, reason in uplink.missing.items():
                fact.missing.setdefault(kind, reason)
        facts.append(fact)
    return facts


def _guest_ports(host: KvmHost, bridge: Bridge) -> list[str]:
    """The bridge's ports that are neither bonds nor physical NICs: guests' taps and internal ports."""
    bonds = {b.name for b in host.bonds}
    physical = {i.name for i in host.interfaces if i.kind == "physical"}
    return [m for m in bridge.members if m not in bonds and m not in physical]


def _set_vlans(fact: PortgroupFact, port: OvsPort) -> None:
    if port.tag is not None and port.vlan_mode in (None, "access"):
        fact.vlan_type, fact.vlan = "vlan", port.tag
        return
    fact.vlan_type = "trunk"
    if not port.trunks:
        # An empty `trunks` carries every VLAN: which ones the guest tags is not known to the host.
        fact.missing["trunk_vlans"] = (
            f"{fact.host} OVS port {fact.portgroup}: no tag and no trunks, so OVS passes every VLAN; which "
            "ones the guest tags is not known to the host"
        )
        return
    carried = [*port.trunks, *([port.tag] if port.tag is not None else [])]
    ranges = vlans.merge([(vlan, vlan) for vlan in carried])
    fact.trunk_vlans = [[low, high] for low, high in ranges]
    fact.trunk_vlans_text = vlans.text(ranges)


def ovs_portgroups(host: KvmHost, uplinks: dict[str, UplinkFact]) -> list[PortgroupFact]:
    """One fact per port of each OVS bridge that is not an uplink; VLANs unknown (named) when OVSDB's
    Port table was not read."""
    ports = {p.name: p for p in host.ovs_ports or []}
    facts = []
    for bridge in host.bridges:
        if bridge.implementation != "ovs":
            continue
        bridge_uplinks = [uplinks[nic] for nic in _uplink_names(host, bridge) if nic in uplinks]
        for name in _guest_ports(host, bridge):
            fact = PortgroupFact(
                object=f"{host.name}/{bridge.name}/{name}",
                host=host.name,
                host_kind="kvm",
                missing=host_missing(host),
                portgroup=name,
                vswitch=bridge.name,
                switch_kind="ovs",
                vlan_type=None,
                vlan=None,
                uplinks=bridge_uplinks,
            )
            for uplink in bridge_uplinks:
                for kind, reason in uplink.missing.items():
                    fact.missing.setdefault(kind, reason)
            port = ports.get(name)
            if port is None:
                for field in ("vlan", "vlan_type"):
                    fact.missing[field] = kvm_unknown(host.name, f"OVS port {name}", "ovs_port_vlan")
            else:
                _set_vlans(fact, port)
            facts.append(fact)
    return facts
