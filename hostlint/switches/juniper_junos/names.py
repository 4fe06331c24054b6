"""Junos interface names: the aggregate interfaces, the logical units, the forms its neighbours print,
and the grammar a name must match to be written into a script (the `names` piece, hostlint.switches.base).

Junos names a physical interface `type-fpc/pic/port` (`ge-0/0/1`, `xe-0/0/11`, `et-0/0/48`, `mge-0/0/3`;
a channelized port adds `:n`), an aggregated Ethernet interface `aeN`, and a logical unit of either
`physical.unit` (`xe-0/0/11.0`, `ae0.0`) (Junos Interfaces Fundamentals, "Interface Naming Overview" and
"Aggregated Ethernet Interfaces"). It prints them in lower case and has no abbreviations: a name in another
case (an inventory's `XE-0/0/1`) is the same interface, written in lower case.
"""

from __future__ import annotations

from hostlint.switches.base import NameGrammar

# The physical port types hostlint reads (Gigabit, 10G, 40/100G, multigigabit Ethernet).
_PORT = r"(?:ge|xe|et|mge)-\d+/\d+/\d+"
# The script grammar: type-fpc/pic/port, breakout `:n`, unit `.n` (xe-0/0/1, et-0/0/48:1, ge-1/0/0.0) or an
# aggregate or other numbered name (ae0, irb, lo0). Letters, digits, `-`, `/`, `:` and `.` are no CLI syntax.
SCRIPT = r"(?:[a-z]{2,5}-[0-9]{1,3}/[0-9]{1,3}/[0-9]{1,3}(?::[0-9]{1,3})?|[a-z]{2,5}[0-9]{0,5})(?:\.[0-9]{1,5})?"

NAMES = NameGrammar(
    channel=r"ae\d+",
    # As neighbours print a Junos port: the interface, or one of its logical units (LLDP port ID subtype
    # interface name; a port sending its SNMP ifIndex instead is joined by its description).
    neighbour=(rf"{_PORT}(?:\.\d+)?", r"ae\d+(?:\.\d+)?"),
    script=SCRIPT,
    script_allowed="type-fpc/pic/port, aeN or similar",
    # (`ae-0/0/1` too: the form hostlint has always kept as Junos's.)
    lower_case=r"(?:ge|xe|et|mge|ae)-\d+/\d+/\d+(?:\.\d+)?|ae\d+(?:\.\d+)?",
    unit=rf"({_PORT}|ae\d+)\.\d+",
)
