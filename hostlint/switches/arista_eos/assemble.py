"""Arista EOS records -> the snapshot's `Switch` (the `assembly` piece): the shared Cisco-like conversion
(hostlint/switches/cisco_like/assemble/) with this folder's typed records (records.py) and hash table
(hashes.py). Its own: the configuration's `port-channel load-balance ... fields` (none: EOS's default), MLAG
from `show mlag`, and each interface's `l2 mtu`.
"""

from __future__ import annotations

from hostlint.snapshot.switch import LoadBalance, Switch
from hostlint.switches.arista_eos import hashes
from hostlint.switches.arista_eos import records as r
from hostlint.switches.assembly_kit import Records
from hostlint.switches.cisco_like import assemble as cisco_like

PLATFORM = "arista_eos"


def _load_balance(reading: cisco_like.Reading) -> LoadBalance | None:
    return cisco_like.configured_load_balance(reading, hashes.HASHES)


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
