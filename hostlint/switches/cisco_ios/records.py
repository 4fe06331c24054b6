"""The records each Cisco IOS / IOS-XE template yields, one strict model per ttp group (the `records`
piece; the shared models are hostlint/switches/cisco_like/records.py). Every group has its own name across
the templates: the running configuration's interfaces are `configured`, `show interfaces`' `interfaces`,
CDP's neighbours `cdp_neighbours`, LLDP's `neighbours`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hostlint.strict import Strict
from hostlint.switches.assembly_kit import RecordError as RecordError
from hostlint.switches.assembly_kit import typed_records
from hostlint.switches.cisco_like import records as base


class Version(Strict):
    """A line of `show version` (one record per line: the first value of each field wins)."""

    vendor: str | None = None
    model: str | None = None
    hw_model: str | None = None
    os_version: str | None = None
    xe_version: str | None = None


class ConfiguredInterface(base.ConfiguredInterface):
    duplex: str | None = None


class ShownInterface(base.ShownInterface):
    """`show interfaces`; `members`: a Port-channel's `Members in this channel:` line."""

    members: str | None = None


class SystemMtu(Strict):
    """`show system mtu` (the older Catalysts': hostlint.collect.switches.global_mtu)."""

    system: str | None = None
    jumbo: str | None = None
    alternate: str | None = None
    routing: str | None = None
    global_mtu: str | None = None


class ChannelSummary(base.ChannelSummary):
    group: str | None = None


class LoadBalance(Strict):
    """`show etherchannel load-balance` of a switch: its `EtherChannel Load-Balancing Configuration`."""

    raw: str | None = None


class LoadBalanceMethod(Strict):
    """An IOS-XE router's `Global LB Method` and `LB Algo type`."""

    method: str | None = None
    algo: str | None = None


class LldpNeighbour(base.LldpNeighbour):
    """`show lldp neighbors detail`; `separator`: the dashes line that starts an entry without a local port."""

    separator: str | None = None


class LldpRow(Strict):
    """A row of `show lldp neighbors` (its Device ID column runs into Local Intf: assemble.py splits it)."""

    row: str | None = None


class Stack(Strict):
    """`show switch`: the stack's MAC address."""

    domain_id: str | None = None


class StackMember(Strict):
    number: str | None = None
    role: str | None = None
    role_mark: str | None = None
    mac: str | None = None
    priority: str | None = None
    version: str | None = None
    state: str | None = None


VERSION = "show version"
CONFIG = "show running-config"
SYSTEM_MTU = "show system mtu"
INTERFACES = "show interfaces"
SUMMARY = "show etherchannel summary"
LOAD_BALANCE = "show etherchannel load-balance"
CDP = "show cdp neighbors detail"
LLDP = "show lldp neighbors detail"
LLDP_TABLE = "show lldp neighbors"
STACK = "show switch"

RECORDS: dict[str, type[Strict]] = {
    "version": Version,
    "system": base.System,
    "configured": ConfiguredInterface,
    "system_mtu": SystemMtu,
    "interfaces": ShownInterface,
    "channels": ChannelSummary,
    "load_balance": LoadBalance,
    "load_balance_method": LoadBalanceMethod,
    "cdp_neighbours": base.CdpNeighbour,
    "neighbours": LldpNeighbour,
    "lldp_table": LldpRow,
    "stack": Stack,
    "members": StackMember,
}
# The command whose output fills each group (named in warnings).
COMMANDS: dict[str, str] = {
    "version": VERSION,
    "system": CONFIG,
    "configured": CONFIG,
    "system_mtu": SYSTEM_MTU,
    "interfaces": INTERFACES,
    "channels": SUMMARY,
    "load_balance": LOAD_BALANCE,
    "load_balance_method": LOAD_BALANCE,
    "cdp_neighbours": CDP,
    "neighbours": LLDP,
    "lldp_table": LLDP_TABLE,
    "stack": STACK,
    "members": STACK,
}


def typed(group: str, records: Sequence[Mapping[str, Any]]) -> list[Strict]:
    """The records of one group as its model; a group no model declares, or a record with a field its
    model lacks, is a RecordError naming it."""
    return typed_records("cisco_ios", RECORDS, COMMANDS, group, records)
