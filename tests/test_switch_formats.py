"""Real-world output variants (issue 10), each in a sample written for this test, through parse and assembly.

Every sample here is hand-written in the format seen on real devices; none is a
copy of a capture. Each test goes through `parse_output` (template and record
count) and `build_switch`, and checks the switch hostlint builds and the
collection errors it reports.
"""

from __future__ import annotations

import pytest

from hostlint.collect.switches import Device, load_platform
from hostlint.collect.switches.assemble import build_switch
from hostlint.collect.switches.parse import Parsed, parse_output


def _switch(platform: str, outputs: dict[str, str]):
    """The switch built from these commands' outputs, and every error (parse warnings and assembly)."""
    specs = {c.command: c for c in load_platform(platform).commands}
    sections: dict[str, Parsed] = {}
    commands: dict[str, str] = {}
    for command, text in outputs.items():
        spec = specs[command]
        sections.setdefault(spec.section, Parsed()).merge(parse_output(spec, text, "sw"))
        commands.setdefault(spec.section, command)  # as the runner names a section by its first command
    switch, warnings = build_switch(Device(name="sw", hostname="192.0.2.1", platform=platform), sections, commands)
    return switch, [w for p in sections.values() for w in p.warnings] + warnings


def _ports(switch):
    return {p.name: p for p in switch.ports}


def _channels(switch):
    return {c.name: c for c in switch.port_channels}


# show interfaces -----------------------------------------------------------------------------------

EOS_INTERFACES = """\
Ethernet1 is up, line protocol is up (connected)
  Hardware is Ethernet, address is 5254.00aa.0001 (bia 5254.00aa.0001)
  Description: esx01 vmnic0
  Internet address is 10.1.1.1/31
  Broadcast address is 255.255.255.255
  IP MTU 1500 bytes (default), BW 10000000 kbit
  Full-duplex, 10Gb/s, auto negotiation: off, uni-link: n/a
Ethernet2 is up, line protocol is up (connected)
  Hardware is Ethernet, address is 5254.00aa.0002 (bia 5254.00aa.0002)
  Member of Port-channel10
  Ethernet MTU 9214 bytes , BW 10000000 kbit
  Full-duplex, 10Gb/s, auto negotiation: off, uni-link: n/a
Port-channel10 is up, line protocol is up (connected)
  Hardware is Port-Channel, address is 5254.00aa.0002
  Ethernet MTU 9214 bytes
  Full-duplex, 10Gb/s
Loopback0 is up, line protocol is up (connected)
  Hardware is Loopback
  IP MTU 65535 bytes
"""


def test_eos_ip_mtu_default_and_ethernet_mtu_space_comma_are_read():
    switch, errors = _switch("arista_eos", {"show interfaces": EOS_INTERFACES})
    assert errors == []
    ports = _ports(switch)
    assert (ports["Ethernet1"].mtu, ports["Ethernet2"].mtu) == (1500, 9214)
    assert ports["Ethernet2"].port_channel == "Port-channel10"
    assert _channels(switch)["Port-channel10"].mtu == 9214
    assert "Loopback0" not in ports


def test_junos_mtu_followed_by_mru_is_read_not_defaulted():
    text = """\
Physical interface: xe-0/0/1, Enabled, Physical link is Up
  Interface index: 651, SNMP ifIndex: 517, Generation: 154
  Description: esx02 vmnic1
  Link-level type: Ethernet, MTU: 9114, MRU: 9122, LAN-PHY mode, Speed: 10Gbps, BPDU Error: None, Loopback: None
  Device flags   : Present Running

Physical interface: xe-0/0/2, Enabled, Physical link is Up
  Link-level type: Ethernet, MTU: 1514, MRU: 1522, Speed: 10Gbps, BPDU Error: None, Loopback: None

Physical interface: ge-0/0/3, Administratively down, Physical link is Down
  Link-level type: Ethernet, MTU: 1514, MRU: 1522, Link-mode: Auto, Speed: Auto, BPDU Error: None
"""
    switch, errors = _switch("juniper_junos", {"show interfaces extensive": text})
    assert errors == []
    ports = _ports(switch)
    assert (ports["xe-0/0/1"].mtu, ports["xe-0/0/2"].mtu) == (9100, 1500)  # media MTU less the Ethernet header
    assert (ports["xe-0/0/1"].status, ports["ge-0/0/3"].status) == ("up", "disabled")
    assert ports["xe-0/0/1"].speed_mbps == 10000


def test_iosxe_full_duplex_word_and_mbps_speed():
    text = """\
GigabitEthernet0/0/0 is up, line protocol is up
  Hardware is ISR4331-3x1GE, address is 00a0.c9aa.0001 (bia 00a0.c9aa.0001)
  MTU 1500 bytes, BW 1000000 Kbit/sec, DLY 10 usec,
  Full Duplex, 1000Mbps, link type is auto, media type is RJ45
GigabitEthernet0/0/1 is down, line protocol is down
  MTU 1500 bytes, BW 1000000 Kbit/sec, DLY 10 usec,
  Auto Duplex, Auto Speed, link type is auto, media type is RJ45
"""
    switch, errors = _switch("cisco_ios", {"show interfaces": text})
    assert errors == []
    ports = _ports(switch)
    assert (ports["GigabitEthernet0/0/0"].speed_mbps, ports["GigabitEthernet0/0/0"].duplex) == (1000, "full")
    assert ports["GigabitEthernet0/0/1"].status == "down" and ports["GigabitEthernet0/0/1"].speed_mbps is None


def test_ios_line_protocol_down_suspended_is_down_and_err_disabled_is_named():
    text = """\
GigabitEthernet1/0/5 is up, line protocol is down (suspended)
  MTU 1500 bytes, BW 1000000 Kbit/sec, DLY 10 usec,
  Full-duplex, 1000Mb/s, media type is 10/100/1000BaseTX
GigabitEthernet1/0/6 is down, line protocol is down (err-disabled)
  MTU 1500 bytes, BW 1000000 Kbit/sec, DLY 10 usec,
  Auto-duplex, Auto-speed, media type is 10/100/1000BaseTX
GigabitEthernet1/0/7 is administratively down, line protocol is down (disabled)
  MTU 1500 bytes, BW 1000000 Kbit/sec, DLY 10 usec,
  Auto-duplex, Auto-speed, media type is 10/100/1000BaseTX
"""
    switch, errors = _switch("cisco_ios", {"show interfaces": text})
    assert errors == []
    statuses = {p.name: p.status for p in switch.ports}
    assert statuses == {
        "GigabitEthernet1/0/5": "down",
        "GigabitEthernet1/0/6": "err-disabled",
        "GigabitEthernet1/0/7": "disabled",
    }


def test_nxos_xcvr_not_inserted_with_admin_down_is_disabled():
    text = """\
Ethernet1/49 is down (XCVR not inserted)
admin state is down, Dedicated Interface
  Hardware: 40000/100000 Ethernet, address: 00de.fb00.0149 (bia 00de.fb00.0149)
  MTU 1500 bytes, BW 100000000 Kbit , DLY 10 usec
  auto-duplex, auto-speed
Ethernet1/50 is down (XCVR not inserted)
admin state is up, Dedicated Interface
  MTU 1500 bytes, BW 100000000 Kbit , DLY 10 usec
  auto-duplex, auto-speed
"""
    switch, errors = _switch("cisco_nxos", {"show interface": text})
    assert errors == []
    assert {p.name: p.status for p in switch.ports} == {"Ethernet1/49": "disabled", "Ethernet1/50": "down"}


# No silent partial parse --------------------------------------------------------------------------


def test_interfaces_the_template_cannot_read_are_a_named_error_and_stay_unknown():
    text = """\
TenGigabitEthernet1/1/1 is up, line protocol is up (connected)
  MTU 9000 bytes, BW 10000000 Kbit/sec, DLY 10 usec,
  Full-duplex, 10Gb/s, link type is auto, media type is SFP-10GBase-SR
TenGigabitEthernet1/1/3 is up, line protocol is up (connected)
  MTU 9000 bytes; BW 10000000 Kbit/sec; DLY 10 usec
  Full-duplex, 10Gb/s, link type is auto, media type is SFP-10GBase-SR
"""
    # The second port's MTU line is in a shape the template does not know: the count sees it, the template not.
    switch, errors = _switch("cisco_ios", {"show interfaces": text})
    assert _ports(switch)["TenGigabitEthernet1/1/1"].mtu == 9000
    assert _ports(switch)["TenGigabitEthernet1/1/3"].mtu is None
    assert errors == [
        "sw: show interfaces: mtu shown but not parsed for 1 of 2 interfaces (TenGigabitEthernet1/1/3); "
        "it stays unknown"
    ]


def test_records_the_template_misses_are_counted_and_named():
    # A channel row in a shape the template does not know (no protocol column) is still counted.
    text = """\
Group  Port-channel  Protocol    Ports
------+-------------+-----------+-----------------------------------------------
1      Po1(SU)         LACP      Gi1/0/1(P)  Gi1/0/2(P)
2      Po2(SU)         LACP      Gi1/0/3(P)
3      Po3(SU)
"""
    _, errors = _switch("cisco_ios", {"show etherchannel summary": text})
    assert errors == [
        "sw: show etherchannel summary: 1 of 3 port-channels not parsed (Port-channel3); their facts stay unknown"
    ]


def test_show_version_that_is_not_understood_is_a_note_not_an_error():
    spec = next(c for c in load_platform("cisco_ios").commands if c.command == "show version")
    parsed = parse_output(spec, "Some vendor banner nobody expected\n", "sw")
    assert parsed.warnings == [] and len(parsed.notes) == 1


# Port-channel summaries and member state ---------------------------------------------------------


def test_ios_word_flags_hot_standby_and_tabs_keep_the_channel_and_its_member_states():
    text = (
        "Group  Port-channel  Protocol    Ports\n"
        "------+-------------+-----------+-----------------------------------------------\n"
        "1      Po1(SU)         LACP      Gi1/0/1(P)  Gi5(hot-sby)\n"
        "2\tPo2(SU)\t\tLACP\t Gi1/0/3(bndl) Gi1/0/4(susp)\n"
        "                                 Gi1/0/6(indep) Gi1/0/7(D)\n"
        "3      Po3(SD)          -        Gi1/0/8(s)  Gi1/0/9(I)  Gi1/0/10(w)\n"
    )
    switch, errors = _switch("cisco_ios", {"show etherchannel summary": text})
    assert errors == []
    channels = _channels(switch)
    assert channels["Port-channel1"].members == ["GigabitEthernet1/0/1", "GigabitEthernet5"]
    states = {p.name: p.member_state for p in switch.ports}
    assert states == {
        "GigabitEthernet1/0/1": "bundled",
        "GigabitEthernet5": "hot-standby",
        "GigabitEthernet1/0/3": "bundled",
        "GigabitEthernet1/0/4": "suspended",
        "GigabitEthernet1/0/6": "individual",
        "GigabitEthernet1/0/7": "down",
        "GigabitEthernet1/0/8": "suspended",
        "GigabitEthernet1/0/9": "individual",
        "GigabitEthernet1/0/10": None,  # waiting to be aggregated: not one of the states
    }
    # A bare LACP says neither active nor passive: unknown without the configuration. `-` is static.
    assert (channels["Port-channel1"].mode, channels["Port-channel3"].mode) == (None, "static")
    assert (channels["Port-channel1"].status, channels["Port-channel3"].status) == ("up", "down")
    # Ports known only from the summary: nothing about them was shown by `show interfaces`.
    port = _ports(switch)["GigabitEthernet5"]
    assert (port.status, port.mtu, port.speed_mbps) == (None, None, None)


def test_eos_summary_flags_and_rows_from_the_first_column():
    text = """\
Port-Channel       Protocol    Ports
------------------ ----------- ------------------------------
Po1(U)             LACP(a)     Et1(PG+) Et2(G-) Et3(s)
Po2(D)             LACP(p)     Et4(D)
Po3(U)             Static      Et5(P)
"""
    switch, errors = _switch("arista_eos", {"show port-channel summary": text})
    assert errors == []
    modes = {c.name: c.mode for c in switch.port_channels}
    assert modes == {"Port-channel1": "lacp-active", "Port-channel2": "lacp-passive", "Port-channel3": "static"}
    states = {p.name: p.member_state for p in switch.ports}
    assert states == {
        "Ethernet1": "bundled",
        "Ethernet2": None,
        "Ethernet3": "suspended",
        "Ethernet4": "down",
        "Ethernet5": "bundled",
    }


def test_nxos_summary_member_states():
    text = """\
--------------------------------------------------------------------------------
Group Port-       Type     Protocol  Member Ports
      Channel
--------------------------------------------------------------------------------
10    Po10(SU)    Eth      LACP      Eth1/1(P)    Eth1/2(s)    Eth1/3(I)
                                     Eth1/4(H)    Eth1/5(D)
20    Po20(SD)    Eth      NONE      --
"""
    switch, errors = _switch("cisco_nxos", {"show port-channel summary": text})
    assert errors == []
    assert [p.member_state for p in switch.ports] == ["bundled", "suspended", "individual", "hot-standby", "down"]
    assert _channels(switch)["Port-channel20"].mode == "static"


def test_junos_lacp_mux_state_is_the_member_state():
    text = """\
Aggregated interface: ae1
    LACP state:       Role   Exp   Def  Dist  Col  Syn  Aggr  Timeout  Activity
      xe-0/0/4       Actor    No    No   Yes  Yes  Yes   Yes     Fast    Active
      xe-0/0/4     Partner    No    No   Yes  Yes  Yes   Yes     Fast    Active
      xe-0/0/5       Actor    No   Yes    No   No   No   Yes     Fast    Active
      xe-0/0/5     Partner    No   Yes    No   No   No   Yes     Fast   Passive
      xe-0/0/6       Actor    No    No    No   No   No   Yes     Fast    Active
      xe-0/0/6     Partner    No    No    No   No   No   Yes     Fast    Active
    LACP protocol:        Receive State  Transmit State          Mux State
      xe-0/0/4                  Current   Fast periodic Collecting distributing
      xe-0/0/5            Port disabled     No periodic           Detached
      xe-0/0/6                Defaulted   Fast periodic           Attached

Aggregated interface: ae2
    LACP state:       Role   Exp   Def  Dist  Col  Syn  Aggr  Timeout  Activity
      et-0/0/32      Actor    No    No   Yes  Yes  Yes   Yes     Fast   Passive
    LACP protocol:        Receive State  Transmit State          Mux State
      et-0/0/32                 Current   Fast periodic Collecting distributing
"""
    switch, errors = _switch("juniper_junos", {"show lacp interfaces": text})
    assert errors == []
    assert {p.name: (p.port_channel, p.member_state) for p in switch.ports} == {
        "xe-0/0/4": ("ae1", "bundled"),
        "xe-0/0/5": ("ae1", "down"),
        "xe-0/0/6": ("ae1", "suspended"),
        "et-0/0/32": ("ae2", "bundled"),
    }
    assert {c.name: c.mode for c in switch.port_channels} == {"ae1": "lacp-active", "ae2": "lacp-passive"}


# vPC ----------------------------------------------------------------------------------------------

VPC = """\
vPC domain id                     : 20
Peer status                       : peer adjacency formed ok
vPC keep-alive status             : peer is alive

vPC Peer-link status
---------------------------------------------------------------------
id    Port   Status Active vlans
--    ----   ------ -------------------------------------------------
1     Po1    up     1,100-120

vPC status
----------------------------------------------------------------------------
Id    Port          Status Consistency Reason                Active vlans
--    ------------  ------ ----------- ------                ---------------
11    Po11          up     success     success               100-120
12    Po12          down*  failed      Compatibility check   -
                                       failed for port mode
13    Po13          up     success     success               100,102,104,106,1
                                                             08,110
14    Po14          down*  failed      Type-1 inconsistency  -
"""


def test_nxos_vpc_rows_with_several_word_or_wrapped_reasons_are_all_kept():
    switch, errors = _switch("cisco_nxos", {"show vpc brief": VPC})
    assert errors == []
    ids = {c.name: c.multichassis_id for c in switch.port_channels}
    assert ids == {
        "Port-channel11": 11,
        "Port-channel12": 12,
        "Port-channel13": 13,
        "Port-channel14": 14,
        "Port-channel1": None,
    }
    assert switch.multichassis.peer_link_up is True
    # Channels known only from the vPC table: their mode, MTU and status were not shown.
    channel = _channels(switch)["Port-channel12"]
    assert (channel.mode, channel.mtu, channel.status) == (None, None, None)


def test_vpc_peer_link_state_not_shown_is_unknown():
    text = "vPC domain id                     : 20\nPeer status                       : peer adjacency formed ok\n"
    switch, _errors = _switch("cisco_nxos", {"show vpc brief": text})
    assert switch.multichassis.peer_link_up is None


# Neighbours ---------------------------------------------------------------------------------------


def test_cdp_entry_with_an_empty_port_id_is_kept():
    text = """\
-------------------------
Device ID: SEP00AABBCCDDEE
Entry address(es):
  IP address: 10.20.0.15
Platform: Cisco IP Phone 8845,  Capabilities: Host Phone Two-port Mac Relay
Interface: GigabitEthernet1/0/12,  Port ID (outgoing port):
Holdtime : 161 sec

-------------------------
Device ID: esx03.lab.example.net
Entry address(es):
  IP address: 10.0.0.13
Platform: VMware ESX,  Capabilities: Switch
Interface: GigabitEthernet1/0/13,  Port ID (outgoing port): vmnic2
Holdtime : 171 sec
"""
    switch, errors = _switch("cisco_ios", {"show cdp neighbors detail": text})
    assert errors == []
    neighbours = {p.name: [(n.device_id, n.port_id) for n in p.neighbours] for p in switch.ports}
    assert neighbours == {
        "GigabitEthernet1/0/12": [("SEP00AABBCCDDEE", "")],
        "GigabitEthernet1/0/13": [("esx03.lab.example.net", "vmnic2")],
    }


def test_newer_eos_lldp_detail_several_neighbours_per_port_deeper_indent():
    text = """\
Interface Ethernet7 detected 2 LLDP neighbors:

  Neighbor 0050.5600.0101/"vmnic4", age 14 seconds
  Discovered 2 days, 1:10:00 ago; Last changed 2 days, 1:10:00 ago
    - Chassis ID type: MAC address (4)
      Chassis ID     : 0050.5600.0101
    - Port ID type: Interface name (5)
      Port ID        : "vmnic4"
    - Time To Live: 180 seconds
    - Port Description: "port 12 on dvSwitch dvs-prod"
    - System Name: "esx05.lab.example.net"
    - IEEE802.1/IEEE802.3 Link Aggregation
      Link Aggregation Status: Capable, Disabled (0x01)
      Port ID                : 0

  Neighbor 0050.5600.0202/"vmnic5", age 9 seconds
  Discovered 2 days, 1:10:00 ago; Last changed 2 days, 1:10:00 ago
    - Chassis ID type: MAC address (4)
      Chassis ID     : 0050.5600.0202
    - Port ID type: Interface name (5)
      Port ID        : "vmnic5"
    - System Name: "esx06.lab.example.net"

Interface Ethernet8 detected 0 LLDP neighbors:

Interface Ethernet9 detected 1 LLDP neighbors:

  Neighbor 001c.7300.0009/Ethernet49/1, age 3 seconds
      Chassis ID     : 001c.7300.0009
      Port ID     : "Ethernet49/1"
    - System Name: "spine1"
"""
    switch, errors = _switch("arista_eos", {"show lldp neighbors detail": text})
    assert errors == []
    neighbours = {p.name: [(n.system_name, n.port_id, n.port_description) for n in p.neighbours] for p in switch.ports}
    assert neighbours == {
        "Ethernet7": [
            ("esx05.lab.example.net", "vmnic4", "port 12 on dvSwitch dvs-prod"),
            ("esx06.lab.example.net", "vmnic5", None),
        ],
        "Ethernet9": [("spine1", "Ethernet49/1", None)],
    }


IOS_LLDP_NO_LOCAL = """\
Local Intf: Gi1/0/9
Chassis id: 0011.2233.4477
Port id: ge-0/0/1
System Name: access-x

------------------------------------------------
Chassis id: 0011.2233.4455
Port id: Eth1/6
Port Description: uplink
System Name: core-a

Time remaining: 110 seconds
------------------------------------------------
Chassis id: 0011.2233.4466
Port id: Eth1/6
System Name: a-very-long-core-switch-name.example.net

Time remaining: 98 seconds
------------------------------------------------

Total entries displayed: 3
"""

IOS_LLDP_TABLE = """\
Capability codes:
    (R) Router, (B) Bridge, (T) Telephone, (C) DOCSIS Cable Device
    (W) WLAN Access Point, (P) Repeater, (S) Station, (O) Other

Device ID           Local Intf     Hold-time  Capability      Port ID
access-x            Gi1/0/9        120        B               ge-0/0/1
core-a              Te1/1/1        110        B,R             Eth1/6
a-very-long-core-swiTe1/1/2        98                         Eth1/6

Total entries displayed: 3
"""


def test_ios_lldp_detail_without_local_intf_is_placed_by_the_neighbour_table():
    outputs = {"show lldp neighbors detail": IOS_LLDP_NO_LOCAL, "show lldp neighbors": IOS_LLDP_TABLE}
    switch, errors = _switch("cisco_ios", outputs)
    assert errors == []
    neighbours = {p.name: [(n.system_name, n.port_id) for n in p.neighbours] for p in switch.ports}
    assert neighbours == {
        "GigabitEthernet1/0/9": [("access-x", "ge-0/0/1")],
        "TenGigabitEthernet1/1/1": [("core-a", "Eth1/6")],
        "TenGigabitEthernet1/1/2": [("a-very-long-core-switch-name.example.net", "Eth1/6")],
    }


def test_ios_lldp_detail_without_local_intf_and_no_table_is_named_not_silently_dropped():
    switch, errors = _switch("cisco_ios", {"show lldp neighbors detail": IOS_LLDP_NO_LOCAL})
    assert [p.name for p in switch.ports] == ["GigabitEthernet1/0/9"]
    assert errors == [
        "sw: show lldp neighbors detail: neighbour core-a (port Eth1/6) shows no local port and has no single "
        "row in `show lldp neighbors`; it is not placed",
        "sw: show lldp neighbors detail: neighbour a-very-long-core-switch-name.example.net (port Eth1/6) shows "
        "no local port and has no single row in `show lldp neighbors`; it is not placed",
    ]


# Load balance and show version --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("platform", "command", "text", "hash_"),
    [
        (
            "cisco_ios",
            "show etherchannel load-balance",
            "EtherChannel Load-Balancing Configuration:\n\tsrc-dst-mixed-ip-port\n\n"
            "EtherChannel Load-Balancing Addresses Used Per-Protocol:\nNon-IP: Source XOR Destination MAC address\n",
            "src-dst-ip-port",
        ),
        (
            "cisco_ios",
            "show etherchannel load-balance",
            "EtherChannel Load-Balancing Method:\nGlobal LB Method: flow-based\nLB Algo type: Source Destination IP\n\n"
            "  Port-Channel:                       LB Method\n    Port-channel1                   :  flow-based\n",
            "src-dst-ip",
        ),
        (
            "cisco_nxos",
            "show port-channel load-balance",
            "Port Channel Load-Balancing Configuration:\nSystem: source-dest-ip\n\n"
            "Port Channel Load-Balancing Addresses Used Per-Protocol:\nNon-IP: source-dest-mac\n"
            "IP: source-dest-ip source-dest-mac\n",
            "src-dst-ip",
        ),
        (
            "cisco_nxos",
            "show port-channel load-balance",
            "System config:\n\tNon-IP: src-dst mac\n\tIP: src-dst ip-l4port rotate 0\n",
            "src-dst-ip-port",
        ),
    ],
)
def test_load_balance_formats(platform, command, text, hash_):
    switch, errors = _switch(platform, {command: text})
    assert errors == []
    assert switch.load_balance.hash == hash_


def test_vlan_manual_load_balance_is_an_error_not_a_guess():
    text = "EtherChannel Load-Balancing Method:\nGlobal LB Method: vlan-manual\n"
    switch, errors = _switch("cisco_ios", {"show etherchannel load-balance": text})
    assert switch.load_balance is None
    assert errors == [
        "sw: show etherchannel load-balance: hash: load-balance method 'vlan-manual' is not a flow hash "
        "this collector knows"
    ]


@pytest.mark.parametrize(
    ("platform", "text", "expected"),
    [
        (
            "cisco_nxos",
            "Software\n  NXOS: version 10.4(3) [Maintenance Release]\nHardware\n  cisco Nexus9000 C9336C-FX2 chassis\n",
            ("C9336C-FX2", "10.4(3)"),
        ),
        (
            "cisco_nxos",
            "Software\n  kickstart: version 7.3(8)N1(1)\n  system:    version 7.3(8)N1(1)\nHardware\n"
            '  cisco Nexus 5672UP Chassis ("16 40GE/48 10GE Supervisor")\n',
            ("5672UP", "7.3(8)N1(1)"),
        ),
        (
            "cisco_ios",
            "Cisco IOS Software [Bengaluru], ISR Software (X86_64_LINUX_IOSD-UNIVERSALK9-M), Version 17.6.5, "
            "RELEASE SOFTWARE (fc2)\ncisco ISR4331/K9 (1RU) processor with 1647778K/6147K bytes of memory.\n",
            ("ISR4331/K9", "17.6.5"),
        ),
        (
            "arista_eos",
            "Arista cEOSLab\nHardware version: \nSoftware image version: 4.33.0F-38 (engineering build)\n",
            ("cEOSLab", "4.33.0F-38"),
        ),
        (
            "juniper_junos",
            "fpc0:\n--------\nHostname: ex-old\nModel: ex4200-48t\nJUNOS Base OS boot [12.3R12.4]\n",
            ("ex4200-48t", "12.3R12.4"),
        ),
    ],
)
def test_show_version_variants(platform, text, expected):
    switch, errors = _switch(platform, {"show version": text})
    assert errors == []
    assert (switch.model, switch.os_version) == expected


def test_nxos_lldp_keeps_the_port_description_a_junos_neighbour_names_its_port_by():
    text = """\
Chassis id: 0011.2233.4455
Port id: 527
Local Port id: Eth1/3
Port Description: ge-0/0/3.0
System Name: ex-a
Time remaining: 98 seconds
Management Address: 10.0.0.5

Total entries displayed: 1
"""
    switch, errors = _switch("cisco_nxos", {"show lldp neighbors detail": text})
    assert errors == []
    (neighbour,) = _ports(switch)["Ethernet1/3"].neighbours
    assert (neighbour.port_id, neighbour.port_description, neighbour.system_name) == ("527", "ge-0/0/3.0", "ex-a")
