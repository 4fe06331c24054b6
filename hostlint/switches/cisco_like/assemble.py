"""Cisco-like records -> the snapshot's `Switch`: the assembly IOS, NX-OS and EOS share (each folder's
`assemble.py` calls `build` with its typed records, its hash reader and what its commands are; the
`assembly` piece). Their templates give the same fields (see each template's `<doc>`), so one conversion
serves the three; what differs is asked of the platform (channel naming, MTU figures, whether a member's own
switchport lines count: hostlint.switches.<platform>.platform) or is the folder's own (hashes.py,
members.py, names.py). Moved from hostlint/collect/switches/assemble.py unchanged in behaviour.

What comes from where:

- ports: `show interface(s)` (state, speed, duplex, MTU, description, `Belongs to`/`Member of`), the running
  configuration's interface stanzas (`configured`: switchport mode and VLANs, channel-group, speed,
  `shutdown`, EOS `l2 mtu`), the CDP/LLDP neighbours and the channel summary; a port known only from a
  neighbour table or a channel summary has no status, MTU or speed;
- channels: the summary (members with their flags, members.py; the `Protocol` column), the configuration
  (`channel-group N mode X`; NX-OS `vpc N`, EOS `mlag N`) and `show vpc brief`'s rows;
- the hash: `show etherchannel|port-channel load-balance` (IOS, NX-OS) or the configuration's
  `port-channel load-balance` fields (EOS), through the folder's hashes.py;
- multichassis: NX-OS vPC (`show vpc brief`), EOS MLAG (`show mlag`), an IOS stack (`show switch`, two or
  more members; no peer link shown: unknown).

A value that makes no sense is a warning naming the device and the command; the rest is still built.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal, Protocol, TypeVar, runtime_checkable

from hostlint import names, switches, vlans
from hostlint.collect.switches import global_mtu, normalise
from hostlint.collect.switches.kinds import is_channel, is_port
from hostlint.snapshot.common import Neighbour
from hostlint.snapshot.switch import (
    ChannelMode,
    ChannelStatus,
    LoadBalance,
    MemberState,
    MultiChassis,
    PortChannel,
    PortMode,
    PortStatus,
    Switch,
    SwitchPort,
)
from hostlint.switches.assembly_kit import ReadContext, Records
from hostlint.switches.base import HashTable

T = TypeVar("T")
Record = dict[str, Any]
# A folder's `typed(group, records)` (its records.py).
Typed = Callable[[str, Sequence[Mapping[str, Any]]], list[Any]]

_SWITCHPORT_MODES: tuple[PortMode, ...] = ("access", "trunk")
_MEMBER = re.compile(r"(\S+?)\(([^()\s]+)\)")


@dataclass
class Reading:
    """One switch's records as its folder types them, and what its assembly has read so far."""

    platform: str
    outputs: Records
    typed: Typed
    # ttp group -> the command whose output fills it (the folder's records.COMMANDS).
    commands: Mapping[str, str]
    # The commands whose output was collected; None: those that gave any record.
    collected: frozenset[str] | None
    context: ReadContext
    model: str | None = None
    # Switch-wide L2 figures already read (hostlint.collect.switches.global_mtu).
    global_l2: dict[str, int | None] = field(default_factory=dict)
    _groups: dict[str, list[Any]] = field(default_factory=dict)

    def group(self, name: str) -> list[Any]:
        """A group's typed records; [] for a group the platform's templates do not have."""
        if name not in self.commands:
            return []
        if name not in self._groups:
            self._groups[name] = self.context.typed(self.outputs, name, self.typed)
        return self._groups[name]

    def fields(self, name: str) -> list[Record]:
        """A group's records as their fields (what the template read, nothing else)."""
        return [record.model_dump(exclude_none=True) for record in self.group(name)]

    def command(self, group: str) -> str:
        return self.commands.get(group, group)

    def shown(self, group: str) -> bool:
        """Whether the command that fills `group` was collected (its output may hold no record)."""
        command = self.command(group)
        if self.collected is not None:
            return command in self.collected
        return any(self.outputs.get(g) for g, c in self.commands.items() if c == command)

    def read(self, group: str, what: str, convert: Callable[[], T]) -> T | None:
        """Run one conversion; a value that makes no sense is a warning naming the group's command."""
        return self.context.read(self.command(group), what, convert)

    def records(self, section: str, group: str) -> list[Record]:
        """hostlint.collect.switches.global_mtu's reader (it names a section too)."""
        return self.fields(group)


def _by_name(records: list[Record], reading: Reading, group: str) -> dict[str, Record]:
    """Records of one interface merged (a template may give one record per line)."""
    merged: dict[str, Record] = {}
    for record in records:
        raw = record.get("name")
        if not isinstance(raw, str) or not raw.strip():
            reading.context.warnings.append(
                f"{reading.context.device}: {reading.command(group)}: a record without an interface name: {record}"
            )
            continue
        merged.setdefault(names.interface(raw), {}).update(record)
    return merged


def _channel_name(platform: str, group: str) -> str:
    text = str(group).strip()
    # `channel-group 10` names the platform's channel interface 10 (a name names itself).
    if text.isdigit():
        text = switches.switch(platform).channel_interface.format(text)
    return names.interface(text)


def _int(value: Any) -> int:
    return int(str(value).strip())


def _l3_mtu(platform: str, record: Record) -> int:
    return normalise.l3_mtu(platform, _int(record["mtu"]))


def _l2_mtu(
    name: str, config: Record, mode: PortMode | None, reading: Reading, members: list[str] | None = None
) -> int | None:
    """A switchport's L2 figure as the largest IP packet it carries, where the platform reads it from each
    interface's configuration (EOS `l2 mtu N`, the frame size): the configured frame, or the vendor's
    default when the configuration is silent; where the family's figure is global, that figure
    (hostlint.collect.switches.global_mtu). None where the platform has no such figure, the port is
    routed, or what shows it was not read (never the L3 `mtu` in its place). A channel's `members` say
    which ports it bundles (a global figure may differ by port speed)."""
    family = switches.switch(reading.platform).mtu_family(reading.model)
    if family is None or mode == "routed":
        return None
    if family.l2_global is not None:
        ports = members or [name]
        return _global_l2_mtu(family.l2_global, all(p.startswith("FastEthernet") for p in ports), reading)
    if family.l2_config is None or family.l2_default_frame is None:
        return None
    if not reading.shown("configured"):
        return None
    configured = config.get("l2_mtu")
    frame = reading.read("configured", f"{name} {family.l2_config}", lambda: _int(configured)) if configured else None
    tag = 4 if mode == "trunk" else 0
    return min(frame or family.l2_default_frame, family.l2_default_frame) - family.l2_header - tag


def _global_l2_mtu(kind: str, fast_ethernet: bool, reading: Reading) -> int | None:
    """A switch-wide figure, read once per switch (and per port kind: 10/100 or faster), so a value that
    makes no sense is one warning, not one per port."""
    group = "network_qos" if kind == "network-qos" else "system_mtu"
    key = f"{kind} {fast_ethernet}"
    if key not in reading.global_l2:
        if not reading.shown(group):
            reading.global_l2[key] = None
        elif kind == "network-qos":
            qos = partial(global_mtu.network_qos_mtu, reading.records)
            reading.global_l2[key] = reading.read(group, "network-qos class-default mtu", qos)
        else:
            system = partial(global_mtu.system_mtu, reading.records, fast_ethernet)
            reading.global_l2[key] = reading.read(group, "system mtu", system)
    return reading.global_l2[key]


def _members_mode(members: list[str], ports: list[SwitchPort]) -> PortMode | None:
    modes = [port.mode for port in ports if port.name in members and port.mode is not None]
    return modes[0] if modes else None


def _lldp_table(reading: Reading) -> list[tuple[str, str, str]]:
    """IOS `show lldp neighbors` rows as (device id as shown, local port, port id).

    The Device ID column is 20 characters and a longer name runs into Local Intf;
    the Capability column may be blank.
    """
    rows = []
    for record in reading.group("lldp_table"):
        row = str(record.row or "")
        rest = row[20:].split()
        if len(rest) >= 3 and rest[1].isdigit():
            rows.append((row[:20].strip(), rest[0], rest[-1]))
    return rows


def _place(record: Record, table: list[tuple[str, str, str]]) -> str | None:
    """The local port of a detail entry that shows none: its one row in the table (same port, name)."""
    names_shown = [str(record[k]) for k in ("system_name", "chassis_id") if record.get(k)]
    port = str(record.get("port_id") or "")
    rows = [r for r in table if r[2] == port and any(n.startswith(r[0]) for n in names_shown if r[0])]
    if len(rows) != 1:
        return None
    table.remove(rows[0])
    return rows[0][1]


def _neighbours(reading: Reading) -> dict[str, list[Neighbour]]:
    found: dict[str, list[Neighbour]] = {}
    table = _lldp_table(reading)
    protocols: tuple[tuple[Literal["cdp", "lldp"], str], ...] = (("cdp", "cdp_neighbours"), ("lldp", "neighbours"))
    for protocol, group in protocols:
        for record in reading.fields(group):
            if set(record) <= {"separator"}:
                continue  # the line of dashes before an entry, when `Local Intf:` started the entry itself
            local = record.get("local_port") or (_place(record, table) if protocol == "lldp" else None)
            if not local and protocol == "lldp":
                who = record.get("system_name") or record.get("chassis_id") or "?"
                reading.context.warnings.append(
                    f"{reading.context.device}: {reading.command(group)}: neighbour {who} "
                    f"(port {record.get('port_id') or '?'}) shows no local port and has no single row in "
                    "`show lldp neighbors`; it is not placed"
                )
            device_id = record.get("device_id") or record.get("system_name") or record.get("chassis_id")
            # A neighbour that sends an empty port ID is still there: its port stays "".
            port_id = record.get("port_id") or ""
            if not (local and device_id):
                continue
            neighbour = reading.read(
                group,
                "neighbour",
                partial(
                    Neighbour,
                    protocol=protocol,
                    device_id=str(device_id),
                    port_id=str(port_id),
                    port_description=record.get("port_description"),
                    system_name=record.get("system_name"),
                    mgmt_address=record.get("mgmt_address"),
                    platform=record.get("platform"),
                ),
            )
            if neighbour is not None:
                found.setdefault(names.interface(str(local)), []).append(neighbour)
    return found


def _mode(record: Record) -> PortMode | None:
    """Switchport mode: `no switchport` is routed, else `switchport mode access|trunk`."""
    if record.get("routed"):
        return "routed"
    mode = record.get("switchport_mode")
    return mode if mode in _SWITCHPORT_MODES else None


def _vlan_facts(name: str, record: Record, reading: Reading) -> dict[str, Any]:
    """access_vlan, native_vlan, allowed_vlans from one interface's own configuration.

    IOS, NX-OS and EOS: a trunk without `switchport trunk allowed vlan` carries all VLANs and its
    native VLAN is 1; an access port without `switchport access vlan` is in VLAN 1 (Cisco Catalyst
    "Configuring VLAN Trunks": "By default, all VLANs are allowed on a trunk", "the default native
    VLAN is VLAN 1"; NX-OS Layer 2 Switching Configuration Guide, "Configuring Access and Trunk
    Interfaces"; EOS User Manual, "Switchport configuration": default access VLAN 1, trunk allowed
    all, native VLAN 1).
    """
    mode = _mode(record)
    facts: dict[str, Any] = {"access_vlan": None, "native_vlan": None, "allowed_vlans": None}
    if mode == "routed":
        return facts
    # A VLAN line the template could not read (hostlint.collect.switches.counts): no default for it.
    unread = set(record.get("unread") or ())

    def read(what: str, convert: Callable[[], Any]) -> Any:
        return reading.read("configured", f"{name} {what}", convert)

    if record.get("native_vlan"):
        facts["native_vlan"] = read("native VLAN", lambda: _int(record["native_vlan"]))
    if record.get("access_vlan"):
        facts["access_vlan"] = read("access VLAN", lambda: _int(record["access_vlan"]))
    elif mode == "access" and "access_vlan" not in unread:
        facts["access_vlan"] = 1
    allowed = record.get("allowed_vlans")
    if allowed:
        facts["allowed_vlans"] = read("allowed VLANs", lambda: vlans.apply_commands(str(allowed).split(";")))
    elif mode == "trunk" and "allowed_vlans" not in unread:
        facts["allowed_vlans"] = list(vlans.ALL)
    if facts["native_vlan"] is None and mode == "trunk" and "native_vlan" not in unread:
        facts["native_vlan"] = 1
    return facts


def _status(shown: Record, configured: Record) -> PortStatus | None:
    """The port's status as shown; None when `show interfaces` did not show the port."""
    if not shown.get("state"):
        return None
    admin = str(shown.get("admin") or "").strip()
    # NX-OS `admin state is down` (the reason then says why the link is down: `XCVR not inserted`).
    admin = "administratively down" if admin.lower() == "down" else admin
    reason = " ".join(str(v) for v in (shown.get("reason"), admin) if v)
    protocol = shown.get("protocol")
    status = normalise.port_status(str(shown["state"]), reason or None, str(protocol) if protocol else None)
    if status == "disabled" and admin.lower() == "up":
        status = "down"  # `admin state is up`: whatever the reason says, the port itself is not shut
    if configured.get("shutdown") and status == "down":
        status = "disabled"
    return status


def _port(
    name: str,
    shown: Record,
    configured: dict[str, Record],
    reading: Reading,
    neighbours: dict[str, list[Neighbour]],
    membership: dict[str, tuple[str, MemberState | None]],
) -> SwitchPort:
    """One port; a bundle member's mode (and so its MTU's tagging) falls back to its channel's.

    Every fact is what a command showed, or None: a port known only from a neighbour
    table or a channel summary has no status, MTU or speed.
    """
    platform = reading.platform
    member_of = membership.get(name)
    channel = configured.get(name, {}).get("channel_group") or shown.get("channel")
    channel_name = _channel_name(platform, channel) if channel else (member_of[0] if member_of else None)
    channel_config = configured.get(channel_name, {}) if channel_name else {}
    port_config = configured.get(name, {})
    mode = _mode(port_config) or _mode(channel_config) or _mode(shown)
    entry = switches.switch(platform)
    if channel_name and port_config and not entry.members_match_channel and entry.vlan_syntax == "switchport":
        # EOS: a member keeps switchport lines of its own, which carry its traffic while it runs individually
        # (`port-channel lacp fallback individual`); silent, they are the default, an access port in VLAN 1
        # (EOS User Manual, "Port Channels and LACP: fallback", "Switchport configuration").
        port_config = {**port_config, "switchport_mode": port_config.get("switchport_mode") or "access"}
        mode = _mode(port_config)
    status = _status(shown, port_config)
    mtu = reading.read("interfaces", f"{name} MTU", partial(_l3_mtu, platform, shown)) if shown.get("mtu") else None
    speed_text = port_config.get("speed")
    up = status == "up"
    speed = (
        reading.read("interfaces", f"{name} speed", lambda: normalise.speed_mbps(shown.get("speed"))) if up else None
    )
    duplex = normalise.duplex(shown.get("duplex")) if up else None
    if duplex is None and speed is not None and speed >= 10000:
        duplex = "full"  # 10GbE and faster have no half duplex; some platforms print no link mode for them
    return SwitchPort(
        name=name,
        description=shown.get("description") or port_config.get("description"),
        status=status,
        mode=mode,
        **_vlan_facts(name, port_config, reading),
        configured_speed_mbps=reading.read("configured", f"{name} speed", lambda: normalise.speed_mbps(speed_text)),
        configured_duplex=normalise.duplex(port_config.get("duplex") or speed_text),
        speed_mbps=speed,
        duplex=duplex,
        mtu=mtu,
        # Frames are tagged by the switchport mode that governs the port: its channel's, unless it runs on its
        # own (LACP fallback individual: its own configuration applies).
        l2_mtu=_l2_mtu(
            name,
            {**channel_config, **port_config},
            mode if member_of and member_of[1] == "individual" else _mode(channel_config) or mode,
            reading,
        ),
        port_channel=channel_name,
        member_state=member_of[1] if member_of and member_of[0] == channel_name else None,
        neighbours=neighbours.get(name, []),
    )


def summary_mode(protocol: str) -> ChannelMode | None:
    """Summary `Protocol` column -> mode: `-`/`NONE`/`Static` static, `PAgP`, EOS `LACP(a)`/`LACP(p)`.

    A bare `LACP` (IOS, NX-OS) does not say active or passive: unknown unless the
    configuration says.
    """
    text = protocol.strip().lower()
    if text in ("-", "none", "static"):
        return "static"
    if text.startswith("pagp"):
        return "pagp"
    flags = re.fullmatch(r"lacp\(([^)]*)\)", text)
    if flags:
        if "a" in flags.group(1):
            return "lacp-active"
        if "p" in flags.group(1):
            return "lacp-passive"
    return None


def _channel_mode(
    channel: str,
    members: list[str],
    configured: dict[str, Record],
    summary: Record,
    reading: Reading,
) -> ChannelMode | None:
    candidates = [configured.get(m, {}).get("channel_mode") for m in members]
    candidates += [configured.get(channel, {}).get("channel_mode")]
    for raw in candidates:
        if raw:
            mode = reading.read("configured", f"{channel} mode", partial(normalise.channel_mode, raw))
            if mode:
                return mode
    # Shown by the configuration's silence: NX-OS `channel-group N` without a mode is `mode on`.
    if any(configured.get(m, {}).get("channel_group") and not configured[m].get("channel_mode") for m in members):
        return "static"
    return summary_mode(str(summary.get("protocol") or ""))


def _summary(reading: Reading) -> dict[str, Record]:
    return {_channel_name(reading.platform, r["name"]): r for r in reading.fields("channels") if r.get("name")}


def _membership(reading: Reading) -> dict[str, tuple[str, MemberState | None]]:
    """Member port -> (its channel, its state) from the channel summary."""
    found: dict[str, tuple[str, MemberState | None]] = {}
    # The platform folder's member flags (members.py) read the channel summary's flags.
    member_flags = switches.member_flags(reading.platform)
    for channel, record in _summary(reading).items():
        for member, flags in _MEMBER.findall(str(record.get("members", ""))):
            found[names.interface(member)] = (channel, member_flags.state(flags) if member_flags else None)
    return found


def _channel_status(own: Record, summary: Record) -> ChannelStatus | None:
    """Up or down as `show interfaces` shows the channel, else the summary's `U`/`D` flag; else unknown."""
    if own.get("state"):
        return "up" if _status(own, {}) == "up" else "down"
    flags = str(summary.get("flags") or "")
    if "U" in flags:
        return "up"
    if "D" in flags:
        return "down"
    return None


def _channels(
    ports: list[SwitchPort],
    shown: dict[str, Record],
    configured: dict[str, Record],
    reading: Reading,
) -> list[PortChannel]:
    summary = _summary(reading)
    mc_ids = {names.interface(str(r.port)): r.id for r in reading.group("vpcs") if r.port and r.id}
    peer_links = [names.interface(str(r.port)) for r in reading.group("peer_link") if r.port]
    found = [n for n in [*summary, *shown, *configured, *mc_ids, *peer_links] if is_channel(n)]
    found += [p.port_channel for p in ports if p.port_channel]
    members_of: dict[str, list[str]] = {}
    for port in ports:
        if port.port_channel:
            members_of.setdefault(port.port_channel, []).append(port.name)
    channels = []
    for name in dict.fromkeys(found):
        members = list(members_of.get(name, []))
        own = shown.get(name, {})
        config = configured.get(name, {})
        read_mtu = partial(_l3_mtu, reading.platform, own)
        mtu = reading.read("interfaces", f"{name} MTU", read_mtu) if own.get("mtu") else None
        mc_id = config.get("vpc") or config.get("mlag") or mc_ids.get(name)
        channels.append(
            PortChannel(
                name=name,
                mode=_channel_mode(name, members, configured, summary.get(name, {}), reading),
                switchport=_mode(config),
                **_vlan_facts(name, config, reading),
                members=members,
                mtu=mtu,
                # A channel without switchport lines of its own tags as its members do.
                l2_mtu=_l2_mtu(name, config, _mode(config) or _members_mode(members, ports), reading, members),
                status=_channel_status(own, summary.get(name, {})),
                load_balance=None,
                multichassis_id=reading.read("configured", f"{name} multichassis id", partial(_int, mc_id))
                if mc_id
                else None,
            )
        )
    return channels


@runtime_checkable
class _ReadsMethod(Protocol):
    """A hash table that also reads an IOS-XE router's `Global LB Method` and `LB Algo type`."""

    def read_method(self, method: str, algo: str | None) -> str: ...


def shown_load_balance(reading: Reading, table: HashTable) -> LoadBalance | None:
    """IOS and NX-OS: the hash `show etherchannel|port-channel load-balance` shows (an IOS-XE router's
    `Global LB Method` where the table reads it)."""
    records = [*reading.group("load_balance"), *reading.group("load_balance_system")]
    raw = next((r.raw for r in records if r.raw), None)
    method = next((r for r in reading.group("load_balance_method") if r.method), None)
    if raw is None and method is not None:

        def by_method() -> str:
            if not isinstance(table, _ReadsMethod):
                raise ValueError(f"load-balance method {method.method!r} is not a flow hash this collector knows")
            return table.read_method(str(method.method), method.algo)

        name = reading.read("load_balance_method", "hash", by_method)
        raw_text = " ".join(str(v) for v in (method.method, method.algo) if v)
        return LoadBalance(hash=name, raw=raw_text) if name else None
    if raw is None:
        return None
    name = reading.read("load_balance", "hash", lambda: table.read(str(raw)))
    return LoadBalance(hash=name, raw=str(raw).strip()) if name else None


def configured_load_balance(reading: Reading, table: HashTable) -> LoadBalance | None:
    """EOS: the running configuration's `port-channel load-balance ... fields` (none: the default)."""
    fields = next((r.fields for r in reading.group("load_balance") if r.fields), None)
    name = reading.read("load_balance", "hash", lambda: table.read(fields))
    return LoadBalance(hash=name, raw=fields or "default") if name else None


def _peer(peer_link: str | None, channels: list[PortChannel], ports: list[SwitchPort]) -> str | None:
    """The other switch of a vPC/MLAG pair: the CDP/LLDP neighbour on a peer-link member."""
    if not peer_link:
        return None
    link = names.interface(peer_link)
    members = next((c.members for c in channels if c.name == link), [])
    for port in ports:
        if port.name in members and port.neighbours:
            return port.neighbours[0].system_name or port.neighbours[0].device_id
    return None


def _up_or_unknown(text: Any) -> bool | None:
    word = str(text or "").strip().lower()
    return None if not word else word == "up"


def vpc_peer_link_up(link_status: str | None, peer_status: str | None) -> bool | None:
    """Up when the peer-link row says up and the peer status is ok; unknown when neither was shown."""
    link = _up_or_unknown(link_status)
    status = str(peer_status or "").strip().lower()
    if link is False or (status and "ok" not in status):
        return False
    if link is None or not status:
        return None
    return True


def _multichassis(reading: Reading, channels: list[PortChannel], ports: list[SwitchPort]) -> MultiChassis | None:
    """NX-OS vPC, EOS MLAG or an IOS stack of two or more members (each platform has one of the groups)."""
    vpc = next(iter(reading.group("vpc")), None)
    if vpc and str(vpc.domain_id or "").isdigit():
        peer_link = next(iter(reading.group("peer_link")), None)
        return MultiChassis(
            kind="vpc",
            domain_id=str(vpc.domain_id),
            peer=_peer(peer_link.port if peer_link else None, channels, ports),
            peer_link_up=vpc_peer_link_up(peer_link.status if peer_link else None, vpc.peer_status),
        )
    mlag = next(iter(reading.group("mlag")), None)
    if mlag and mlag.domain_id and str(mlag.state or "").lower() != "disabled":
        return MultiChassis(
            kind="mlag",
            domain_id=str(mlag.domain_id),
            peer=_peer(mlag.peer_link, channels, ports),
            peer_link_up=_up_or_unknown(mlag.peer_link_status),
        )
    stack = next(iter(reading.group("stack")), None)
    if stack and stack.domain_id and len(reading.group("members")) > 1:
        # A stack shows no peer link: unknown, not up.
        return MultiChassis(kind="stack", domain_id=str(stack.domain_id), peer=None, peer_link_up=None)
    return None


def build(
    platform: str,
    typed: Typed,
    commands: Mapping[str, str],
    load_balance: Callable[[Reading], LoadBalance | None],
    device: str,
    outputs: Records,
    mgmt_address: str | None = None,
    config_lines: Mapping[str, list[str]] | None = None,
    collected: frozenset[str] | None = None,
) -> tuple[Switch, list[str]]:
    """The switch `device` of `platform` as its commands' records (ttp group -> records) show it, and
    warnings for what could not be read. `typed`, `commands`: the folder's records.py; `load_balance`: its
    hash reader; `config_lines`: each interface's own configuration lines (hostlint.collect.switches.stanzas),
    when the configuration was read; `collected`: the commands whose output was read."""
    reading = Reading(platform, outputs, typed, commands, collected, ReadContext(device))
    version: Record = {}
    for record in reading.fields("version"):  # one record per line: the first value wins
        version.update({k: v for k, v in record.items() if k not in version})
    # The model the switch records, the family the MTU figures follow (a `Model number` line before a
    # `cisco ... processor` line, whatever their order).
    reading.model = version.get("model") or version.get("hw_model")
    shown = _by_name(reading.fields("interfaces"), reading, "interfaces")
    configured = _by_name(reading.fields("configured"), reading, "configured")
    neighbours = _neighbours(reading)
    membership = _membership(reading)
    # A port is known from `show interfaces`, or only from a neighbour table or a channel summary
    # (then its own facts are unknown): nothing it carries is dropped for want of the other.
    known = [*shown, *neighbours, *membership]
    ports = [
        _port(name, shown.get(name, {}), configured, reading, neighbours, membership)
        for name in dict.fromkeys(known)
        if is_port(name)
    ]
    channels = _channels(ports, shown, configured, reading)
    if config_lines is not None:
        own = {names.interface_key(name): lines for name, lines in config_lines.items()}
        items: list[SwitchPort | PortChannel] = [*ports, *channels]
        for item in items:
            item.config_lines = list(own.get(names.interface_key(item.name), []))
    hostname = next((s.hostname for s in reading.group("system") if s.hostname), None)
    aliases = [hostname] if hostname and names.device_key(hostname) != names.device_key(device) else []
    switch = Switch(
        name=device,
        aliases=aliases,
        mgmt_address=mgmt_address,
        platform=platform,
        model=reading.model,
        os_version=version.get("os_version")
        or version.get("xe_version")
        or version.get("system_version")
        or version.get("base_version"),
        load_balance=load_balance(reading),
        ports=ports,
        port_channels=channels,
        multichassis=_multichassis(reading, channels, ports),
    )
    return switch, reading.context.warnings
