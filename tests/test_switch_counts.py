"""Issue 24: the record count counts what hostlint reads, and the parser defects it found.

Every sample here is written for this test in the format of the vendor's
documentation (Cisco IOS/IOS-XE and NX-OS command references, Arista EOS User
Manual); none is a copy of a capture. Each goes through `parse_output`
(template and record count) and `build_switch`.
"""

from __future__ import annotations

import re

import pytest

from hostlint.collect.switches import Device, load_platform
from hostlint.collect.switches.assemble import build_switch
from hostlint.collect.switches.counts import RecordCount, shortfalls
from hostlint.collect.switches.kinds import is_channel, is_port, is_read
from hostlint.collect.switches.parse import Parsed, parse_output


def _switch(platform: str, outputs: dict[str, str]):
    """The switch built from these commands' outputs, and every collection error (parse and assembly)."""
    specs = {c.command: c for c in load_platform(platform).commands}
    sections: dict[str, Parsed] = {}
    commands: dict[str, str] = {}
    for command, text in outputs.items():
        spec = specs[command]
        sections.setdefault(spec.section, Parsed()).merge(parse_output(spec, text, "sw"))
        commands.setdefault(spec.section, command)
    switch, warnings = build_switch(Device(name="sw", hostname="192.0.2.1", platform=platform), sections, commands)
    return switch, [w for p in sections.values() for w in p.warnings] + warnings


def _ports(switch):
    return {p.name: p for p in switch.ports}


# Interface kinds ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "read"),
    [
        ("GigabitEthernet1/0/1", True),
        ("Ethernet1/45", True),
        ("Port-channel10", True),
        ("ae0", True),
        ("xe-0/0/2", True),
        ("Vlan20", False),
        ("nve1", False),
        ("Tunnel1", False),
        ("Loopback0", False),
        ("pseudowire100", False),
        ("Vxlan1", False),
        ("GigabitEthernet0/0/1.100", False),
        ("Port-channel10.200", False),
        ("xe-0/0/2.0", False),
    ],
)
def test_only_ports_and_channels_are_read(name, read):
    assert is_read(name) is read
    assert not (is_port(name) and is_channel(name))


def test_an_unknown_only_kind_in_a_spec_is_refused():
    with pytest.raises(ValueError, match="ports-and-channels"):
        RecordCount.from_spec({"group": "interfaces", "what": "interfaces", "start": "^x", "only": "svis"})


# IOS / IOS-XE show interfaces ---------------------------------------------------------------------

# An L3 Catalyst/ISR: a port at 100 Mb/s whose duplex/speed line ends the line, a subinterface, a
# port down with `Auto-duplex, Auto Speed, 100BaseTX/FX`, an SVI with `, Autostate Enabled`, a
# pseudowire (no line protocol), a tunnel and a loopback, each with a description or MTU that must
# stay theirs, and a port after them all.
IOS_L3 = """\
GigabitEthernet1/0/1 is up, line protocol is up (connected)
  Hardware is Gigabit Ethernet, address is 00a3.8e4c.1a81 (bia 00a3.8e4c.1a81)
  Description: esx02 vmnic0
  MTU 1500 bytes, BW 100000 Kbit/sec, DLY 100 usec,
     reliability 255/255, txload 1/255, rxload 1/255
  Encapsulation ARPA, loopback not set
  Full-duplex, 100Mb/s
  input flow-control is off, output flow-control is unsupported
GigabitEthernet0/0/1.100 is up, line protocol is up
  Hardware is ISR4331-3x1GE, address is 00a3.8e4c.1b01 (bia 00a3.8e4c.1b01)
  Description: tenant-a
  Internet address is 192.0.2.1/30
  MTU 1500 bytes, BW 1000000 Kbit/sec, DLY 10 usec,
  Encapsulation 802.1Q Virtual LAN, Vlan ID  100.
FastEthernet0/1/1 is administratively down, line protocol is down
  Hardware is FastEthernet, address is 00a3.8e4c.1b11 (bia 00a3.8e4c.1b11)
  MTU 1500 bytes, BW 100000 Kbit/sec, DLY 100 usec,
  Auto-duplex, Auto Speed, 100BaseTX/FX
Vlan1 is administratively down, line protocol is down , Autostate Enabled
  Hardware is Ethernet SVI, address is 00a3.8e4c.1ac0 (bia 00a3.8e4c.1ac0)
  Description: unused default vlan
  MTU 1500 bytes, BW 1000000 Kbit/sec, DLY 10 usec,
pseudowire100 is up
  Description: l2vpn to pe2
  MTU 1500 bytes, BW 10000000 Kbit/sec, DLY 0 usec,
  Encapsulation mpls
Tunnel1 is up, line protocol is up
  Hardware is Tunnel
  Description: gre to branch
  MTU 9976 bytes, BW 100 Kbit/sec, DLY 50000 usec,
  Tunnel source 198.51.100.1, destination 198.51.100.2
Loopback0 is up, line protocol is up
  Hardware is Loopback
  MTU 1514 bytes, BW 8000000 Kbit/sec, DLY 5000 usec,
GigabitEthernet1/0/2 is up, line protocol is up (connected)
  Hardware is Gigabit Ethernet, address is 00a3.8e4c.1a82 (bia 00a3.8e4c.1a82)
  MTU 9198 bytes, BW 1000000 Kbit/sec, DLY 10 usec,
  Full-duplex, 1000Mb/s, media type is 10/100/1000BaseTX
"""


def test_ios_svis_tunnels_subinterfaces_and_pseudowires_are_no_error_and_lend_nothing():
    switch, errors = _switch("cisco_ios", {"show interfaces": IOS_L3})
    assert errors == []
    ports = _ports(switch)
    assert sorted(ports) == ["FastEthernet0/1/1", "GigabitEthernet1/0/1", "GigabitEthernet1/0/2"]
    # `Full-duplex, 100Mb/s` ending the line keeps both.
    assert (ports["GigabitEthernet1/0/1"].speed_mbps, ports["GigabitEthernet1/0/1"].duplex) == (100, "full")
    # The SVI's description after it is the SVI's, not this port's; the pseudowire's not the SVI's.
    assert ports["FastEthernet0/1/1"].description is None
    assert ports["FastEthernet0/1/1"].status == "disabled"
    assert (ports["GigabitEthernet1/0/2"].description, ports["GigabitEthernet1/0/2"].mtu) == (None, 9198)


def test_ios_a_port_header_the_template_cannot_read_is_still_an_error():
    text = IOS_L3 + "GigabitEthernet1/0/3 is in a state of its own\n  MTU 1500 bytes, BW 1000000 Kbit/sec,\n"
    _, errors = _switch("cisco_ios", {"show interfaces": text})
    assert errors == [
        "sw: show interfaces: 1 of 4 interfaces not parsed (GigabitEthernet1/0/3); their facts stay unknown"
    ]


def test_ios_a_speed_shown_and_not_read_is_named_as_speed():
    text = IOS_L3.replace("  Full-duplex, 100Mb/s\n", "  Full-duplex, 100Mb/s; see note\n")
    _, errors = _switch("cisco_ios", {"show interfaces": text})
    assert errors == [
        "sw: show interfaces: duplex shown but not parsed for 1 of 3 interfaces (GigabitEthernet1/0/1); "
        "it stays unknown",
        "sw: show interfaces: speed shown but not parsed for 1 of 3 interfaces (GigabitEthernet1/0/1); "
        "it stays unknown",
    ]


# NX-OS show interface -----------------------------------------------------------------------------

# A Nexus leaf: a member whose port-channel is shut (`Channel admin down`, `admin state is up`), a port
# shut itself, SVIs in the three header forms, nve1 (`MTU 9216 bytes` alone), a tunnel (older
# `Admin State:` form, deeper indent), a loopback, a subinterface, then the port-channel and a port.
NXOS_LEAF = """\
Ethernet1/44 is up
admin state is up, Dedicated Interface
  Hardware: 100/1000/10000/25000 Ethernet, address: 00fe.c8a1.2c2b (bia 00fe.c8a1.2c2b)
  Description: esx03 vmnic1
  MTU 9216 bytes, BW 10000000 Kbit , DLY 10 usec
  Port mode is trunk
  full-duplex, 10 Gb/s, media type is 10G

Ethernet1/45 is down (Channel admin down)
admin state is up, Dedicated Interface
  Belongs to Po45
  Hardware: 100/1000/10000/25000 Ethernet, address: 00fe.c8a1.2c2c (bia 00fe.c8a1.2c2c)
  Description: esx04 vmnic0     Te1/0/45
  MTU 9216 bytes, BW 10000000 Kbit , DLY 10 usec
  Port mode is trunk
  auto-duplex, auto-speed

Ethernet1/46 is down (Administratively down)
admin state is down, Dedicated Interface
  Hardware: 100/1000/10000/25000 Ethernet, address: 00fe.c8a1.2c2d (bia 00fe.c8a1.2c2d)
  MTU 1500 bytes, BW 10000000 Kbit , DLY 10 usec
  auto-duplex, auto-speed

Vlan1 is down (Administratively down), line protocol is down, autostate enabled
  Hardware is EtherSVI, address is  00fe.c8a1.2c07
  Description: default vlan
  MTU 1500 bytes, BW 1000000 Kbit, DLY 10 usec,

Vlan20 is down (VLAN/BD is down), line protocol is down
  Hardware is EtherSVI, address is  00fe.c8a1.2c07
  Description: storage svi
  MTU 9000 bytes, BW 1000000 Kbit, DLY 10 usec,

Vlan30 is up, line protocol is up, autostate enabled
  Hardware is EtherSVI, address is  00fe.c8a1.2c07
  MTU 9000 bytes, BW 1000000 Kbit, DLY 10 usec,

nve1 is up
admin state is up,  Hardware: NVE
  MTU 9216 bytes
  Encapsulation VXLAN

Tunnel1 is up
    Admin State: up
    Internet address is 203.0.113.1/30
    MTU 1476 bytes, BW 9 Kbit
    Tunnel protocol/transport GRE/IP

loopback0 is up
admin state is up,
  Hardware: Loopback
  MTU 1500 bytes, BW 8000000 Kbit, DLY 5000 usec

Ethernet1/47.100 is up
admin state is up, Dedicated Interface
  Description: tenant-b
  MTU 1500 bytes, BW 10000000 Kbit, DLY 10 usec

port-channel45 is down (Administratively down)
admin state is down
  Hardware: Port-Channel, address: 00fe.c8a1.2c2c (bia 00fe.c8a1.2c2c)
  Description: esx04 bond
  MTU 9216 bytes, BW 100000 Kbit , DLY 10 usec
  Members in this channel: Eth1/45

Ethernet1/48 is up
admin state is up, Dedicated Interface
  Hardware: 100/1000/10000/25000 Ethernet, address: 00fe.c8a1.2c2f (bia 00fe.c8a1.2c2f)
  MTU 9216 bytes, BW 10000000 Kbit , DLY 10 usec
  full-duplex, 10 Gb/s, media type is 10G
"""


def test_nxos_svis_nve_tunnels_and_subinterfaces_are_no_error_and_lend_nothing():
    switch, errors = _switch("cisco_nxos", {"show interface": NXOS_LEAF})
    assert errors == []
    ports = _ports(switch)
    assert sorted(ports) == ["Ethernet1/44", "Ethernet1/45", "Ethernet1/46", "Ethernet1/48"]
    assert ports["Ethernet1/46"].description is None  # Vlan1's description after it is Vlan1's
    assert ports["Ethernet1/45"].description == "esx04 vmnic0     Te1/0/45"  # free text, spaces kept
    assert [c.name for c in switch.port_channels] == ["Port-channel45"]


def test_nxos_channel_admin_down_with_admin_state_up_is_down_not_disabled():
    switch, _ = _switch("cisco_nxos", {"show interface": NXOS_LEAF})
    ports = _ports(switch)
    assert ports["Ethernet1/45"].status == "down"
    assert ports["Ethernet1/46"].status == "disabled"


def test_nxos_channel_admin_down_without_an_admin_state_line_is_down():
    text = "Ethernet1/45 is down (Channel admin down)\n  Belongs to Po45\n  MTU 9216 bytes, BW 10000000 Kbit\n"
    switch, errors = _switch("cisco_nxos", {"show interface": text})
    assert errors == []
    assert _ports(switch)["Ethernet1/45"].status == "down"


# EOS ----------------------------------------------------------------------------------------------

# EOS 4.26+ interface profiles (EOS User Manual, "Interface Profiles"): `interface profile NAME` holds
# `command ...` lines to apply to interfaces; it is no interface.
EOS_CONFIG = """\
hostname eos9
!
interface profile UPLINKS
   command description uplink
   command switchport mode trunk
!
interface Ethernet1
   description esx01 vmnic0
   switchport trunk allowed vlan 10,20
   switchport mode trunk
   profile UPLINKS
!
interface Vlan20
   mtu 9000
   ip address 10.0.20.2/24
!
interface Vxlan1
   vxlan source-interface Loopback1
   vxlan vlan 20 vni 10020
!
"""

EOS_INTERFACES = """\
Ethernet1 is up, line protocol is up (connected)
  Hardware is Ethernet, address is 5254.00aa.0001 (bia 5254.00aa.0001)
  Description: esx01 vmnic0
  Ethernet MTU 9214 bytes , BW 10000000 kbit
  Full-duplex, 10Gb/s, auto negotiation: off, uni-link: n/a
Ethernet5.100 is up, line protocol is up (connected)
  Hardware is Subinterface, address is 5254.00aa.0005
  Description: tenant-c
  IP MTU 1500 bytes
Vlan20 is up, line protocol is up (connected)
  Hardware is Vlan, address is 5254.00aa.0000 (bia 5254.00aa.0000)
  Description: storage
  IP MTU 9000 bytes (default)
Vxlan1 is up, line protocol is up (connected)
  Hardware is Vxlan
  Source interface is Loopback1 and is active with 10.0.0.1
Loopback1 is up, line protocol is up (connected)
  Hardware is Loopback
  IP MTU 65535 bytes
"""


def test_eos_interface_profiles_svis_and_vxlan_are_no_error():
    switch, errors = _switch("arista_eos", {"show running-config": EOS_CONFIG, "show interfaces": EOS_INTERFACES})
    assert errors == []
    port = _ports(switch)["Ethernet1"]
    assert (port.description, port.mode, port.allowed_vlans) == ("esx01 vmnic0", "trunk", [(10, 10), (20, 20)])
    assert sorted(_ports(switch)) == ["Ethernet1"]


# IOS show lldp neighbors --------------------------------------------------------------------------

# Port IDs ending in digits (`24`, `Gi0/0/1`): a row must never run into the next one.
IOS_LLDP_DETAIL = """\
------------------------------------------------
Chassis id: 0011.2233.4401
Port id: 24
System Name: edge-sw7

------------------------------------------------
Chassis id: 5254.0012.3402
Port id: 5254.0012.3402
System Name: kvm02.lab.example.net

------------------------------------------------
Chassis id: 0011.2233.4403
Port id: Gi0/0/1
System Name: pbx-gw1

------------------------------------------------

Total entries displayed: 3
"""

IOS_LLDP_TABLE = """\

Capability codes:
    (R) Router, (B) Bridge, (T) Telephone, (C) DOCSIS Cable Device
    (W) WLAN Access Point, (P) Repeater, (S) Station, (O) Other

Device ID           Local Intf     Hold-time  Capability      Port ID
edge-sw7            Gi1/0/7        120        B               24
kvm02.lab.example.neGi1/0/8        104        B,W,R,S         5254.0012.3402
pbx-gw1             Gi1/0/9        91         T               Gi0/0/1

Total entries displayed: 3

"""


def test_ios_lldp_table_rows_ending_in_digits_stay_apart_and_place_every_neighbour():
    outputs = {"show lldp neighbors detail": IOS_LLDP_DETAIL, "show lldp neighbors": IOS_LLDP_TABLE}
    switch, errors = _switch("cisco_ios", outputs)
    assert errors == []
    assert {p.name: [(n.system_name, n.port_id) for n in p.neighbours] for p in switch.ports} == {
        "GigabitEthernet1/0/7": [("edge-sw7", "24")],
        "GigabitEthernet1/0/8": [("kvm02.lab.example.net", "5254.0012.3402")],
        "GigabitEthernet1/0/9": [("pbx-gw1", "Gi0/0/1")],
    }


def test_ios_lldp_table_disabled_or_empty_is_no_error():
    for text in ("% LLDP is not enabled\n", IOS_LLDP_TABLE.split("Device ID")[0] + "Total entries displayed: 0\n"):
        _, errors = _switch("cisco_ios", {"show lldp neighbors": text})
        assert errors == [], text


def test_ios_lldp_table_row_the_template_cannot_read_is_counted():
    table = IOS_LLDP_TABLE.replace("pbx-gw1             Gi1/0/9        91 ", "pbx-gw1             Gi1/0/9        -- ")
    _, errors = _switch("cisco_ios", {"show lldp neighbors": table})
    assert len(errors) == 1
    assert re.fullmatch(r"sw: show lldp neighbors: 1 of 3 neighbour rows not parsed \(pbx-gw1 .*\); .*", errors[0])


# IOS show switch ----------------------------------------------------------------------------------

# A member provisioned (`switch 3 provision ...`) but not in the stack: no MAC, no H/W version.
IOS_STACK = """\
Switch/Stack Mac Address : 00a3.8e4c.1a80 - Local Mac Address
Mac persistency wait time: Indefinite
                                             H/W   Current
Switch#   Role    Mac Address     Priority Version  State
-------------------------------------------------------------
*1       Active   00a3.8e4c.1a80     15     V05     Ready
 2       Standby  00a3.8e4c.2c80     14     V05     Ready
 3       Member   0000.0000.0000     0              Provisioned
"""


def test_ios_show_switch_keeps_provisioned_members():
    parsed = parse_output(_spec("cisco_ios", "show switch"), IOS_STACK, "sw")
    assert parsed.warnings == []
    assert [(m["number"], m["state"]) for m in parsed.get("members")] == [
        ("1", "Ready"),
        ("2", "Ready"),
        ("3", "Provisioned"),
    ]


def test_ios_show_switch_member_row_not_read_is_an_error():
    text = IOS_STACK.replace(
        " 2       Standby  00a3.8e4c.2c80     14     V05     Ready", " 2       Standby  00a3.8e4c.2c80     V05"
    )
    parsed = parse_output(_spec("cisco_ios", "show switch"), text, "sw")
    assert parsed.warnings == ["sw: show switch: 1 of 3 stack members not parsed (2); their facts stay unknown"]


def _spec(platform: str, command: str):
    return next(c for c in load_platform(platform).commands if c.command == command)


# IOS show version ---------------------------------------------------------------------------------

CLASSIC_12 = """\
Cisco Internetwork Operating System Software
IOS (tm) C3550 Software (C3550-IPSERVICESK9-M), Version 12.2(44)SE6, RELEASE SOFTWARE (fc1)
Copyright (c) 1986-2009 by cisco Systems, Inc.

sw-old uptime is 3 years, 2 weeks, 1 day, 4 hours, 9 minutes
cisco WS-C3550-24 (PowerPC) processor (revision L0) with 65526K/8192K bytes of memory.
"""

XE_DEVELOPMENT = """\
Cisco IOS XE Software, Experimental Version 17.3.20200428:044112 [S2C-build-v173_throttle-BLD 107]
Cisco IOS Software [Amsterdam], Catalyst L3 Switch Software (CAT9K_IOSXE), Experimental Version \
17.3.20200428:044112 [S2C-build-v173_throttle-BLD 107]
Copyright (c) 1986-2020 by Cisco Systems, Inc.

cisco C9300-48P (X86) processor with 1338934K/6147K bytes of memory.
"""

ROUTER_WITHOUT_PROCESSOR = """\
Cisco IOS Software, 2800 Software (C2800NM-ADVIPSERVICESK9-M), Version 15.1(4)M12a, RELEASE SOFTWARE (fc1)
Technical Support: http://www.cisco.com/techsupport

rtr-branch uptime is 5 weeks, 2 days, 3 hours, 1 minute
Cisco 2811 (revision 53.51) with 249856K/12288K bytes of memory.
Processor board ID FTX1234A0BC
"""


@pytest.mark.parametrize(
    ("text", "model", "version"),
    [
        (CLASSIC_12, "WS-C3550-24", "12.2(44)SE6"),
        (XE_DEVELOPMENT, "C9300-48P", "17.3.20200428:044112"),
        (ROUTER_WITHOUT_PROCESSOR, "2811", "15.1(4)M12a"),
    ],
)
def test_ios_show_version_variants_keep_model_and_version(text, model, version):
    switch, errors = _switch("cisco_ios", {"show version": text})
    assert errors == []
    assert (switch.model, switch.os_version) == (model, version)


# Every command has a record count ----------------------------------------------------------------


@pytest.mark.parametrize("platform", ["cisco_ios", "cisco_nxos", "arista_eos", "juniper_junos"])
def test_every_command_that_yields_records_is_counted(platform):
    assert [c.command for c in load_platform(platform).commands if not c.records] == []


# Junos configuration lines: those of the forms hostlint reads are counted; storm control, LACP
# timers, auto-negotiation, interface ranges and logical interfaces (irb, vme) carry nothing a rule
# reads and are not.
JUNOS_CONFIG = """\
set system host-name ex9
set interfaces xe-0/0/1 description "esx09 vmnic0"
set interfaces xe-0/0/1 mtu 9216
set interfaces xe-0/0/1 ether-options auto-negotiation
set interfaces xe-0/0/1 unit 0 family ethernet-switching interface-mode trunk
set interfaces xe-0/0/1 unit 0 family ethernet-switching vlan members [ VM-PROD VMOTION ]
set interfaces xe-0/0/1 unit 0 family ethernet-switching storm-control default
set interfaces xe-0/0/2 ether-options 802.3ad ae0
set interfaces ae0 aggregated-ether-options lacp active
set interfaces ae0 aggregated-ether-options lacp periodic fast
set interfaces ae0 mtu 9216
set interfaces ae0 unit 0 family ethernet-switching interface-mode trunk
set interfaces irb unit 20 family inet address 10.0.20.1/24
set interfaces interface-range HOSTS member xe-0/0/5
set interfaces ge-0/0/12 disable
set vlans VM-PROD vlan-id 100
set vlans VMOTION vlan-id 20
"""


def test_junos_configuration_lines_hostlint_reads_are_counted_and_the_others_not():
    command = "show configuration | display set"
    _, errors = _switch("juniper_junos", {command: JUNOS_CONFIG})
    assert errors == []
    _, errors = _switch("juniper_junos", {command: JUNOS_CONFIG.replace("ae0 mtu 9216", "ae0 mtu jumbo")})
    assert errors == [f"sw: {command}: 1 of 9 interface lines not parsed (ae0); their facts stay unknown"]


# Junos members as the Junos documentation shows them: a standalone switch with no VC ports, a
# member with its neighbour, and one configured but not present.
JUNOS_VC = """\

Virtual Chassis ID: 5c2e.8b4a.0f99
Virtual Chassis Mode: Enabled
                                                Mstr           Mixed Route Neighbor List
Member ID  Status   Serial No    Model          prio  Role      Mode  Mode ID  Interface
0 (FPC 0)  Prsnt    WS3717230101 ex4300-48t      129  Master*      N  VC   1  vcp-255/1/0
1 (FPC 1)  Prsnt    WS3717230102 ex4300-48t      129  Backup       N  VC
2 (FPC 2)  NotPrsnt WS3717230103 ex4300-48t

{master:0}
"""


def test_junos_virtual_chassis_members_without_neighbours_or_absent_are_kept():
    parsed = parse_output(_spec("juniper_junos", "show virtual-chassis"), JUNOS_VC, "sw")
    assert parsed.warnings == []
    assert [(m["number"], m["status"]) for m in parsed.get("members")] == [
        ("0", "Prsnt"),
        ("1", "Prsnt"),
        ("2", "NotPrsnt"),
    ]


EOS_MLAG_DISABLED = """\
MLAG Configuration:
domain-id                          :
local-interface                    :
peer-address                       :             0.0.0.0
peer-link                          :
peer-config                        :

MLAG Status:
state                              :            Disabled
negotiation status                 :
peer-link status                   :
local-int status                   :
system-id                          :   00:00:00:00:00:00
"""


def test_eos_mlag_not_configured_is_no_error_and_no_domain():
    switch, errors = _switch("arista_eos", {"show mlag": EOS_MLAG_DISABLED})
    assert errors == []
    assert switch.multichassis is None


def test_eos_mlag_peer_link_shown_but_not_read_is_named():
    pad = " " * 26
    text = EOS_MLAG_DISABLED.replace(f"domain-id{pad}:", f"domain-id{pad}:  dc9")
    text = text.replace(f"peer-link{pad}:\n", f"peer-link{pad}:  Po10 (via Et47)\n")
    text = text.replace(":            Disabled", ":              Active")
    _, errors = _switch("arista_eos", {"show mlag": text})
    assert errors == ["sw: show mlag: peer link shown but not parsed for 1 of 1 MLAG domains (dc9); it stays unknown"]


def test_ios_load_balance_line_not_read_is_an_error_not_a_silent_unknown():
    text = "EtherChannel Load-Balancing Configuration:\n        src-dst-ip enhanced\n\n"
    _, errors = _switch("cisco_ios", {"show etherchannel load-balance": text})
    assert any("show etherchannel load-balance: 1 of 1 load-balance settings not parsed" in e for e in errors), errors


def test_a_neighbour_on_a_management_port_is_not_counted_one_on_a_switch_port_is():
    entry = """\
----------------------------------------
Device ID:oob-sw1
System Name: oob-sw1

Platform: WS-C2960X-48TS-L, Capabilities: Switch IGMP
Interface: {local}, Port ID (outgoing port): Gi1/0/12
Holdtime: 150 sec
"""
    count = _spec("cisco_nxos", "show cdp neighbors detail").records[0]
    assert shortfalls(count, "show cdp neighbors detail", entry.format(local="mgmt0"), []) == []
    assert shortfalls(count, "show cdp neighbors detail", entry.format(local="Ethernet1/9"), []) == [
        "show cdp neighbors detail: 1 of 1 neighbours not parsed (Ethernet1/9); their facts stay unknown"
    ]
