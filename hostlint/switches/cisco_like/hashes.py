"""The hash table IOS and NX-OS share (the `hashes` piece, hostlint.switches.base.HashTable).

Both show the global port-channel hash as one keyword line (`show etherchannel load-balance`, `show
port-channel load-balance`) and set it with `port-channel load-balance <keywords>`. Their tables add
spellings that are read but never written (`also_read`: an older or a longer form of a hash hostlint
writes otherwise, or that it leaves alone), and IOS-XE routers show the hash as a method and an
algorithm instead (`read_method`).
"""

from __future__ import annotations

from dataclasses import dataclass

from hostlint.switches.base import HashTable

__all__ = ["CiscoHashes"]


@dataclass(frozen=True, kw_only=True)
class CiscoHashes(HashTable):
    """A Cisco-like hash table: `pairs` read and written, `also_read` read only."""

    also_read: tuple[tuple[str, str], ...] = ()

    def read_method(self, method: str, algo: str | None) -> str:
        """hostlint's name for an IOS-XE router's `Global LB Method` and `LB Algo type`; ValueError when it
        is none (a platform whose routers show no such method reads none)."""
        raise ValueError(f"load-balance method {method!r} is not a flow hash this collector knows")
