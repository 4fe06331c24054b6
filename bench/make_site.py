"""Generate a synthetic but believable site snapshot for the scale benchmark.

The site is a row of racks. Each rack holds up to 24 ESXi hosts and one vPC pair
of Nexus leaves (`leaf-r001a` / `leaf-r001b`); 24 hosts x 2 NICs per leaf fill the
48 downlink ports of an N9K-C93180YC-FX. Every host is built the way a careful
admin would build it:

    vmnic0 -> leaf a Ethernet1/(2s-1)   vSwitch0, route based on originating port ID,
    vmnic1 -> leaf b Ethernet1/(2s-1)   vmnic0 active / vmnic1 standby, MTU 1500
    vmnic2 -> leaf a Ethernet1/(2s)     vSwitch1, IP hash over a static vPC
    vmnic3 -> leaf b Ethernet1/(2s)     port-channel (100+s on both leaves), MTU 9000

with vmk0 (management) on vSwitch0, vmk1 (vMotion, jumbo) on vSwitch1, a few VM
port groups (one overriding the vSwitch teaming) and a few VMs. Hosts are grouped
in clusters (48 hosts, two racks, by default): each cluster has its own management
and vMotion subnet, so an L2 segment (VLAN + subnet) spans one cluster, not the
whole site; `--hosts-per-segment` makes segments larger to study their cost.

About 2% of the hosts (seeded, so every run plants the same ones) are given a
problem a rule should catch:

- `port-channel-member`: leaf b's port for vmnic3 was taken out of the host's
  port-channel (IP hash without one port-channel: LG001);
- `switch-mtu`: the host's vPC port-channel and its member ports were left at
  MTU 1500 under a 9000-byte vSwitch1 and vmk1 (jumbo frames dropped);
- `vswitch-mtu`: vSwitch1 was left at 1500 while vmk1 asks for 9000.

The snapshot is built from hostlint's own pydantic models, so an invalid
generator fails here and not inside the benchmark, and written as one JSON file.

    python bench/make_site.py --hosts 10000 --output /tmp/site-10k.json
"""

from __future__ import annotations

import argparse
import ipaddress
import random
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from hostlint.snapshot import Snapshot
from hostlint.snapshot.common import Neighbour, PciLink
from hostlint.snapshot.esxi import (
    Discovery,
    EsxiHost,
    PhysicalNic,
    PortGroup,
    StandardVSwitch,
    Teaming,
    VirtualMachine,
    Vmk,
    VmNic,
)
from hostlint.snapshot.switch import LoadBalance, MultiChassis, PortChannel, Switch, SwitchPort

HOSTS_PER_RACK = 24
PROBLEM_SHARE = 0.02
PROBLEM_KINDS = ("port-channel-member", "switch-mtu", "vswitch-mtu")
DOMAIN = "dc1.example.net"
LEAF_MODEL = "N9K-C93180YC-FX"
LINK_SPEED = 25_000
JUMBO_HOST = 9000
# NX-OS reports its L2 MTU; 9216 on the wire passes a 9000-byte IP packet with room to spare.
JUMBO_SWITCH = 9216
# A fixed timestamp keeps the generated file byte-identical for one seed and size.
COLLECTED_AT = datetime(2026, 1, 15, 3, 0, tzinfo=UTC)
VM_PORTGROUPS = (("VM-Prod", 100), ("VM-Dev", 110), ("VM-DMZ", 120))
# Each service's subnets are carved, one per cluster, out of its own block.
MANAGEMENT_BLOCK = ipaddress.IPv4Network("10.64.0.0/10")
VMOTION_BLOCK = ipaddress.IPv4Network("10.128.0.0/10")
FIRST_HOST_ADDRESS = 11


@dataclass(frozen=True)
class Layout:
    """How the generated site is shaped beyond its host count."""

    vms_per_host: int = 8
    hosts_per_segment: int = 48

    @property
    def segment_prefix(self) -> int:
        """The smallest subnet that holds a segment's hosts after the reserved low addresses."""
        return 32 - (self.hosts_per_segment + FIRST_HOST_ADDRESS).bit_length()


@dataclass
class Site:
    """A generated snapshot and the problems planted in it (host name -> problem kind)."""

    snapshot: Snapshot
    planted: dict[str, str] = field(default_factory=dict)


def host_name(number: int) -> str:
    return f"esx{number:05d}.{DOMAIN}"


def leaf_names(rack: int) -> tuple[str, str]:
    return f"leaf-r{rack:03d}a", f"leaf-r{rack:03d}b"


def _mac(host_number: int, nic: int) -> str:
    return f"00:50:56:{host_number >> 8 & 0xFF:02x}:{host_number & 0xFF:02x}:{nic:02x}"


def _address(block: ipaddress.IPv4Network, host_number: int, layout: Layout) -> tuple[str, int]:
    """A host's address and prefix length in its cluster's subnet of `block`."""
    segment, index = divmod(host_number - 1, layout.hosts_per_segment)
    subnet_size = 2 ** (32 - layout.segment_prefix)
    address = block.network_address + segment * subnet_size + FIRST_HOST_ADDRESS + index
    if address not in block:
        raise ValueError(f"{block} has no room for host {host_number} in segments of {layout.hosts_per_segment}")
    return str(address), layout.segment_prefix


def _esxi_host(number: int, rack: int, slot: int, problem: str | None, layout: Layout) -> EsxiHost:
    leaf_a, leaf_b = leaf_names(rack)
    name = host_name(number)
    # slot counts from 0: host slot s uses ports Ethernet1/(2s+1) and Ethernet1/(2s+2) on both leaves.
    cabling = [(leaf_a, 2 * slot + 1), (leaf_b, 2 * slot + 1), (leaf_a, 2 * slot + 2), (leaf_b, 2 * slot + 2)]
    pnics = [
        PhysicalNic(
            name=f"vmnic{nic}",
            driver="icen",
            mac=_mac(number, nic),
            pci=f"0000:{0x3B + nic // 2:02x}:00.{nic % 2}",
            link_up=True,
            speed_mbps=LINK_SPEED,
            duplex="full",
            neighbour=Neighbour(
                protocol="cdp",
                device_id=f"{leaf}.{DOMAIN}(FDO{rack:04d}{leaf[-1].upper()}{port:02d})",
                port_id=f"Ethernet1/{port}",
                platform=LEAF_MODEL,
            ),
        )
        for nic, (leaf, port) in enumerate(cabling)
    ]
    storage_mtu = 1500 if problem == "vswitch-mtu" else JUMBO_HOST
    management_ip, management_prefix = _address(MANAGEMENT_BLOCK, number, layout)
    vmotion_ip, vmotion_prefix = _address(VMOTION_BLOCK, number, layout)
    vswitches = [
        StandardVSwitch(
            name="vSwitch0",
            mtu=1500,
            uplinks=["vmnic0", "vmnic1"],
            teaming=Teaming(policy="loadbalance_srcid", active=["vmnic0"], standby=["vmnic1"]),
            discovery=Discovery(protocol="cdp", operation="listen"),
        ),
        StandardVSwitch(
            name="vSwitch1",
            mtu=storage_mtu,
            uplinks=["vmnic2", "vmnic3"],
            teaming=Teaming(policy="loadbalance_ip", active=["vmnic2", "vmnic3"]),
            discovery=Discovery(protocol="cdp", operation="listen"),
        ),
    ]
    portgroups = [
        PortGroup(name="Management Network", vswitch="vSwitch0", vlan=10, members=["vmk0"]),
        # Backups leave on the standby NIC so they do not compete with management traffic.
        PortGroup(
            name="Backup",
            vswitch="vSwitch0",
            vlan=30,
            teaming=Teaming(policy="failover_explicit", active=["vmnic1"], standby=["vmnic0"]),
        ),
        PortGroup(name="vMotion", vswitch="vSwitch1", vlan=20, members=["vmk1"]),
        *(PortGroup(name=pg, vswitch="vSwitch1", vlan=vlan) for pg, vlan in VM_PORTGROUPS),
    ]
    vmks = [
        Vmk(
            name="vmk0",
            portgroup="Management Network",
            vswitch="vSwitch0",
            mtu=1500,
            ip=management_ip,
            prefix=management_prefix,
            mac=_mac(number, 0x80),
            services=["management"],
        ),
        Vmk(
            name="vmk1",
            portgroup="vMotion",
            vswitch="vSwitch1",
            mtu=JUMBO_HOST,
            ip=vmotion_ip,
            prefix=vmotion_prefix,
            mac=_mac(number, 0x81),
            services=["vmotion"],
        ),
    ]
    pci_devices = [
        PciLink(
            address=f"0000:{0x3B + card:02x}:00.{port}",
            vendor="Intel Corporation",
            device="Ethernet Controller E810-XXV for SFP",
            device_class="Ethernet controller",
            nic=f"vmnic{2 * card + port}",
            width_capable=8,
            width_negotiated=8,
            speed_capable_gts=16.0,
            speed_negotiated_gts=16.0,
        )
        for card in range(2)
        for port in range(2)
    ]
    vms = [
        VirtualMachine(
            name=f"vm{number:05d}-{index:02d}",
            vcpus=2 << (index % 3),
            nics=[
                VmNic(
                    label="Network adapter 1",
                    model="vmxnet3",
                    portgroup=VM_PORTGROUPS[index % len(VM_PORTGROUPS)][0],
                    mac=_mac(number, 0x90 + index),
                )
            ],
        )
        for index in range(layout.vms_per_host)
    ]
    return EsxiHost(
        name=name,
        version="8.0.3",
        vcenter=f"vc{1 + number // 2000:02d}.{DOMAIN}",
        vswitches=vswitches,
        portgroups=portgroups,
        vmks=vmks,
        pnics=pnics,
        pci_devices=pci_devices,
        vms=vms,
    )


def _leaf(rack: int, side: int, slots: list[tuple[int, str | None]]) -> Switch:
    """One leaf of a rack's vPC pair; `slots` are the rack's (host number, problem) pairs."""
    leaf_a, leaf_b = leaf_names(rack)
    name, peer = (leaf_a, leaf_b) if side == 0 else (leaf_b, leaf_a)
    ports: list[SwitchPort] = []
    channels: list[PortChannel] = []
    for slot, (number, problem) in enumerate(slots):
        host = host_name(number).split(".", 1)[0]
        channel_mtu = 1500 if problem == "switch-mtu" else JUMBO_SWITCH
        channel_name = f"port-channel{101 + slot}"
        # The vmnic3 port sits on leaf b; the fault is a port that was re-patched without its channel-group.
        loose = problem == "port-channel-member" and side == 1
        ports.append(
            SwitchPort(
                name=f"Ethernet1/{2 * slot + 1}",
                description=f"{host} vmnic{side}",
                mode="trunk",
                speed_mbps=LINK_SPEED,
                duplex="full",
                mtu=JUMBO_SWITCH,
            )
        )
        ports.append(
            SwitchPort(
                name=f"Ethernet1/{2 * slot + 2}",
                description=f"{host} vmnic{2 + side}",
                mode="trunk",
                speed_mbps=LINK_SPEED,
                duplex="full",
                mtu=channel_mtu,
                port_channel=None if loose else channel_name,
                member_state=None if loose else "bundled",
            )
        )
        channels.append(
            PortChannel(
                name=channel_name,
                mode="static",
                members=[] if loose else [f"Ethernet1/{2 * slot + 2}"],
                mtu=channel_mtu,
                status="down" if loose else "up",
                multichassis_id=101 + slot,
            )
        )
    for port in range(2 * len(slots) + 1, 49):
        ports.append(SwitchPort(name=f"Ethernet1/{port}", status="down", mode="access"))
    peer_neighbours = {
        53: Neighbour(protocol="cdp", device_id=f"{peer}.{DOMAIN}", port_id="Ethernet1/53", platform=LEAF_MODEL),
        54: Neighbour(protocol="cdp", device_id=f"{peer}.{DOMAIN}", port_id="Ethernet1/54", platform=LEAF_MODEL),
    }
    # Spines have 36-port line cards; each rack lands on the same port of both.
    spine_port = f"Ethernet{1 + rack // 36}/{1 + rack % 36}"
    for port in range(49, 53):
        spine = f"spine{1 + (port - 49) % 2}"
        ports.append(
            SwitchPort(
                name=f"Ethernet1/{port}",
                description=f"{spine} uplink",
                mode="routed",
                speed_mbps=100_000,
                duplex="full",
                mtu=JUMBO_SWITCH,
                neighbours=[Neighbour(protocol="lldp", device_id=f"{spine}.{DOMAIN}", port_id=spine_port)],
            )
        )
    for port, neighbour in peer_neighbours.items():
        ports.append(
            SwitchPort(
                name=f"Ethernet1/{port}",
                description="vPC peer-link",
                mode="trunk",
                speed_mbps=100_000,
                duplex="full",
                mtu=JUMBO_SWITCH,
                port_channel="port-channel1",
                member_state="bundled",
                neighbours=[neighbour],
            )
        )
    channels.append(
        PortChannel(
            name="port-channel1", mode="lacp-active", members=["Ethernet1/53", "Ethernet1/54"], mtu=JUMBO_SWITCH
        )
    )
    return Switch(
        name=name,
        aliases=[f"{name}.{DOMAIN}"],
        mgmt_address=f"10.254.{rack >> 7 & 0xFF}.{(rack & 0x7F) * 2 + side}",
        platform="cisco_nxos",
        model=LEAF_MODEL,
        os_version="10.3(4a)",
        load_balance=LoadBalance(hash="src-dst-ip", raw="ip"),
        ports=ports,
        port_channels=channels,
        multichassis=MultiChassis(kind="vpc", domain_id=str(rack), peer=peer, peer_link_up=True),
    )


def make_site(hosts: int, seed: int = 1, layout: Layout | None = None) -> Site:
    """A snapshot of `hosts` ESXi hosts in racks of 24 with their leaves, and the problems planted."""
    layout = layout or Layout()
    rng = random.Random(seed)
    problem_hosts = sorted(rng.sample(range(1, hosts + 1), round(hosts * PROBLEM_SHARE)))
    problems = {number: PROBLEM_KINDS[i % len(PROBLEM_KINDS)] for i, number in enumerate(problem_hosts)}
    esxi_hosts: list[EsxiHost] = []
    switches: list[Switch] = []
    for rack_start in range(1, hosts + 1, HOSTS_PER_RACK):
        rack = 1 + (rack_start - 1) // HOSTS_PER_RACK
        slots = [(n, problems.get(n)) for n in range(rack_start, min(rack_start + HOSTS_PER_RACK, hosts + 1))]
        for slot, (number, problem) in enumerate(slots):
            esxi_hosts.append(_esxi_host(number, rack, slot, problem, layout))
        switches.extend(_leaf(rack, side, slots) for side in (0, 1))
    snapshot = Snapshot(
        collected_at=COLLECTED_AT,
        source=f"bench:make_site hosts={hosts} seed={seed}",
        esxi_hosts=esxi_hosts,
        switches=switches,
    )
    return Site(snapshot=snapshot, planted={host_name(n): kind for n, kind in problems.items()})


def write_site(site: Site, path: Path) -> None:
    path.write_text(site.snapshot.model_dump_json(), encoding="utf-8")


def add_layout_arguments(parser: argparse.ArgumentParser) -> None:
    defaults = Layout()
    parser.add_argument(
        "--vms-per-host",
        type=int,
        default=defaults.vms_per_host,
        help=f"VMs per host (default {defaults.vms_per_host})",
    )
    parser.add_argument(
        "--hosts-per-segment",
        type=int,
        default=defaults.hosts_per_segment,
        help=f"hosts sharing one management and one vMotion subnet (default {defaults.hosts_per_segment})",
    )


def layout_from(args: argparse.Namespace) -> Layout:
    if args.vms_per_host < 0 or args.hosts_per_segment < 1:
        sys.exit("bench: --vms-per-host must be 0 or more and --hosts-per-segment 1 or more")
    return Layout(vms_per_host=args.vms_per_host, hosts_per_segment=args.hosts_per_segment)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--hosts", type=int, default=1000, help="number of ESXi hosts (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="seed for where problems are planted (default 1)")
    add_layout_arguments(parser)
    parser.add_argument("--output", "-o", type=Path, required=True, help="snapshot JSON file to write")
    args = parser.parse_args(argv)
    if args.hosts < 1:
        parser.error("--hosts must be at least 1")
    site = make_site(args.hosts, args.seed, layout_from(args))
    write_site(site, args.output)
    kinds = {kind: sum(1 for k in site.planted.values() if k == kind) for kind in PROBLEM_KINDS}
    print(
        f"{args.output}: {len(site.snapshot.esxi_hosts)} hosts, {len(site.snapshot.switches)} switches, "
        f"planted {kinds}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
