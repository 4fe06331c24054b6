"""Comware records -> the snapshot's `Switch` (batfish's conversion step: the vendor's view, typed in
records.py, into the vendor-independent model).

What comes from where:

- ports: `display interface` (state, speed, duplex, frame length, IP MTU) and the configuration's
  interface blocks (link type, VLANs, forced speed and duplex, `jumboframe enable`, aggregation group);
- aggregates: `Bridge-Aggregation N` blocks of the configuration (`link-aggregation mode dynamic` is
  LACP, static otherwise; a member's `lacp mode passive`) and `display link-aggregation verbose`
  (`Aggregation Mode: Dynamic|Static`, members and their `S`/`U`/`I` status, members.py);
- the hash: `link-aggregation global load-sharing mode`, per aggregate its own line (hashes.py);
- IRF: two or more `irf member` lines are one fabric, multichassis kind `irf` (several chassis, one
  configuration, member-numbered port names; HPE FlexFabric 5940 IRF Configuration Guide);
- neighbours: `display lldp neighbor-information verbose`.

A value that makes no sense is a warning naming the device and the command; the rest is still built.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from hostlint import vlans
from hostlint.snapshot.common import Neighbour
from hostlint.snapshot.switch import (
    ChannelMode,
    LoadBalance,
    MemberState,
    MultiChassis,
    PortChannel,
    PortMode,
    PortStatus,
    Switch,
    SwitchPort,
)
from hostlint.switches.assembly_kit import ReadContext as _Context
from hostlint.switches.assembly_kit import Records
from hostlint.switches.hp_comware import hashes, members, mtu, names
from hostlint.switches.hp_comware import records as r

PLATFORM = "hp_comware"

_STATES: dict[str, PortStatus] = {"up": "up", "down": "down", "administratively down": "disabled", "stp down": "down"}
_MODES: dict[str, PortMode] = {"access": "access", "trunk": "trunk"}


def _typed(outputs: Records, group: str, context: _Context) -> list[Any]:
    return context.typed(outputs, group, r.typed)


def _speed_mbps(text: str | None) -> int | None:
    """`10Gbps`, `1000Mbps`, `1000Mb/s`, `1000M`; `Unknown` while down: None."""
    if not text:
        return None
    word = text.strip().lower().removesuffix("/s").removesuffix("bps").removesuffix("b")
    if word[:-1].isdigit() and word[-1] in "mg":
        return int(word[:-1]) * (1000 if word[-1] == "g" else 1)
    if word.isdigit():  # the configuration's `speed 1000`: Mb/s
        return int(word)
    if word in ("unknown", "auto"):
        return None
    raise ValueError(f"speed {text!r} not understood")


def _duplex(text: str | None) -> Any:
    word = (text or "").strip().lower()
    return word if word in ("full", "half") else None


def _vlan_words(text: str) -> vlans.Ranges:
    """`1 100 to 110 200` (Comware's list), `all`."""
    words = text.split()
    if words == ["all"]:
        return list(vlans.ALL)
    ranges: list[tuple[int, int]] = []
    i = 0
    while i < len(words):
        low = int(words[i])
        if i + 2 < len(words) and words[i + 1] == "to":
            ranges.append((low, int(words[i + 2])))
            i += 3
        else:
            ranges.append((low, low))
            i += 1
    for low, high in ranges:
        if not vlans.FIRST <= low <= high <= vlans.LAST:
            raise ValueError(f"VLAN range {low} to {high} is outside {vlans.FIRST}-{vlans.LAST}")
    return vlans.merge(ranges)


def _trunk_vlans(config: r.ConfiguredInterface) -> vlans.Ranges:
    """A trunk permits VLAN 1 until told otherwise; `port trunk permit vlan` lines add, `undo` lines remove
    (HPE 5940 Layer 2 - LAN Switching Command Reference, "port trunk permit vlan")."""
    allowed: vlans.Ranges = [(1, 1)]
    for line in filter(None, (config.permit_vlans or "").split(";")):
        allowed = vlans.merge([*allowed, *_vlan_words(line)])
    for line in filter(None, (config.deny_vlans or "").split(";")):
        allowed = vlans.subtract(allowed, _vlan_words(line))
    return allowed


@dataclass
class _Vlans:
    mode: PortMode | None = None
    access_vlan: int | None = None
    native_vlan: int | None = None
    allowed_vlans: vlans.Ranges | None = None


def _vlans(config: r.ConfiguredInterface | None, context: _Context) -> _Vlans:
    if config is None:
        return _Vlans()
    kind = (config.link_type or "access").lower()  # access by default ("port link-type")
    mode = _MODES.get(kind)  # a hybrid port is neither: its VLANs are left unknown
    if mode == "access":
        vlan = context.read(r.CONFIG, f"{config.name} access vlan", lambda: int(config.access_vlan or 1))
        return _Vlans(mode="access", access_vlan=vlan)
    if mode == "trunk":
        native = context.read(r.CONFIG, f"{config.name} trunk pvid", lambda: int(config.native_vlan or 1))
        allowed = context.read(r.CONFIG, f"{config.name} trunk permit vlan", lambda: _trunk_vlans(config))
        return _Vlans(mode="trunk", native_vlan=native, allowed_vlans=allowed)
    return _Vlans()


def _status(shown: r.ShownInterface | None, config: r.ConfiguredInterface | None) -> PortStatus | None:
    if shown and shown.state:
        return _STATES.get(shown.state.strip().lower())
    return "disabled" if config and config.shutdown else None


def _port_mtu(
    name: str,
    shown: r.ShownInterface | None,
    config: r.ConfiguredInterface | None,
    mode: PortMode | None,
    context: _Context,
) -> int | None:
    """The largest IP packet a bridged port passes: its frame length as shown, else as configured, less
    the header (mtu.py)."""
    frame: int | None = None
    if shown and shown.frame_length:
        frame = context.read(r.INTERFACE, f"{name} maximum frame length", lambda: int(shown.frame_length or ""))
    elif config is not None:
        # Silent configuration: the default, jumbo frames allowed.
        read = context.read(r.CONFIG, f"{name} jumboframe enable", lambda: mtu.configured_frame(config.jumboframe))
        frame = read or mtu.JUMBO_FRAME
    if frame is None:
        return None
    return mtu.bridged_mtu(frame)


def build(
    device: str, outputs: Records, mgmt_address: str | None = None, collected: frozenset[str] | None = None
) -> tuple[Switch, list[str]]:
    """The switch `device` as its commands' records (ttp group -> records) show it, and warnings for what
    could not be read. `collected` (the commands whose output was read) changes nothing here: every
    Comware fact is read from a record."""
    context = _Context(device)
    version: dict[str, str] = {}
    for line in _typed(outputs, "version", context):
        version.update({k: v for k, v in line.model_dump(exclude_none=True).items() if k not in version})
    shown = {names.long(i.name): i for i in _typed(outputs, "interfaces", context)}
    configured = {names.long(i.name): i for i in _typed(outputs, "configured", context)}
    neighbours = _neighbours(outputs, context)
    rows = _typed(outputs, "members", context)
    membership: dict[str, tuple[str, str]] = {names.long(m.port): (names.long(m.channel), m.status) for m in rows}
    for name, config in configured.items():  # a member the aggregation table did not list
        if config.channel_group and name not in membership:
            membership[name] = (names.CHANNEL.format(config.channel_group), "")
    ports = []
    for name in dict.fromkeys([*shown, *configured, *neighbours, *membership]):
        if not names.is_port(name):
            continue
        ports.append(_port(name, shown.get(name), configured.get(name), neighbours, membership.get(name), context))
    channels = _channels(outputs, shown, configured, ports, context)
    hostname = next((s.hostname for s in _typed(outputs, "system", context)), None)
    switch = Switch(
        name=device,
        aliases=[hostname] if hostname and hostname.casefold() != device.casefold() else [],
        mgmt_address=mgmt_address,
        platform=PLATFORM,
        model=version.get("model"),
        os_version=version.get("os_version"),
        load_balance=_load_balance(outputs, context),
        ports=ports,
        port_channels=channels,
        multichassis=_irf(outputs, context),
    )
    return switch, context.warnings


def _port(
    name: str,
    shown: r.ShownInterface | None,
    config: r.ConfiguredInterface | None,
    neighbours: dict[str, list[Neighbour]],
    member: tuple[str, str] | None,
    context: _Context,
) -> SwitchPort:
    facts = _vlans(config, context)
    status = _status(shown, config)
    state: MemberState | None = None
    if member and member[1]:
        link_up = None if status is None else status == "up"
        state = context.read(r.AGGREGATION, f"{name} status", lambda: members.member_state(member[1], link_up))
    return SwitchPort(
        name=name,
        description=(shown.description if shown else None) or (config.description if config else None),
        status=status,
        mode=facts.mode,
        access_vlan=facts.access_vlan,
        native_vlan=facts.native_vlan,
        allowed_vlans=facts.allowed_vlans,
        configured_speed_mbps=context.read(
            r.CONFIG, f"{name} speed", partial(_speed_mbps, config.speed if config else None)
        ),
        configured_duplex=_duplex(config.duplex if config else None),
        speed_mbps=context.read(r.INTERFACE, f"{name} speed", partial(_speed_mbps, shown.speed if shown else None)),
        duplex=_duplex(shown.duplex if shown else None),
        mtu=_port_mtu(name, shown, config, facts.mode, context),
        port_channel=member[0] if member else None,
        member_state=state,
        neighbours=neighbours.get(name, []),
    )


def _channel_mode(
    config: r.ConfiguredInterface | None, shown_mode: str | None, members_of: list[r.ConfiguredInterface]
) -> ChannelMode | None:
    said = (config.aggregation_mode if config else None) or shown_mode
    if config is not None and not config.aggregation_mode and not shown_mode:
        said = "static"  # static unless `link-aggregation mode dynamic` ("link-aggregation mode")
    if said is None:
        return None
    if said.lower() == "static":
        return "static"
    if said.lower() != "dynamic":
        raise ValueError(f"aggregation mode {said!r} not understood")
    passive = members_of and all((m.lacp_mode or "").lower() == "passive" for m in members_of)
    return "lacp-passive" if passive else "lacp-active"


def _channels(
    outputs: Records,
    shown: dict[str, r.ShownInterface],
    configured: dict[str, r.ConfiguredInterface],
    ports: list[SwitchPort],
    context: _Context,
) -> list[PortChannel]:
    aggregates = {names.long(a.name): a for a in _typed(outputs, "channels", context)}
    wanted = dict.fromkeys([*configured, *aggregates, *(p.port_channel for p in ports if p.port_channel)])
    return [
        _channel(name, configured, aggregates.get(name), shown.get(name), ports, context)
        for name in wanted
        if name.startswith("Bridge-Aggregation") and names.channel_number(name) is not None
    ]


def _channel(
    name: str,
    configured: dict[str, r.ConfiguredInterface],
    aggregate: r.Aggregate | None,
    shown: r.ShownInterface | None,
    ports: list[SwitchPort],
    context: _Context,
) -> PortChannel:
    config = configured.get(name)
    number = str(names.channel_number(name))
    members_of = [c for c in configured.values() if c.channel_group == number]
    facts = _vlans(config, context)
    shown_mode = aggregate.mode if aggregate else None
    mode = context.read(r.CONFIG, f"{name} aggregation mode", lambda: _channel_mode(config, shown_mode, members_of))
    own_hash = config.load_sharing if config else None
    hash_name = (
        context.read(r.CONFIG, f"{name} load-sharing mode", lambda: hashes.HASHES.read(own_hash or ""))
        if own_hash
        else None
    )
    status = _status(shown, config)
    return PortChannel(
        name=name,
        mode=mode,
        switchport=facts.mode,
        access_vlan=facts.access_vlan,
        native_vlan=facts.native_vlan,
        allowed_vlans=facts.allowed_vlans,
        members=[p.name for p in ports if p.port_channel == name],
        mtu=_port_mtu(name, shown, None, facts.mode, context),
        status="up" if status == "up" else ("down" if status else None),
        load_balance=hash_name,
    )


def _load_balance(outputs: Records, context: _Context) -> LoadBalance | None:
    line = next(iter(_typed(outputs, "load_balance", context)), None)
    if line is None:
        return None  # the model's default: unknown, never assumed
    name = context.read(r.CONFIG, "link-aggregation global load-sharing mode", lambda: hashes.HASHES.read(line.fields))
    return None if name is None else LoadBalance(hash=name, raw=line.fields)


def _irf(outputs: Records, context: _Context) -> MultiChassis | None:
    fabric = _typed(outputs, "irf", context)
    if len(fabric) < 2:
        return None
    # IRF shows no peer link the way vPC does: its IRF ports bind physical ports, whose state is not read.
    return MultiChassis(kind="irf", domain_id="irf", peer=None, peer_link_up=None)


def _neighbours(outputs: Records, context: _Context) -> dict[str, list[Neighbour]]:
    found: dict[str, list[Neighbour]] = {}
    for n in _typed(outputs, "neighbours", context):
        device_id = n.system_name or n.chassis_id
        if not device_id:
            continue
        neighbour = context.read(
            r.LLDP,
            f"{n.local_port} neighbour",
            partial(
                Neighbour,
                protocol="lldp",
                device_id=device_id,
                port_id=n.port_id or "",
                port_description=n.port_description,
                system_name=n.system_name,
                mgmt_address=n.mgmt_address,
            ),
        )
        if neighbour is not None:
            found.setdefault(names.long(n.local_port), []).append(neighbour)
    return found
