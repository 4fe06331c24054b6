"""The records each Cisco NX-OS template yields, one strict model per ttp group (the `records` piece; the
shared models are hostlint/switches/cisco_like/records.py). Every group has its own name across the
templates: the running configuration's interfaces are `configured`, `show interface`'s `interfaces`, CDP's
neighbours `cdp_neighbours`, LLDP's `neighbours`."""

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
    chassis: str | None = None
    family: str | None = None
    os_version: str | None = None
    system_version: str | None = None


class ConfiguredInterface(base.ConfiguredInterface):
    """`vpc N` and `vpc peer-link` name the channel's part in the vPC pair."""

    duplex: str | None = None
    vpc: str | None = None
    peer_link: bool | None = None


class JumboMtu(Strict):
    """`system jumbomtu N`."""

    jumbomtu: str | None = None


class SystemQos(Strict):
    """`service-policy type network-qos NAME` under `system qos`."""

    network_qos: str | None = None


class NetworkQos(Strict):
    """A `policy-map type network-qos` with its classes (ttp gives one class as a mapping, several as a
    list; hostlint.collect.switches.global_mtu reads both)."""

    policy: str | None = None
    classes: dict[str, str] | list[dict[str, str]] | None = None


class ShownInterface(base.ShownInterface):
    """`show interface`: `admin state is ...`, `Belongs to poN`, the port mode and the media."""

    admin: str | None = None
    channel: str | None = None
    media: str | None = None
    switchport_mode: str | None = None


class ChannelSummary(base.ChannelSummary):
    group: str | None = None
    type: str | None = None


class LoadBalance(Strict):
    """`show port-channel load-balance`: the IP hash (`raw`) and the non-IP one."""

    raw: str | None = None
    non_ip: str | None = None


class LoadBalanceSystem(Strict):
    """`System: ...` of the older releases' `show port-channel load-balance`."""

    raw: str | None = None


class CdpNeighbour(base.CdpNeighbour):
    system_name: str | None = None


class Vpc(Strict):
    """`show vpc brief`'s head: the domain, the peer status and the keepalive."""

    domain_id: str | None = None
    peer_status: str | None = None
    keepalive: str | None = None


class PeerLink(Strict):
    """The peer-link row of `show vpc brief`."""

    id: str | None = None
    port: str | None = None
    status: str | None = None
    vlans: str | None = None


class VpcRow(Strict):
    """A vPC row of `show vpc brief`: its id and its port-channel."""

    id: str | None = None
    port: str | None = None
    status: str | None = None
    consistency: str | None = None
    rest: str | None = None


VERSION = "show version"
CONFIG = "show running-config"
INTERFACES = "show interface"
SUMMARY = "show port-channel summary"
LOAD_BALANCE = "show port-channel load-balance"
CDP = "show cdp neighbors detail"
LLDP = "show lldp neighbors detail"
VPC = "show vpc brief"

RECORDS: dict[str, type[Strict]] = {
    "version": Version,
    "system": base.System,
    "jumbomtu": JumboMtu,
    "system_qos": SystemQos,
    "network_qos": NetworkQos,
    "configured": ConfiguredInterface,
    "interfaces": ShownInterface,
    "channels": ChannelSummary,
    "load_balance": LoadBalance,
    "load_balance_system": LoadBalanceSystem,
    "cdp_neighbours": CdpNeighbour,
    "neighbours": base.LldpNeighbour,
    "vpc": Vpc,
    "peer_link": PeerLink,
    "vpcs": VpcRow,
}
# The command whose output fills each group (named in warnings).
COMMANDS: dict[str, str] = {
    "version": VERSION,
    "system": CONFIG,
    "jumbomtu": CONFIG,
    "system_qos": CONFIG,
    "network_qos": CONFIG,
    "configured": CONFIG,
    "interfaces": INTERFACES,
    "channels": SUMMARY,
    "load_balance": LOAD_BALANCE,
    "load_balance_system": LOAD_BALANCE,
    "cdp_neighbours": CDP,
    "neighbours": LLDP,
    "vpc": VPC,
    "peer_link": VPC,
    "vpcs": VPC,
}


def typed(group: str, records: Sequence[Mapping[str, Any]]) -> list[Strict]:
    """The records of one group as its model; a group no model declares, or a record with a field its
    model lacks, is a RecordError naming it."""
    return typed_records("cisco_nxos", RECORDS, COMMANDS, group, records)
