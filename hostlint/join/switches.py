"""Finding the switch port at the other end of a host NIC, and what it belongs to."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hostlint import names, vlans, vocab
from hostlint import platforms as registry
from hostlint.join.facts import UplinkFact
from hostlint.join.sources import switch_unknown
from hostlint.snapshot import Snapshot
from hostlint.snapshot.common import Neighbour
from hostlint.snapshot.switch import TWO_PEERS, PortChannel, Switch, SwitchPort


@dataclass
class IndexedSwitch:
    """A switch with its ports and channels by canonical name, and the logical switch it belongs to."""

    switch: Switch
    ports: dict[str, SwitchPort]
    channels: dict[str, PortChannel]
    logical: str
    # Why the switch's pairing cannot be trusted (a peer link whose state was not shown), or None.
    pair_unknown: str | None = None


def _logical_names(switches: dict[str, Switch]) -> tuple[dict[str, str], dict[str, str]]:
    """Each switch's logical switch: itself (a stack-like system, one control plane, is one switch already),
    or its vPC/MLAG/M-LAG pair when both ends agree and both show their peer link up. A pair whose peer link
    state was not shown is not trusted: the second mapping says why, by switch key."""
    logical, unknown = {}, {}
    for key, switch in switches.items():
        logical[key] = switch.name
        mc = switch.multichassis
        if mc is None or mc.peer is None or mc.kind not in TWO_PEERS:
            continue
        peer = switches.get(names.device_key(mc.peer))
        pmc = peer.multichassis if peer else None
        if (
            peer is not None
            and pmc is not None
            and pmc.kind == mc.kind
            and pmc.domain_id == mc.domain_id
            and pmc.peer is not None
            and names.device_key(pmc.peer) == key
        ):
            if mc.peer_link_up is None or pmc.peer_link_up is None:
                shown_by, side = (switch, mc) if mc.peer_link_up is None else (peer, pmc)
                obj = f"{side.kind} {side.domain_id}"
                unknown[key] = switch_unknown(shown_by.name, shown_by.platform, obj, "peer_link")
            elif mc.peer_link_up and pmc.peer_link_up:
                pair = "+".join(sorted((switch.name, peer.name)))
                logical[key] = f"{mc.kind}:{mc.domain_id}:{pair}"
    return logical, unknown


class SwitchIndex:
    """Switches by every name they go by, with ports and channels by canonical name."""

    def __init__(self, snapshot: Snapshot):
        by_key = {names.device_key(s.name): s for s in snapshot.switches}
        logical, pair_unknown = _logical_names(by_key)
        self._switches: dict[str, IndexedSwitch] = {}
        for key, switch in by_key.items():
            indexed = IndexedSwitch(
                switch=switch,
                ports={names.interface_key(p.name): p for p in switch.ports},
                channels={names.interface_key(c.name): c for c in switch.port_channels},
                logical=logical[key],
                pair_unknown=pair_unknown.get(key),
            )
            for alias in [switch.name, *switch.aliases, switch.mgmt_address]:
                if alias:
                    self._switches[names.device_key(alias)] = indexed
        self._channel_members: dict[str, int] = {}
        # Per channel id: (switch, member, state) of every member on either half of the channel.
        self._member_states: dict[str, list[tuple[str, str, str | None]]] = {}
        for indexed in {id(i): i for i in self._switches.values()}.values():
            for channel in indexed.switch.port_channels:
                key = _channel_id(indexed, channel)
                self._channel_members[key] = self._channel_members.get(key, 0) + len(channel.members)
                for member in channel.members:
                    port = indexed.ports.get(names.interface_key(member))
                    state = port.member_state if port else None
                    self._member_states.setdefault(key, []).append((indexed.switch.name, member, state))
        self._cabling = {(names.device_key(c.host), c.nic.casefold()): c for c in snapshot.cabling}
        self._qualified_cabling = {(c.host.casefold(), c.nic.casefold()): c for c in snapshot.cabling if "@" in c.host}

    def lookup(self, device: str) -> IndexedSwitch | None:
        return self._switches.get(names.device_key(device))

    def _neighbour_switch(self, neighbour: Neighbour) -> IndexedSwitch | None:
        for candidate in (neighbour.device_id, neighbour.system_name, neighbour.mgmt_address):
            if candidate and (found := self.lookup(candidate)):
                return found
        return None

    def resolve(self, uplink: UplinkFact, neighbour: Neighbour | None) -> None:
        """Fill the switch side of `uplink`, or record in `missing` why it is unknown."""
        cable = self._cabling.get((names.device_key(uplink.host), uplink.nic.casefold()))
        bare, qualified, _ = uplink.host.partition("@")
        if qualified:
            # A host whose name another host of the site shares (hostlint.join.qualified_hosts): only a cable
            # written for the qualified name is its own; one for the bare name could be either host's.
            cable = self._qualified_cabling.get((uplink.host.casefold(), uplink.nic.casefold()))
            ambiguous = (names.device_key(bare), uplink.nic.casefold()) in self._cabling
            if cable is None and neighbour is None and ambiguous:
                uplink.missing["switch"] = (
                    f"{uplink.object}: the cabling entry for {bare} {uplink.nic} could be either host named {bare}; "
                    f"write its host as {uplink.host}"
                )
                return
        if neighbour is not None:
            uplink.via = neighbour.protocol
            # LLDP's chassis id is often a MAC address; its system name is what people call the switch.
            device, port_name = names.display_device(neighbour.system_name or neighbour.device_id), neighbour.port_id
            found = self._neighbour_switch(neighbour)
        elif cable is not None:
            uplink.via = "cabling"
            device, port_name = cable.switch, cable.port
            found = self.lookup(device)
        else:
            uplink.missing["switch"] = (
                f"{uplink.object}: no CDP/LLDP neighbour and no cabling entry, switch port unknown"
            )
            return
        uplink.switch = found.switch.name if found else device
        uplink.port = names.interface(port_name)
        if found is None:
            uplink.missing["switch"] = (
                f"{uplink.object}: {uplink.via} names switch {device} ({port_name}), which is not in the snapshot"
            )
            return
        if found.switch.connection_state != "connected":
            uplink.missing["switch"] = (
                f"{uplink.object}: switch {found.switch.name} was {found.switch.connection_state} during collection"
            )
            return
        if neighbour is not None:
            port_name = _lldp_port_name(neighbour, found)
            uplink.port = names.interface(port_name)
        # A port ID with a logical unit or subinterface (`xe-0/0/11.0`) names its physical port.
        port = found.ports.get(names.interface_key(port_name)) or found.ports.get(
            names.physical_port(port_name).casefold()
        )
        if port is None:
            uplink.missing["switch"] = f"{uplink.object}: port {uplink.port} not found on switch {found.switch.name}"
            return
        self._fill(uplink, found, port)

    def _fill(self, uplink: UplinkFact, found: IndexedSwitch, port: SwitchPort) -> None:
        switch = found.switch

        def unknown(field: str, obj: str, fact: str) -> None:
            uplink.missing[field] = switch_unknown(switch.name, switch.platform, obj, fact)

        uplink.platform = switch.platform
        uplink.port = port.name
        uplink.port_status = port.status
        uplink.port_configured_speed_mbps = port.configured_speed_mbps
        uplink.port_configured_duplex = port.configured_duplex
        uplink.port_speed_mbps = port.speed_mbps
        uplink.port_duplex = port.duplex
        value: object  # the loops below pair fields of different types with their values
        for field, value, fact in (("port_status", port.status, "status"),):
            if value is None:
                unknown(field, port.name, fact)
        # A port that is down has no negotiated speed or duplex; one that is up (or whose status is
        # unknown) and shows none was not read.
        if port.status not in ("down", "disabled", "err-disabled"):
            for field, value, fact in (
                ("port_speed_mbps", port.speed_mbps, "speed"),
                ("port_duplex", port.duplex, "duplex"),
            ):
                if value is None:
                    unknown(field, port.name, fact)
        if found.pair_unknown:
            uplink.missing["logical_switch"] = found.pair_unknown
        else:
            uplink.logical_switch = found.logical
        global_hash = switch.load_balance.hash if switch.load_balance else None
        channel = found.channels.get(names.interface_key(port.port_channel)) if port.port_channel else None
        _fill_vlans(uplink, port, channel, unknown)
        # Whether the port bridges: its own mode, or its channel's (members share their channel's).
        own_mode = port.mode or (channel.switchport if channel is not None else None)
        _fill_mtu(uplink, switch, port, "port_mtu", own_mode, unknown)
        if not port.port_channel:
            return
        if channel is None:
            uplink.port_channel = port.port_channel
            reason = f"{switch.name} {port.name}: member of {port.port_channel}, which the switch did not list"
            for field in ("channel_id", "channel_mode", "channel_mtu", "member_state"):
                uplink.missing[field] = reason
            for field in ("channel_suspended", "channel_bundled"):
                uplink.missing[field] = reason
            return
        uplink.port_channel = channel.name
        uplink.channel_mode = channel.mode
        _fill_mtu(uplink, switch, channel, "channel_mtu", channel.switchport or port.mode, unknown)
        uplink.member_state = port.member_state
        for field, value, obj, fact in (
            ("channel_mode", channel.mode, channel.name, "channel_mode"),
            ("member_state", port.member_state, port.name, "member_state"),
        ):
            if value is None:
                unknown(field, obj, fact)
        uplink.switch_hash = channel.load_balance or global_hash
        uplink.switch_hash_fields = vocab.hash_fields(uplink.switch_hash)
        channel_id = _channel_id(found, channel)
        if found.pair_unknown and channel.multichassis_id is not None:
            # Without a trusted pair, which channel the other half belongs to is unknown too.
            uplink.missing["channel_id"] = found.pair_unknown
        else:
            uplink.channel_id = channel_id
        uplink.channel_members = self._channel_members[channel_id]
        states = self._member_states.get(channel_id, [])
        uplink.channel_suspended = [f"{sw} {member}" for sw, member, state in states if state == "suspended"]
        uplink.channel_bundled = [f"{sw} {member}" for sw, member, state in states if state == "bundled"]
        not_shown = [(sw, member) for sw, member, state in states if state is None]
        if not_shown:
            sw, member = not_shown[0]
            owner = self.lookup(sw)
            platform = owner.switch.platform if owner else None
            uplink.missing["channel_suspended"] = switch_unknown(sw, platform, member, "member_state")
            if not uplink.channel_bundled:
                # A bundled member already shown answers "is anything bundled"; an unshown one might be.
                uplink.missing["channel_bundled"] = uplink.missing["channel_suspended"]


def _fill_mtu(
    uplink: UplinkFact,
    switch: Switch,
    interface: SwitchPort | PortChannel,
    field: str,
    mode: str | None,
    unknown: Callable[[str, str, str], None],
) -> None:
    """The figure that limits the host's frames at `interface` (hostlint.platforms.MtuFamily): the L2
    figure of its platform's family on a switchport, the interface `mtu` on a routed port. A figure not
    read is unknown, with the reason, never the other figure in its place."""
    platform = registry.switch(switch.platform)
    limiting = platform.limiting_figure(switch.model, mode)
    if isinstance(limiting, str):
        uplink.missing[field] = f"{switch.name} {interface.name}: which MTU limits its frames is unknown ({limiting})"
        return
    figure, family = limiting
    uplink.mtu_figure = _figure_name(platform, family, interface, mode)
    value = interface.mtu if figure == "mtu" else interface.l2_mtu
    setattr(uplink, field, value)
    if value is not None:
        return
    if figure == "mtu":
        unknown(field, interface.name, "mtu" if field == "port_mtu" else "channel_mtu")
    elif family is not None:
        uplink.missing[field] = (
            f"{switch.name} {interface.name}: {family.figure_at(interface.name, _members(interface))} not shown by "
            f"`{family.bridged_source}` ({platform.label} {family.family}: bridged frames are limited by "
            f"{family.bridged_setting})"
        )


def _members(interface: SwitchPort | PortChannel) -> tuple[str, ...]:
    return tuple(interface.members) if isinstance(interface, PortChannel) else ()


def _figure_name(
    platform: registry.SwitchPlatform,
    family: registry.MtuFamily | None,
    interface: SwitchPort | PortChannel,
    mode: str | None,
) -> str:
    """Which figure was compared, for findings: `bridged: EOS l2 mtu`, `bridged: NX-OS Nexus 3000/5000/6000
    network-qos class-default mtu`, `routed: NX-OS mtu` (the family named where the platform has several)."""
    if mode == "routed" or family is None:
        return f"routed: {platform.label} mtu"
    named = f" {family.family}" if len(platform.mtu_families) > 1 else ""
    # A port whose mode was not shown, on a family that bridges and routes by the interface `mtu`.
    kind = "bridged: " if mode in ("access", "trunk") else ""
    return f"{kind}{platform.label}{named} {family.figure_at(interface.name, _members(interface))}"


def _fill_vlans(
    uplink: UplinkFact, port: SwitchPort, channel: PortChannel | None, unknown: Callable[[str, str, str], None]
) -> None:
    """The VLANs of the interface whose switchport configuration carries the port's traffic."""
    if port.port_channel and channel is None:
        reason = f"{uplink.switch} {port.name}: member of {port.port_channel}, which the switch did not list"
        for field in ("vlan_mode", "access_vlan", "native_vlan", "allowed_vlans"):
            uplink.missing[field] = reason
        return
    if channel is not None and port.member_state == "individual" and _own_lines_differ(uplink.platform):
        # A member running on its own (LACP not negotiated: EOS `fallback individual`) forwards with its own
        # switchport configuration, not the channel's. (IOS and NX-OS members carry the channel's lines, so
        # a stand-alone member there runs the channel's VLANs.)
        channel = None
    elif channel is not None and port.member_state is None and _own_lines_differ(uplink.platform):
        # Where a member's own lines may differ from its channel's (EOS), which apply depends on its state.
        reason = switch_unknown(uplink.switch or "", uplink.platform, port.name, "member_state")
        for field in ("vlan_mode", "access_vlan", "native_vlan", "allowed_vlans"):
            uplink.missing[field] = reason
        return
    name = channel.name if channel is not None else port.name
    mode = channel.switchport if channel is not None else port.mode
    source = channel if channel is not None else port
    uplink.vlan_interface = name
    uplink.vlan_mode = mode
    if mode is None:
        # Without the mode, which VLAN facts apply is unknown too (a trunk's native VLAN, an access VLAN).
        for field in ("vlan_mode", "access_vlan", "native_vlan", "allowed_vlans"):
            unknown(field, name, "vlan_mode")
    if mode == "access":
        uplink.access_vlan = source.access_vlan
        if source.access_vlan is None:
            unknown("access_vlan", name, "access_vlan")
    if mode == "trunk":
        uplink.native_vlan = source.native_vlan
        if source.native_vlan is None:
            unknown("native_vlan", name, "native_vlan")
        if source.allowed_vlans is None:
            unknown("allowed_vlans", name, "allowed_vlans")
        else:
            uplink.allowed_vlans = [[low, high] for low, high in source.allowed_vlans]
            uplink.allowed_vlans_text = vlans.text(list(source.allowed_vlans))


def _own_lines_differ(platform: str | None) -> bool:
    """Whether a channel member's own switchport lines may differ from its channel's (EOS), so which apply
    depends on whether it is bundled or running individually."""
    entry = registry.find_switch(platform)
    return entry is not None and not entry.members_match_channel and entry.vlan_syntax == "switchport"


def _lldp_port_name(neighbour: Neighbour, found: IndexedSwitch) -> str:
    """The neighbour's port: Junos (and others) send the SNMP ifIndex as LLDP port ID and the
    interface name as port description; the description is used when it names a port of that switch."""
    description = neighbour.port_description
    if neighbour.port_id.isdigit() and description:
        for name in (description, names.physical_port(description)):
            if names.interface_key(name) in found.ports:
                return name
    return neighbour.port_id


def _channel_id(found: IndexedSwitch, channel: PortChannel) -> str:
    """One id for a port-channel, shared by both halves of a vPC/MLAG channel."""
    if channel.multichassis_id is not None and found.logical != found.switch.name:
        return f"{found.logical}/{channel.multichassis_id}"
    return f"{found.switch.name}/{channel.name}"
