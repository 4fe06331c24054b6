"""Parser score: hostlint's parse-and-assemble path against real device output with reviewed truth.

    python bench/parsers.py ../shared/corpus/ntc-templates

CORPUS_DIR holds `<platform>/<command>/*.raw` captures, each with a `*.yml`
beside it whose `parsed_sample` is the record list the ntc-templates TextFSM
template gives (reviewed by that project's maintainers; see its NOTICE.md).
For every file of a command hostlint runs, the output goes through
`parse_output` (templates and the independent record count) and
`build_switch` (the real assembly), and the switch that comes out is compared
with the reviewed records on the fields hostlint uses.

Per platform and command it prints: files, crashes (an exception out of the
parse or assembly), silent shortfalls (records the truth has that hostlint
lost without a collection error naming the command), false collection errors
(files where hostlint reports a collection error though it found every record
the truth has, each field right: an error where nothing a rule reads was
lost), records found/expected and field accuracy. Targets: 0 crashes, 0 silent
shortfalls, 0 false errors and at least 99.5% field accuracy outside `show
version`; the exit status is 1 below target, 2 when CORPUS_DIR holds nothing
to score.

Every other registered platform folder (hostlint.switches.SWITCH_NAMES) is
scored by discovery: its captures under its own name in the corpus, for each
command of its folder's spec that ntc files (`display lldp neighbor` ->
`display_lldp_neighbor`) and `RECORD_SCORERS` has a scorer for, go through
`parse_output` with the folder's spec and templates, and the records are
compared with the reviewed ones directly, on the template's own fields
(`RECORD_SCORED`). A new folder is scored with no edit here when ntc's
templates of its commands are ones a scorer reads. A record the reviewed parse
has and the output lost without a collection error is a silent shortfall,
named under its row.

How ntc's fields map to hostlint's, and where the conventions differ (kept
general, by format, never per file):

- Interfaces: `interface` -> port or port-channel name (canonical long form);
  only ports and channels are compared (SVIs, loopbacks, tunnels, NVE/Vxlan,
  management and Junos logical units are not switch ports to hostlint:
  hostlint.collect.switches.kinds). Status: admin
  down -> `disabled`, `err-disabled` -> `err-disabled`, up only when the link
  and (where shown) the line protocol are up, else `down`. MTU: Junos media
  MTU minus the 14-byte Ethernet header (untagged, as no configuration is
  given here); `Unlimited` is not compared. Speed and duplex are compared for
  ports that are up only (hostlint does not keep the speed of a port that is
  down: it is the last negotiated or the maximum, not a fact about the link),
  and only where ntc holds a value (`auto`/`Auto-speed` mean not shown).
- Port-channel summaries: ntc gives one record per member; a channel is
  expected with its members, each member's state from its flag, the
  protocol's family (LACP / static / PAgP: the summary does not say active
  or passive, the configuration does) and up/down.
- CDP/LLDP: per local port, the multiset of (neighbour name, neighbour port);
  hostlint's name is the system name, else the device id (CDP `Device ID`),
  else the chassis id, as the join uses it. ntc LLDP `neighbor_interface` is
  the port id, or the port description where the port id is a MAC (ntc's
  convention), except IOS where `neighbor_port_id` is the port id and
  `neighbor_interface` the description; either of hostlint's port id and port
  description may match. Names are compared without a trailing domain only
  when ntc cut it. Neighbours on management ports are not compared (hostlint
  keeps switch ports only).
- NX-OS `show vpc`: hostlint runs `show vpc brief`; their tables are the
  same format, so the ntc `show vpc` records are scored against the vPC
  numbers of port-channels. Junos `show interfaces`: hostlint runs `show
  interfaces extensive`, whose `Physical interface:` and `Link-level type:`
  lines are the same format; scored on names, status and MTU.
- Comware and VRP: ntc keeps VRP's frame length (switch ports) and IP MTU
  (routed ports) in one `mtu`, Comware's apart (`mtu`, `l2mtu`); Comware
  aggregation members carry a reference-port mark `(R)` that is no part of the
  name; ntc names one Comware router capture's `Eth-channel2/0:0` `Output:` (a
  counter heading), so a name without a digit is not compared; fields ntc
  leaves empty (LACP members' status, a non-layer-2 port's link type) are not
  compared.
- `show version` / `display version`: model and OS version, reported apart. Releases are
  compared by their first word with leading zeros dropped (`16.09.03` is
  `16.9.3`; ntc keeps `[Maintenance Release]` after NX-OS versions); models
  match when one contains the other (ntc gives `c9396px` for `N9K-C9396PX`).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent


sys.path.insert(0, str(ROOT))

try:
    from hostlint import names, switches
    from hostlint.collect.switches import normalise
    from hostlint.collect.switches.assemble import build_switch
    from hostlint.collect.switches.inventory import Device
    from hostlint.collect.switches.kinds import is_channel, is_port
    from hostlint.collect.switches.parse import Parsed, parse_output
    from hostlint.collect.switches.platforms import CommandSpec, load_folder, load_platform
    from hostlint.snapshot.switch import Switch
except ModuleNotFoundError as missing:  # run from a checkout by a Python without hostlint's dependencies
    sys.exit(f"bench/parsers.py: {missing.name} is not installed: run `pip install -e .` in this checkout first")

TARGET_ACCURACY = 99.5

Record = dict[str, Any]


@dataclass
class Score:
    files: int = 0
    crashes: int = 0
    silent: int = 0
    false_errors: int = 0
    found: int = 0
    expected: int = 0
    right: int = 0
    compared: int = 0
    wrong: list[str] = field(default_factory=list)
    # Each record a silent shortfall lost, named: printed under its row whether or not -v is given.
    lost: list[str] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        return 100.0 * self.right / self.compared if self.compared else 100.0


@dataclass
class Outcome:
    """One file's comparison: records found/expected, and (field, expected, got) per compared field."""

    found: int = 0
    expected: int = 0
    fields: list[tuple[str, Any, Any]] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)

    def check(self, where: str, expected: Any, got: Any) -> None:
        self.fields.append((where, expected, got))


def _text(value: Any) -> str:
    if isinstance(value, list):
        value = value[0] if value else ""
    return str(value or "").strip()


def _port(switch: Switch, name: str):
    return next((p for p in switch.ports if p.name == name), None) or next(
        (c for c in switch.port_channels if c.name == name), None
    )


# Interfaces ---------------------------------------------------------------------------------------


def _expected_status(record: Record) -> str | None:
    link = _text(record.get("link_status")).lower()
    protocol = _text(record.get("protocol_status")).lower()
    admin = _text(record.get("admin_state")).lower()
    if not link:
        return None
    if "admin" in link or admin in ("down", "disabled"):
        return "disabled"
    if "err" in f"{link} {protocol}" and "disabled" in f"{link} {protocol}":
        return "err-disabled"
    if link.startswith("up") and (not protocol or protocol.startswith("up")):
        return "up"
    return "down"


def _expected_mtu(platform: str, record: Record) -> int | None:
    text = _text(record.get("mtu"))
    if not text.isdigit():
        return None
    mtu = int(text)
    return mtu - 14 if platform == "juniper_junos" else mtu


def _expected_speed(record: Record) -> int | None:
    text = _text(record.get("speed")).lower()
    if not text or "auto" in text or "unknown" in text:
        return None
    text = re.sub(r"^a-", "", text)
    try:
        return normalise.speed_mbps(text.replace("mb/s", "mb/s"))
    except ValueError:
        return None


def score_interfaces(platform: str, switch: Switch, records: list[Record], out: Outcome) -> None:
    # Some captures hold two devices' output: hostlint merges records by name, the later one winning.
    by_name = {names.interface(_text(r.get("interface"))): r for r in records}
    for record in by_name.values():
        raw = _text(record.get("interface"))
        name = names.interface(raw)
        if not raw or "." in raw or not (is_port(name) or is_channel(name)):
            continue
        out.expected += 1
        got = _port(switch, name)
        if got is None:
            out.missing.append(name)
            continue
        out.found += 1
        status = _expected_status(record)
        if status is not None:
            # A port-channel is up or down: its admin state is not kept.
            want = status if is_port(name) else ("up" if status == "up" else "down")
            out.check(f"{name} status", want, got.status)
        mtu = _expected_mtu(platform, record)
        if mtu is not None:
            out.check(f"{name} mtu", mtu, got.mtu)
        if is_port(name) and status == "up":
            speed = _expected_speed(record)
            if speed is not None:
                out.check(f"{name} speed", speed, got.speed_mbps)
            duplex = normalise.duplex(_text(record.get("duplex")) or None)
            if duplex is not None:
                out.check(f"{name} duplex", duplex, got.duplex)


# Port-channel summaries ---------------------------------------------------------------------------

# Summary member flags -> member state (the vocabulary of SwitchPort.member_state).
_FLAG_STATE = {
    "p": "bundled",
    "bndl": "bundled",
    "h": "hot-standby",
    "hot-sby": "hot-standby",
    "s": "suspended",
    "susp": "suspended",
    "i": "individual",
    "indep": "individual",
    "d": "down",
    "down": "down",
}


def _family(protocol: str) -> str | None:
    text = protocol.lower()
    if text.startswith("lacp"):
        return "lacp"
    if text.startswith("pagp"):
        return "pagp"
    if text in ("-", "none", "static"):
        return "static"
    return None


def _state_from_flags(flags: str) -> str | None:
    """Member flags as ntc keeps them (`P`, `s`, `I`, `D`, `PG`, `bndl`...): the state they mean."""
    text = flags.strip()
    if not text:
        return None
    low = text.lower()
    if low in _FLAG_STATE:
        return _FLAG_STATE[low]
    # EOS: `PG+`, `G`, `D`, `I`, `s`, `o`... first letter that is a state.
    for char in text:
        if char in "PHsDI":
            return _FLAG_STATE[char.lower()]
    return None


def score_channels(platform: str, switch: Switch, records: list[Record], out: Outcome) -> None:
    expected: dict[str, dict[str, Any]] = {}
    for record in records:
        bundle = _text(record.get("bundle_name"))
        if not bundle:
            continue
        name = names.interface(bundle)
        entry = expected.setdefault(name, {"protocol": _text(record.get("bundle_protocol")), "members": {}})
        members = record.get("member_interface") or []
        states = record.get("member_interface_status") or []
        if isinstance(members, str):
            members, states = [members], [states]
        for member, flags in zip(members, states, strict=False):
            if member:
                entry["members"][names.interface(str(member))] = _state_from_flags(str(flags))
    ports = {p.name: p for p in switch.ports}
    for name, entry in expected.items():
        out.expected += 1
        channel = next((c for c in switch.port_channels if c.name == name), None)
        if channel is None:
            out.missing.append(name)
            continue
        out.found += 1
        family = _family(entry["protocol"])
        # A bare `LACP` (IOS, NX-OS) does not say active or passive: the configuration does, and
        # hostlint keeps the mode unknown from the summary alone. Compared where the summary says.
        if family is not None and entry["protocol"].strip().lower() != "lacp":
            got = channel.mode.split("-")[0] if channel.mode else None
            out.check(f"{name} protocol", family, got)
        for member, state in entry["members"].items():
            out.check(f"{name} member {member}", True, member in channel.members)
            if state is not None:
                port = ports.get(member)
                out.check(f"{member} member state", state, port.member_state if port else None)


# Neighbours ---------------------------------------------------------------------------------------


def _short(name: str) -> str:
    return name.split(".")[0].lower()


def score_neighbours(platform: str, switch: Switch, records: list[Record], out: Outcome) -> None:
    expected: dict[str, list[tuple[str, str]]] = {}
    for record in records:
        local = _text(record.get("local_interface"))
        device = _text(record.get("neighbor_name")) or _text(record.get("chassis_id"))
        # ntc IOS LLDP keeps the port id in `neighbor_port_id` and the port description in
        # `neighbor_interface`; elsewhere `neighbor_interface` is the port id.
        port = _text(record.get("neighbor_port_id")) or _text(record.get("neighbor_interface"))
        if local and not is_port(names.interface(local)):
            continue  # management ports are not switch ports to hostlint
        expected.setdefault(names.interface(local), []).append((device, port))
    got_by_port = {p.name: p.neighbours for p in switch.ports}
    # Older IOS `show lldp neighbors detail` shows no `Local Intf:`: such a neighbour cannot be
    # placed on a port. It counts as expected and lost (the record count reports it).
    for _unplaced in expected.pop(names.interface(""), []) + expected.pop("", []):
        out.expected += 1
        out.missing.append("a neighbour without a local port")
    for local, wanted in expected.items():
        got = list(got_by_port.get(local, []))
        for device, port in wanted:
            out.expected += 1
            match = None
            for neighbour in got:
                names_seen = {
                    (neighbour.system_name or "").lower(),
                    (neighbour.device_id or "").lower(),
                }
                if device.lower() in names_seen or _short(device) in {_short(n) for n in names_seen if n}:
                    match = neighbour
                    break
            if match is None:
                out.missing.append(f"{local} {device}")
                out.check(f"{local} neighbour {device}", device, None)
                continue
            got.remove(match)
            out.found += 1
            out.check(f"{local} neighbour {device}", device, device)
            if port:
                ports_seen = {(match.port_id or "").lower(), (match.port_description or "").lower()}
                alt = {names.interface(p).lower() for p in ports_seen if p}
                ok = port.lower() in ports_seen or names.interface(port).lower() in alt
                out.check(f"{local} neighbour {device} port", port, port if ok else match.port_id)


# Multi-chassis ------------------------------------------------------------------------------------


def score_vpc(platform: str, switch: Switch, records: list[Record], out: Outcome) -> None:
    for record in records:
        port = _text(record.get("port"))
        number = _text(record.get("id"))
        if not port or not number.isdigit():
            continue
        name = names.interface(port)
        out.expected += 1
        channel = next((c for c in switch.port_channels if c.name == name), None)
        if channel is None:
            out.missing.append(name)
            continue
        out.found += 1
        if channel.multichassis_id is None and switch.multichassis is not None:
            # The peer-link row: its number is the peer-link id, not a vPC number.
            out.check(f"{name} vpc id", True, True)
            continue
        out.check(f"{name} vpc id", int(number), channel.multichassis_id)


def score_mlag(platform: str, switch: Switch, records: list[Record], out: Outcome) -> None:
    for record in records:
        domain = _text(record.get("domain"))
        if not domain:
            continue
        out.expected += 1
        mc = switch.multichassis
        if mc is None:
            out.missing.append(domain)
            continue
        out.found += 1
        out.check("mlag domain", domain, mc.domain_id)


# Junos LACP ---------------------------------------------------------------------------------------

_MUX_STATE = {
    "collecting distributing": "bundled",
    "collecting_distributing": "bundled",
    "distributing": "bundled",
    "waiting": "down",
    "attached": "down",
    "detached": "down",
}


def score_lacp(platform: str, switch: Switch, records: list[Record], out: Outcome) -> None:
    ports = {p.name: p for p in switch.ports}
    for record in records:
        bundle = _text(record.get("bundle_name"))
        members = record.get("member_interface") or []
        muxes = record.get("mux_state") or []
        if isinstance(members, str):
            members, muxes = [members], [muxes]
        for member, mux in zip(members, muxes, strict=False):
            out.expected += 1
            name = names.interface(str(member))
            port = ports.get(name)
            if port is None:
                out.missing.append(name)
                continue
            out.found += 1
            out.check(f"{name} channel", names.interface(bundle), port.port_channel)
            state = _MUX_STATE.get(str(mux).strip().lower())
            if state is not None:
                out.check(f"{name} member state", state, port.member_state)


# show version -------------------------------------------------------------------------------------


def _release(text: str) -> str:
    """`16.09.03` and `16.9.3` are one release; `10.4(5) [Maintenance Release]` is `10.4(5)`."""
    first = text.split()[0] if text.split() else ""
    return re.sub(r"(?<![\w])0+(\d)", r"\1", first.lower())


def score_version(platform: str, switch: Switch, records: list[Record], out: Outcome) -> None:
    for record in records:
        out.expected += 1
        out.found += 1 if (switch.model or switch.os_version) else 0
        model = _text(record.get("model") or record.get("hardware") or record.get("platform")).lower()
        version = _text(record.get("version") or record.get("image") or record.get("os") or record.get("junos_version"))
        if model:
            got = (switch.model or "").lower()
            # ntc cuts models differently (`c9396px` for `N9K-C9396PX`, `5596` for `Nexus 5596`).
            out.check("model", model, model if got and (model in got or got in model) else got or None)
        if version:
            got = _release(switch.os_version or "")
            out.check("os_version", _release(version), got or None)


Scorer = Callable[[str, Switch, list[Record], Outcome], None]

# (ntc platform, ntc command folder) -> (hostlint command, scorer)
SCORED: dict[tuple[str, str], tuple[str, Scorer]] = {
    ("arista_eos", "show_interfaces"): ("show interfaces", score_interfaces),
    ("arista_eos", "show_port-channel_summary"): ("show port-channel summary", score_channels),
    ("arista_eos", "show_lldp_neighbors_detail"): ("show lldp neighbors detail", score_neighbours),
    ("arista_eos", "show_mlag"): ("show mlag", score_mlag),
    ("arista_eos", "show_version"): ("show version", score_version),
    ("cisco_ios", "show_interfaces"): ("show interfaces", score_interfaces),
    ("cisco_ios", "show_etherchannel_summary"): ("show etherchannel summary", score_channels),
    ("cisco_ios", "show_cdp_neighbors_detail"): ("show cdp neighbors detail", score_neighbours),
    ("cisco_ios", "show_lldp_neighbors_detail"): ("show lldp neighbors detail", score_neighbours),
    ("cisco_ios", "show_version"): ("show version", score_version),
    ("cisco_nxos", "show_interface"): ("show interface", score_interfaces),
    ("cisco_nxos", "show_port-channel_summary"): ("show port-channel summary", score_channels),
    ("cisco_nxos", "show_cdp_neighbors_detail"): ("show cdp neighbors detail", score_neighbours),
    ("cisco_nxos", "show_lldp_neighbors_detail"): ("show lldp neighbors detail", score_neighbours),
    ("cisco_nxos", "show_vpc"): ("show vpc brief", score_vpc),
    ("cisco_nxos", "show_version"): ("show version", score_version),
    ("juniper_junos", "show_interfaces"): ("show interfaces extensive", score_interfaces),
    ("juniper_junos", "show_lacp_interfaces"): ("show lacp interfaces", score_lacp),
    ("juniper_junos", "show_lldp_neighbors"): ("show lldp neighbors", score_neighbours),
    ("juniper_junos", "show_version"): ("show version", score_version),
}


# The registered platforms not in SCORED: their output goes through `parse_output` with their folder's spec
# (the template and the independent record count), and the records are compared with the reviewed ones
# directly, on the template's own fields (RECORD_SCORED, below). Which ntc template a scorer reads is told
# by the fields ntc's records carry, never by the platform's name.


def _records_by(parsed: Parsed, group: str, key: str) -> dict[str, list[Record]]:
    found: dict[str, list[Record]] = {}
    for record in parsed.get(group):
        found.setdefault(_text(record.get(key)), []).append(record)
    return found


def _word(text: Any, cut: str = "") -> str:
    """A value compared without case, spacing or a suffix both sides may or may not print."""
    value = " ".join(_text(text).split()).lower()
    return value[: -len(cut)] if cut and value.endswith(cut) else value


def score_display_interface(platform: str, parsed: Parsed, records: list[Record], out: Outcome) -> None:
    got = _records_by(parsed, "interfaces", "name")
    by_name = {_text(r.get("interface")): r for r in records}
    for name, record in by_name.items():
        # ntc's Comware template names one router capture's `Eth-channel2/0:0` `Output:` (a counter
        # heading): a name without a digit is no interface name and is not compared.
        if not re.search(r"\d", name):
            continue
        out.expected += 1
        if name not in got:
            out.missing.append(name)
            continue
        out.found += 1
        mine = got[name][-1]
        # ntc's Comware `line_status`, VRP's `link_status`: the header's state as printed.
        state = _word(record.get("line_status") or record.get("link_status"))
        if state:
            out.check(f"{name} state", state.split()[0], _word(mine.get("state")).split()[0] or None)
        if "l2mtu" in record:  # ntc's Comware template: the IP MTU and the frame length apart
            mtu, frame = _text(record.get("mtu")), _text(record.get("l2mtu"))
            if mtu:
                out.check(f"{name} mtu", mtu, mine.get("mtu"))
            if frame:
                out.check(f"{name} frame length", frame, mine.get("frame_length"))
            speed, duplex = _word(record.get("speed"), "-speed"), _word(record.get("duplex"), "-duplex")
            if speed:
                out.check(f"{name} speed", speed, _word(mine.get("speed")) or None)
            if duplex:
                out.check(f"{name} duplex", duplex, _word(mine.get("duplex")) or None)
            description = _text(record.get("description"))
        else:
            # ntc keeps VRP's frame length (switch ports) and IP MTU (routed ports) in one `mtu`.
            mtu = _text(record.get("mtu"))
            if mtu:
                out.check(f"{name} mtu", mtu, mine.get("frame_length") or mine.get("mtu"))
            for field_name in ("speed", "duplex"):
                want = _word(record.get(field_name))
                if want:
                    out.check(f"{name} {field_name}", want, _word(mine.get(field_name)) or None)
            description = _text(record.get("interface_description"))
        if description:
            out.check(f"{name} description", description, mine.get("description"))


def score_comware_aggregation(platform: str, parsed: Parsed, records: list[Record], out: Outcome) -> None:
    channels = _records_by(parsed, "channels", "name")
    members: dict[str, set[str]] = {}
    for member in parsed.get("members"):
        members.setdefault(_text(member.get("channel")), set()).add(_text(member.get("port")))
    for record in records:
        name = _text(record.get("interface"))
        out.expected += 1
        if name not in channels:
            out.missing.append(name)
            continue
        out.found += 1
        out.check(f"{name} mode", _word(record.get("aggregation_mode")), _word(channels[name][-1].get("mode")))
        for port in record.get("local_interfaces") or []:
            port = re.sub(r"\(R\)$", "", str(port))  # the reference port's mark
            out.check(f"{name} member {port}", True, port in members.get(name, set()))


def score_vrp_trunk(platform: str, parsed: Parsed, records: list[Record], out: Outcome) -> None:
    """ntc gives one record per member, with its trunk's mode and hash."""
    channels = _records_by(parsed, "channels", "name")
    members = {(_text(m.get("channel")), _text(m.get("port"))): m for m in parsed.get("members")}
    for record in records:
        trunk, port = _text(record.get("eth_trunk")), _text(record.get("interface"))
        out.expected += 1
        member = members.get((trunk, port))
        if member is None:
            out.missing.append(f"{trunk} {port}")
            continue
        out.found += 1
        if _text(record.get("status")):  # ntc leaves LACP members' status empty
            out.check(f"{trunk} {port} status", _word(record.get("status")), _word(member.get("status")))
        channel = channels.get(trunk, [{}])[-1]
        out.check(f"{trunk} mode", _word(record.get("working_mode")), _word(channel.get("mode")) or None)
        out.check(f"{trunk} hash", _text(record.get("hash_arithmetic")), channel.get("hash"))


def score_record_neighbours(platform: str, parsed: Parsed, records: list[Record], out: Outcome) -> None:
    got: dict[str, list[Record]] = _records_by(parsed, "neighbours", "local_port")
    # ntc's Comware `neighbor_interface` is the port id; VRP's is the description, `neighbor_port_id` the id.
    for record in records:
        port_key, description_key = (
            ("neighbor_port_id", "neighbor_interface")
            if "neighbor_port_id" in record
            else ("neighbor_interface", "neighbor_interface_description")
        )
        local = _text(record.get("local_interface"))
        chassis = _text(record.get("chassis_id"))
        device = _text(record.get("neighbor_name")) or chassis
        out.expected += 1
        candidates = got.get(local, [])
        match = next(
            (
                n
                for n in candidates
                if device in (_text(n.get("system_name")), _text(n.get("chassis_id")))
                and chassis in ("", _text(n.get("chassis_id")))
            ),
            None,
        )
        if match is None:
            out.missing.append(f"{local} {device}")
            continue
        candidates.remove(match)
        out.found += 1
        port_id, description = _text(record.get(port_key)), _text(record.get(description_key))
        if port_id:
            out.check(f"{local} {device} port id", port_id, match.get("port_id"))
        if description:
            out.check(f"{local} {device} port description", description, match.get("port_description"))


def score_comware_vlans(platform: str, parsed: Parsed, records: list[Record], out: Outcome) -> None:
    got = _records_by(parsed, "vlans", "vlan_id")
    for record in records:
        vlan = _text(record.get("vlan_id"))
        out.expected += 1
        if vlan not in got:
            out.missing.append(f"VLAN {vlan}")
            continue
        out.found += 1
        out.check(f"VLAN {vlan} name", _text(record.get("vlan_name")), got[vlan][-1].get("name"))


def score_vrp_port_vlans(platform: str, parsed: Parsed, records: list[Record], out: Outcome) -> None:
    got = _records_by(parsed, "port_vlans", "name")
    for record in records:
        name = _text(record.get("interface"))
        out.expected += 1
        if name not in got:
            out.missing.append(name)
            continue
        out.found += 1
        mine = got[name][-1]
        # ntc leaves both empty on a port that is no layer-2 port (`-`, PVID 0): compared where it has them.
        for want, got_field in ((record.get("link_type"), "link_type"), (record.get("vlan_id"), "pvid")):
            if _text(want):
                out.check(f"{name} {got_field.replace('_', ' ')}", _text(want), mine.get(got_field))
        want = [str(v) for v in record.get("trunk_vlan_list") or [] if str(v) != "-"]
        have = [v for v in _text(mine.get("vlans")).split() if v != "-"]
        out.check(f"{name} vlans", want, have)


def score_record_version(platform: str, parsed: Parsed, records: list[Record], out: Outcome) -> None:
    mine: Record = {}
    for record in parsed.get("version"):
        for key, value in record.items():
            mine.setdefault(key, value)
    for record in records:
        out.expected += 1
        out.found += 1 if mine else 0
        model = _text(record.get("model")).lower()
        got = _text(mine.get("model")).lower()
        out.check("model", model, model if got and (model in got or got in model) else got or None)
        out.check("os_version", _text(record.get("vrp_version")), mine.get("os_version"))
        out.check("release", _text(record.get("product_version")), mine.get("release"))


RecordScorer = Callable[[str, Parsed, list[Record], Outcome], None]

# ntc command folder -> scorer over that template's records. Keyed by the command as ntc files it, not by
# platform: a registered folder whose spec runs one of these commands is scored on ntc's captures of it
# with no edit here (`record_scored`); a command with a record format not listed is not scored.
RECORD_SCORERS: dict[str, RecordScorer] = {
    "display_interface": score_display_interface,
    "display_link-aggregation_verbose": score_comware_aggregation,
    "display_lldp_neighbor-information_verbose": score_record_neighbours,
    "display_vlan_all": score_comware_vlans,
    "display_eth-trunk": score_vrp_trunk,
    "display_lldp_neighbor": score_record_neighbours,
    "display_port_vlan": score_vrp_port_vlans,
    "display_version": score_record_version,
}


def ntc_folder(command: str) -> str:
    """ntc-templates' folder of a command's captures: the command with `_` for its spaces."""
    return "_".join(command.split())


def record_scored() -> dict[tuple[str, str], tuple[str, RecordScorer]]:
    """(ntc platform, ntc command folder) -> (hostlint command, scorer), read from the registry: every
    registered platform not in SCORED, under its own name in the corpus, for each command of its folder's
    spec that RECORD_SCORERS has a scorer for."""
    scored_platforms = {platform for platform, _ in SCORED}
    found: dict[tuple[str, str], tuple[str, RecordScorer]] = {}
    for platform in switches.SWITCH_NAMES:
        if platform in scored_platforms:
            continue
        for command in load_folder(switches.folder(platform)).commands:
            scorer = RECORD_SCORERS.get(ntc_folder(command.command))
            if scorer is not None:
                found[(platform, ntc_folder(command.command))] = (command.command, scorer)
    return found


RECORD_SCORED = record_scored()


def _command(platform: str, command: str) -> CommandSpec:
    spec = (
        load_folder(switches.folder(platform))
        if (platform, ntc_folder(command)) in RECORD_SCORED
        else load_platform(platform)
    )
    return next(c for c in spec.commands if c.command == command)


def run_file(platform: str, command: CommandSpec, raw: str) -> tuple[Switch, list[str], list[str]]:
    """The real path: parse (with the record count) and assemble; the collection errors it reports, and
    its notes (a `show version` line not understood: logged, no collection error)."""
    device = Device(name="bench", hostname="192.0.2.1", platform=platform)
    parsed = parse_output(command, raw, device.name)
    sections: dict[str, Parsed] = {command.section: parsed}
    switch, warnings = build_switch(device, sections, {command.section: command.command})
    return switch, parsed.warnings + warnings, parsed.notes


# Output of one platform filed under another's folder, told by its format: EOS's summary header
# (`Port-Channel Protocol Ports`, members `Et3/1/1(PG+)`) is not NX-OS's (`Group Port-Channel Type
# Protocol Member Ports`). Scored with the platform whose output it is.
_FORMATS = {
    ("cisco_nxos", "show_port-channel_summary"): (re.compile(r"^Port-Channel\s+Protocol\s+Ports", re.M), "arista_eos")
}


def platform_of(platform: str, folder: str, raw: str) -> str:
    found = _FORMATS.get((platform, folder))
    return found[1] if found and found[0].search(raw) else platform


def files(corpus: Path) -> Iterator[tuple[str, str, Path]]:
    for platform, folder in [*SCORED, *RECORD_SCORED]:
        for raw in sorted((corpus / platform / folder).glob("*.raw")):
            yield platform, folder, raw


def score(corpus: Path, verbose: bool = False) -> dict[tuple[str, str], Score]:
    scores: dict[tuple[str, str], Score] = {}
    for platform, folder, raw_path in files(corpus):
        text = raw_path.read_text(encoding="utf-8", errors="replace")
        if (platform, folder) in RECORD_SCORED:
            command_name = RECORD_SCORED[(platform, folder)][0]
        else:
            command_name = SCORED[(platform, folder)][0]
            platform = platform_of(platform, folder, text)
            command_name = SCORED.get((platform, folder), (command_name,))[0]
        command = _command(platform, command_name)
        entry = scores.setdefault((platform, command_name), Score())
        entry.files += 1
        truth_path = raw_path.with_suffix(".yml")
        records = (yaml.safe_load(truth_path.read_text(encoding="utf-8")) or {}).get("parsed_sample") or []
        try:
            outcome = Outcome()
            if (platform, folder) in RECORD_SCORED:
                parsed = parse_output(command, text, "bench")
                errors, notes = parsed.warnings, parsed.notes
                RECORD_SCORED[(platform, folder)][1](platform, parsed, records, outcome)
            else:
                switch, errors, notes = run_file(platform, command, text)
                SCORED[(platform, folder)][1](platform, switch, records, outcome)
        except Exception as exc:  # a crash is what this bench counts
            entry.crashes += 1
            entry.wrong.append(f"{raw_path.name}: crash {type(exc).__name__}: {exc}")
            continue
        entry.found += outcome.found
        entry.expected += outcome.expected
        if outcome.found < outcome.expected and not errors:
            entry.silent += 1
            entry.wrong.append(f"{raw_path.name}: silently lost {outcome.missing[:6]}")
            entry.lost.extend(f"{raw_path.name}: {name}" for name in outcome.missing)
        if errors and outcome.found == outcome.expected and all(want == got for _, want, got in outcome.fields):
            entry.false_errors += 1
            entry.wrong.append(f"{raw_path.name}: collection error though nothing was lost: {errors[0]}")
        for where, want, got in outcome.fields:
            entry.compared += 1
            if want == got:
                entry.right += 1
            else:
                entry.wrong.append(f"{raw_path.name}: {where}: expected {want!r}, got {got!r}")
        if verbose and (errors or notes):
            for error in errors + notes:
                entry.wrong.append(f"{raw_path.name}: (reported) {error}")
    return scores


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path, help="folder of <platform>/<command>/*.raw with *.yml truth")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every wrong field and reported error")
    args = parser.parse_args(argv)
    scores = score(args.corpus, verbose=args.verbose)
    if not scores:
        print(f"{args.corpus}: no corpus files of the commands hostlint runs", file=sys.stderr)
        return 2
    header = (
        f"{'platform':<14} {'command':<41} {'files':>5} {'crash':>5} {'silent':>6} {'false':>5} "
        f"{'records':>9} {'fields':>11} {'accuracy':>8}"
    )
    print(header)
    print("-" * len(header))
    total = Score()
    for (platform, command), entry in sorted(scores.items()):
        records = f"{entry.found}/{entry.expected}"
        fields = f"{entry.right}/{entry.compared}"
        print(
            f"{platform:<14} {command:<41} {entry.files:>5} {entry.crashes:>5} {entry.silent:>6} "
            f"{entry.false_errors:>5} {records:>9} {fields:>11} {entry.accuracy:>7.2f}%"
        )
        if command not in ("show version", "display version"):
            for name in ("files", "crashes", "silent", "false_errors", "found", "expected", "right", "compared"):
                setattr(total, name, getattr(total, name) + getattr(entry, name))
        for line in entry.lost if not args.verbose else []:
            print(f"    silently lost: {line}")
        if args.verbose:
            for line in entry.wrong:
                print(f"    {line}")
    print("-" * len(header))
    print(
        f"{'all but show version':<56} {total.files:>5} {total.crashes:>5} {total.silent:>6} {total.false_errors:>5} "
        f"{total.found:>4}/{total.expected:<4} {total.right:>5}/{total.compared:<5} {total.accuracy:>7.2f}%"
    )
    crashes = sum(s.crashes for s in scores.values())
    silent = sum(s.silent for s in scores.values())
    false_errors = sum(s.false_errors for s in scores.values())
    ok = crashes == 0 and silent == 0 and false_errors == 0 and total.accuracy >= TARGET_ACCURACY
    print(
        f"target: 0 crashes, 0 silent shortfalls, 0 false collection errors, >= {TARGET_ACCURACY}% field accuracy "
        "outside show version: " + ("met" if ok else "NOT met")
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
