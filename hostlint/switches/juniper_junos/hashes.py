"""Junos's port-channel hash (the `hashes` piece, hostlint.switches.base.HashTable): read, never written.

EX/QFX hash IPv4 on source and destination address and L4 ports unless told otherwise (`[edit
forwarding-options enhanced-hash-key family inet]`, or `hash-key family inet` on older EX):
`no-ipv4-source-address`, `no-ipv4-destination-address`, `no-l4-source-port` and
`no-l4-destination-port` take fields out; the older `hash-key family inet layer-3` (without
`layer-4`) leaves only the addresses. What the switch says is its options, sorted and joined by a
space ("" when none: the default). The table holds every combination of those options that leaves
an address; one without any address, or another option, is a named unknown. The hash depends on the
family and the ASIC, so hostlint does not write it (set by hand).
"""

from __future__ import annotations

from itertools import combinations

from hostlint.switches.base import HashTable

_OPTIONS = (
    "layer-3",
    "layer-4",
    "no-ipv4-destination-address",
    "no-ipv4-source-address",
    "no-l4-destination-port",
    "no-l4-source-port",
)


def _name(options: frozenset[str]) -> str | None:
    directions = [
        d
        for d, option in (("src", "no-ipv4-source-address"), ("dst", "no-ipv4-destination-address"))
        if option not in options
    ]
    if not directions:
        return None
    ports = not ({"no-l4-source-port", "no-l4-destination-port"} <= options or options == {"layer-3"})
    return "-".join(directions) + ("-ip-port" if ports else "-ip")


def _pairs() -> tuple[tuple[str, str], ...]:
    found = []
    for size in range(len(_OPTIONS) + 1):
        for combo in combinations(_OPTIONS, size):
            name = _name(frozenset(combo))
            if name is not None:
                found.append((" ".join(combo), name))
    return tuple(found)


HASHES = HashTable(pairs=_pairs(), default="src-dst-ip-port", writes=False)
