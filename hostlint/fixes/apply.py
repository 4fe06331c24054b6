"""What a planned change does to a snapshot: the model of each fix action, for simulated apply.

Each applier edits a snapshot in place the way the action's commands would change
the device, so the rules can be run again on every intermediate state.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from hostlint import names, vlans
from hostlint import platforms as registry
from hostlint.fixes.spelling import jumbo_ip_mtu
from hostlint.fixes.steps import Change
from hostlint.join import build_facts
from hostlint.join.facts import BondFact
from hostlint.snapshot import Snapshot
from hostlint.snapshot.esxi import EsxiHost, Inheritance, PortGroup, StandardVSwitch, Teaming
from hostlint.snapshot.kvm import Bond, DomainInterface, KvmHost
from hostlint.snapshot.switch import ChannelMode, LoadBalance, MemberState, PortChannel, Switch, SwitchPort


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
        if dv_pg is None:
            raise ApplyError(f"no distributed port group {values['vswitch']}/{values['portgroup']}")
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


def _host_teaming(snapshot: Snapshot, change: Change) -> None:
    _set_teaming(snapshot, change, {"policy": change.after})


def _host_active_uplinks(snapshot: Snapshot, change: Change) -> None:
    after = change.after
    _set_teaming(
        snapshot,
        change,
        {
            "active": list(after["active"]),
            "standby": list(after["standby"]),
            "unused": [],
            "failure_detection": after["failure_detection"],
        },
    )
    if after["removed"] and change.values["kind"] == "vss":
        vswitch = _vswitch(_host(snapshot, change.device), change.values["vswitch"])
        vswitch.uplinks = [nic for nic in vswitch.uplinks if nic not in after["removed"]]


def _host_vswitch_mtu(snapshot: Snapshot, change: Change) -> None:
    _vswitch(_host(snapshot, change.device), change.values["vswitch"]).mtu = int(change.after)


def _vmk_mtu(snapshot: Snapshot, change: Change) -> None:
    host = _host(snapshot, change.device)
    vmk = next((v for v in host.vmks if v.name == change.target), None)
    if vmk is None:
        raise ApplyError(f"no {change.target} on {host.name}")
    vmk.mtu = int(change.after)


def _pnic_port(snapshot: Snapshot, host: EsxiHost, nic: str) -> tuple[Any, SwitchPort | None]:
    pnic = next((p for p in host.pnics if p.name == nic), None)
    if pnic is None:
        raise ApplyError(f"no {nic} on {host.name}")
    if pnic.neighbour is None:
        return pnic, None
    try:
        return pnic, _port(_switch(snapshot, pnic.neighbour.device_id), pnic.neighbour.port_id)
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


def _host_nic_autoneg(snapshot: Snapshot, change: Change) -> None:
    host = _host(snapshot, change.device)
    pnic, port = _pnic_port(snapshot, host, change.values["nic"])
    pnic.configured_speed_mbps = pnic.configured_duplex = None
    _negotiate(pnic, port)


def _switch_port_autoneg(snapshot: Snapshot, change: Change) -> None:
    switch = _switch(snapshot, change.device)
    port = _port(switch, change.values["port"])
    port.configured_speed_mbps = port.configured_duplex = None
    for host in snapshot.esxi_hosts:
        for pnic in host.pnics:
            neighbour = pnic.neighbour
            if (
                neighbour
                and names.device_key(neighbour.device_id) == names.device_key(switch.name)
                and (names.interface_key(neighbour.port_id) == names.interface_key(port.name))
            ):
                _negotiate(pnic, port)


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


def _switch_static_port_channel(snapshot: Snapshot, change: Change) -> None:
    values = change.values
    multichassis_id = values["number"] if values.get("multichassis") else None
    _join_channel(_switch(snapshot, change.device), values["interface"], values["ports"], "static", multichassis_id)


def _switch_channel_mode_static(snapshot: Snapshot, change: Change) -> None:
    values = change.values
    _join_channel(_switch(snapshot, change.device), values["interface"], values["members"], "static", None)
    _renegotiate(snapshot, _on_switch(change.device))


def _switch_hash(snapshot: Snapshot, change: Change) -> None:
    _switch(snapshot, change.device).load_balance = LoadBalance(hash=change.after, raw=change.values.get("command"))


def _switch_remove_port_channel(snapshot: Snapshot, change: Change) -> None:
    switch = _switch(snapshot, change.device)
    channel = _channel(switch, change.values["interface"])
    leaving = {names.interface_key(p) for p in change.values["members"]}
    config = change.values["config"]
    carried = {names.interface_key(c["port"]) for c in change.values["carry"]}
    mtu = change.values["mtu"]
    for name in change.values["members"]:
        port = _port(switch, name)
        port.port_channel = None
        port.member_state = None
        if names.interface_key(name) in carried:
            # The member takes the channel's switchport configuration (the templates write it).
            port.mode = config["mode"]
            port.access_vlan = config.get("access_vlan")
            port.native_vlan = config.get("native_vlan")
            allowed = config.get("allowed_vlans")
            port.allowed_vlans = [(low, high) for low, high in allowed] if allowed is not None else None
        if mtu is not None and mtu > 1500 and switch.platform in ("arista_eos", "juniper_junos"):
            port.mtu = mtu
    if channel is not None:
        channel.members = [m for m in channel.members if names.interface_key(m) not in leaving]
        if not channel.members and change.values.get("remove_interface"):
            switch.port_channels.remove(channel)
    _renegotiate(snapshot, _on_switch(change.device))


def _switch_port_admin(snapshot: Snapshot, change: Change) -> None:
    """Shut ports are down at both ends: the switch shows them disabled (a channel member down) and
    the host NIC cabled to each loses its link; back up, a static member bundles again."""
    switch = _switch(snapshot, change.device)
    up = change.after == "up"
    for name in change.values["ports"]:
        port = _port(switch, name)
        port.status = "up" if up else "disabled"
        if port.port_channel is not None:
            port.member_state = "bundled" if up else "down"
        for host in snapshot.esxi_hosts:
            for pnic in host.pnics:
                neighbour = pnic.neighbour
                if (
                    neighbour
                    and names.device_key(neighbour.device_id) == names.device_key(switch.name)
                    and names.interface_key(neighbour.port_id) == names.interface_key(port.name)
                ):
                    pnic.link_up = up
    _renegotiate(snapshot, _on_switch(change.device))


def _switch_port_mtu(snapshot: Snapshot, change: Change) -> None:
    switch = _switch(snapshot, change.device)
    mtu = jumbo_ip_mtu(switch.platform)
    for interface in change.values["interfaces"]:
        channel = _channel(switch, interface["name"])
        if channel is not None:
            channel.mtu = mtu
            # Members follow the port-channel's MTU.
            for member in channel.members:
                _port(switch, member).mtu = mtu
        else:
            _port(switch, interface["name"]).mtu = mtu


def _vlan_interface(switch: Switch, name: str) -> SwitchPort | PortChannel:
    return _channel(switch, name) or _port(switch, name)


def _switch_trunk_allow_vlan(snapshot: Snapshot, change: Change) -> None:
    interface = _vlan_interface(_switch(snapshot, change.device), change.values["interface"])
    added = [r for word in change.values["vlans"] for r in vlans.parse_list(word)]
    interface.allowed_vlans = vlans.merge(list(interface.allowed_vlans or []) + added)


def _switch_trunk_native_vlan(snapshot: Snapshot, change: Change) -> None:
    interface = _vlan_interface(_switch(snapshot, change.device), change.values["interface"])
    interface.native_vlan = int(change.after)


def _switch_channel_mode_lacp(snapshot: Snapshot, change: Change) -> None:
    values = change.values
    _join_channel(_switch(snapshot, change.device), values["interface"], values["members"], "lacp-active", None)
    _renegotiate(snapshot, _on_switch(change.device))


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
                port.member_state = "bundled" if negotiated else lone
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


def _bond_mode(snapshot: Snapshot, change: Change) -> None:
    host = _kvm_host(snapshot, change.device)
    bond = _bond(host, change.values["bond"])
    options = change.values["options"]
    bond.mode = change.after
    bond.xmit_hash_policy = options.get("xmit_hash_policy", bond.xmit_hash_policy)
    bond.lacp_rate = options.get("lacp_rate")
    bond.miimon = options["miimon"]
    _renegotiate(snapshot, lambda fact: fact.host == host.name and fact.vswitch == bond.name)


def _guest_nic_mtu(snapshot: Snapshot, change: Change) -> None:
    host = _kvm_host(snapshot, change.device)
    _domain_interface(host, change.values["domain"], change.values["mac"]).mtu = int(change.after)


def _guest_nic_model(snapshot: Snapshot, change: Change) -> None:
    host = _kvm_host(snapshot, change.device)
    _domain_interface(host, change.values["domain"], change.values["mac"]).model = change.after


def _vmk_migrate(snapshot: Snapshot, change: Change) -> None:
    host = _host(snapshot, change.device)
    for move in change.values["moves"]:
        vmk = next((v for v in host.vmks if v.name == move["vmk"]), None)
        if vmk is None:
            raise ApplyError(f"no {move['vmk']} on {host.name}")
        vmk.portgroup, vmk.dvswitch, vmk.vswitch = move["portgroup"], move["dvswitch"], None


def _vmk_migrate_under_way(snapshot: Snapshot, change: Change) -> None:
    """While vmks move, they are on no port group: their traffic has no path."""
    host = _host(snapshot, change.device)
    moving = {move["vmk"] for move in change.values["moves"]}
    for vmk in host.vmks:
        if vmk.name in moving:
            vmk.portgroup, vmk.dvswitch, vmk.vswitch = "(moving)", None, None


APPLIERS: dict[str, Callable[[Snapshot, Change], None]] = {
    "host-teaming": _host_teaming,
    "host-active-uplinks": _host_active_uplinks,
    "host-vswitch-mtu": _host_vswitch_mtu,
    "vmk-mtu": _vmk_mtu,
    "host-nic-autoneg": _host_nic_autoneg,
    "switch-port-autoneg": _switch_port_autoneg,
    "switch-static-port-channel": _switch_static_port_channel,
    "switch-channel-mode-static": _switch_channel_mode_static,
    "switch-hash": _switch_hash,
    "switch-remove-port-channel": _switch_remove_port_channel,
    "switch-port-mtu": _switch_port_mtu,
    "switch-port-admin": _switch_port_admin,
    "switch-channel-mode-lacp": _switch_channel_mode_lacp,
    "switch-trunk-allow-vlan": _switch_trunk_allow_vlan,
    "switch-trunk-native-vlan": _switch_trunk_native_vlan,
    "bond-mode": _bond_mode,
    "guest-nic-mtu": _guest_nic_mtu,
    "guest-nic-model": _guest_nic_model,
    "vmk-migrate": _vmk_migrate,
}

# Actions whose targets are out of service while the step runs: simulated apply also checks
# that in-between state (moving every iSCSI path at once leaves the host with none).
UNDER_WAY: dict[str, Callable[[Snapshot, Change], None]] = {
    "vmk-migrate": _vmk_migrate_under_way,
}


def apply_under_way(snapshot: Snapshot, change: Change) -> bool:
    """Put `snapshot` in the state it is in while `change` runs; False when that is just the before."""
    under_way = UNDER_WAY.get(change.action)
    if under_way is None:
        return False
    under_way(snapshot, change)
    return True


def apply_change(snapshot: Snapshot, change: Change) -> None:
    applier = APPLIERS.get(change.action)
    if applier is None:
        raise ApplyError(f"no model of what {change.action} does; cannot simulate it")
    applier(snapshot, change)
