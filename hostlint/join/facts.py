"""Facts: what rules read. Each uplink already knows its switch port and port-channel.

Fields are flat (no nested optional objects) so a rule's expression can test
`u.port_channel == null` without guarding every step. `missing` maps a kind of
fact (`switch`, `host`, `pcie`) to the reason it is not known; a rule that needs
that kind is skipped for the object with the reason.

`missing` also maps a field that is unknown (its source did not show it) to the
reason, e.g. `port_mtu: "cat-a Te1/1/3: MTU not shown by `show interfaces`"`. Null
then means "does not apply" (no port-channel), never "not read": rules see an
unknown field as absent, and a rule that reads it is skipped with that reason
(hostlint.rules.engine).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from hostlint.fieldsets import SharedFieldsSet


class Fact(SharedFieldsSet):
    object: str
    host: str
    missing: dict[str, str] = Field(default_factory=dict)


class HealthEvidence(BaseModel):
    """The distributed switch health check of one uplink: the VLANs the physical port trunks and drops;
    the pNIC's MTU differing from the switch's (`mismatch`), the VLANs whose physical switch MTU carries
    (`passing`) or drops (`failing`) the switch's largest frames."""

    trunked: list[list[int]] = Field(default_factory=list)
    untrunked: list[list[int]] = Field(default_factory=list)
    mismatch: bool = False
    passing: list[list[int]] = Field(default_factory=list)
    failing: list[list[int]] = Field(default_factory=list)
    failing_text: str = "none"


class EsxiLacp(BaseModel):
    """ESXi's own LACP view of a LAG member (esxcli lacp status get): its state (bundled, individual,
    hot-standby, down, other), ESXi's word for it, and whether its partner reports it in sync (SYN)."""

    state: str
    state_text: str
    partner_sync: bool


class UplinkFact(Fact):
    host_kind: str
    nic: str
    team: str | None = None
    role: str = "active"
    link_up: bool | None = True
    speed_mbps: int | None = None
    duplex: str | None = None
    configured_speed_mbps: int | None = None
    configured_duplex: str | None = None
    via: str | None = None
    switch: str | None = None
    platform: str | None = None
    port: str | None = None
    port_status: str | None = None
    port_configured_speed_mbps: int | None = None
    port_configured_duplex: str | None = None
    port_speed_mbps: int | None = None
    port_duplex: str | None = None
    # The figure that limits this host's frames at its port and channel (hostlint.platforms.MtuFamily): the
    # L2 MTU on a switchport of a platform that has one (EOS `l2 mtu`), else the interface `mtu`.
    port_mtu: int | None = None
    mtu_figure: str | None = None
    port_channel: str | None = None
    channel_id: str | None = None
    channel_mode: str | None = None
    channel_mtu: int | None = None
    # This port's state in its channel (bundled, hot-standby, suspended, individual, down).
    member_state: str | None = None
    # Members of this port's channel (either half of a vPC/MLAG channel) that are suspended.
    channel_suspended: list[str] = Field(default_factory=list)
    # Members of this port's channel (either half) that are bundled: what an individual member's frames flap against.
    channel_bundled: list[str] = Field(default_factory=list)
    switch_hash: str | None = None
    switch_hash_fields: list[str] = Field(default_factory=list)
    channel_members: int | None = None
    logical_switch: str | None = None
    # VLANs of the switch interface that governs this port's traffic: its port-channel when it is a
    # member (the channel's switchport configuration applies to every member), else the port.
    # `vlan_mode` access/trunk/routed; on a trunk `allowed_vlans` as merged [first, last] ranges
    # (`[]` none) and `native_vlan` (0: untagged frames dropped); on an access port `access_vlan`.
    vlan_interface: str | None = None
    vlan_mode: str | None = None
    access_vlan: int | None = None
    native_vlan: int | None = None
    allowed_vlans: list[list[int]] | None = None
    allowed_vlans_text: str | None = None
    # vSphere's own evidence about this uplink (hostlint.join.health), each unknown in `missing` when the
    # check is off or its results were not read; None: none is due (a standard vSwitch, a LAG port). Two
    # nested fields, not ten flat ones: an uplink fact keeps at most 42 fields, one dict size, which the
    # hundreds of thousands of uplink facts of a large site pay for in memory (bench/run.py).
    health: HealthEvidence | None = None
    esxi_lacp: EsxiLacp | None = None


class TeamFact(Fact):
    """A set of uplinks with one teaming policy: a vSwitch, an overriding port group, a bond.

    `kind`: `vss`, `vss-portgroup`, `dvs-portgroup` (a distributed port group's teaming on one host),
    `dvs` (a host's proxy switch: every uplink the host gives the distributed switch, `policy`
    `per-portgroup`), `bond`, `ovs-bond`."""

    host_kind: str
    kind: str
    vswitch: str
    portgroup: str | None = None
    # None: not reported (`missing` says so)
    policy: str | None
    active: list[str] = Field(default_factory=list)
    standby: list[str] = Field(default_factory=list)
    unused: list[str] = Field(default_factory=list)
    failure_detection: str | None = "link"
    mtu: int | None = 1500
    # A `dvs` team's proxy switch MTU on this host (HostProxySwitch.mtu), which `mtu` (the switch's) should be.
    proxy_mtu: int | None = None
    lag: str | None = None
    lag_mode: str | None = None
    lag_hash: str | None = None
    lag_hash_fields: list[str] = Field(default_factory=list)
    lag_uplink_count: int | None = None
    # A `dvs` team's teaming health check result on this host (VMwareDVSTeamingMatchStatus).
    hc_teaming: str | None = None
    uplinks: list[UplinkFact] = Field(default_factory=list)
    switches: list[str] = Field(default_factory=list)
    logical_switches: list[str] = Field(default_factory=list)
    channel_ids: list[str] = Field(default_factory=list)


class VmkFact(Fact):
    """A VMkernel port, its path (the uplinks of its port group's team) and its L2 segment."""

    name: str
    portgroup: str
    # What it sits on: `standard`, `distributed`, `nsx` (an NSX port group of a VDS) or `opaque` (an
    # NSX-T segment of an N-VDS); on the last two the uplinks and teaming are NSX's and not known.
    kind: str = "standard"
    vswitch: str | None = None
    dvswitch: str | None = None
    vswitch_mtu: int | None = None
    mtu: int | None
    ip: str | None = None
    prefix: int | None = None
    network: str | None = None
    netstack: str = "defaultTcpipStack"
    services: list[str] = Field(default_factory=list)
    vlan: int | None = None
    active: list[str] = Field(default_factory=list)
    standby: list[str] = Field(default_factory=list)
    live: bool = False
    path_mtu: int | None = None
    path: list[str] = Field(default_factory=list)
    segment_mtus: list[int] = Field(default_factory=list)
    segment_mtu: int | None = None
    storage: bool = False
    expected_mtu: int | None = None


class PortgroupFact(Fact):
    """A port group (standard or distributed) with its VLAN and the uplinks that carry it (active,
    then standby, of its effective teaming; a LAG's ports when it uses one).

    `vlan_type`: `none` (VLAN 0, untagged), `vlan` (one tagged VLAN), `pvlan` (a private VLAN id),
    `trunk` (guest tagging: a standard port group at 4095, or a distributed one's VLAN trunk with
    `trunk_vlans` as [first, last] ranges; unknown for a standard port group, which passes every VLAN).
    """

    host_kind: str = "esxi"
    portgroup: str
    vswitch: str
    switch_kind: str
    vlan_type: str | None
    vlan: int | None
    trunk_vlans: list[list[int]] | None = None
    trunk_vlans_text: str | None = None
    uplinks: list[UplinkFact] = Field(default_factory=list)


class BoundVmk(BaseModel):
    name: str
    ip: str | None = None
    network: str | None = None
    active: list[str] = Field(default_factory=list)
    standby: list[str] = Field(default_factory=list)
    mtu: int | None = None
    live: bool = False
    targets_outside: list[str] = Field(default_factory=list)


class IscsiFact(Fact):
    """An iSCSI adapter and its port binding, each bound vmk with its port group's teaming."""

    adapter: str
    kind: str
    pnic: str | None = None
    bound: list[BoundVmk] = Field(default_factory=list)
    unknown_vmks: list[str] = Field(default_factory=list)
    shared_uplinks: list[str] = Field(default_factory=list)
    targets: list[str] = Field(default_factory=list)


class PcieFact(Fact):
    """The PCIe link of one NIC card (all its ports' functions share it) and what its ports need."""

    address: str
    device: str | None = None
    nics: list[str] = Field(default_factory=list)
    port_speeds_mbps: list[int] = Field(default_factory=list)
    ports_gbps: float = 0.0
    width_capable: int | None = None
    width_negotiated: int | None = None
    speed_capable_gts: float | None = None
    speed_negotiated_gts: float | None = None
    # Per direction, Gbit/s: after line coding (`*_gbps`) and after protocol overhead (`*usable_gbps`),
    # see hostlint.join.pcie; `ports_gbps` is the ports' line rate, also per direction.
    capable_gbps: float | None = None
    negotiated_gbps: float | None = None
    capable_usable_gbps: float | None = None
    usable_gbps: float | None = None


class VmNicFact(Fact):
    vm: str
    label: str
    model: str
    portgroup: str | None = None
    # The distributed port group's key (dvportgroup-NN) when the collector recorded the backing.
    portgroup_key: str | None = None
    # "standard", "distributed" (or "opaque", NSX) from the NIC's backing; for older snapshots from the
    # port group's name when it is on one kind of switch only; else None.
    switch_kind: str | None = None


class VmFact(Fact):
    vm: str
    vcpus: int | None
    cpu_hot_add: bool | None


class BondFact(TeamFact):
    """A KVM host's Linux or Open vSwitch bond (kind `bond` / `ovs-bond`; `policy` is the bond mode,
    None when not read, with the reason in `missing`)."""

    policy: str | None
    implementation: str = "linux"
    xmit_hash_policy: str | None = None
    host_hash_fields: list[str] = Field(default_factory=list)
    switch_hash_fields: list[str] = Field(default_factory=list)
    lacp_rate: str | None = None
    partner_mac: str | None = None
    active_aggregator_id: int | None = None
    aggregator_ids: list[int] = Field(default_factory=list)
    outside_aggregator: list[str] = Field(default_factory=list)
    bridge: str | None = None
    mtus: list[str] = Field(default_factory=list)
    member_mtus: list[int] = Field(default_factory=list)
    upper_mtus: list[int] = Field(default_factory=list)


class GuestNicFact(Fact):
    """A libvirt domain's interface with the host path it leaves by: bridge, bond or VLAN, uplinks."""

    domain: str
    domain_state: str = "running"
    model: str | None
    source_type: str
    source: str | None = None
    mtu: int | None = None
    driver: str | None = None
    queues: int | None = None
    bridge: str | None = None
    path: list[str] = Field(default_factory=list)
    path_mtu: int | None = None
    # The smallest switch figure (port and channel) under the path's uplinks, and where it is read
    # (`eno1 -> leaf1 Ethernet1 9196`); None: the path leaves by no uplink. Unknown (in `missing`) when
    # an uplink's switch port or figure was not read.
    switch_path_mtu: int | None = None
    switch_path: list[str] = Field(default_factory=list)
    # The smallest largest-MTU the drivers of the path's interfaces accept; None: none was read.
    path_max_mtu: int | None = None
    vhost_net: bool | None = None


# Team fields summarising a field of its active uplinks: unknown when any of those is unknown.
TEAM_SUMMARIES = {"logical_switches": "logical_switch", "channel_ids": "channel_id"}
# `missing` keys that name a kind of fact (checked by a rule's `needs`), not one field.
KINDS = frozenset({"switch", "host", "pcie"})


def summarise_unknowns(team: TeamFact, uplinks: list[UplinkFact]) -> None:
    """Mark a team's summary fields unknown when an uplink they summarise has that field unknown."""
    for summary, field in TEAM_SUMMARIES.items():
        reasons = list(dict.fromkeys(u.missing[field] for u in uplinks if u.role == "active" and field in u.missing))
        if reasons:
            team.missing[summary] = "; ".join(reasons)


class ProbeFact(Fact):
    """A `hostlint probe` result beside what the configuration says of the same path.

    `delivered`: a reply came back (True), none did or the source refused to send (False); unknown
    (in `missing`) when the probe could not be sent. `control_delivered`: the 1472-byte probe between
    the same ports got through (None: none was sent). `config_mtu` is the smallest MTU the collected
    configuration shows on the path (both vmks, their vSwitches, the switch ports under both), and
    `smallest_hop` names it; `hops_unread` names the hops whose MTU was not collected."""

    source_vmk: str
    target_host: str
    target_vmk: str
    target_ip: str
    netstack: str
    size: int
    mtu: int
    purpose: str
    delivered: bool | None = None
    error_kind: str | None = None
    error: str | None = None
    control_delivered: bool | None = None
    config_mtu: int | None = None
    smallest_hop: str | None = None
    hops_unread: list[str] = Field(default_factory=list)


class Unresolved(BaseModel):
    """A host uplink whose switch port is unknown, reported so it is never silently dropped."""

    object: str
    reason: str


class Facts(BaseModel):
    teams: list[TeamFact] = Field(default_factory=list)
    uplinks: list[UplinkFact] = Field(default_factory=list)
    vmks: list[VmkFact] = Field(default_factory=list)
    iscsi: list[IscsiFact] = Field(default_factory=list)
    pcie: list[PcieFact] = Field(default_factory=list)
    vm_nics: list[VmNicFact] = Field(default_factory=list)
    vms: list[VmFact] = Field(default_factory=list)
    bonds: list[BondFact] = Field(default_factory=list)
    guest_nics: list[GuestNicFact] = Field(default_factory=list)
    portgroups: list[PortgroupFact] = Field(default_factory=list)
    probes: list[ProbeFact] = Field(default_factory=list)
    unresolved: list[Unresolved] = Field(default_factory=list)

    def of_kind(self, kind: str) -> list[Fact]:
        facts: list[Fact] = getattr(self, kind)
        return facts
