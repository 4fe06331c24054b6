"""KVM collector parsers on real captures (fixtures/kvm/) and on lldpd / OVS / libvirt text."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from hostlint.collect.kvm.bonding import BondingParseError, parse_bonding
from hostlint.collect.kvm.libvirt_facts import parse_domain, parse_network
from hostlint.collect.kvm.lldp import parse_lldpctl_json
from hostlint.collect.kvm.ovs import OvsParseError, parse_bond_ports, parse_bridge_ports, parse_ovs_bonds
from hostlint.collect.kvm.runner import batch_script, parse_batch
from hostlint.collect.kvm.sysfs import parse_vlan_config, pci_address

KVM = Path(__file__).parent.parent / "fixtures" / "kvm"
BONDING = KVM / "bonding"


def _bond(sample: str):
    return parse_bonding("bond0", (BONDING / sample).read_text())


def test_802_3ad_negotiated() -> None:
    bond = _bond("802.3ad-negotiated")
    assert (bond.mode, bond.xmit_hash_policy, bond.lacp_rate, bond.miimon) == ("802.3ad", "layer3+4", "fast", 100)
    assert (bond.active_aggregator_id, bond.partner_mac) == (1, "00:1e:49:a7:3c:01")
    assert [(m.name, m.link_up, m.speed_mbps, m.duplex, m.aggregator_id, m.partner_mac) for m in bond.members] == [
        ("eth0", True, 10000, "full", 1, "00:1e:49:a7:3c:01"),
        ("eth1", True, 10000, "full", 1, "00:1e:49:a7:3c:01"),
    ]


def test_802_3ad_without_partner_shows_zero_mac_and_split_aggregators() -> None:
    bond = _bond("802.3ad-no-partner")
    assert (bond.mode, bond.xmit_hash_policy, bond.lacp_rate) == ("802.3ad", "layer2+3", "slow")
    assert bond.partner_mac == "00:00:00:00:00:00"
    assert [m.aggregator_id for m in bond.members] == [1, 2]
    assert {m.partner_mac for m in bond.members} == {"00:00:00:00:00:00"}


def test_802_3ad_members_facing_two_partners() -> None:
    bond = _bond("802.3ad-two-aggregators")
    assert (bond.active_aggregator_id, bond.partner_mac) == (1, "00:1e:49:a7:3c:0a")
    assert [(m.name, m.aggregator_id, m.partner_mac) for m in bond.members] == [
        ("eth4", 1, "00:1e:49:a7:3c:0a"),
        ("eth5", 2, "00:1e:49:b1:52:0b"),
    ]


def test_active_backup() -> None:
    bond = _bond("active-backup")
    assert (bond.mode, bond.xmit_hash_policy, bond.lacp_rate, bond.partner_mac) == ("active-backup", None, None, None)
    assert [(m.name, m.link_up, m.aggregator_id) for m in bond.members] == [("eth6", True, None), ("eth7", True, None)]


def test_balance_xor() -> None:
    bond = _bond("balance-xor")
    assert (bond.mode, bond.xmit_hash_policy, bond.active_aggregator_id) == ("balance-xor", "layer2+3", None)
    assert [m.name for m in bond.members] == ["eth8", "eth9"]


def test_down_member_has_no_speed() -> None:
    text = (
        (BONDING / "active-backup")
        .read_text()
        .replace(
            "Slave Interface: eth7\nMII Status: up\nSpeed: 10000 Mbps\nDuplex: full",
            "Slave Interface: eth7\nMII Status: down\nSpeed: Unknown\nDuplex: Unknown",
        )
    )
    member = parse_bonding("bond4", text).members[1]
    assert (member.link_up, member.speed_mbps, member.duplex) == (False, None, None)


@pytest.mark.parametrize(
    ("printed", "mode"),
    [
        ("fault-tolerance (active-backup) (fail_over_mac active)", "active-backup"),
        ("fault-tolerance (active-backup) (fail_over_mac follow)", "active-backup"),
        ("load balancing (round-robin)", "balance-rr"),
    ],
)
def test_bonding_mode_with_the_kernels_suffix(printed: str, mode: str) -> None:
    text = (BONDING / "active-backup").read_text().replace("fault-tolerance (active-backup)", printed)
    bond = parse_bonding("bond4", text)
    assert bond.mode == mode and [m.name for m in bond.members] == ["eth6", "eth7"]


def test_a_mode_that_only_begins_like_a_known_one_is_refused() -> None:
    text = (BONDING / "active-backup").read_text().replace("(active-backup)", "(active-backup)-ish")
    with pytest.raises(BondingParseError, match="unknown bonding mode"):
        parse_bonding("bond4", text)


def test_a_stray_speed_line_without_colon_does_not_overwrite_the_speed() -> None:
    text = (
        (BONDING / "active-backup")
        .read_text()
        .replace(
            "Speed: 10000 Mbps\nDuplex: full\nLink Failure Count: 0\nPermanent HW addr: b2",
            "Speed: 10000 Mbps\nSpeed\nDuplex: full\nLink Failure Count: 0\nPermanent HW addr: b2",
        )
    )
    assert "Speed\nDuplex" in text
    member = parse_bonding("bond4", text).members[1]
    assert (member.speed_mbps, member.duplex) == (10000, "full")


@pytest.mark.parametrize("text", ["", "Bonding Mode: something new\n"])
def test_not_a_bonding_file(text: str) -> None:
    with pytest.raises(BondingParseError, match="bond9"):
        parse_bonding("bond9", text)


def test_lldpctl_json_real_captures() -> None:
    """lldpd 1.0.16 in one namespace hearing another lldpd set up as leaf1 (fixtures/kvm/lldp/)."""
    one = parse_lldpctl_json((KVM / "lldp" / "one-neighbour.json").read_text())
    two = parse_lldpctl_json((KVM / "lldp" / "two-neighbours.json").read_text())
    assert list(one) == ["eno1"] and list(two) == ["eno1", "eno2"]
    assert [(n.protocol, n.device_id, n.system_name, n.port_id, n.mgmt_address) for n in two.values()] == [
        ("lldp", "ca:70:60:b9:5d:6e", "leaf1.lab.example", "Ethernet1", "10.20.0.11"),
        ("lldp", "ca:70:60:b9:5d:6e", "leaf1.lab.example", "Ethernet2", "10.20.0.11"),
    ]
    assert two["eno1"].platform == "Arista Networks EOS version 4.31.2F"


def test_lldpctl_json_one_and_several_neighbours() -> None:
    one = (
        '{"lldp": {"interface": {"eno1": {"via": "LLDP", "chassis": {"leaf1.dc.example": {"id": {"type": "mac", '
        '"value": "00:1e:49:a7:3c:00"}, "mgmt-ip": "10.0.0.11", "descr": "Arista EOS"}}, '
        '"port": {"id": {"type": "ifname", "value": "Ethernet1/11"}, "descr": "to kvm01"}}}}}'
    )
    assert asdict(parse_lldpctl_json(one)["eno1"]) == {
        "protocol": "lldp",
        "device_id": "00:1e:49:a7:3c:00",
        "port_id": "Ethernet1/11",
        "port_description": "to kvm01",
        "system_name": "leaf1.dc.example",
        "mgmt_address": "10.0.0.11",
        "platform": "Arista EOS",
    }
    several = json.dumps(
        {
            "lldp": {
                "interface": [
                    {
                        "eno1": {
                            "via": "LLDP",
                            "chassis": {"id": {"type": "mac", "value": "00:aa:bb:cc:dd:ee"}},
                            "port": {"id": {"type": "local", "value": "526"}, "descr": "ge-0/0/1"},
                        }
                    },
                    {
                        "eno2": {
                            "via": "CDPv2",
                            "chassis": {
                                "cat-a": {"id": {"type": "local", "value": "cat-a"}, "mgmt-ip": ["10.0.0.2", "fe80::1"]}
                            },
                            "port": {"id": {"type": "ifname", "value": "Gi1/0/2"}},
                        }
                    },
                ]
            }
        }
    )
    parsed = parse_lldpctl_json(several)
    assert (parsed["eno1"].device_id, parsed["eno1"].port_id, parsed["eno1"].system_name) == (
        "00:aa:bb:cc:dd:ee",
        "ge-0/0/1",
        None,
    )
    assert (parsed["eno2"].protocol, parsed["eno2"].system_name, parsed["eno2"].mgmt_address) == (
        "cdp",
        "cat-a",
        "10.0.0.2",
    )
    assert parse_lldpctl_json('{"lldp": {}}') == {}


def test_ovs_real_capture() -> None:
    """OVS 3.1 in a namespace: negotiated balance-tcp, SLB, active-backup, LACP without partner."""
    ovs = KVM / "ovs"
    parsed = parse_ovs_bonds((ovs / "bond-show.txt").read_text(), (ovs / "lacp-show.txt").read_text())
    bonds = {b.name: b for b in parsed}
    assert sorted(bonds) == ["bond1", "bond2", "bond3", "bond4", "po1"]
    assert {b.implementation for b in bonds.values()} == {"ovs"}
    negotiated, slb, backup, lonely = (bonds[n] for n in ("bond1", "bond2", "bond3", "bond4"))
    assert (negotiated.mode, negotiated.lacp_rate, negotiated.partner_mac) == (
        "balance-tcp",
        "fast",
        "ca:1a:54:2a:e7:44",
    )
    assert [(m.name, m.link_up, m.partner_mac) for m in negotiated.members] == [
        ("eno1", True, "ca:1a:54:2a:e7:44"),
        ("eno2", True, "ca:1a:54:2a:e7:44"),
    ]
    assert (slb.mode, slb.lacp_rate, slb.partner_mac, [m.name for m in slb.members]) == (
        "balance-slb",
        None,
        None,
        ["eno3", "eno4"],
    )
    assert (backup.mode, [m.link_up for m in backup.members]) == ("active-backup", [True, True])
    assert (lonely.mode, lonely.lacp_rate, lonely.partner_mac) == ("balance-tcp", "slow", "00:00:00:00:00:00")
    assert [(m.name, m.link_up) for m in lonely.members] == [("eno7", False), ("eno8", False)]


def test_ovs_bond_and_lacp_show() -> None:
    bond_show = """---- bond1 ----
bond_mode: balance-tcp
bond may use recirculation: yes, Recirc-ID : 1
lacp_status: negotiated
active member mac: 52:54:00:6b:10:01(eno1)

member eno1: enabled
  active member
  may_enable: true

member eno2: disabled
  may_enable: false

---- bond2 ----
bond_mode: active-backup
lacp_status: off

slave eno3: enabled
  active slave
"""
    lacp_show = """---- bond1 ----
  status: active negotiated
  sys_id: 52:54:00:6b:10:01
  lacp_time: fast

member: eno1: current attached
  port_id: 1
  partner sys_id: 00:1e:49:a7:3c:00

member: eno2: defaulted detached
  partner sys_id: 00:00:00:00:00:00
"""
    tcp, backup = parse_ovs_bonds(bond_show, lacp_show)
    assert (tcp.name, tcp.implementation, tcp.mode, tcp.lacp_rate, tcp.partner_mac) == (
        "bond1",
        "ovs",
        "balance-tcp",
        "fast",
        "00:1e:49:a7:3c:00",
    )
    assert [(m.name, m.link_up, m.partner_mac) for m in tcp.members] == [
        ("eno1", True, "00:1e:49:a7:3c:00"),
        ("eno2", False, "00:00:00:00:00:00"),
    ]
    assert (backup.mode, backup.lacp_rate, [m.name for m in backup.members]) == ("active-backup", None, ["eno3"])


def test_ovs_bridge_ports() -> None:
    bridges = parse_bridge_ports("br-host: bond1 vnet0\nbr-int:\n")
    assert [(b.name, b.members) for b in bridges] == [("br-host", ["bond1", "vnet0"]), ("br-int", [])]


OVSDB_BOND_PORTS = (
    '{"data":[["vnet0",["uuid","9fc6"]],["bond1",["set",[["uuid","ab58"],["uuid","e138"]]]],'
    '["br-host",["uuid","85d1"]]],"headings":["name","interfaces"]}\n'
    '{"data":[[["uuid","e138"],"eno1"],[["uuid","85d1"],"br-host"],[["uuid","9fc6"],"vnet0"],'
    '[["uuid","ab58"],"eno2"]],"headings":["_uuid","name"]}\n'
)


def test_ovsdb_bond_ports_are_bonds_of_unknown_mode() -> None:
    (bond,) = parse_bond_ports(OVSDB_BOND_PORTS)
    assert (bond.name, bond.implementation, bond.mode, bond.lacp_rate, bond.partner_mac) == (
        "bond1",
        "ovs",
        None,
        None,
        None,
    )
    assert [(m.name, m.link_up) for m in bond.members] == [("eno1", None), ("eno2", None)]


@pytest.mark.parametrize("text", ["", OVSDB_BOND_PORTS.splitlines()[0], "not json\n{}\n", '{"data":1}\n{"data":[]}'])
def test_ovsdb_bond_ports_unexpected_output_is_an_error(text: str) -> None:
    with pytest.raises(OvsParseError, match="OVS bond ports not read"):
        parse_bond_ports(text)


def test_libvirt_interface_xml() -> None:
    domain = parse_domain(
        "<domain><name>web01</name><devices>"
        "<interface type='bridge'><mac address='52:54:00:00:00:01'/><source bridge='br0'/><target dev='vnet0'/>"
        "<model type='virtio'/><driver name='vhost' queues='4'/><mtu size='9000'/></interface>"
        "<interface type='network'><source network='default'/></interface>"
        "<interface type='direct'><source dev='bond0.20' mode='bridge'/><model type='rtl8139'/></interface>"
        "</devices></domain>",
        "shutoff",
    )
    assert (domain.name, domain.state) == ("web01", "shutoff")
    first, second, third = domain.interfaces
    assert (first.model, first.source, first.mtu, first.driver, first.queues, first.target) == (
        "virtio",
        "br0",
        9000,
        "vhost",
        4,
        "vnet0",
    )
    assert (second.source_type, second.source, second.model, second.mtu) == ("network", "default", "default", None)
    assert (third.source_type, third.source, third.model) == ("direct", "bond0.20", "rtl8139")
    network = parse_network("<network><name>iso</name><bridge name='virbr1'/><mtu size='9000'/></network>")
    assert (network.forward_mode, network.bridge, network.mtu) == ("isolated", "virbr1", 9000)


def test_vlan_config_and_pci_address() -> None:
    config = "VLAN Dev name\t | VLAN ID\nName-Type: VLAN_NAME_TYPE_RAW_PLUS_VID_NO_PAD\nbond0.20       | 20  | bond0\n"
    assert [(v.name, v.vlan_id, v.parent) for v in parse_vlan_config(config)] == [("bond0.20", 20, "bond0")]
    assert pci_address("/sys/devices/pci0000:00/0000:00:03.0/virtio0") == "0000:00:03.0"
    assert pci_address("/sys/devices/pci0000:3a/0000:3a:00.0/0000:3b:00.1") == "0000:3b:00.1"
    assert pci_address("/sys/devices/virtual/net/br0") is None


def test_batch_script_round_trip_through_sh(tmp_path: Path) -> None:
    """The SSH batch script, run by a real `sh`: odd names, missing files, links and folders."""
    import subprocess

    odd = tmp_path / "it's a file"
    odd.write_text("line1\n\nline3")
    (tmp_path / "link").symlink_to(odd)
    requests = [
        ("file", str(odd)),
        ("file", str(tmp_path / "missing")),
        ("link", str(tmp_path / "link")),
        ("link", str(tmp_path / "nolink")),
        ("dir", str(tmp_path)),
        ("dir", str(tmp_path / "nodir")),
    ]
    token = "@@hostlint-test"
    out = subprocess.run(["sh", "-s"], input=batch_script(token, requests), capture_output=True, text=True).stdout
    reads = parse_batch(token, requests, out)
    assert reads.files == {str(odd): "line1\n\nline3", str(tmp_path / "missing"): None}
    assert reads.links == {str(tmp_path / "link"): str(odd), str(tmp_path / "nolink"): None}
    assert reads.dirs == {str(tmp_path): ["it's a file", "link"], str(tmp_path / "nodir"): None}


def test_ssh_options_reach_the_libvirt_uri() -> None:
    from hostlint.collect.kvm.libvirt_uri import ssh_libvirt_uri

    assert ssh_libvirt_uri("root@kvm01") == "qemu+ssh://root@kvm01/system?no_tty=1"
    options = ["Port=2222", "IdentityFile=/keys/id ed25519", "UserKnownHostsFile=/etc/hl/known", "LogLevel=ERROR"]
    assert ssh_libvirt_uri("kvm01", options) == (
        "qemu+ssh://kvm01:2222/system?no_tty=1&keyfile=%2Fkeys%2Fid%20ed25519&known_hosts=%2Fetc%2Fhl%2Fknown"
    )
    assert ssh_libvirt_uri("ops@2001:db8::5", ["port=22", "StrictHostKeyChecking=no"]) == (
        "qemu+ssh://ops@[2001:db8::5]:22/system?no_tty=1"
    )


@pytest.mark.parametrize("options", [["Port"], ["=x"], ["Port=ssh"], ["Port=70000"]])
def test_bad_ssh_options_are_refused(options: list[str]) -> None:
    from hostlint.collect.kvm.libvirt_uri import SshOptionError, ssh_libvirt_uri

    with pytest.raises(SshOptionError, match="--ssh-option"):
        ssh_libvirt_uri("kvm01", options)
