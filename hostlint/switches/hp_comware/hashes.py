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

from hostlint.switches.base import HashTable, UnknownHash

__all__ = ["HASHES", "ComwareHashes", "UnknownHash"]


class ComwareHashes(HashTable):
    """The platform's HashTable, read as a set of fields: Comware prints them in its own order."""

    def read(self, shown: str | None) -> str:
        fields = frozenset((shown or "").lower().split())
        for said, name in self.pairs:
            if fields and frozenset(said.split()) == fields:
                return name
        return super().read(shown)  # the default when nothing is shown, else the named unknown


HASHES = ComwareHashes(
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
    command="link-aggregation global load-sharing mode {}",
    default=None,
    writes=True,
)
