"""This folder's records -> the snapshot's `Switch` (batfish's conversion half: the vendor's view in,
the vendor-independent model out).

What VRP says and what hostlint makes of it:

- Eth-Trunk mode from the configuration: `mode lacp`, `mode lacp-static`, `mode lacp-dynamic` are LACP
  (VRP actively sends LACPDUs: `lacp-active`); `mode manual load-balance`, `mode manual` or no `mode` line
  (the default) are a static channel. Where the configuration was not read, `display eth-trunk`'s
  `WorkingMode` (`NORMAL` static; `LACP`, `STATIC` LACP).
- Members and their states from `display eth-trunk` (hostlint.switches.huawei_vrp.members), else the
  members' `eth-trunk N` lines (state unknown).
- VLANs as the switch applies them: `display port vlan` (link type, PVID, VLAN list), else the
  configuration (`port link-type`, `port default vlan`, `port trunk pvid vlan`, `port trunk allow-pass vlan`
  minus `undo port trunk allow-pass vlan`). A trunk without allow-pass lines carries VLAN 1 only and an
  access port without `port default vlan` is in VLAN 1 (S-series Command Reference, "port trunk allow-pass
  vlan", "port default vlan": the defaults). Channel members carry no VLAN lines of their own.
- MTU: a bridged port's frame length less header, FCS and tag (hostlint.switches.huawei_vrp.mtu), a routed one's `mtu`.
- The hash per Eth-Trunk (`load-balance`, or `display eth-trunk`'s `Hash arithmetic`); CloudEngine's global
  `load-balance profile` as the switch's hash. An unknown syntax is a warning naming it, never a default.
- Multichassis: M-LAG (`dfs-group` with a `peer-link` trunk; each member trunk's `m-lag N` is its
  multichassis id) as `m-lag`; an iStack (two or more `stack slot` members) as `istack`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import TypeVar

from pydantic import BaseModel

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

from .families import family_of
from .hashes import read as read_hash
from .hashes import read_profile
from .members import member_state
from .mtu import ip_mtu
from .names import CHANNEL_INTERFACE, is_channel, is_port, long_name
from .records import (
    GROUPS,
    ConfigInterface,
    LoadBalanceProfile,
    Mlag,
    PortVlan,
    ShownInterface,
    StackMember,
    System,
    Trunk,
    TrunkMember,
    Version,
)
from .records import Neighbour as LldpNeighbour

# This folder's name, the snapshot's `platform` (platform.py's PLATFORM.name; not imported: the registry
# loads platform.py, the collector this module).
PLATFORM_NAME = "huawei_vrp"

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")
# Records per ttp group, every command's together (the collector's runner hands them over so).
Records = dict[str, list[dict[str, object]]]

_LACP_MODES = ("lacp", "lacp-static", "lacp-dynamic")
_STATIC_MODES = ("manual", "manual load-balance")
_SHOWN_MODES: dict[str, ChannelMode] = {"normal": "static", "lacp": "lacp-active", "static": "lacp-active"}
_VLAN_WORDS = re.compile(r"^\d+(?:\s+to\s+\d+)?$")


@dataclass
class _Read:
    device: str
    records: Records
    warnings: list[str] = field(default_factory=list)
    family: str | None = None

    def typed(self, group: str, model: type[M]) -> list[M]:
        command = GROUPS[group][0]
        out = []
        for raw in self.records.get(group, []):
            try:
                out.append(model.model_validate(raw))
            except ValueError as exc:
                self.warnings.append(f"{self.device}: {command}: {group} record not read: {exc}")
        return out

    def value(self, command: str, what: str, convert: Callable[[], T]) -> T | None:
        try:
            return convert()
        except (ValueError, TypeError) as exc:
            self.warnings.append(f"{self.device}: {command}: {what}: {exc}")
            return None

    def name(self, text: str) -> str:
        return long_name(text, self.family) if self.family else text.strip()


def vlan_words(text: str) -> vlans.Ranges:
    """`10 20 to 30` (configuration) or `1 100-110` (`display port vlan`) -> merged ranges."""
    ranges: vlans.Ranges = []
    words = text.replace("-", " to ").split()
    i = 0
    while i < len(words):
        low = int(words[i])
        if i + 2 < len(words) and words[i + 1] == "to":
            high = int(words[i + 2])
            i += 3
        else:
            high = low
            i += 1
        if not vlans.FIRST <= low <= high <= vlans.LAST:
            raise ValueError(f"VLAN range {low}-{high} is outside {vlans.FIRST}-{vlans.LAST}")
        ranges.append((low, high))
    return vlans.merge(ranges)


def _config_allowed(config: ConfigInterface) -> vlans.Ranges:
    allowed: vlans.Ranges = [(1, 1)]  # a trunk starts in VLAN 1 only
    # Lines in order: allow-pass adds, `undo ... allow-pass` removes (ttp joins each kind with ';').
    for line in (config.allow_vlans or "").split(";"):
        if line.strip():
            allowed = vlans.merge([*allowed, *vlan_words(line)])
    for line in (config.deny_vlans or "").split(";"):
        if line.strip():
            allowed = vlans.subtract(allowed, vlan_words(line))
    return allowed


@dataclass
class _Vlans:
    mode: PortMode | None = None
    access_vlan: int | None = None
    native_vlan: int | None = None
    allowed: vlans.Ranges | None = None


def _vlan_facts(name: str, config: ConfigInterface | None, shown: PortVlan | None, read: _Read) -> _Vlans:
    link = (shown.link_type if shown else None) or (config.link_type if config else None)
    if link is None and config is not None and read.family == "vrp8":
        link = "access"  # CloudEngine ports are access ports unless configured otherwise
    if link not in ("access", "trunk"):
        if link not in (None, "-"):
            command = "display port vlan" if shown is not None else "display current-configuration"
            read.warnings.append(
                f"{read.device}: {command}: {name}: link type {link!r} not read (access and trunk are)"
            )
        return _Vlans(mode="routed" if config is not None and config.mtu and link is None else None)
    if shown is not None:
        pvid = read.value("display port vlan", f"{name} PVID", lambda: int(shown.pvid))
        if link == "access":
            return _Vlans(mode="access", access_vlan=pvid)
        listed = shown.vlans or ""
        allowed = read.value("display port vlan", f"{name} VLANs", lambda: vlan_words(listed) if listed != "-" else [])
        return _Vlans(mode="trunk", native_vlan=pvid, allowed=allowed)
    assert config is not None
    if link == "access":
        vlan = read.value("display current-configuration", f"{name} default vlan", lambda: int(config.access_vlan or 1))
        return _Vlans(mode="access", access_vlan=vlan)
    native = read.value("display current-configuration", f"{name} pvid", lambda: int(config.native_vlan or 1))
    allowed = read.value("display current-configuration", f"{name} allow-pass", lambda: _config_allowed(config))
    return _Vlans(mode="trunk", native_vlan=native, allowed=allowed)


def _status(shown: ShownInterface | None, config: ConfigInterface | None) -> PortStatus | None:
    if shown is not None and shown.state:
        state = shown.state.strip().lower()
        if "administratively" in state:
            return "disabled"
        if state in ("up", "down"):
            return "up" if state == "up" else "down"
    if config is not None and config.shutdown:
        return "disabled"
    return None


def _mtu(name: str, shown: ShownInterface | None, config: ConfigInterface | None, mode: PortMode | None) -> int | None:
    if shown is not None and shown.frame_length and mode in ("access", "trunk", None):
        return ip_mtu(int(shown.frame_length))
    if shown is not None and shown.mtu:
        return int(shown.mtu)
    if config is not None and config.jumboframe and config.jumboframe.isdigit() and mode != "routed":
        return ip_mtu(int(config.jumboframe))
    return None


def _speed(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() else None


def _duplex(text: str | None) -> str | None:
    word = (text or "").strip().lower()
    return word if word in ("full", "half") else None


def _neighbours(read: _Read) -> dict[str, list[Neighbour]]:
    found: dict[str, list[Neighbour]] = {}
    for record in read.typed("neighbours", LldpNeighbour):
        device = record.system_name or record.chassis_id
        if not device:
            read.warnings.append(
                f"{read.device}: display lldp neighbor: {record.local_port}: a neighbour without a name"
            )
            continue
        found.setdefault(read.name(record.local_port), []).append(
            Neighbour(
                protocol="lldp",
                device_id=device,
                port_id=record.port_id or "",
                port_description=record.port_description,
                system_name=record.system_name,
            )
        )
    return found


def _channel_mode(trunk: str, config: ConfigInterface | None, shown: Trunk | None, read: _Read) -> ChannelMode | None:
    if config is not None:
        said = " ".join((config.trunk_mode or "manual load-balance").split()).lower()
        if said in _LACP_MODES:
            return "lacp-active"
        if said in _STATIC_MODES:
            return "static"
        read.warnings.append(f"{read.device}: display current-configuration: {trunk}: mode {said!r} not read")
        return None
    if shown is not None and shown.mode:
        mode = _SHOWN_MODES.get(shown.mode.strip().lower())
        if mode is None:
            read.warnings.append(f"{read.device}: display eth-trunk: {trunk}: working mode {shown.mode!r} not read")
        return mode
    return None


def _trunk_hash(trunk: str, config: ConfigInterface | None, shown: Trunk | None, read: _Read) -> str | None:
    for command, said in (
        ("display current-configuration", config.load_balance if config else None),
        ("display eth-trunk", shown.hash if shown else None),
    ):
        if said:
            name = read_hash(said)
            if name is None:
                read.warnings.append(
                    f"{read.device}: {command}: {trunk}: hostlint reads no {said!r} load-balance syntax"
                )
            return name
    return None


def _switch_hash(read: _Read) -> LoadBalance | None:
    for profile in read.typed("load_balance", LoadBalanceProfile):
        if profile.fields:
            name = read_profile(profile.fields)
            if name is None:
                read.warnings.append(
                    f"{read.device}: display current-configuration: hostlint reads no 'ipv4 field {profile.fields}' "
                    "load-balance syntax"
                )
                return None
            return LoadBalance(hash=name, raw=f"ipv4 field {profile.fields}")
    return None


def _by_name(items: Iterable[M], read: _Read) -> dict[str, M]:
    """Records keyed by their interface's long name (every model passed here has `name`)."""
    return {read.name(str(item.model_dump()["name"])): item for item in items}


def build(
    device: str, records: Records, mgmt_address: str | None = None, collected: frozenset[str] | None = None
) -> tuple[Switch, list[str]]:
    """The switch `device` as its commands' records (ttp group -> records) show it, and warnings for what
    could not be read (each naming the device and the command). `collected` (the commands whose output was
    read) changes nothing here: every VRP fact is read from a record."""
    read = _Read(device=device, records=records)
    version = Version()
    for line in read.typed("version", Version):  # first value of each field wins
        version = version.model_copy(
            update={k: v for k, v in line.model_dump().items() if v and not getattr(version, k)}
        )
    model = version.model.split()[0] if version.model else None
    family = family_of(model, version.os_version)
    read.family = family.name if family else None
    config = _by_name(read.typed("configured", ConfigInterface), read)
    shown = _by_name(read.typed("interfaces", ShownInterface), read)
    port_vlans = _by_name(read.typed("port_vlans", PortVlan), read)
    trunks = _by_name(read.typed("channels", Trunk), read)
    membership: dict[str, tuple[str, MemberState | None]] = {}
    for row in read.typed("members", TrunkMember):
        state = member_state(row.status)
        if state is None:
            read.warnings.append(f"{device}: display eth-trunk: {row.port}: member status {row.status!r} not read")
        membership[read.name(row.port)] = (read.name(row.channel), state)
    for name, interface in config.items():
        if interface.channel_group and name not in membership:
            membership[name] = (CHANNEL_INTERFACE.format(interface.channel_group), None)
    neighbours = _neighbours(read)

    # A member's frames carry its trunk's tags: its MTU follows the trunk's link type.
    trunk_modes = {
        name: _vlan_facts(name, config.get(name), port_vlans.get(name), _Read(device, {}, [], read.family)).mode
        for name in {channel for channel, _ in membership.values()}
        if name in config or name in port_vlans
    }
    ports = []
    for name in dict.fromkeys([*shown, *config, *neighbours, *membership, *port_vlans]):
        if not is_port(name):
            continue
        own, said = config.get(name), shown.get(name)
        channel, state = membership.get(name, (None, None))
        facts = _Vlans() if channel else _vlan_facts(name, own, port_vlans.get(name), read)
        ports.append(
            SwitchPort(
                name=name,
                description=(said.description if said else None) or (own.description if own else None),
                status=_status(said, own),
                mode=facts.mode,
                access_vlan=facts.access_vlan,
                native_vlan=facts.native_vlan,
                allowed_vlans=facts.allowed,
                configured_speed_mbps=_speed(own.speed) if own else None,
                configured_duplex=_duplex(own.duplex) if own else None,  # type: ignore[arg-type]
                speed_mbps=_speed(said.speed) if said else None,
                duplex=_duplex(said.duplex) if said else None,  # type: ignore[arg-type]
                mtu=read.value(
                    "display interface",
                    f"{name} MTU",
                    partial(_mtu, name, said, own, trunk_modes.get(channel) if channel else facts.mode),
                ),
                port_channel=channel,
                member_state=state,
                neighbours=neighbours.get(name, []),
            )
        )
    channels = []
    for name in dict.fromkeys(n for n in [*config, *shown, *trunks] if is_channel(n)):
        own, said, trunk = config.get(name), shown.get(name), trunks.get(name)
        facts = _vlan_facts(name, own, port_vlans.get(name), read) if own or name in port_vlans else _Vlans()
        status = (trunk.status if trunk else None) or (said.state if said else None)
        channels.append(
            PortChannel(
                name=name,
                mode=_channel_mode(name, own, trunk, read),
                switchport=facts.mode,
                access_vlan=facts.access_vlan,
                native_vlan=facts.native_vlan,
                allowed_vlans=facts.allowed,
                members=[port for port, (channel, _) in membership.items() if channel == name],
                mtu=read.value("display interface", f"{name} MTU", partial(_mtu, name, said, own, facts.mode)),
                status="up" if (status or "").strip().lower() == "up" else "down" if status else None,
                load_balance=_trunk_hash(name, own, trunk, read),
                multichassis_id=int(own.mlag_id) if own and own.mlag_id else None,
            )
        )
    hostname = next((s.hostname for s in read.typed("system", System)), None)
    switch = Switch(
        name=device,
        aliases=[hostname] if hostname and hostname.lower() != device.lower() else [],
        mgmt_address=mgmt_address,
        platform=PLATFORM_NAME,
        model=model,
        os_version=version.os_version,
        load_balance=_switch_hash(read),
        ports=ports,
        port_channels=channels,
        multichassis=_multichassis(read, config, channels, ports),
    )
    return switch, read.warnings


def _multichassis(
    read: _Read, config: dict[str, ConfigInterface], channels: list[PortChannel], ports: list[SwitchPort]
) -> MultiChassis | None:
    dfs = read.typed("mlag", Mlag)
    peer_link = next((name for name, c in config.items() if c.peer_link), None)
    if dfs and peer_link:
        link = next((c for c in channels if c.name == peer_link), None)
        peer = None
        for port in ports:
            if link and port.name in link.members and port.neighbours:
                peer = port.neighbours[0].system_name or port.neighbours[0].device_id
                break
        up = None if link is None or link.status is None else link.status == "up"
        return MultiChassis(kind="m-lag", domain_id=dfs[0].dfs_group, peer=peer, peer_link_up=up)
    stack = read.typed("stack", StackMember)
    if len(stack) > 1:
        # A stack (iStack, CSS) is one switch: no peer, its stack links are not Eth-Trunks.
        return MultiChassis(kind="istack", domain_id="istack", peer=None, peer_link_up=None)
    return None
