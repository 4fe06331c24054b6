"""The port-channel hash of a Cisco-like switch, read with the folder's hash table (hashes.py): shown by
`show etherchannel|port-channel load-balance` (IOS, NX-OS) or configured (EOS).

Part of the Cisco-like assembly (hostlint/switches/cisco_like/assemble/__init__.py).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from hostlint.snapshot.switch import (
    LoadBalance,
)
from hostlint.switches.base import HashTable
from hostlint.switches.cisco_like.assemble.reading import Reading


@runtime_checkable
class _ReadsMethod(Protocol):
    """A hash table that also reads an IOS-XE router's `Global LB Method` and `LB Algo type`."""

    def read_method(self, method: str, algo: str | None) -> str: ...


def shown_load_balance(reading: Reading, table: HashTable) -> LoadBalance | None:
    """IOS and NX-OS: the hash `show etherchannel|port-channel load-balance` shows (an IOS-XE router's
    `Global LB Method` where the table reads it)."""
    records = [*reading.group("load_balance"), *reading.group("load_balance_system")]
    raw = next((r.raw for r in records if r.raw), None)
    method = next((r for r in reading.group("load_balance_method") if r.method), None)
    if raw is None and method is not None:

        def by_method() -> str:
            if not isinstance(table, _ReadsMethod):
                raise ValueError(f"load-balance method {method.method!r} is not a flow hash this collector knows")
            return table.read_method(str(method.method), method.algo)

        name = reading.read("load_balance_method", "hash", by_method)
        raw_text = " ".join(str(v) for v in (method.method, method.algo) if v)
        return LoadBalance(hash=name, raw=raw_text) if name else None
    if raw is None:
        return None
    name = reading.read("load_balance", "hash", lambda: table.read(str(raw)))
    return LoadBalance(hash=name, raw=str(raw).strip()) if name else None


def configured_load_balance(reading: Reading, table: HashTable) -> LoadBalance | None:
    """EOS: the running configuration's `port-channel load-balance ... fields` (none: the default)."""
    fields = next((r.fields for r in reading.group("load_balance") if r.fields), None)
    name = reading.read("load_balance", "hash", lambda: table.read(fields))
    return LoadBalance(hash=name, raw=fields or "default") if name else None
