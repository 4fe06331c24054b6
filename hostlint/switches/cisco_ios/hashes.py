"""IOS's port-channel hash (the `hashes` piece): `port-channel load-balance <keyword>`, read and written.

The keywords (Catalyst 9300 Layer 2 Configuration Guide, "port-channel load-balance"; Catalyst 6500
`vlan-src-dst-ip` and `vlan-src-dst-mixed-ip-port`): `src-mac`, `dst-mac`, `src-dst-mac`, `src-ip`,
`dst-ip`, `src-dst-ip`, `src-port`, `dst-port`, `src-dst-port`, and the "mixed" ones that hash IP and
L4 port together. A keyword that is already a hostlint hash name reads as itself. IOS-XE routers show
`Global LB Method: flow-based` and `LB Algo type: Source Destination IP` instead (`read_method`);
`vlan-manual` (each VLAN pinned to a member by hand) is no hash at all.
"""

from __future__ import annotations

from dataclasses import dataclass

from hostlint.switches.cisco_like.hashes import CiscoHashes
from hostlint.vocab import HASH_FIELDS

__all__ = ["HASHES", "IosHashes"]

# Written (and read): hostlint's name -> the keyword, the first pair naming a hash is how it is written.
_WRITTEN = (
    *((name, name) for name in ("src-mac", "dst-mac", "src-dst-mac", "src-ip", "dst-ip", "src-dst-ip")),
    *((name, name) for name in ("src-port", "dst-port", "src-dst-port")),
    ("src-mixed-ip-port", "src-ip-port"),
    ("dst-mixed-ip-port", "dst-ip-port"),
    ("src-dst-mixed-ip-port", "src-dst-ip-port"),
)
_READ_ONLY = (
    ("vlan-src-dst-ip", "src-dst-ip-vlan"),
    ("vlan-src-dst-mixed-ip-port", "src-dst-ip-port-vlan"),
)


@dataclass(frozen=True, kw_only=True)
class IosHashes(CiscoHashes):
    """IOS's table: a keyword of the table, or a hostlint hash name as itself."""

    def read(self, shown: str | None) -> str:
        key = (shown or "").strip().lower()
        name = dict((*self.pairs, *self.also_read)).get(key, key)
        if name not in HASH_FIELDS:
            raise ValueError(f"load-balance {shown!r} has no name in hostlint's hash vocabulary")
        return name

    def read_method(self, method: str, algo: str | None) -> str:
        """IOS-XE routers: `Global LB Method: flow-based`, `LB Algo type: Source Destination IP` -> vocabulary.

        `vlan-manual` (each VLAN pinned to a member by hand) is no hash at all: an error.
        """
        if method.strip().lower() != "flow-based" or not algo:
            return super().read_method(method, algo)
        words = algo.lower().replace("-", " ").split()
        directions = [d for d, word in (("src", "source"), ("dst", "destination")) if word in words]
        fields = [f for f, word in (("mac", "mac"), ("ip", "ip")) if word in words]
        if "port" in words or "l4" in words:
            fields.append("port")
        if not directions or not fields:
            raise ValueError(f"load-balance algorithm {algo!r} has no name in hostlint's hash vocabulary")
        name = "-".join(directions) + "-" + "-".join(fields)
        if name not in HASH_FIELDS:
            raise ValueError(f"load-balance {algo!r} has no name in hostlint's hash vocabulary")
        return name


HASHES = IosHashes(
    pairs=_WRITTEN,
    also_read=(*_READ_ONLY, *((name, name) for name in HASH_FIELDS)),
    command="port-channel load-balance {}",
    writes=True,
)
