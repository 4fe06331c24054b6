"""KVM hosts' Open vSwitch ports to `portgroups` facts: each port's VLAN over its bridge's uplinks.

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
