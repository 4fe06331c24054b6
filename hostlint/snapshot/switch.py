"""Physical switch facts, normalised across vendors.

Interface names are stored in their long canonical form (see hostlint.names);
port-channel modes and load-balance hashes in one vocabulary (hostlint.vocab).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, WithJsonSchema, model_validator

from hostlint import platforms as registry
from hostlint import switches
from hostlint.snapshot.common import (
    ConnectionState,
    Duplex,
    Model,
    Name,
    Neighbour,
    SpeedMbps,
    SwitchMtu,
    Text,
    VlanId,
    VlanRange,
    leaf,
)
from hostlint.switches.base import MemberState as MemberState

# A switch platform of the registry (hostlint.platforms); the schema lists them.
Platform = Annotated[
    str,
    AfterValidator(registry.check_switch),
    WithJsonSchema({"enum": list(registry.SWITCH_NAMES), "type": "string"}),
]
ChannelMode = Literal["static", "lacp-active", "lacp-passive", "pagp"]
PortStatus = Literal["up", "down", "disabled", "err-disabled"]
# A port-channel member's state (hostlint.switches.base, where each platform's flags map to it).
PortMode = Literal["access", "trunk", "routed"]
ChannelStatus = Literal["up", "down"]
# What several chassis acting as one are called, in each vendor's own word (what a network admin looks for
# in a finding). Rules care about one thing: whether the chassis share one control plane or stay two peers.
MultiChassisKind = Literal["stack", "vss", "virtual-chassis", "irf", "istack", "vpc", "mlag", "m-lag"]
# One control plane: the members are one switch with one configuration, which hostlint collects as one
# Switch whose port names carry the member number (Cisco StackWise `stack`, Catalyst `vss`, Junos
# `virtual-chassis`, Comware `irf`, VRP `istack`).
ONE_CONTROL_PLANE: tuple[MultiChassisKind, ...] = ("stack", "vss", "virtual-chassis", "irf", "istack")
# Two peers: two switches, each with its own configuration, joined by a peer link; a channel spans them by an
# id each configures (NX-OS `vpc`, EOS `mlag`, VRP `m-lag`, its `dfs-group`).
TWO_PEERS: tuple[MultiChassisKind, ...] = ("vpc", "mlag", "m-lag")


@leaf
class SwitchPort:
    """`mtu` is the largest IP packet the port passes (vendor L2 MTUs are converted).

    Every fact is what the switch showed, or None when it was not shown: never a default, except
    where the configuration's silence is the vendor's documented default (see VLANs below).

    VLANs, from the interface's own configuration (a port-channel member's traffic follows its
    channel's, see PortChannel): `access_vlan` on an access port; on a trunk `allowed_vlans` (sorted
    merged ranges, `[]` none) and `native_vlan` (0: untagged frames are dropped, Junos without
    `native-vlan-id`). IOS, NX-OS and EOS trunks without an allowed list carry all VLANs and have
    native VLAN 1, access ports without an access VLAN are in VLAN 1 (their documented defaults).
    """

    name: Name
    description: Text | None = None
    status: PortStatus | None = None
    mode: PortMode | None = None
    access_vlan: VlanId | None = None
    native_vlan: VlanId | None = None
    allowed_vlans: list[VlanRange] | None = None
    configured_speed_mbps: SpeedMbps | None = None
    configured_duplex: Duplex | None = None
    speed_mbps: SpeedMbps | None = None
    duplex: Duplex | None = None
    mtu: SwitchMtu | None = None
    # The largest IP packet a bridged frame carries, where the platform limits bridged frames by a figure
    # other than `mtu` (EOS `l2 mtu`; a switch-wide figure: Nexus 3000/5000/6000 network-qos, older Catalysts'
    # `system mtu jumbo`; hostlint.platforms.MtuFamily); None where it has none or it was not read.
    # Left out of a snapshot when None, so snapshots of platforms without the figure read as before.
    l2_mtu: SwitchMtu | None = Field(default=None, exclude_if=lambda value: value is None)
    port_channel: Name | None = None
    member_state: MemberState | None = None
    neighbours: list[Neighbour] = Field(default_factory=list)
    # The interface's own running-configuration lines, verbatim and in order, as the switch showed them
    # (IOS, NX-OS, EOS: the lines of its `interface` stanza without their indent; Junos: its `set
    # interfaces NAME ...` lines), so a rollback can restore what no other field models. `[]`: nothing
    # configured; None: the configuration was not read (left out of a snapshot, as `l2_mtu`).
    config_lines: list[Text] | None = Field(default=None, exclude_if=lambda value: value is None)


class PortChannel(Model):
    """`switchport`, `access_vlan`, `native_vlan`, `allowed_vlans`: the channel interface's own
    switchport configuration, which governs its members' traffic (as SwitchPort's)."""

    name: Name
    mode: ChannelMode | None = None
    switchport: PortMode | None = None
    access_vlan: VlanId | None = None
    native_vlan: VlanId | None = None
    allowed_vlans: list[VlanRange] | None = None
    members: list[Name] = Field(default_factory=list)
    mtu: SwitchMtu | None = None
    l2_mtu: SwitchMtu | None = Field(default=None, exclude_if=lambda value: value is None)
    status: ChannelStatus | None = None
    load_balance: Text | None = None
    multichassis_id: int | None = None
    # The channel interface's own running-configuration lines, as SwitchPort's.
    config_lines: list[Text] | None = Field(default=None, exclude_if=lambda value: value is None)


class LoadBalance(Model):
    """Global port-channel hash: `hash` normalised (hostlint.vocab.HASH_FIELDS), `raw` as shown."""

    hash: Text
    raw: Text | None = None


class MultiChassis(Model):
    """Stack, IRF, iStack, VSS or virtual chassis (one control plane, `peer` None) or vPC, MLAG, M-LAG (two
    peers): what the switch forms, and with which `peer`."""

    kind: MultiChassisKind
    domain_id: Text
    peer: Name | None = None
    peer_link_up: bool | None = None


class Switch(Model):
    name: Name
    aliases: list[Name] = Field(default_factory=list)
    mgmt_address: Text | None = None
    platform: Platform
    model: Text | None = None
    os_version: Text | None = None
    connection_state: ConnectionState = "connected"
    load_balance: LoadBalance | None = None
    ports: list[SwitchPort] = Field(default_factory=list)
    port_channels: list[PortChannel] = Field(default_factory=list)
    multichassis: MultiChassis | None = None

    @model_validator(mode="after")
    def _within_platform_mtu(self) -> Switch:
        """The schema's MTU ceiling is the largest any platform allows; each switch is held to its own
        platform's (its folder's `mtu.py` `MTU.largest`), so an MTU no model of the platform configures is
        refused as the ceiling refused it."""
        largest = switches.mtu_limits(self.platform).largest
        items: list[SwitchPort | PortChannel] = [*self.ports, *self.port_channels]
        for item in items:
            for figure, value in (("mtu", item.mtu), ("l2_mtu", item.l2_mtu)):
                if value is not None and value > largest:
                    raise ValueError(f"{item.name}: {figure} {value} is more than {self.platform} allows ({largest})")
        return self
