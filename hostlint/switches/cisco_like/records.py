"""What the Cisco-like platforms' records share: the models of the groups whose templates read the same
variables on IOS, NX-OS and EOS, and the fields every interface model has. Each platform's `records.py`
declares its groups (RECORDS, COMMANDS) from these and from its own models, exactly the variables its
templates read (the `records` piece: a template variable renamed without its model fails on the sample).

ttp gives every value as text (`set(True)` flags as booleans); the models keep them so: the conversion,
with its warning when a value makes no sense, is the assembly's (cisco_like/assemble/).
"""

from __future__ import annotations

from hostlint.strict import Strict


class System(Strict):
    """`hostname NAME` of the running configuration."""

    hostname: str | None = None


class ConfiguredInterface(Strict):
    """One `interface NAME` stanza of the running configuration (the `configured` group): the fields the
    three platforms' templates share; a platform's own lines are its subclass's."""

    name: str | None = None
    description: str | None = None
    switchport_mode: str | None = None
    access_vlan: str | None = None
    native_vlan: str | None = None
    allowed_vlans: str | None = None
    channel_group: str | None = None
    channel_mode: str | None = None
    mtu: str | None = None
    speed: str | None = None
    routed: bool | None = None
    shutdown: bool | None = None
    # VLAN lines the independent count saw that the template did not read (hostlint.collect.switches.counts).
    unread: list[str] | None = None


class ShownInterface(Strict):
    """An interface of `show interface(s)`: the fields the three templates share; `unread` as above."""

    name: str | None = None
    state: str | None = None
    protocol: str | None = None
    reason: str | None = None
    description: str | None = None
    mtu: str | None = None
    speed: str | None = None
    duplex: str | None = None
    unread: list[str] | None = None


class LldpNeighbour(Strict):
    """A neighbour of `show lldp neighbors detail`: the fields the three templates share."""

    local_port: str | None = None
    chassis_id: str | None = None
    port_id: str | None = None
    port_description: str | None = None
    system_name: str | None = None
    mgmt_address: str | None = None
    unread: list[str] | None = None


class CdpNeighbour(Strict):
    """A neighbour of `show cdp neighbors detail` (IOS and NX-OS)."""

    device_id: str | None = None
    local_port: str | None = None
    port_id: str | None = None
    mgmt_address: str | None = None
    platform: str | None = None
    unread: list[str] | None = None


class ChannelSummary(Strict):
    """A channel row of the port-channel (etherchannel) summary: its members with their flags."""

    name: str | None = None
    flags: str | None = None
    protocol: str | None = None
    members: str | None = None
