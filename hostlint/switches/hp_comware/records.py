"""The records each Comware template yields, one strict model per ttp group (the template's variables,
no more): a variable renamed in a template without its model fails here, on the sample, not in a rule.

ttp gives every value as text; the models keep it so (the conversion, with its warning when a value
makes no sense, is assemble.py's). Every group has its own name across the templates (the
configuration's interface blocks are `configured`, `display interface`'s are `interfaces`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hostlint.strict import Strict
from hostlint.switches.assembly_kit import RecordError as RecordError
from hostlint.switches.assembly_kit import typed_records


class Version(Strict):
    os_version: str | None = None
    release: str | None = None
    model: str | None = None
    uptime: str | None = None


class System(Strict):
    hostname: str


class ConfiguredInterface(Strict):
    """An `interface NAME` block of `display current-configuration`; the VLAN lists are `;`-joined lines."""

    name: str
    description: str | None = None
    link_type: str | None = None
    access_vlan: str | None = None
    native_vlan: str | None = None
    permit_vlans: str | None = None
    deny_vlans: str | None = None
    hybrid_vlans: str | None = None
    channel_group: str | None = None
    aggregation_mode: str | None = None
    lacp_mode: str | None = None
    load_sharing: str | None = None
    jumboframe: str | None = None
    mtu: str | None = None
    speed: str | None = None
    duplex: str | None = None
    shutdown: bool | None = None


class LoadSharing(Strict):
    """`link-aggregation global load-sharing mode FIELDS`."""

    fields: str


class IrfMember(Strict):
    member: str
    priority: str


class IrfPort(Strict):
    irf_port: str
    ports: str | None = None


class ShownInterface(Strict):
    """An interface of `display interface`."""

    name: str
    state: str | None = None
    protocol: str | None = None
    description: str | None = None
    mtu: str | None = None
    frame_length: str | None = None
    speed: str | None = None
    duplex: str | None = None
    pvid: str | None = None
    link_type: str | None = None


class Aggregate(Strict):
    """An aggregate interface of `display link-aggregation verbose`."""

    name: str
    creation_mode: str | None = None
    mode: str | None = None
    loadsharing: str | None = None


class Member(Strict):
    """A `Local:` member row: its aggregate (carried from the header), short port name, status S/U/I."""

    channel: str
    port: str
    status: str
    priority: str | None = None


class Neighbour(Strict):
    local_port: str
    index: str | None = None
    chassis_id: str | None = None
    port_id: str | None = None
    port_description: str | None = None
    system_name: str | None = None
    mgmt_address: str | None = None


class Ports(Strict):
    ports: str | None = None


class Vlan(Strict):
    vlan_id: str
    name: str | None = None
    description: str | None = None
    tagged: Ports | None = None
    untagged: Ports | None = None


VERSION = "display version"
CONFIG = "display current-configuration"
INTERFACE = "display interface"
AGGREGATION = "display link-aggregation verbose"
LLDP = "display lldp neighbor-information verbose"
VLANS = "display vlan all"

# ttp group -> the model of its records (every group of every template has its own name).
RECORDS: dict[str, type[Strict]] = {
    "version": Version,
    "system": System,
    "configured": ConfiguredInterface,
    "load_balance": LoadSharing,
    "irf": IrfMember,
    "irf_ports": IrfPort,
    "interfaces": ShownInterface,
    "channels": Aggregate,
    "members": Member,
    "neighbours": Neighbour,
    "vlans": Vlan,
}
# The command whose output fills each group (named in warnings).
COMMANDS: dict[str, str] = {
    "version": VERSION,
    "system": CONFIG,
    "configured": CONFIG,
    "load_balance": CONFIG,
    "irf": CONFIG,
    "irf_ports": CONFIG,
    "interfaces": INTERFACE,
    "channels": AGGREGATION,
    "members": AGGREGATION,
    "neighbours": LLDP,
    "vlans": VLANS,
}


def typed(group: str, records: Sequence[Mapping[str, Any]]) -> list[Strict]:
    """The records of one group as its model; a group no model declares, or a record with a field its
    model lacks, is a RecordError naming it."""
    return typed_records("hp_comware", RECORDS, COMMANDS, group, records)
