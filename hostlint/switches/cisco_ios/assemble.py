"""Cisco IOS / IOS-XE records -> the snapshot's `Switch` (the `assembly` piece): the shared Cisco-like conversion
(hostlint/switches/cisco_like/assemble/) with this folder's typed records (records.py) and hash table
(hashes.py). Its own: `show etherchannel load-balance` (an IOS-XE router's `Global LB Method`), an IOS stack
from `show switch`, and `show system mtu` for the older Catalysts' L2 figure.
"""

from __future__ import annotations

from hostlint.snapshot.switch import LoadBalance, Switch
from hostlint.switches.assembly_kit import Records
from hostlint.switches.cisco_ios import hashes
from hostlint.switches.cisco_ios import records as r
from hostlint.switches.cisco_like import assemble as cisco_like

PLATFORM = "cisco_ios"


def _load_balance(reading: cisco_like.Reading) -> LoadBalance | None:
    return cisco_like.shown_load_balance(reading, hashes.HASHES)


def build(
    device: str,
    outputs: Records,
    mgmt_address: str | None = None,
    collected: frozenset[str] | None = None,
) -> tuple[Switch, list[str]]:
    """The switch `device` as its commands' records (ttp group -> records) show it, and warnings for what
    could not be read. `collected`: the commands whose output was read (None: those that gave a
    record)."""
    return cisco_like.build(PLATFORM, r.typed, r.COMMANDS, _load_balance, device, outputs, mgmt_address, collected)
