"""One typed model per ttp group of this folder's templates: exactly the variables each template yields
(a template variable renamed without its model, or a model field no template fills, fails the sample
test). Values are strings as ttp gives them, except where the template sets a constant (`shutdown`).
"""

from __future__ import annotations

from hostlint.strict import Strict


class Version(Strict):
    """`display version`: one record per line, the first value of each field wins."""

    os_version: str | None = None
    release: str | None = None
    vendor: str | None = None
    model: str | None = None
    uptime: str | None = None


class System(Strict):
    hostname: str


class ConfigInterface(Strict):
    """`display current-configuration`: one `interface` block."""

    name: str
    description: str | None = None
    link_type: str | None = None
    access_vlan: str | None = None
    native_vlan: str | None = None
    allow_vlans: str | None = None
    deny_vlans: str | None = None
    hybrid_tagged: str | None = None
    hybrid_untagged: str | None = None
    channel_group: str | None = None
    trunk_mode: str | None = None
    load_balance: str | None = None
    jumboframe: str | None = None
    mtu: str | None = None
    speed: str | None = None
    duplex: str | None = None
    dfs_group: str | None = None
    mlag_id: str | None = None
    peer_link: str | None = None
    shutdown: bool | None = None


class LoadBalanceProfile(Strict):
    profile: str
    fields: str | None = None


class Mlag(Strict):
    dfs_group: str
    priority: str | None = None
    source_ip: str | None = None


class StackMember(Strict):
    member: str
    priority: str | None = None


class ShownInterface(Strict):
    """`display interface`: one interface."""

    name: str
    state: str | None = None
    protocol: str | None = None
    description: str | None = None
    frame_length: str | None = None
    mtu: str | None = None
    speed: str | None = None
    duplex: str | None = None


class Trunk(Strict):
    """`display eth-trunk`: one Eth-Trunk's header."""

    name: str
    mode: str | None = None
    hash: str | None = None
    status: str | None = None


class TrunkMember(Strict):
    channel: str
    port: str
    status: str


class Neighbour(Strict):
    local_port: str
    index: str | None = None
    chassis_id: str | None = None
    port_id: str | None = None
    port_description: str | None = None
    system_name: str | None = None


class PortVlan(Strict):
    """`display port vlan`: one row (its VLAN list joined across continuation lines)."""

    name: str
    link_type: str
    pvid: str
    vlans: str | None = None


# ttp group -> (the command whose template fills it, the model of one record). Group names are unique in
# this folder (the configuration's interfaces are `configured`, `display interface`'s `interfaces`), so a
# collector may hand the records over by group alone.
GROUPS: dict[str, tuple[str, type[Strict]]] = {
    "version": ("display version", Version),
    "system": ("display current-configuration", System),
    "configured": ("display current-configuration", ConfigInterface),
    "load_balance": ("display current-configuration", LoadBalanceProfile),
    "mlag": ("display current-configuration", Mlag),
    "stack": ("display current-configuration", StackMember),
    "interfaces": ("display interface", ShownInterface),
    "channels": ("display eth-trunk", Trunk),
    "members": ("display eth-trunk", TrunkMember),
    "neighbours": ("display lldp neighbor", Neighbour),
    "port_vlans": ("display port vlan", PortVlan),
}
# The registry's view (hostlint.switches.base.RECORDS): per ttp group the model of one record.
RECORDS: dict[str, type[Strict]] = {group: model for group, (_, model) in GROUPS.items()}
