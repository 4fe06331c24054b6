"""EOS's port-channel hash (the `hashes` piece): read from the configuration, never written.

`port-channel load-balance <chip> fields ip <fields>` (EOS User Manual, "port-channel load-balance
fields"): `source-ip`, `destination-ip`, `source-port`, `destination-port`, `ip-tcp-udp-header` (both
addresses and both L4 ports) and `mac-header` (the MACs alone). The fields are a set; a word the table
does not hold beside ones it does is left out. Without the line the hash is the default L3+L4 one. The
chip keyword depends on the ASIC family, so hostlint leaves the hash to a human (set by hand).
"""

from __future__ import annotations

from dataclasses import dataclass

from hostlint.switches.base import HashTable

__all__ = ["HASHES", "EosHashes"]

_FIELD_WORDS = frozenset({"source-ip", "destination-ip", "source-port", "destination-port"})


@dataclass(frozen=True, kw_only=True)
class EosHashes(HashTable):
    """EOS's table, its fields read as a set: `ip-tcp-udp-header` anywhere is every field, `mac-header` alone
    the MACs; otherwise the address and port words shown."""

    def read(self, shown: str | None) -> str:
        words = frozenset((shown or "ip-tcp-udp-header").lower().split())
        if "ip-tcp-udp-header" in words:
            return self._named("ip-tcp-udp-header")
        if words == {"mac-header"}:
            return self._named("mac-header")
        fields = words & _FIELD_WORDS
        for said, name in self.pairs:
            if fields and frozenset(said.split()) == fields:
                return name
        raise ValueError(f"EOS load-balance fields {shown!r} have no name in hostlint's hash vocabulary")

    def _named(self, said: str) -> str:
        return next(name for words, name in self.pairs if words == said)


HASHES = EosHashes(
    pairs=(
        ("ip-tcp-udp-header", "src-dst-ip-port"),
        ("mac-header", "src-dst-mac"),
        ("source-ip destination-ip source-port destination-port", "src-dst-ip-port"),
        ("source-ip destination-ip", "src-dst-ip"),
        ("source-ip", "src-ip"),
        ("destination-ip", "dst-ip"),
        ("source-port destination-port", "src-dst-port"),
        ("source-port", "src-port"),
        ("destination-port", "dst-port"),
        ("source-ip source-port", "src-ip-port"),
        ("destination-ip destination-port", "dst-ip-port"),
    ),
    default="src-dst-ip-port",
    writes=False,
)
