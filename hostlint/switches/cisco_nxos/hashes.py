"""NX-OS's port-channel hash (the `hashes` piece): `port-channel load-balance <direction> <fields>`.

`show port-channel load-balance` prints `System: src-dst ip` (a trailing `rotate N` is the hash seed,
not a field); Nexus 5000/7000 print direction and fields as one word, `source-dest-ip-port` (Cisco
Nexus 9000 NX-OS Interfaces Configuration Guide, "Configuring Port Channel Load Balancing"; Nexus 5000
"port-channel load-balance ethernet"). The two tables below are the vocabulary, each word once: the
first word giving a direction or fields is how hostlint writes it, later ones are spellings it reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from hostlint.switches.cisco_like.hashes import CiscoHashes
from hostlint.vocab import HASH_FIELDS

__all__ = ["DIRECTIONS", "FIELDS", "HASHES", "NxosHashes"]

DIRECTIONS: tuple[tuple[str, str], ...] = (
    ("src-dst", "src-dst"),
    ("source-dest", "src-dst"),
    ("src", "src"),
    ("source", "src"),
    ("dst", "dst"),
    ("destination", "dst"),
    ("dest", "dst"),
)
FIELDS: tuple[tuple[str, str], ...] = (
    ("ip", "ip"),
    ("ip-only", "ip"),
    ("ip-l4port", "ip-port"),
    ("ip-port", "ip-port"),
    ("ip-l4port-vlan", "ip-port-vlan"),
    ("ip-vlan", "ip-vlan"),
    ("l4port", "port"),
    ("port", "port"),
    ("mac", "mac"),
)


@dataclass(frozen=True, kw_only=True)
class NxosHashes(CiscoHashes):
    """NX-OS's table: `<direction> <fields>` from DIRECTIONS and FIELDS, whatever follows ignored."""

    def read(self, shown: str | None) -> str:
        """`src-dst ip rotate 0`, `src-dst ip-l4port-vlan`, `source-dest-ip-port` -> vocabulary."""
        directions, fields = dict(DIRECTIONS), dict(FIELDS)
        words = (shown or "").strip().lower().split()
        if len(words) == 1:  # Nexus 5000/7000 spell direction and fields as one word
            longest_first = sorted(directions, key=len, reverse=True)
            direction = next((d for d in longest_first if words[0].startswith(d + "-")), None)
            if direction:
                words = [direction, words[0][len(direction) + 1 :]]
        if len(words) < 2 or words[0] not in directions or words[1] not in fields:
            raise ValueError(f"load-balance {shown!r} is not an NX-OS hash this collector knows")
        name = f"{directions[words[0]]}-{fields[words[1]]}"
        if name not in HASH_FIELDS:
            raise ValueError(f"load-balance {shown!r} has no name in hostlint's hash vocabulary")
        return name


HASHES = NxosHashes(
    pairs=tuple(
        (f"{said} {words}", f"{direction}-{field}")
        for said, direction in DIRECTIONS
        for words, field in FIELDS
        if f"{direction}-{field}" in HASH_FIELDS
    ),
    command="port-channel load-balance {}",
    writes=True,
)
