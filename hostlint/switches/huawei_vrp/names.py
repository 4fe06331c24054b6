"""VRP interface names: the long forms, the abbreviations `display` commands print, what a channel is,
and the grammar a name must pass before hostlint writes it into a script.

S-series (VRP 5) name ports `GigabitEthernet0/0/1`, `XGigabitEthernet0/0/1`, `25GE0/0/1`, `40GE0/0/1`,
`100GE0/0/1`, `MultiGE0/0/1` and abbreviate the first two `GE0/0/1`, `XGE0/0/1` in `display interface
brief` and `display eth-trunk`'s compact rows (S300, S500, S2700, S5700 and S6700 Series Command
Reference, "display interface brief"). CloudEngine (VRP 8) names ports by speed, `GE1/0/1`, `10GE1/0/1`,
`25GE1/0/1`, `40GE1/0/1`, `100GE1/0/1`, `400GE1/0/1` (CloudEngine 6800/5800 Command Reference,
"interface (system view)"): there `GE1/0/1` is the long name, not an abbreviation, so `GE` expands only
on VRP 5. Link aggregations are `Eth-Trunk1` on both.
"""

from __future__ import annotations

import re

from hostlint.switches.base import NameGrammar

# Abbreviation -> long form, per family (hostlint.switches.huawei_vrp.families).
LONG: dict[str, dict[str, str]] = {
    "vrp5": {"XGE": "XGigabitEthernet", "GE": "GigabitEthernet"},
    "vrp8": {},
}
SHORT: dict[str, dict[str, str]] = {family: {v: k for k, v in table.items()} for family, table in LONG.items()}

CHANNEL = re.compile(r"^Eth-Trunk(\d+)$")
CHANNEL_INTERFACE = "Eth-Trunk{}"
_PORT_TYPES = "GigabitEthernet|XGigabitEthernet|MultiGE|GE|10GE|25GE|40GE|50GE|100GE|200GE|400GE"
# What a fix script may name: a port `TYPEslot/card/port` (`/0/1` or a stack member's `1/0/1`, a split
# port's `:1`) or an Eth-Trunk. Nothing else (no spaces, no `;`) reaches a script.
SCRIPT = re.compile(rf"^(?:(?:{_PORT_TYPES})\d+/\d+/\d+(?::\d+)?|Eth-Trunk\d+)$")
# Interfaces no rule reads: management, VLAN interfaces, loopbacks, tunnels, the null interface.
NOT_PORTS = re.compile(r"^(?:MEth|Vlanif|LoopBack|Tunnel|NULL|Vbdif|Nve|InLoopBack|Stack-Port)", re.IGNORECASE)
_SPLIT = re.compile(r"^([A-Za-z][A-Za-z-]*?|\d+GE)(\d.*)$")


def long_name(name: str, family: str = "vrp5") -> str:
    """`XGE0/0/1` -> `XGigabitEthernet0/0/1` (VRP 5); a name already long, or unknown, as given."""
    text = name.strip()
    match = _SPLIT.match(text)
    if match is None:
        return text
    prefix, rest = match.groups()
    return LONG.get(family, {}).get(prefix, prefix) + rest


def short_name(name: str, family: str = "vrp5") -> str:
    """`XGigabitEthernet0/0/1` -> `XGE0/0/1` (VRP 5): the form `display eth-trunk` rows print."""
    match = _SPLIT.match(name.strip())
    if match is None:
        return name.strip()
    prefix, rest = match.groups()
    return SHORT.get(family, {}).get(prefix, prefix) + rest


def is_channel(name: str) -> bool:
    return CHANNEL.match(name.strip()) is not None


def is_port(name: str) -> bool:
    """A physical port a rule reads: not a channel, not a management or logical interface."""
    text = name.strip()
    return not is_channel(text) and NOT_PORTS.match(text) is None and "." not in text


def channel_number(name: str) -> int | None:
    match = CHANNEL.match(name.strip())
    return int(match.group(1)) if match else None


def scriptable(name: str) -> bool:
    return SCRIPT.match(name) is not None


def neighbour_port(port_id: str, family: str = "vrp5") -> str:
    """A Huawei neighbour's `Port ID` (what its LLDP prints, long or abbreviated) in the long form."""
    return long_name(port_id, family)


# The registry's view (hostlint.switches.base.NameGrammar): VRP 5's abbreviations (a VRP 8 `GE1/0/1` is
# already long: `long_name` with the family keeps it), the channel form, the forms a Huawei neighbour prints
# for these ports in LLDP (long or abbreviated), and the script grammar.
NAMES = NameGrammar(
    long=LONG["vrp5"],
    channel=CHANNEL.pattern.removeprefix("^").removesuffix("$"),
    neighbour=(rf"(?:{_PORT_TYPES}|XGE)\d+/\d+/\d+(?::\d+)?", r"Eth-Trunk\d+"),
    script=SCRIPT.pattern.removeprefix("^").removesuffix("$"),
)
