"""The records each Junos template yields, one strict model per ttp group (the template's variables, no
more; the `records` piece): a variable renamed in a template without its model fails here, on the sample,
not in a rule.

ttp gives every value as text; the models keep it so (the conversion, with its warning when a value makes
no sense, is assemble.py's). Every group has its own name across the templates (the configuration's
`set interfaces` lines are `configured`, `show interfaces extensive`'s physical interfaces `interfaces`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hostlint.strict import Strict
from hostlint.switches.assembly_kit import RecordError as RecordError
from hostlint.switches.assembly_kit import typed_records


class Version(Strict):
    """A line of `show version` (one record per line: the first value of each field wins)."""

    model: str | None = None
    os_version: str | None = None
    base_version: str | None = None


class System(Strict):
    hostname: str | None = None


class ConfiguredInterface(Strict):
    """One `set interfaces NAME ...` line of `show configuration | display set` (assemble.py merges an
    interface's lines; `vlan members` lines add up)."""

    name: str | None = None
    description: str | None = None
    channel_group: str | None = None
    channel_mode: str | None = None
    mtu: str | None = None
    speed: str | None = None
    duplex: str | None = None
    switchport_mode: str | None = None
    vlan_members: str | None = None
    native_vlan: str | None = None
    address: str | None = None
    vlan_tagging: str | None = None
    shutdown: str | None = None


class Vlan(Strict):
    """`set vlans NAME vlan-id N`."""

    name: str | None = None
    vlan_id: str | None = None


class HashOption(Strict):
    """`set forwarding-options [enhanced-]hash-key family inet OPTION`."""

    option: str | None = None


class ShownInterface(Strict):
    """A physical interface of `show interfaces extensive`; `unread`: fields the independent count saw
    shown but the template did not read (hostlint.collect.switches.counts)."""

    name: str | None = None
    admin: str | None = None
    state: str | None = None
    description: str | None = None
    link_type: str | None = None
    mtu: str | None = None
    mru: str | None = None
    duplex: str | None = None
    speed: str | None = None
    type: str | None = None
    unread: list[str] | None = None


class LacpActor(Strict):
    """A member's `Actor` row of `show lacp interfaces`' LACP state table, its aggregate carried."""

    channel: str | None = None
    member: str | None = None
    expired: str | None = None
    defaulted: str | None = None
    distributing: str | None = None
    collecting: str | None = None
    synchronised: str | None = None
    aggregatable: str | None = None
    timeout: str | None = None
    activity: str | None = None


class LacpMember(Strict):
    """A member's row of `show lacp interfaces`' LACP protocol table, its aggregate carried."""

    channel: str | None = None
    member: str | None = None
    receive: str | None = None
    transmit: str | None = None
    mux: str | None = None


class Neighbour(Strict):
    """A row of `show lldp neighbors`."""

    local_port: str | None = None
    parent: str | None = None
    chassis_id: str | None = None
    port_id: str | None = None
    system_name: str | None = None


class VirtualChassis(Strict):
    domain_id: str | None = None


class ChassisMember(Strict):
    """A member row of `show virtual-chassis`."""

    number: str | None = None
    fpc: str | None = None
    status: str | None = None
    serial: str | None = None
    model: str | None = None
    priority: str | None = None
    role: str | None = None
    mixed: str | None = None
    route_mode: str | None = None
    neighbour_id: str | None = None
    neighbour_interface: str | None = None


VERSION = "show version"
CONFIG = "show configuration | display set"
INTERFACES = "show interfaces extensive"
LACP = "show lacp interfaces"
LLDP = "show lldp neighbors"
VIRTUAL_CHASSIS = "show virtual-chassis"

# ttp group -> the model of its records (every group of every template has its own name).
RECORDS: dict[str, type[Strict]] = {
    "version": Version,
    "system": System,
    "configured": ConfiguredInterface,
    "vlans": Vlan,
    "load_balance": HashOption,
    "interfaces": ShownInterface,
    "lacp": LacpActor,
    "lacp_members": LacpMember,
    "neighbours": Neighbour,
    "virtual_chassis": VirtualChassis,
    "members": ChassisMember,
}
# The command whose output fills each group (named in warnings).
COMMANDS: dict[str, str] = {
    "version": VERSION,
    "system": CONFIG,
    "configured": CONFIG,
    "vlans": CONFIG,
    "load_balance": CONFIG,
    "interfaces": INTERFACES,
    "lacp": LACP,
    "lacp_members": LACP,
    "neighbours": LLDP,
    "virtual_chassis": VIRTUAL_CHASSIS,
    "members": VIRTUAL_CHASSIS,
}


def typed(group: str, records: Sequence[Mapping[str, Any]]) -> list[Strict]:
    """The records of one group as its model; a group no model declares, or a record with a field its
    model lacks, is a RecordError naming it."""
    return typed_records("juniper_junos", RECORDS, COMMANDS, group, records)
