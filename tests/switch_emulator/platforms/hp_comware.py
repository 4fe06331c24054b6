"""HPE Comware for the stateful emulator: SESSION, the configuration grammar (stateful/comware.py's
ComwareSession, each rule citing the Comware command references), and RENDER, the display output of a
snapshot `Switch`: the switch is written as the Comware configuration and operational state it stands
for (`state_of`), which stateful/comware.py renders. The collector reads the rendering back with the
folder's own templates and assembly (hostlint/switches/hp_comware), so the emulator does not reuse the
production reader."""

from __future__ import annotations

import re
from typing import Any

from hostlint import switches
from hostlint.collect.switches.parse import parse_output
from hostlint.collect.switches.platforms import load_folder
from hostlint.snapshot.switch import PortChannel, Switch, SwitchPort
from hostlint.switches.hp_comware import assemble, mtu, names
from hostlint.switches.hp_comware.hashes import HASHES
from switch_emulator.stateful.comware import ComwareState, ComwareSwitch, Interface, render

FOLDER = switches.folder("hp_comware")
SPEC = load_folder(FOLDER)
# The largest VLAN range written out as VLANs of `display vlan all` (a trunk permitting all 4094 VLANs
# does not create them: Comware permits VLANs that do not exist).
_LISTED_RANGE = 64


def _vlans_of(item: SwitchPort | PortChannel) -> set[int]:
    return {v for low, high in item.allowed_vlans or [] for v in range(low, high + 1)}


def _jumbo(figure: int | None) -> int | None:
    """The `jumboframe enable` size for a snapshot MTU; None (the default, 9416) where the MTU is unknown
    or the default passes it (the emulator is a 5940: a larger frame is the most it takes)."""
    if figure is None:
        return None
    frame = mtu.frame_for(figure)
    return None if frame >= mtu.JUMBO_FRAME else frame


def _interface(item: SwitchPort | PortChannel, channel: PortChannel | None) -> Interface:
    mode = item.mode if isinstance(item, SwitchPort) else item.switchport
    interface = Interface(
        name=item.name,
        link_type=mode if mode in ("access", "trunk") else "access",
        access_vlan=item.access_vlan or 1,
        pvid=item.native_vlan or 1,
        permitted=_vlans_of(item) if mode == "trunk" else {1},
    )
    interface.jumbo = _jumbo(item.mtu)
    if isinstance(item, PortChannel):
        interface.dynamic = (item.mode or "static").startswith("lacp")
        interface.speed_gbps = 0
        return interface
    interface.description = item.description
    interface.shutdown = item.status == "disabled"
    interface.link_up = item.status not in ("down", "err-disabled") and item.member_state != "down"
    interface.speed_gbps = (item.speed_mbps or 10000) // 1000
    if channel is not None:
        interface.group = names.channel_number(channel.name)
        interface.lacp_passive = channel.mode == "lacp-passive"
    if item.neighbours:
        first = item.neighbours[0]
        interface.neighbour = (first.system_name or first.device_id, first.port_id)
    return interface


def state_of(switch: Switch) -> ComwareState:
    """The Comware configuration and operational state a snapshot switch stands for."""
    channel_of = {port: c for c in switch.port_channels for port in c.members}
    interfaces = [_interface(c, None) for c in switch.port_channels]
    interfaces += [_interface(p, channel_of.get(p.name)) for p in switch.ports]
    vlan_ids = {1}
    for item in [*switch.ports, *switch.port_channels]:
        vlan_ids |= {v for v in (item.access_vlan, item.native_vlan) if v}
        vlan_ids |= {
            v for low, high in item.allowed_vlans or [] if high - low < _LISTED_RANGE for v in range(low, high + 1)
        }
    lacp = {p for c in switch.port_channels if (c.mode or "").startswith("lacp") for p in c.members}
    partners = frozenset(p.name for p in switch.ports if p.name in lacp and p.member_state == "bundled")
    hashed = switch.load_balance.hash if switch.load_balance else None
    written = HASHES.write(hashed) if hashed else None
    members = sorted({int(m.group(1)) for p in switch.ports if (m := re.search(r"(\d+)/", p.name))})
    irf = (
        {n: 32 - i for i, n in enumerate(members)} if switch.multichassis and switch.multichassis.kind == "irf" else {}
    )
    return ComwareState(
        sysname=switch.aliases[0] if switch.aliases else switch.name,
        interfaces={i.name: i for i in interfaces},
        vlans=dict.fromkeys(sorted(vlan_ids)),
        load_sharing=tuple(written.split()) if written else None,
        irf=irf,
        lacp_partners=partners,
        model=switch.model or "HPE FF 5940 48SFP+ 6QSFP28 Switch",
        version=f"{switch.os_version}, Release 3208P03" if switch.os_version else "7.1.070, Release 3208P03",
    )


class ComwareConfigSession:
    """The Comware CLI over a snapshot `Switch` (switch_emulator.stateful.session.ConfigSession, for
    StatefulSwitch): the switch is written as Comware's own state (state_of), ComwareSwitch answers every
    line (views, `display` commands, refusals), and after each accepted change the `Switch` is what the
    folder's templates and assembly read from the display output, as a collection would."""

    def __init__(self, state: Switch, lacp_partners: frozenset[str]) -> None:
        self.switch = state
        self.comware = state_of(state)
        self.comware.lacp_partners = frozenset(names.long(p) for p in lacp_partners)
        self.device = ComwareSwitch(self.comware)

    def prompt(self) -> str:
        return self.device.prompt()

    def execute(self, line: str) -> str:
        before = self.device.session.view, len(self.device.log)
        answer = self.device.execute(line)
        changed = len(self.device.log) > before[1] and not answer.lstrip(" ^\n").startswith("%")
        if changed and not line.strip().startswith("display "):
            self._sync()
        return answer

    def _sync(self) -> None:
        read: dict[str, list[dict[str, Any]]] = {}
        for command in SPEC.commands:
            parsed = parse_output(command, render(self.comware, command.command) or "", self.switch.name)
            for group, items in parsed.records.items():
                read.setdefault(group, []).extend(items)
        rebuilt, _warnings = assemble.build(self.switch.name, read, self.switch.mgmt_address)
        for field in ("load_balance", "ports", "port_channels", "multichassis"):
            setattr(self.switch, field, getattr(rebuilt, field))


SESSION = ComwareConfigSession

# The small fix site's entry (tests/support/fix_sites.py reads it): port and channel names, the hash
# collected, no pair, the model. Rehearsed on this emulator (tests/test_hp_comware_rehearsal.py), not by
# SwitchSite.
SITE: dict[str, object] = {
    "port": "Ten-GigabitEthernet1/0/{}",
    "channel": "Bridge-Aggregation{}",
    "hash": ("src-dst-mac", "destination-mac source-mac"),
    "pair": None,
    "model": "HPE FF 5940 48SFP+ 6QSFP28 Switch",
    # For the generated sites (tests/support/site_strategy.py): a member's group line, and lines no field
    # models (Layer 2 - LAN Switching Command Reference: "lacp period short" on a member,
    # "link-aggregation selected-port maximum" on the aggregate); `stp edged-port` is not read by hostlint.
    "member_line": "port link-aggregation group {number}",
    "member_lines": ["lacp period short"],
    "channel_lines": ["link-aggregation selected-port maximum 4"],
    "edge_lines": [],
}


def RENDER(switch: Switch, command: str) -> str | None:
    """What the Comware switch the snapshot stands for prints for `command`; None for another command."""
    return render(state_of(switch), command)


def serve(switch: Switch) -> ComwareSwitch:
    """The switch as the SSH emulator serves it (switch_emulator.server.EmulatedSwitch(stateful=...))."""
    return ComwareSwitch(state_of(switch))


def sample_records() -> dict[str, list[dict[str, Any]]]:
    """Every group of every command's sample in the folder, as its templates read them (no warning allowed)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for command in SPEC.commands:
        parsed = parse_output(command, (FOLDER / f"{command.slug}.txt").read_text(encoding="utf-8"), "hpe-tor1")
        assert parsed.warnings == [] and parsed.notes == [], command.command
        for group, items in parsed.records.items():
            assert group not in found, f"group {group!r} filled by two commands"
            found[group] = items
    return found


def sample_switch() -> tuple[Switch, list[str]]:
    """The switch the folder's samples show, as its assembly builds it, and its warnings."""
    return assemble.build("hpe-tor1.example.com", sample_records())
