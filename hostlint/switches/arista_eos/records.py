"""The records each Arista EOS template yields, one strict model per ttp group (the `records` piece; the
shared models are hostlint/switches/cisco_like/records.py). Every group has its own name across the
templates: the running configuration's interfaces are `configured`, `show interfaces`' `interfaces`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hostlint.strict import Strict
from hostlint.switches.assembly_kit import RecordError as RecordError
from hostlint.switches.assembly_kit import typed_records
from hostlint.switches.cisco_like import records as base


class Version(Strict):
    """A line of `show version` (one record per line: the first value of each field wins)."""

    model: str | None = None
    os_version: str | None = None


class ConfiguredInterface(base.ConfiguredInterface):
    """`l2 mtu N` (the frame a switchport passes) and `mlag N`."""

    l2_mtu: str | None = None
    mlag: str | None = None


class LoadBalance(Strict):
    """`port-channel load-balance <chip> fields ip ...` of the running configuration."""

    chip: str | None = None
    fields: str | None = None


class ShownInterface(base.ShownInterface):
    """`show interfaces`: `Member of Port-ChannelN` and the auto-negotiation word."""

    channel: str | None = None
    autoneg: str | None = None


class LldpNeighbour(base.LldpNeighbour):
    """`show lldp neighbors detail`: a `Neighbor ...` block; its local port and `count` are carried from
    the `Interface X detected N LLDP neighbors:` line before it (spec `carry`)."""

    count: str | None = None
    neighbour: str | None = None


class Mlag(Strict):
    """`show mlag`."""

    domain_id: str | None = None
    state: str | None = None
    peer_address: str | None = None
    peer_link: str | None = None
    peer_link_status: str | None = None
    unread: list[str] | None = None


VERSION = "show version"
CONFIG = "show running-config"
INTERFACES = "show interfaces"
SUMMARY = "show port-channel summary"
LLDP = "show lldp neighbors detail"
MLAG = "show mlag"

RECORDS: dict[str, type[Strict]] = {
    "version": Version,
    "system": base.System,
    "load_balance": LoadBalance,
    "configured": ConfiguredInterface,
    "interfaces": ShownInterface,
    "channels": base.ChannelSummary,
    "neighbours": LldpNeighbour,
    "mlag": Mlag,
}
# The command whose output fills each group (named in warnings).
COMMANDS: dict[str, str] = {
    "version": VERSION,
    "system": CONFIG,
    "load_balance": CONFIG,
    "configured": CONFIG,
    "interfaces": INTERFACES,
    "channels": SUMMARY,
    "neighbours": LLDP,
    "mlag": MLAG,
}


def typed(group: str, records: Sequence[Mapping[str, Any]]) -> list[Strict]:
    """The records of one group as its model; a group no model declares, or a record with a field its
    model lacks, is a RecordError naming it."""
    return typed_records("arista_eos", RECORDS, COMMANDS, group, records)
