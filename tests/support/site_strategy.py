"""Random small sites for property tests of the planner (tests/test_plan_invariants.py, bench/plan_invariants.py).

A site is one or two ESXi hosts on one switch, or on a vPC/MLAG pair where the platform has one.
Each host has one to three vSwitches of two or three uplinks; each vSwitch is drawn independently:
teaming (IP hash or port ID), which uplinks are active, standby or unused, failure detection,
vSwitch and switch MTU (up to the platform's limit), whether its ports form a static or LACP
channel (all of them, some of them, or none), the trunk's VLANs, a vmk on it (MTU, netstack) and
a port group VLAN. The switch's hash is any the platform may print. Names come from the
platform's own interface grammar, so every generated site is one hostlint can collect.

Half the sites add a KVM host: a bridge on one NIC or on an active-backup bond of two, each NIC on
an access port of its own switch (sw3, a model whose MTU family is known), one guest on the bridge.
Drawn: the NICs', bond's and bridge's MTUs, the largest MTU the NICs' driver accepts (or not read),
the switch ports' figure (EOS `l2 mtu` given or left out, so which figure limits the port is known
or not) and the guest's MTU.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import strategies as st

from hostlint import platforms as registry
from hostlint.snapshot import Snapshot
from hostlint.snapshot.common import Neighbour
from hostlint.snapshot.esxi import EsxiHost, PhysicalNic, PortGroup, StandardVSwitch, Teaming, Vmk
from hostlint.snapshot.kvm import (
    Bond,
    BondMember,
    Bridge,
    DomainInterface,
    KvmHost,
    LibvirtDomain,
    LinuxInterface,
)
from hostlint.snapshot.switch import LoadBalance, MultiChassis, PortChannel, Switch, SwitchPort
from support.fix_sites import PLATFORMS as FIX_SITES

PORT = {
    "cisco_ios": "TenGigabitEthernet1/0/{}",
    "cisco_nxos": "Ethernet1/{}",
    "arista_eos": "Ethernet{}",
    "juniper_junos": "xe-0/0/{}",
}
PAIR = {"cisco_nxos": "vpc", "arista_eos": "mlag"}
# The KVM host's access switch: a model whose MTU family (hostlint.platforms) is known.
ACCESS_MODEL = {
    "cisco_ios": "C9300-48UXM",
    "cisco_nxos": "N9K-C93180YC-EX",
    "arista_eos": "DCS-7050SX3-48YC8",
    "juniper_junos": "ex4300-48t",
}
HASHES = ["src-mac", "src-dst-mac", "src-dst-ip", "src-ip", "src-dst-ip-port", None]
NETSTACKS = ["defaultTcpipStack", "vmotion"]


@dataclass
class TeamPlan:
    """One vSwitch as drawn: its uplinks' roles, its channel and its figures."""

    policy: str
    roles: list[str]
    detection: str
    vswitch_mtu: int
    port_mtu: int
    channel: str
    in_channel: list[bool]
    vmk_mtu: int | None
    netstack: str
    vlan: int
    allowed: list[tuple[int, int]] | None
    spread: list[int] = field(default_factory=list)
    # Whether the switch side's own configuration lines were collected (config_lines), with lines no
    # field models (descriptions, LACP timers, spanning-tree): a rollback must type them back.
    lines: bool = False
    # Whether those lines make the channel and its members edge ports (no spanning-tree warning when a
    # step makes them new spanning-tree ports; without them the warning, without lines "cannot tell").
    edge: bool = False


@st.composite
def team_plans(draw: st.DrawFn, platform: str, paired: bool) -> TeamPlan:
    size = draw(st.integers(2, 3))
    roles = draw(st.lists(st.sampled_from(["active", "active", "standby", "unused"]), min_size=size, max_size=size))
    if "active" not in roles:
        roles[0] = "active"
    channel = draw(st.sampled_from(["none", "static", "lacp-active"]))
    in_channel = [channel != "none" and draw(st.booleans() | st.just(True)) for _ in roles]
    jumbo = registry.switch(platform).jumbo
    return TeamPlan(
        policy=draw(st.sampled_from(["loadbalance_ip", "loadbalance_srcid"])),
        roles=roles,
        detection=draw(st.sampled_from(["link", "link", "beacon"])),
        vswitch_mtu=draw(st.sampled_from([1500, 9000])),
        port_mtu=draw(st.sampled_from([1500, jumbo])),
        channel=channel,
        in_channel=in_channel,
        vmk_mtu=draw(st.sampled_from([None, 1500, 9000])),
        netstack=draw(st.sampled_from(NETSTACKS)),
        vlan=draw(st.sampled_from([10, 20, 100])),
        allowed=draw(st.sampled_from([None, [(10, 10)], [(10, 30)], [(1, 4094)]])),
        # Which switch of a pair each uplink is cabled to.
        spread=[draw(st.integers(0, 1)) if paired else 0 for _ in roles],
        lines=draw(st.booleans()),
        edge=draw(st.booleans()),
    )


# Lines an engineer adds that no field models, per platform (each vendor's interface configuration).
_CHANNEL_LINES = {
    "cisco_ios": ["spanning-tree bpduguard enable"],
    "cisco_nxos": ["spanning-tree bpduguard enable"],
    "arista_eos": ["port-channel lacp fallback timeout 30"],
    "juniper_junos": ["aggregated-ether-options lacp periodic fast"],
}
# The edge-port line of a trunk (hostlint.fixes.members.edge_port); Junos keeps it under `protocols`,
# outside an interface's lines, so its ports stay "cannot tell".
_EDGE_LINES = {
    "cisco_ios": ["spanning-tree portfast edge trunk"],
    "cisco_nxos": ["spanning-tree port type edge trunk"],
    "arista_eos": ["spanning-tree portfast"],
    "juniper_junos": [],
}
_MEMBER_LINES = {
    "cisco_ios": ["lacp rate fast"],
    "cisco_nxos": ["lacp rate fast"],
    "arista_eos": ["lacp timer fast"],
    "juniper_junos": [],
}
# A member's line naming its channel, where it is not IOS's `channel-group N mode on|active` (Junos: its ae).
_MEMBER_LINE: dict[str, str] = {}

# Platforms that came as folders bring their entries with their emulator's SITE (tests/switch_emulator/
# platforms/<platform>.py): port names, model, and the lines above.
for _name, _entry in FIX_SITES.items():
    if _name not in PORT and "member_line" in _entry:
        PORT[_name] = str(_entry["port"])
        ACCESS_MODEL[_name] = str(_entry["model"])
        _CHANNEL_LINES[_name] = list(_entry["channel_lines"])
        _EDGE_LINES[_name] = list(_entry["edge_lines"])
        _MEMBER_LINES[_name] = list(_entry["member_lines"])
        _MEMBER_LINE[_name] = str(_entry["member_line"])


def _own_lines(platform: str, name: str, description: str, lines: list[str]) -> list[str]:
    """An interface's collected lines: its description and `lines`, as the platform shows them."""
    if platform == "juniper_junos":
        return [f'set interfaces {name} description "{description}"', *(f"set interfaces {name} {x}" for x in lines)]
    return [f"description {description}", *lines]


@dataclass
class _Ports:
    """The switch side as it is built: ports and channels per switch."""

    ports: dict[int, list[SwitchPort]] = field(default_factory=lambda: {0: [], 1: []})
    channels: dict[int, list[PortChannel]] = field(default_factory=lambda: {0: [], 1: []})
    next_port: dict[int, int] = field(default_factory=lambda: {0: 1, 1: 1})
    next_channel: int = 10


def _channel_name(platform: str, number: int) -> str:
    return registry.switch(platform).channel_interface.format(number)


def _build_team(
    platform: str, host: str, index: int, team: TeamPlan, ports: _Ports, nic_base: int, paired: bool
) -> tuple[StandardVSwitch, list[PhysicalNic]]:
    nics = [f"vmnic{nic_base + n}" for n in range(len(team.roles))]
    number = ports.next_channel
    ports.next_channel += 1
    switch_names = ["sw1", "sw2"]
    pnics = []
    members: dict[int, list[str]] = {0: [], 1: []}
    for nic, side, bundled in zip(nics, team.spread, team.in_channel, strict=True):
        port_name = PORT[platform].format(ports.next_port[side])
        ports.next_port[side] += 1
        channel = _channel_name(platform, number) if bundled else None
        ports.ports[side].append(
            SwitchPort(
                name=port_name,
                status="up",
                mode="trunk",
                mtu=team.port_mtu,
                port_channel=channel,
                member_state="bundled" if bundled else None,
                allowed_vlans=None if bundled else team.allowed,
                native_vlan=None if bundled else 1,
            )
        )
        if bundled:
            members[side].append(port_name)
        if team.lines:
            own = [f"channel-group {number} mode {'on' if team.channel == 'static' else 'active'}"] if bundled else []
            if platform == "juniper_junos":
                own = [f"ether-options 802.3ad {channel}"] if bundled else []
            elif platform in _MEMBER_LINE:
                own = [_MEMBER_LINE[platform].format(number=number)] if bundled else []
            extra = _MEMBER_LINES[platform] if team.channel == "lacp-active" and bundled else []
            extra = [*extra, *(_EDGE_LINES[platform] if team.edge else [])]
            ports.ports[side][-1].config_lines = _own_lines(platform, port_name, f"{host} {nic}", [*extra, *own])
        pnics.append(
            PhysicalNic(
                name=nic,
                link_up=True,
                speed_mbps=10000,
                duplex="full",
                neighbour=Neighbour(protocol="lldp", device_id=switch_names[side], port_id=port_name),
            )
        )
    for side, names in members.items():
        if names:
            ports.channels[side].append(
                PortChannel(
                    name=_channel_name(platform, number),
                    mode=team.channel,  # type: ignore[arg-type]
                    switchport="trunk",
                    native_vlan=1,
                    allowed_vlans=team.allowed,
                    members=names,
                    mtu=team.port_mtu,
                    status="up",
                    multichassis_id=number if paired and all(members.values()) else None,
                    config_lines=_own_lines(
                        platform,
                        _channel_name(platform, number),
                        f"{host} team",
                        [*_CHANNEL_LINES[platform], *(_EDGE_LINES[platform] if team.edge else [])],
                    )
                    if team.lines
                    else None,
                )
            )
    teaming = Teaming(
        policy=team.policy,  # type: ignore[arg-type]
        active=[n for n, r in zip(nics, team.roles, strict=True) if r == "active"],
        standby=[n for n, r in zip(nics, team.roles, strict=True) if r == "standby"],
        failure_detection=team.detection,  # type: ignore[arg-type]
    )
    vswitch = StandardVSwitch(name=f"vSwitch{index}", mtu=team.vswitch_mtu, uplinks=nics, teaming=teaming)
    return vswitch, pnics


@st.composite
def kvm_hosts(draw: st.DrawFn, platform: str) -> tuple[KvmHost, Switch]:
    """A KVM host whose guest's MTU may be above its host path, with its access switch (sw3, a model
    whose MTU family is known) carrying it or not."""
    bonded = draw(st.booleans())
    nics = ["eno1", "eno2"] if bonded else ["eno1"]
    port_mtu = draw(st.sampled_from([1500, 9000, registry.switch(platform).jumbo]))
    # EOS bridges up to its `l2 mtu`; without one the figure that limits the port is not known.
    l2_mtu = port_mtu if platform == "arista_eos" and draw(st.booleans()) else None
    max_mtu = draw(st.sampled_from([None, 1500, 9000, 9216]))
    nic_mtu = draw(st.sampled_from([1500, 9000]))
    upper = "bond0" if bonded else "eno1"
    interfaces = []
    ports = []
    for number, nic in enumerate(nics, 1):
        port_name = PORT[platform].format(number)
        ports.append(
            SwitchPort(name=port_name, status="up", mode="access", access_vlan=30, mtu=port_mtu, l2_mtu=l2_mtu)
        )
        interfaces.append(
            LinuxInterface(
                name=nic,
                mtu=min(nic_mtu, max_mtu or nic_mtu),
                max_mtu=max_mtu,
                operstate="up",
                speed_mbps=10000,
                duplex="full",
                master="bond0" if bonded else "br0",
                neighbour=Neighbour(protocol="lldp", device_id="sw3", port_id=port_name),
            )
        )
    if bonded:
        interfaces.append(
            LinuxInterface(name="bond0", kind="bond", mtu=interfaces[0].mtu, operstate="up", master="br0")
        )
    interfaces.append(
        LinuxInterface(name="br0", kind="bridge", mtu=draw(st.sampled_from([1500, 9000])), operstate="up")
    )
    bonds = []
    if bonded:
        members = [BondMember(name=n, link_up=True, speed_mbps=10000, duplex="full") for n in nics]
        bonds.append(Bond(name="bond0", mode="active-backup", miimon=100, members=members))
    guest = DomainInterface(
        mac="52:54:00:00:00:01", model="virtio", source="br0", mtu=draw(st.sampled_from([None, 1500, 9000, 9000]))
    )
    host = KvmHost(
        name="kvm01",
        interfaces=interfaces,
        bonds=bonds,
        bridges=[Bridge(name="br0", members=[upper])],
        domains=[LibvirtDomain(name="vm01", interfaces=[guest])],
        vhost_net=True,
    )
    return host, Switch(name="sw3", platform=platform, model=ACCESS_MODEL[platform], ports=ports)


@st.composite
def sites(draw: st.DrawFn) -> Snapshot:
    platform = draw(st.sampled_from(sorted(PORT)))
    paired = platform in PAIR and draw(st.booleans())
    ports = _Ports()
    hosts = []
    for h in range(draw(st.integers(1, 2))):
        host = f"esx{h + 1:02d}"
        vswitches, pnics, portgroups, vmks = [], [], [], []
        for index in range(draw(st.integers(1, 3))):
            team = draw(team_plans(platform, paired))
            vswitch, team_pnics = _build_team(platform, host, index, team, ports, len(pnics), paired)
            vswitches.append(vswitch)
            pnics += team_pnics
            portgroups.append(PortGroup(name=f"PG{index}", vswitch=vswitch.name, vlan=team.vlan))
            if team.vmk_mtu is not None:
                vmks.append(
                    Vmk(
                        name=f"vmk{index + 1}",
                        mtu=team.vmk_mtu,
                        portgroup=f"PG{index}",
                        vswitch=vswitch.name,
                        ip=f"10.{index}.0.{h + 11}",
                        prefix=24,
                        netstack=team.netstack,
                    )
                )
        hosts.append(
            EsxiHost(name=host, vcenter="vc01", vswitches=vswitches, portgroups=portgroups, vmks=vmks, pnics=pnics)
        )
    kvm = [draw(kvm_hosts(platform))] if draw(st.booleans()) else []
    hash_name = draw(st.sampled_from(HASHES))
    switches = []
    for side in (0, 1) if paired else (0,):
        name, peer = ("sw1", "sw2") if side == 0 else ("sw2", "sw1")
        switches.append(
            Switch(
                name=name,
                platform=platform,
                model="ex4300-48t" if platform == "juniper_junos" else None,
                load_balance=LoadBalance(hash=hash_name, raw=hash_name) if hash_name else None,
                ports=ports.ports[side],
                port_channels=ports.channels[side],
                multichassis=MultiChassis(kind=PAIR[platform], domain_id="1", peer=peer, peer_link_up=True)  # type: ignore[arg-type]
                if paired
                else None,
            )
        )
    switches += [switch for _, switch in kvm]
    return Snapshot(source="test:generated", esxi_hosts=hosts, kvm_hosts=[host for host, _ in kvm], switches=switches)
