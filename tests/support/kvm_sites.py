"""The KVM lab (fixtures/labs/kvm-bonds) and the small KVM site per switch platform that the KVM fix tests
plan for: a balance-xor bond facing an LACP channel, an 802.3ad bond facing a static one, a jumbo guest.

Used by tests/test_fixes_kvm.py (its goldens), the rehearsals and the plan-invariant tests.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hostlint.check import check_snapshot
from hostlint.fixes import build_plan
from hostlint.fixes.plan import Plan
from hostlint.results import CheckResult
from hostlint.rules import load_rules
from hostlint.snapshot import Snapshot, load_site
from hostlint.snapshot.common import Neighbour
from hostlint.snapshot.kvm import (
    Bond,
    BondMember,
    Bridge,
    DomainInterface,
    KvmHost,
    LibvirtDomain,
    LinuxInterface,
)
from hostlint.snapshot.switch import LoadBalance, PortChannel, Switch, SwitchPort
from support.fix_sites import PLATFORMS as FIX_SITES

ROOT = Path(__file__).resolve().parents[2]
LAB = ROOT / "fixtures" / "labs" / "kvm-bonds"

# Per switch platform: how a port and a port-channel are named.
SWITCH_NAMES = {
    "cisco_ios": ("TenGigabitEthernet1/0/{}", "Port-channel{}"),
    "cisco_nxos": ("Ethernet1/{}", "port-channel{}"),
    "arista_eos": ("Ethernet{}", "Port-Channel{}"),
    "juniper_junos": ("xe-0/0/{}", "ae{}"),
}
MODELS: dict[str, str] = {}
# Platforms that came as folders: their names and model from their emulator's SITE (tests/switch_emulator/
# platforms/<platform>.py, read by support.fix_sites), so no table here names them.
for _name, _entry in FIX_SITES.items():
    if _name not in SWITCH_NAMES:
        SWITCH_NAMES[_name] = (str(_entry["port"]), str(_entry["channel"]))
        MODELS[_name] = str(_entry["model"])


def lab() -> Snapshot:
    return load_site([LAB])


def lab_result(snapshot: Snapshot) -> CheckResult:
    return check_snapshot(snapshot, load_rules())


def lab_plan(snapshot: Snapshot, unsafe: bool = True) -> Plan:
    return build_plan(lab_result(snapshot), snapshot, unsafe=unsafe)


# --- a KVM site per switch platform ---------------------------------------------------------------


def _host(name: str, mode: str, ports: tuple[str, str], switch: str, domains: list[LibvirtDomain]) -> KvmHost:
    nics = [
        LinuxInterface(
            name=nic,
            mtu=1500,
            operstate="up",
            speed_mbps=10000,
            duplex="full",
            master="bond0",
            neighbour=Neighbour(protocol="lldp", device_id=switch, port_id=port),
        )
        for nic, port in zip(("eno1", "eno2"), ports, strict=True)
    ]
    lacp = mode == "802.3ad"
    return KvmHost(
        name=name,
        interfaces=[
            *nics,
            LinuxInterface(name="bond0", kind="bond", mtu=1500, operstate="up", master="br0"),
            LinuxInterface(name="br0", kind="bridge", mtu=1500, operstate="up"),
        ],
        bonds=[
            Bond(
                name="bond0",
                mode=mode,
                xmit_hash_policy="layer3+4",
                lacp_rate="fast" if lacp else None,
                miimon=100,
                active_aggregator_id=1 if lacp else None,
                partner_mac="00:00:00:00:00:00" if lacp else None,
                members=[
                    BondMember(
                        name=nic, link_up=True, speed_mbps=10000, duplex="full", aggregator_id=n if lacp else None
                    )
                    for n, nic in enumerate(("eno1", "eno2"), 1)
                ],
            )
        ],
        bridges=[Bridge(name="br0", members=["bond0"])],
        domains=domains,
        vhost_net=True,
    )


# A channel's switchport configuration as collected: a trunk carrying every VLAN, native VLAN 1.
TRUNK_ALL: dict[str, Any] = {"switchport": "trunk", "native_vlan": 1, "allowed_vlans": [(1, 4094)]}


def kvm_site(platform: str) -> Snapshot:
    """kvm01: balance-xor bond facing LACP channel 10, a jumbo guest on its 1500 bridge and an rtl8139
    guest; kvm02: 802.3ad bond facing static channel 20. Both on sw1 of `platform`.
    """
    port, channel = (pattern.format for pattern in SWITCH_NAMES[platform])
    sw1 = Switch(
        name="sw1",
        platform=platform,
        # A model where the platform's fix text depends on the family it names (VRP 5 or 8).
        model=MODELS.get(platform),
        load_balance=LoadBalance(hash="src-dst-ip"),
        ports=[
            SwitchPort(
                name=port(n),
                status="up",
                mode="trunk",
                mtu=9216,
                port_channel=channel(10 if n < 3 else 20),
                # Channel 10 is LACP facing a balance-xor bond: no partner, so not bundled.
                member_state="bundled" if n >= 3 else "individual" if platform == "cisco_ios" else "suspended",
            )
            for n in (1, 2, 3, 4)
        ],
        port_channels=[
            PortChannel(name=channel(n), mode=mode, members=members, mtu=9216, **TRUNK_ALL)
            for n, mode, members in ((10, "lacp-active", [port(1), port(2)]), (20, "static", [port(3), port(4)]))
        ],
    )
    guests = [
        LibvirtDomain(
            name="db01",
            interfaces=[
                DomainInterface(mac="52:54:00:aa:00:01", model="virtio", source="br0", mtu=9000, target="vnet0")
            ],
        ),
        LibvirtDomain(
            name="legacy01",
            interfaces=[DomainInterface(mac="52:54:00:aa:00:02", model="rtl8139", source="br0", target="vnet1")],
        ),
    ]
    kvm01 = _host("kvm01", "balance-xor", (port(1), port(2)), "sw1", guests)
    kvm02 = _host("kvm02", "802.3ad", (port(3), port(4)), "sw1", [])
    return Snapshot(source="test:fixes-kvm", kvm_hosts=[kvm01, kvm02], switches=[sw1])
