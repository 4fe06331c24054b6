"""Open vSwitch bonds: `ovs-appctl bond/show` and `ovs-appctl lacp/show` (all bonds at once).

`bond/show` (OVS 2.17; older releases say `slave` for `member`)::

    ---- bond1 ----
    bond_mode: balance-tcp
    lacp_status: negotiated
    active member mac: 52:54:00:6b:10:01(eno1)

    member eno1: enabled
      active member
      may_enable: true

    member eno2: disabled
      may_enable: false

`lacp/show`, per bond then per member::

    ---- bond1 ----
      status: active negotiated
      sys_id: 52:54:00:6b:10:01
      lacp_time: fast

    member: eno1: current attached
      port_id: 1
      partner sys_id: 00:1e:49:a7:3c:00

When ovs-vswitchd's control socket refuses `ovs-appctl`, OVSDB (`ovs-vsctl`, another socket) still
lists the bonds: a port with more than one interface. `BOND_PORTS_COMMAND` prints two JSON tables::

    {"data":[["bond1",["set",[["uuid","ab58..."],["uuid","e138..."]]]],["vnet0",["uuid","9fc6..."]]],...}
    {"data":[[["uuid","e138..."],"eno1"],[["uuid","ab58..."],"eno2"],[["uuid","9fc6..."],"vnet0"]],...}
"""

from __future__ import annotations

import json
import re
from typing import Any

from hostlint.snapshot.kvm import LACP_RATES, Bond, BondMember, BondMode, Bridge, OvsPort

OVS_MODES: tuple[BondMode, ...] = ("balance-tcp", "balance-slb", "active-backup")
# Each OVS bridge and its ports (a bond is one port) on one line: `br-host: bond1 vnet0`.
BRIDGE_PORTS_SCRIPT = 'for b in $(ovs-vsctl list-br); do echo "$b:" $(ovs-vsctl list-ports "$b"); done'

# Ports with their interfaces' ids, and interfaces' ids with their names: one ovs-vsctl call.
BOND_PORTS_COMMAND = [
    "ovs-vsctl",
    "--format=json",
    "--data=json",
    "--",
    "--columns=name,interfaces",
    "list",
    "port",
    "--",
    "--columns=_uuid,name",
    "list",
    "interface",
]

_HEADER = re.compile(r"^---- (\S+) ----$")
_BOND_MEMBER = re.compile(r"^(?:member|slave) (\S+): (\S+)")
_LACP_MEMBER = re.compile(r"^(?:member|slave): (\S+):")


def _sections(text: str) -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        header = _HEADER.match(line.strip())
        if header:
            current = sections.setdefault(header.group(1), [])
        elif current is not None and line.strip():
            current.append(line.strip())
    return sections


def _lacp(lines: list[str]) -> tuple[str | None, dict[str, str | None]]:
    """(lacp_time, member -> partner sys_id) of one bond's `lacp/show` section."""
    rate = None
    partners: dict[str, str | None] = {}
    member = None
    for line in lines:
        found = _LACP_MEMBER.match(line)
        if found:
            member = found.group(1)
            partners[member] = None
        elif line.startswith("lacp_time:") and member is None:
            rate = line.partition(":")[2].strip()
        elif line.startswith("partner sys_id:") and member is not None:
            partners[member] = line.partition(":")[2].strip().lower()
    return rate, partners


def parse_ovs_bonds(bond_show: str, lacp_show: str | None = None) -> list[Bond]:
    lacp = {name: _lacp(lines) for name, lines in _sections(lacp_show or "").items()}
    bonds = []
    for name, lines in _sections(bond_show).items():
        fields = dict(line.split(":", 1) for line in lines if ":" in line and not _BOND_MEMBER.match(line))
        mode = fields.get("bond_mode", "").strip()
        if mode not in OVS_MODES:
            continue
        rate, partners = lacp.get(name, (None, {}))
        members = [
            BondMember(name=nic, link_up=state == "enabled", partner_mac=partners.get(nic))
            for nic, state in (found.groups() for found in map(_BOND_MEMBER.match, lines) if found)
        ]
        attached = [m.partner_mac for m in members if m.partner_mac]
        bonds.append(
            Bond(
                name=name,
                implementation="ovs",
                mode=mode,
                lacp_rate=rate if rate in LACP_RATES else None,
                partner_mac=attached[0] if attached else None,
                members=members,
            )
        )
    return bonds


def parse_bridge_ports(text: str) -> list[Bridge]:
    """The output of BRIDGE_PORTS_SCRIPT: OVS bridges with their ports."""
    bridges = []
    for line in text.splitlines():
        name, colon, ports = line.partition(":")
        if colon and name.strip():
            bridges.append(Bridge(name=name.strip(), members=ports.split(), implementation="ovs"))
    return bridges


class OvsParseError(ValueError):
    """`ovs-vsctl` printed something that is not its two JSON tables."""


def _rows(line: str) -> list[list[Any]]:
    rows = json.loads(line)["data"]
    if not isinstance(rows, list):
        raise TypeError("data is not a list")
    return rows


def parse_bond_ports(text: str) -> list[Bond]:
    """Bonds as OVSDB lists them (BOND_PORTS_COMMAND): names and members only. Their mode and LACP
    state are ovs-vswitchd's, which did not answer: null (unknown), never a guess."""
    lines = [line for line in text.splitlines() if line.strip()]
    try:
        if len(lines) != 2:
            raise ValueError(f"{len(lines)} JSON tables, expected 2")
        ports, interfaces = (_rows(line) for line in lines)
        names = {row[0][1]: row[1] for row in interfaces}
        bonds = []
        for name, column in ports:
            if column[0] != "set" or len(column[1]) < 2:
                continue
            members = sorted(names[uuid] for _, uuid in column[1])
            bonds.append(
                Bond(name=name, implementation="ovs", mode=None, members=[BondMember(name=m) for m in members])
            )
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise OvsParseError(
            f"OVS bond ports not read: ovs-vsctl list port/interface: unexpected output ({exc})"
        ) from exc
    return sorted(bonds, key=lambda bond: bond.name)


# Each port's VLAN settings, one ovs-vsctl call. A row: ["vnet0", 30, ["set", []], ["set", []]]; an
# empty column is the empty set ["set", []], a one-element set its bare value, more a ["set", [...]].
PORT_VLANS_COMMAND = ["ovs-vsctl", "--format=json", "--columns=name,tag,trunks,vlan_mode", "list", "Port"]


def _set(column: Any) -> list[Any]:
    """An OVSDB set column's values: ["set", [...]] or, for one value, the value itself."""
    if isinstance(column, list) and len(column) == 2 and column[0] == "set":
        values = column[1]
        if not isinstance(values, list):
            raise TypeError(f"set {column!r} holds no list")
        return values
    return [column]


def _one(column: Any) -> Any:
    values = _set(column)
    if len(values) > 1:
        raise ValueError(f"{column!r} holds more than one value")
    return values[0] if values else None


def parse_port_vlans(text: str) -> list[OvsPort]:
    """PORT_VLANS_COMMAND's table: each port's `tag`, `trunks` and `vlan_mode` (null where unset)."""
    try:
        table = json.loads(text)
        headings = table["headings"]
        ports = []
        for row in table["data"]:
            columns = dict(zip(headings, row, strict=True))
            ports.append(
                OvsPort(
                    name=columns["name"],
                    tag=_one(columns["tag"]),
                    trunks=sorted(_set(columns["trunks"])),
                    vlan_mode=_one(columns["vlan_mode"]),
                )
            )
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise OvsParseError(f"OVS port VLANs not read: ovs-vsctl list Port: unexpected output ({exc})") from exc
    return sorted(ports, key=lambda port: port.name)
