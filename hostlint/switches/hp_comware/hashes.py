"""The Comware load-sharing mode, read and written with one table.

`link-aggregation global load-sharing mode { destination-ip | destination-mac | destination-port |
ingress-port | ip-protocol | source-ip | source-mac | source-port } *` (HPE FlexFabric 5940 Layer 2 -
LAN Switching Command Reference, "link-aggregation global load-sharing mode"; the same keywords for an
aggregate interface's own `link-aggregation load-sharing mode`). The fields are a set: Comware prints
them in its own order, whatever order they were typed in, so reading compares sets.

Without the line the mode "depends on the device model" (the same reference, "Default"): hostlint
knows no hash then, and does not invent one.
"""

from __future__ import annotations

from dataclasses import dataclass


class UnknownHash(ValueError):
    """A load-sharing mode this table does not hold: named, never taken for another."""


@dataclass(frozen=True)
class HashTable:
    """Pairs of (what the switch says, hostlint's hash name, hostlint.vocab.HASH_FIELDS)."""

    pairs: tuple[tuple[str, str], ...]
    # Whether hostlint's switch-hash action writes the hash here.
    writes: bool = True

    def read(self, shown: str) -> str:
        """hostlint's name for a load-sharing mode as the switch shows it; UnknownHash for another."""
        fields = frozenset(shown.split())
        for said, name in self.pairs:
            if frozenset(said.split()) == fields:
                return name
        raise UnknownHash(f"hostlint reads no Comware load-sharing mode {shown.strip()!r}")

    def write(self, name: str) -> str:
        """The load-sharing mode keywords for hostlint's hash `name`; UnknownHash for a name it cannot write."""
        for said, known in self.pairs:
            if known == name:
                return said
        raise UnknownHash(f"Comware has no load-sharing mode for hash {name!r}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for _, name in self.pairs)


HASHES = HashTable(
    pairs=(
        ("source-mac", "src-mac"),
        ("destination-mac", "dst-mac"),
        ("destination-mac source-mac", "src-dst-mac"),
        ("source-ip", "src-ip"),
        ("destination-ip", "dst-ip"),
        ("destination-ip source-ip", "src-dst-ip"),
        ("source-port", "src-port"),
        ("destination-port", "dst-port"),
        ("destination-port source-port", "src-dst-port"),
        ("source-ip source-port", "src-ip-port"),
        ("destination-ip destination-port", "dst-ip-port"),
        ("destination-ip source-ip destination-port source-port", "src-dst-ip-port"),
        ("destination-mac source-mac destination-ip source-ip", "src-dst-mac-ip"),
        ("destination-mac source-mac destination-ip source-ip destination-port source-port", "src-dst-mac-ip-port"),
    ),
)
