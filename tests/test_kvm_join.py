"""KVM hosts joined to switches: bonds, their members' switch ports, guest NIC paths; the kvm-bonds lab's fix."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from hostlint.cli.main import cli
from hostlint.join import build_facts
from hostlint.snapshot import CablingEntry, Snapshot, load_site
from hostlint.snapshot.kvm import (
    Bond,
    BondMember,
    Bridge,
    DomainInterface,
    KvmHost,
    LibvirtDomain,
    LibvirtNetwork,
    LinuxInterface,
    Vlan,
)

LAB = Path(__file__).resolve().parent.parent / "fixtures" / "labs" / "kvm-bonds"


def test_lab_bonds_joined_over_lldp() -> None:
    facts = build_facts(load_site([LAB]))
    bonds = {b.object: b for b in facts.bonds}
    xor, lacp = bonds["kvm01.lab.example/bond0"], bonds["kvm02.lab.example/bond0"]
    assert (xor.kind, xor.policy, xor.bridge, xor.channel_ids) == (
        "bond",
        "balance-xor",
        "br0",
        ["leaf1/Port-Channel10"],
    )
    assert [(u.nic, u.via, u.switch, u.port, u.channel_mode) for u in xor.uplinks] == [
        ("eno1", "lldp", "leaf1", "Ethernet1", "lacp-active"),
        ("eno2", "lldp", "leaf1", "Ethernet2", "lacp-active"),
    ]
    assert xor.host_hash_fields == xor.switch_hash_fields == ["src-mac", "dst-mac", "src-ip", "dst-ip"]
    assert (lacp.partner_mac, lacp.aggregator_ids, lacp.outside_aggregator) == (
        "00:00:00:00:00:00",
        [1, 2],
        ["eno2 in aggregator 2"],
    )
    assert {u.object for u in facts.uplinks} >= {"kvm01.lab.example/eno1", "kvm02.lab.example/eno2"}
    assert not facts.unresolved
    nics = {n.object: n for n in facts.guest_nics}
    db01 = nics["kvm01.lab.example/db01/52:54:00:1a:00:01"]
    assert (db01.mtu, db01.path, db01.path_mtu) == (9000, ["br0 1500", "bond0 1500", "eno1 1500", "eno2 1500"], 1500)
    assert {p.object for p in facts.pcie} == {
        "kvm01.lab.example/pci-0000:3b:00",
        "kvm02.lab.example/pci-0000:3b:00",
        "kvm03.lab.example/pci-0000:5e:00",
    }


def _host(**kw) -> KvmHost:
    phys = dict(kind="physical", speed_mbps=10000, duplex="full", operstate="up")
    return KvmHost(
        name="kvm9",
        interfaces=[
            LinuxInterface(name="eno1", mtu=9000, master="bond0", **phys),
            LinuxInterface(name="eno2", mtu=1500, master="bond0", **phys),
            LinuxInterface(name="eno3", mtu=1500, **phys | {"operstate": "down"}),
            LinuxInterface(name="eno4", mtu=1500, **phys),
            LinuxInterface(name="bond0", kind="bond", mtu=9000),
            LinuxInterface(name="bond0.20", kind="vlan", mtu=9000, master="br-stor"),
            LinuxInterface(name="br-stor", kind="bridge", mtu=9000),
            LinuxInterface(name="virbr1", kind="bridge", mtu=9000),
        ],
        bonds=[
            Bond(
                name="bond0",
                mode="active-backup",
                members=[BondMember(name="eno1", link_up=True), BondMember(name="eno2", link_up=True)],
            )
        ],
        bridges=[Bridge(name="br-stor", members=["bond0.20"])],
        vlans=[Vlan(name="bond0.20", parent="bond0", vlan_id=20)],
        networks=[LibvirtNetwork(name="stor", bridge="br-stor"), LibvirtNetwork(name="iso", bridge="virbr1", mtu=9000)],
        domains=[
            LibvirtDomain(
                name="nfs01",
                interfaces=[
                    DomainInterface(
                        mac="52:54:00:00:00:09", model="virtio", source_type="network", source="stor", mtu=9000
                    ),
                    DomainInterface(
                        mac="52:54:00:00:00:0a", model="virtio", source_type="direct", source="eno4", mtu=9000
                    ),
                    DomainInterface(
                        mac="52:54:00:00:00:0b", model="virtio", source_type="network", source="iso", mtu=9000
                    ),
                ],
            )
        ],
        **kw,
    )


def test_paths_through_networks_vlans_bonds_and_macvtap() -> None:
    facts = build_facts(Snapshot(kvm_hosts=[_host()]))
    stor, direct, isolated = facts.guest_nics
    assert (stor.bridge, stor.path, stor.path_mtu) == (
        "br-stor",
        ["br-stor 9000", "bond0.20 9000", "bond0 9000", "eno1 9000", "eno2 1500"],
        1500,
    )
    assert (direct.bridge, direct.path, direct.path_mtu) == (None, ["eno4 1500"], 1500)
    # An isolated network's bridge has no way out: its own MTU is the whole path.
    assert (isolated.path, isolated.path_mtu) == (["virbr1 9000"], 9000)
    bond = facts.bonds[0]
    assert (bond.mtus, bond.member_mtus, bond.upper_mtus) == (
        ["bond0 9000", "eno1 9000", "eno2 1500", "bond0.20 9000"],
        [9000, 1500],
        [9000],
    )
    # Bond members, and physical NICs that are up; a down NIC outside any bridge or bond is not an uplink.
    assert [u.nic for u in facts.uplinks] == ["eno1", "eno2", "eno4"]
    assert {u.object for u in facts.unresolved} == {"kvm9/eno1", "kvm9/eno2", "kvm9/eno4"}


def test_cabling_file_joins_kvm_uplinks_and_unreachable_host_is_skipped() -> None:
    snapshot = Snapshot(
        kvm_hosts=[_host(), KvmHost(name="kvm10", connection_state="unreachable")],
        cabling=[CablingEntry(host="kvm9", nic="eno1", switch="sw1", port="Gi1/0/1")],
    )
    facts = build_facts(snapshot)
    eno1 = next(u for u in facts.uplinks if u.nic == "eno1")
    assert (eno1.via, eno1.switch, eno1.port) == ("cabling", "sw1", "GigabitEthernet1/0/1")
    assert "which is not in the snapshot" in eno1.missing["switch"]
    assert not [f for f in facts.bonds + facts.guest_nics if f.host == "kvm10"]


def test_lab_fix_script_fixes_each_bond_on_one_side(tmp_path: Path) -> None:
    """kvm01's balance-xor bond goes 802.3ad (leaf1 was set up for LACP); kvm02's static channel goes LACP."""
    outcome = CliRunner().invoke(
        cli, ["check", str(LAB), "--unsafe-fixes", "--fix-script", str(tmp_path)], standalone_mode=False
    )
    assert outcome.exception is None, outcome.output
    script = (tmp_path / "leaf1.arista_eos.txt").read_text()
    assert "LG102" not in script and "channel-group 10" not in script
    assert "LG101 kvm02.lab.example/bond0" in script
    assert "interface Ethernet3\n   channel-group 20 mode active" in script
    rollback = (tmp_path / "leaf1.rollback.arista_eos.txt").read_text()
    assert "channel-group 20 mode on" in rollback
    host = (tmp_path / "kvm01.lab.example.nmcli.sh").read_text()
    assert "LG102 kvm01.lab.example/bond0" in host and "mode=802.3ad" in host
    plan = (tmp_path / "PLAN.md").read_text()
    assert "MT101 `kvm01.lab.example/db01/52:54:00:1a:00:01`" in plan


def test_guest_nics_that_share_a_mac_keep_apart() -> None:
    shared, own = "52:54:00:aa:00:01", "52:54:00:aa:00:02"
    domain = LibvirtDomain(
        name="fw01",
        state="running",
        interfaces=[
            DomainInterface(mac=shared, model="virtio", source="br0"),
            DomainInterface(mac=shared, model="e1000e", source="br0"),  # the failover pair's standby
            DomainInterface(mac=own, model="virtio", source="br0"),
            DomainInterface(mac=None, model="virtio", source="br0"),
        ],
    )
    host = KvmHost(name="kvm01", interfaces=[LinuxInterface(name="br0", kind="bridge")], domains=[domain])
    nics = build_facts(Snapshot(kvm_hosts=[host])).guest_nics
    objects = [n.object for n in nics]
    assert objects == [
        f"kvm01/fw01/{shared}#net0",
        f"kvm01/fw01/{shared}#net1",
        f"kvm01/fw01/{own}",  # a MAC of its own stays the id, as before
        "kvm01/fw01/net3",
    ]
    assert [n.model for n in nics] == ["virtio", "e1000e", "virtio", "virtio"]
