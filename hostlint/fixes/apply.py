"""What a planned change does to a snapshot, for simulated apply: the lookups and models several
actions' appliers share, and `apply_change`, which runs the action's own applier
(`APPLY` in hostlint/fixes/actions/<action>/).

Each applier edits a snapshot in place the way the action's commands would change
the device, so the rules can be run again on every intermediate state.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from hostlint import names
from hostlint import platforms as registry
from hostlint.fixes.actions import applier_of, under_way_of
from hostlint.fixes.steps import Change
from hostlint.join import build_facts
from hostlint.join.facts import BondFact
from hostlint.snapshot import Snapshot
from hostlint.snapshot.esxi import EsxiHost, Inheritance, PortGroup, StandardVSwitch, Teaming
from hostlint.snapshot.kvm import Bond, DomainInterface, KvmHost
from hostlint.snapshot.switch import ChannelMode, MemberState, PortChannel, Switch, SwitchPort


class ApplyError(Exception):
    """A change that names something the snapshot does not have."""


def _host(snapshot: Snapshot, name: str) -> EsxiHost:
    key = names.device_key(name)
    for host in snapshot.esxi_hosts:
        if names.device_key(host.name) == key:
            return host
    raise ApplyError(f"no ESXi host {name} in the snapshot")


def _switch(snapshot: Snapshot, name: str) -> Switch:
    key = names.device_key(name)
    for switch in snapshot.switches:
        if key in {names.device_key(a) for a in [switch.name, *switch.aliases]}:
            return switch
    raise ApplyError(f"no switch {name} in the snapshot")


def _kvm_host(snapshot: Snapshot, name: str) -> KvmHost:
    key = names.device_key(name)
    for host in snapshot.kvm_hosts:
        if names.device_key(host.name) == key:
            return host
    raise ApplyError(f"no KVM host {name} in the snapshot")


def _bond(host: KvmHost, name: str) -> Bond:
    for bond in host.bonds:
        if bond.name == name:
            return bond
    raise ApplyError(f"no bond {name} on {host.name}")


def _domain_interface(host: KvmHost, domain: str, mac: str) -> DomainInterface:
    for found in host.domains:
        if found.name == domain:
            for interface in found.interfaces:
                if interface.mac and interface.mac.lower() == mac.lower():
                    return interface
    raise ApplyError(f"no interface {mac} on domain {domain} of {host.name}")


def _vswitch(host: EsxiHost, name: str) -> StandardVSwitch:
    for vswitch in host.vswitches:
        if vswitch.name == name:
            return vswitch
    raise ApplyError(f"no vSwitch {name} on {host.name}")


def _port(switch: Switch, name: str) -> SwitchPort:
    key = names.interface_key(name)
    for port in switch.ports:
        if names.interface_key(port.name) == key:
            return port
    raise ApplyError(f"no port {name} on {switch.name}")


def _channel(switch: Switch, name: str) -> PortChannel | None:
    key = names.interface_key(name)
    return next((c for c in switch.port_channels if names.interface_key(c.name) == key), None)


# Each Teaming field and the TeamingSet field that says whether a port group pins or inherits it.
TEAMING_SET_FIELD = {
    "policy": "policy",
    "active": "order",
    "standby": "order",
    "unused": "order",
    "failure_detection": "failure_detection",
    "notify_switches": "notify_switches",
    "failback": "failback",
}


def _follow_vswitch(pg: PortGroup, old: Teaming, new: Teaming, update: dict[str, Any]) -> None:
    """A port group takes the vSwitch's new values in the fields it inherits and keeps those it pins."""
    if pg.teaming_set is None:
        # Not collected (an older or hand-written snapshot): one without a teaming of its own is
        # taken to inherit, as that snapshot states it; `plan` names such port groups.
        if pg.teaming is None or pg.teaming == old:
            pg.teaming = None
        return
    inherited = {
        name: value for name, value in update.items() if getattr(pg.teaming_set, TEAMING_SET_FIELD[name]) == "inherited"
    }
    after = (pg.teaming or old).model_copy(update=inherited)
    pg.teaming = None if after == new else after


def _set_teaming(snapshot: Snapshot, change: Change, update: dict[str, Any]) -> None:
    values = change.values
    host = _host(snapshot, change.device)
    if values["kind"] == "dvs-portgroup":
        dvs = next((d for d in snapshot.distributed_switches if d.name == values["vswitch"]), None)
        dv_pg = next((p for p in dvs.portgroups if p.name == values["portgroup"]), None) if dvs else None
        if dv_pg is None or dv_pg.teaming is None:
            raise ApplyError(
                f"no distributed port group {values['vswitch']}/{values['portgroup']} with a known teaming"
            )
        dv_pg.teaming = dv_pg.teaming.model_copy(update=update)
        return
    vswitch = _vswitch(host, values["vswitch"])
    if values["kind"] == "vss":
        old = vswitch.teaming
        vswitch.teaming = old.model_copy(update=update)
        for portgroup in host.portgroups:
            if portgroup.vswitch == vswitch.name:
                _follow_vswitch(portgroup, old, vswitch.teaming, update)
        return
    pg = next((p for p in host.portgroups if p.name == values["portgroup"] and p.vswitch == vswitch.name), None)
    if pg is None:
        raise ApplyError(f"no port group {values['portgroup']} on {host.name}/{vswitch.name}")
    pg.teaming = (pg.teaming or vswitch.teaming).model_copy(update=update)
    if pg.teaming_set is not None:
        # Setting a field on the port group pins it there.
        pinned: dict[str, Inheritance] = {TEAMING_SET_FIELD[name]: "pinned" for name in update}
        pg.teaming_set = dataclasses.replace(pg.teaming_set, **pinned)


def _pnic_port(snapshot: Snapshot, host: EsxiHost, nic: str) -> tuple[Any, SwitchPort | None]:
    pnic = next((p for p in host.pnics if p.name == nic), None)
    if pnic is None:
        raise ApplyError(f"no {nic} on {host.name}")
    if pnic.neighbour is not None:
        switch, port = pnic.neighbour.device_id, pnic.neighbour.port_id
    else:
        # No CDP/LLDP neighbour: the cable the site's cabling file gives (as the join reads it), so a
        # site cabled by file negotiates its links in the simulation too.
        key = (names.device_key(host.name), nic.casefold())
        cable = next((c for c in snapshot.cabling if (names.device_key(c.host), c.nic.casefold()) == key), None)
        if cable is None:
            return pnic, None
        switch, port = cable.switch, cable.port
    try:
        return pnic, _port(_switch(snapshot, switch), port)
    except ApplyError:
        return pnic, None


def _negotiate(pnic: Any, port: SwitchPort | None) -> None:
    """Both ends auto: they agree on full duplex. One end still forced: the auto end falls to half.
    Both forced: each end runs what it is set to."""
    if port is None:
        return
    host_auto = pnic.configured_speed_mbps is None and pnic.configured_duplex is None
    port_auto = port.configured_speed_mbps is None and port.configured_duplex is None
    if host_auto and port_auto:
        pnic.duplex = port.duplex = "full"
    elif host_auto != port_auto:
        auto_end = pnic if host_auto else port
        auto_end.duplex = "half"
    else:
        # Both ends forced: each runs the duplex it is set to.
        pnic.duplex = pnic.configured_duplex or pnic.duplex
        port.duplex = port.configured_duplex or port.duplex


def _join_channel(
    switch: Switch, interface: str, ports: list[str], mode: ChannelMode, multichassis_id: int | None
) -> None:
    channel = _channel(switch, interface)
    members = [_port(switch, name) for name in ports]
    if channel is None:
        # A new channel takes its settings (MTU) from its first member.
        channel = PortChannel(name=interface, mode=mode, members=[], mtu=members[0].mtu)
        switch.port_channels.append(channel)
    channel.mode = mode
    if multichassis_id is not None:
        channel.multichassis_id = multichassis_id
    for port in members:
        port.port_channel = channel.name
        if port.name not in channel.members:
            channel.members.append(port.name)
        # A port that is up bundles into a static channel, and into an LACP channel once its host
        # answers LACP (which the fixes only ask for towards hosts that do; _renegotiate corrects
        # bonds that do not).
        port.member_state = "bundled" if port.status == "up" else "down"


def _vlan_interface(switch: Switch, name: str) -> SwitchPort | PortChannel:
    return _channel(switch, name) or _port(switch, name)


def _on_switch(switch: str) -> Callable[[BondFact], bool]:
    key = names.device_key(switch)
    return lambda bond: any(names.device_key(u.switch or "") == key for u in bond.uplinks)


def _renegotiate(snapshot: Snapshot, touched: Callable[[BondFact], bool]) -> None:
    """What /proc/net/bonding shows once LACP has (not) converged on the 802.3ad bonds `touched` picks.

    Every member whose switch port is in one LACP channel gets the switch as partner, all in one
    aggregator; otherwise no partner answers and each member sits in an aggregator of its own.
    """
    for fact in build_facts(snapshot).bonds:
        if fact.implementation != "linux" or not touched(fact):
            continue
        bond = _bond(_kvm_host(snapshot, fact.host), fact.vswitch)
        up = [u for u in fact.uplinks if u.link_up]
        negotiated = (
            bond.mode == "802.3ad"
            and bool(up)
            and len({u.channel_id for u in up}) == 1
            and all(u.channel_mode in ("lacp-active", "lacp-passive") for u in up)
        )
        for uplink in up:
            if uplink.channel_mode in ("lacp-active", "lacp-passive") and uplink.switch and uplink.port:
                # An LACP member whose host does not answer: suspended (stand-alone on IOS).
                port = _port(_switch(snapshot, uplink.switch), uplink.port)
                entry = registry.find_switch(uplink.platform)
                lone: MemberState = entry.unanswered_lacp_member if entry else "suspended"
                # A member `lacp max-bundle` holds in hot-standby stays there once LACP converges.
                standby = port.member_state == "hot-standby"
                port.member_state = ("hot-standby" if standby else "bundled") if negotiated else lone
        if bond.mode != "802.3ad":
            bond.partner_mac = bond.active_aggregator_id = None
            for member in bond.members:
                member.partner_mac = member.aggregator_id = None
            continue
        host = _kvm_host(snapshot, fact.host)
        neighbour = next((i.neighbour for i in host.interfaces if i.name == up[0].nic), None) if up else None
        partner = (neighbour.device_id if neighbour else up[0].switch) if negotiated else "00:00:00:00:00:00"
        bond.partner_mac = partner
        bond.active_aggregator_id = 1
        for number, member in enumerate(bond.members, 1):
            member.partner_mac = partner
            member.aggregator_id = 1 if negotiated else number


def apply_under_way(snapshot: Snapshot, change: Change) -> bool:
    """Put `snapshot` in the state it is in while `change` runs; False when that is just the before."""
    under_way = under_way_of(change.action)
    if under_way is None:
        return False
    under_way(snapshot, change)
    return True


def apply_change(snapshot: Snapshot, change: Change) -> None:
    applier = applier_of(change.action)
    if applier is None:
        raise ApplyError(f"no model of what {change.action} does; cannot simulate it")
    applier(snapshot, change)
