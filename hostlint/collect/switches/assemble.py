"""Parsed records of one switch -> the `Switch` model.

A platform whose folder holds its own assembly (hostlint/switches/<platform>/assemble.py: Junos, Comware,
VRP) is built there (`build_switch` hands it the records by group). For the others, templates give every
platform's records the same field names (see the templates' `<doc>`), so one assembly serves them; what
differs (MTU meaning, channel naming) is in `normalise` and in each platform's entry of the registry
(hostlint.platforms); the hash spelling, member flags and names are its folder's (`hashes.py`, `members.py`,
`names.py`). A value that cannot be read becomes a warning naming the device and the
command it came from; the rest of the switch is still built.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from importlib import import_module
from typing import Any, Protocol, TypeVar, runtime_checkable

from hostlint import names, switches, vlans
from hostlint import platforms as registry
from hostlint.collect.switches import global_mtu, normalise
from hostlint.collect.switches.inventory import Device
from hostlint.collect.switches.kinds import is_channel, is_port
from hostlint.collect.switches.parse import Parsed, Record
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
from hostlint.switches.base import HashTable

T = TypeVar("T")
_SWITCHPORT_MODES: tuple[PortMode, ...] = ("access", "trunk")

_MEMBER = re.compile(r"(\S+?)\(([^()\s]+)\)")


@dataclass
class _Context:
    device: Device
    platform: str
    sections: dict[str, Parsed]
    commands: dict[str, str]
    warnings: list[str] = field(default_factory=list)
    model: str | None = None
    # Switch-wide L2 figures already read (hostlint.collect.switches.global_mtu).
    global_l2: dict[str, int | None] = field(default_factory=dict)

    def records(self, section: str, group: str) -> list[Record]:
        parsed = self.sections.get(section)
        return parsed.get(group) if parsed else []

    def read(self, section: str, what: str, convert: Callable[[], T]) -> T | None:
        """Run one conversion; a value that makes no sense is a warning, not a failure."""
        try:
            return convert()
        except (ValueError, TypeError, KeyError) as exc:
            command = self.commands.get(section, section)
            self.warnings.append(f"{self.device.name}: {command}: {what}: {exc}")
            return None


def _by_name(records: list[Record], context: _Context, section: str) -> dict[str, Record]:
    """Records of one interface merged (a template may give one record per line)."""
    merged: dict[str, Record] = {}
    for record in records:
        raw = record.get("name")
        if not isinstance(raw, str) or not raw.strip():
            context.warnings.append(
                f"{context.device.name}: {context.commands.get(section, section)}: "
                f"a record without an interface name: {record}"
            )
            continue
        merged.setdefault(names.interface(raw), {}).update(record)
    return merged


def _channel_name(platform: str, group: str) -> str:
    text = str(group).strip()
    # `channel-group 10` names the platform's channel interface 10 (a name names itself).
    if text.isdigit():
        text = registry.switch(platform).channel_interface.format(text)
    return names.interface(text)


def _int(value: Any) -> int:
    return int(str(value).strip())


def _l3_mtu(platform: str, record: Record) -> int:
    return normalise.l3_mtu(platform, _int(record["mtu"]))


def _l2_mtu(
    name: str, config: Record, mode: PortMode | None, context: _Context, members: list[str] | None = None
) -> int | None:
    """A switchport's L2 figure as the largest IP packet it carries, where the platform reads it from each
    interface's configuration (EOS `l2 mtu N`, the frame size): the configured frame, or the vendor's
    default when the configuration is silent; where the family's figure is global, that figure
    (hostlint.collect.switches.global_mtu). None where the platform has no such figure, the port is
    routed, or what shows it was not read (never the L3 `mtu` in its place). A channel's `members` say
    which ports it bundles (a global figure may differ by port speed)."""
    family = registry.switch(context.platform).mtu_family(context.model)
    if family is None or mode == "routed":
        return None
    if family.l2_global is not None:
        ports = members or [name]
        return _global_l2_mtu(family.l2_global, all(p.startswith("FastEthernet") for p in ports), context)
    if family.l2_config is None or family.l2_default_frame is None:
        return None
    if "config" not in context.sections:
        return None
    configured = config.get("l2_mtu")
    frame = context.read("config", f"{name} {family.l2_config}", lambda: _int(configured)) if configured else None
    tag = 4 if mode == "trunk" else 0
    return min(frame or family.l2_default_frame, family.l2_default_frame) - family.l2_header - tag


def _global_l2_mtu(kind: str, fast_ethernet: bool, context: _Context) -> int | None:
    """A switch-wide figure, read once per switch (and per port kind: 10/100 or faster), so a value that
    makes no sense is one warning, not one per port."""
    section = "config" if kind == "network-qos" else "system_mtu"
    key = f"{kind} {fast_ethernet}"
    if key not in context.global_l2:
        if section not in context.sections:
            context.global_l2[key] = None
        elif kind == "network-qos":
            qos = partial(global_mtu.network_qos_mtu, context.records)
            context.global_l2[key] = context.read(section, "network-qos class-default mtu", qos)
        else:
            system = partial(global_mtu.system_mtu, context.records, fast_ethernet)
            context.global_l2[key] = context.read(section, "system mtu", system)
    return context.global_l2[key]


def _members_mode(members: list[str], ports: list[SwitchPort]) -> PortMode | None:
    modes = [port.mode for port in ports if port.name in members and port.mode is not None]
    return modes[0] if modes else None


def _lldp_table(context: _Context) -> list[tuple[str, str, str]]:
    """IOS `show lldp neighbors` rows as (device id as shown, local port, port id).

    The Device ID column is 20 characters and a longer name runs into Local Intf;
    the Capability column may be blank.
    """
    rows = []
    for record in context.records("lldp", "lldp_table"):
        row = str(record.get("row") or "")
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


def _neighbours(context: _Context) -> dict[str, list[Neighbour]]:
    found: dict[str, list[Neighbour]] = {}
    table = _lldp_table(context)
    for protocol in ("cdp", "lldp"):
        for record in context.records(protocol, "neighbours"):
            if set(record) <= {"separator"}:
                continue  # the line of dashes before an entry, when `Local Intf:` started the entry itself
            local = record.get("local_port") or (_place(record, table) if protocol == "lldp" else None)
            if not local and protocol == "lldp":
                who = record.get("system_name") or record.get("chassis_id") or "?"
                context.warnings.append(
                    f"{context.device.name}: {context.commands.get(protocol, protocol)}: neighbour {who} "
                    f"(port {record.get('port_id') or '?'}) shows no local port and has no single row in "
                    "`show lldp neighbors`; it is not placed"
                )
            device_id = record.get("device_id") or record.get("system_name") or record.get("chassis_id")
            # A neighbour that sends an empty port ID is still there: its port stays "".
            port_id = record.get("port_id") or ""
            if not (local and device_id):
                continue
            neighbour = context.read(
                protocol,
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


def _vlan_facts(name: str, record: Record, context: _Context) -> dict[str, Any]:
    """access_vlan, native_vlan, allowed_vlans from one interface's own configuration.

    IOS, NX-OS and EOS: a trunk without `switchport trunk allowed vlan` carries all VLANs and its
    native VLAN is 1; an access port without `switchport access vlan` is in VLAN 1 (Cisco Catalyst
    "Configuring VLAN Trunks": "By default, all VLANs are allowed on a trunk", "the default native
    VLAN is VLAN 1"; NX-OS Layer 2 Switching Configuration Guide, "Configuring Access and Trunk
    Interfaces"; EOS User Manual, "Switchport configuration": default access VLAN 1, trunk allowed
    all, native VLAN 1). (A platform with other defaults reads them in its folder's assemble.py.)
    """
    mode = _mode(record)
    facts: dict[str, Any] = {"access_vlan": None, "native_vlan": None, "allowed_vlans": None}
    if mode == "routed":
        return facts
    # A VLAN line the template could not read (hostlint.collect.switches.counts): no default for it.
    unread = set(record.get("unread") or ())

    def read(what: str, convert: Callable[[], Any]) -> Any:
        return context.read("config", f"{name} {what}", convert)

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
    context: _Context,
    neighbours: dict[str, list[Neighbour]],
    membership: dict[str, tuple[str, MemberState | None]],
) -> SwitchPort:
    """One port; a bundle member's mode (and so its MTU's tagging) falls back to its channel's.

    Every fact is what a command showed, or None: a port known only from a neighbour
    table or a channel summary has no status, MTU or speed.
    """
    platform = context.platform
    member_of = membership.get(name)
    channel = configured.get(name, {}).get("channel_group") or shown.get("channel")
    channel_name = _channel_name(platform, channel) if channel else (member_of[0] if member_of else None)
    channel_config = configured.get(channel_name, {}) if channel_name else {}
    port_config = configured.get(name, {})
    mode = _mode(port_config) or _mode(channel_config) or _mode(shown)
    entry = registry.switch(platform)
    if channel_name and port_config and not entry.members_match_channel and entry.vlan_syntax == "switchport":
        # EOS: a member keeps switchport lines of its own, which carry its traffic while it runs individually
        # (`port-channel lacp fallback individual`); silent, they are the default, an access port in VLAN 1
        # (EOS User Manual, "Port Channels and LACP: fallback", "Switchport configuration").
        port_config = {**port_config, "switchport_mode": port_config.get("switchport_mode") or "access"}
        mode = _mode(port_config)
    status = _status(shown, port_config)
    mtu = context.read("interfaces", f"{name} MTU", partial(_l3_mtu, platform, shown)) if shown.get("mtu") else None
    speed_text = port_config.get("speed")
    up = status == "up"
    speed = (
        context.read("interfaces", f"{name} speed", lambda: normalise.speed_mbps(shown.get("speed"))) if up else None
    )
    duplex = normalise.duplex(shown.get("duplex")) if up else None
    if duplex is None and speed is not None and speed >= 10000:
        duplex = "full"  # 10GbE and faster have no half duplex; some platforms print no link mode for them
    return SwitchPort(
        name=name,
        description=shown.get("description") or port_config.get("description"),
        status=status,
        mode=mode,
        **_vlan_facts(name, port_config, context),
        configured_speed_mbps=context.read("config", f"{name} speed", lambda: normalise.speed_mbps(speed_text)),
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
            context,
        ),
        port_channel=channel_name,
        member_state=member_of[1] if member_of and member_of[0] == channel_name else None,
        neighbours=neighbours.get(name, []),
    )


def _summary_mode(protocol: str) -> ChannelMode | None:
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
    context: _Context,
) -> ChannelMode | None:
    candidates = [("config", configured.get(m, {}).get("channel_mode")) for m in members]
    candidates += [("config", configured.get(channel, {}).get("channel_mode"))]
    for section, raw in candidates:
        if raw:
            mode = context.read(section, f"{channel} mode", partial(normalise.channel_mode, raw))
            if mode:
                return mode
    # Shown by the configuration's silence: NX-OS `channel-group N` without a mode is `mode on`.
    if any(configured.get(m, {}).get("channel_group") and not configured[m].get("channel_mode") for m in members):
        return "static"
    return _summary_mode(str(summary.get("protocol") or ""))


def _summary(context: _Context) -> dict[str, Record]:
    return {
        _channel_name(context.platform, r["name"]): r for r in context.records("channels", "channels") if r.get("name")
    }


def _membership(context: _Context) -> dict[str, tuple[str, MemberState | None]]:
    """Member port -> (its channel, its state) from the channel summary."""
    found: dict[str, tuple[str, MemberState | None]] = {}
    # The platform folder's member flags (members.py) read the channel summary's flags.
    member_flags = switches.member_flags(context.platform)
    for channel, record in _summary(context).items():
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
    context: _Context,
) -> list[PortChannel]:
    summary = _summary(context)
    mc_ids = {
        names.interface(str(r["port"])): r["id"]
        for r in context.records("multichassis", "vpcs")
        if r.get("port") and r.get("id")
    }
    peer_links = [
        names.interface(str(r["port"])) for r in context.records("multichassis", "peer_link") if r.get("port")
    ]
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
        read_mtu = partial(_l3_mtu, context.platform, own)
        mtu = context.read("interfaces", f"{name} MTU", read_mtu) if own.get("mtu") else None
        mc_id = config.get("vpc") or config.get("mlag") or mc_ids.get(name)
        channels.append(
            PortChannel(
                name=name,
                mode=_channel_mode(name, members, configured, summary.get(name, {}), context),
                switchport=_mode(config),
                **_vlan_facts(name, config, context),
                members=members,
                mtu=mtu,
                # A channel without switchport lines of its own tags as its members do.
                l2_mtu=_l2_mtu(name, config, _mode(config) or _members_mode(members, ports), context, members),
                status=_channel_status(own, summary.get(name, {})),
                load_balance=None,
                multichassis_id=context.read("config", f"{name} multichassis id", partial(_int, mc_id))
                if mc_id
                else None,
            )
        )
    return channels


@runtime_checkable
class _ReadsMethod(Protocol):
    """A hash table that also reads an IOS-XE router's `Global LB Method` and `LB Algo type`."""

    def read_method(self, method: str, algo: str | None) -> str: ...


def _hash_table(platform: str) -> HashTable:
    """The platform folder's hash table (hostlint/switches/<platform>/hashes.py); ValueError when it has none."""
    table = switches.hashes(platform)
    if table is None:
        raise ValueError(f"hostlint reads no {platform!r} load-balance syntax: the switch's hash is unknown")
    return table


def _cisco_load_balance(context: _Context, source: str) -> LoadBalance | None:
    records = context.records("load_balance", "load_balance") + context.records("load_balance", "load_balance_system")
    raw = next((r["raw"] for r in records if r.get("raw")), None)
    method = next((r for r in context.records("load_balance", "load_balance_method") if r.get("method")), None)
    if raw is None and method is not None:

        def by_method() -> str:
            table = _hash_table(context.platform)
            if not isinstance(table, _ReadsMethod):
                raise ValueError(f"load-balance method {method['method']!r} is not a flow hash this collector knows")
            return table.read_method(str(method["method"]), method.get("algo"))

        name = context.read("load_balance", "hash", by_method)
        raw_text = " ".join(str(method[k]) for k in ("method", "algo") if method.get(k))
        return LoadBalance(hash=name, raw=raw_text) if name else None
    if raw is None:
        return None
    name = context.read("load_balance", "hash", lambda: _hash_table(context.platform).read(str(raw)))
    return LoadBalance(hash=name, raw=str(raw).strip()) if name else None


def _eos_load_balance(context: _Context, source: str) -> LoadBalance | None:
    records = context.records("config", "load_balance")
    fields = next((r["fields"] for r in records if r.get("fields")), None)
    name = context.read("config", "hash", lambda: _hash_table(context.platform).read(fields))
    return LoadBalance(hash=name, raw=fields or "default") if name else None


# Each hash syntax's reader (the platform registry's `hash_source`). A syntax with no reader here is a
# named unknown: never read by another vendor's reader, which would invent that vendor's default.
_HASH_READERS: dict[str, Callable[[_Context, str], LoadBalance | None]] = {
    "ios": _cisco_load_balance,
    "nxos": _cisco_load_balance,
    "eos": _eos_load_balance,
}


def _load_balance(context: _Context) -> LoadBalance | None:
    source = registry.switch(context.platform).hash_source
    reader = _HASH_READERS.get(source)
    if reader is None:

        def unknown() -> None:
            raise ValueError(f"hostlint reads no {source!r} load-balance syntax: the switch's hash is unknown")

        return context.read("config", "hash", unknown)
    return reader(context, source)


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


def _vpc_peer_link_up(peer_link: Record, vpc: Record) -> bool | None:
    """Up when the peer-link row says up and the peer status is ok; unknown when neither was shown."""
    link = _up_or_unknown(peer_link.get("status"))
    status = str(vpc.get("peer_status") or "").strip().lower()
    if link is False or (status and "ok" not in status):
        return False
    if link is None or not status:
        return None
    return True


def _multichassis(context: _Context, channels: list[PortChannel], ports: list[SwitchPort]) -> MultiChassis | None:
    vpc = next(iter(context.records("multichassis", "vpc")), None)
    if vpc and str(vpc.get("domain_id", "")).isdigit():
        peer_link = next(iter(context.records("multichassis", "peer_link")), {})
        return MultiChassis(
            kind="vpc",
            domain_id=str(vpc["domain_id"]),
            peer=_peer(peer_link.get("port"), channels, ports),
            peer_link_up=_vpc_peer_link_up(peer_link, vpc),
        )
    mlag = next(iter(context.records("multichassis", "mlag")), None)
    if mlag and mlag.get("domain_id") and str(mlag.get("state", "")).lower() != "disabled":
        return MultiChassis(
            kind="mlag",
            domain_id=str(mlag["domain_id"]),
            peer=_peer(mlag.get("peer_link"), channels, ports),
            peer_link_up=_up_or_unknown(mlag.get("peer_link_status")),
        )
    stack = next(iter(context.records("multichassis", "stack")), None)
    if stack and stack.get("domain_id") and len(context.records("multichassis", "members")) > 1:
        # A stack shows no peer link: unknown, not up.
        return MultiChassis(kind="stack", domain_id=str(stack["domain_id"]), peer=None, peer_link_up=None)
    return None


def _folder_assembly(platform: str) -> Callable[..., tuple[Switch, list[str]]] | None:
    """A platform folder's own conversion of its records (hostlint/switches/<platform>/assemble.py, `build`);
    None while the platform's assembly is this module's (docs/design/platform-folders.md)."""
    if not (switches.folder(platform) / "assemble.py").is_file():
        return None
    build: Callable[..., tuple[Switch, list[str]]] = import_module(f"hostlint.switches.{platform}.assemble").build
    return build


def _by_group(sections: dict[str, Parsed]) -> dict[str, list[Record]]:
    """Every command's records by ttp group (a folder names its groups apart, whatever their section)."""
    grouped: dict[str, list[Record]] = {}
    for parsed in sections.values():
        for group, records in parsed.records.items():
            grouped.setdefault(group, []).extend(records)
    return grouped


def _own_lines(items: Sequence[SwitchPort | PortChannel], config_lines: dict[str, list[str]]) -> None:
    """Each port's and channel's own configuration lines, verbatim ([] for one the configuration does not list)."""
    own = {names.interface_key(name): lines for name, lines in config_lines.items()}
    for item in items:
        item.config_lines = list(own.get(names.interface_key(item.name), []))


def build_switch(
    device: Device,
    sections: dict[str, Parsed],
    commands: dict[str, str],
    config_lines: dict[str, list[str]] | None = None,
) -> tuple[Switch, list[str]]:
    """The switch as collected, and warnings for what could not be read (each naming device and command).
    `config_lines`: each interface's own configuration lines (hostlint.collect.switches.stanzas), when the
    configuration was read."""
    folder_build = _folder_assembly(device.platform)
    if folder_build is not None:
        # A folder whose build reads each interface's own lines (Junos: set statements) takes them; for
        # the others each interface's stanza is given its own lines after the build (rollbacks type them back).
        if "config_lines" in inspect.signature(folder_build).parameters:
            return folder_build(device.name, _by_group(sections), device.hostname, config_lines=config_lines)
        built, notes = folder_build(device.name, _by_group(sections), device.hostname)
        if config_lines is not None:
            _own_lines((*built.ports, *built.port_channels), config_lines)
        return built, notes
    context = _Context(device=device, platform=device.platform, sections=sections, commands=commands)
    version: Record = {}
    for record in context.records("version", "version"):  # one record per line: the first value wins
        version.update({k: v for k, v in record.items() if k not in version})
    # The model the switch records, the family the MTU figures follow (a `Model number` line before a
    # `cisco ... processor` line, whatever their order).
    context.model = version.get("model") or version.get("hw_model")
    shown = _by_name(context.records("interfaces", "interfaces"), context, "interfaces")
    configured = _by_name(context.records("config", "interfaces"), context, "config")
    neighbours = _neighbours(context)
    membership = _membership(context)
    # A port is known from `show interfaces`, or only from a neighbour table or a channel summary
    # (then its own facts are unknown): nothing it carries is dropped for want of the other.
    known = [*shown, *neighbours, *membership]
    ports = [
        _port(name, shown.get(name, {}), configured, context, neighbours, membership)
        for name in dict.fromkeys(known)
        if is_port(name)
    ]
    channels = _channels(ports, shown, configured, context)
    if config_lines is not None:
        _own_lines((*ports, *channels), config_lines)
    hostname = next((r["hostname"] for r in context.records("config", "system") if r.get("hostname")), None)
    aliases = [hostname] if hostname and names.device_key(hostname) != names.device_key(device.name) else []
    switch = Switch(
        name=device.name,
        aliases=aliases,
        mgmt_address=device.hostname,
        platform=device.platform,
        model=context.model,
        os_version=version.get("os_version")
        or version.get("xe_version")
        or version.get("system_version")
        or version.get("base_version"),
        load_balance=_load_balance(context),
        ports=ports,
        port_channels=channels,
        multichassis=_multichassis(context, channels, ports),
    )
    return switch, context.warnings
