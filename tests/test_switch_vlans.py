"""Switch VLANs: allowed lists as the device applies them, access and native VLANs, four platforms."""

from __future__ import annotations

import pytest

from hostlint import vlans
from hostlint.collect.switches import Device, load_platform
from hostlint.collect.switches.assemble import build_switch
from hostlint.collect.switches.counts import shortfalls
from hostlint.collect.switches.parse import Parsed, parse_output
from hostlint.snapshot.switch import Switch


def _config_only(platform: str, config: str) -> tuple[Switch, list[str]]:
    spec = load_platform(platform)
    command = next(c for c in spec.commands if c.section == "config")
    parsed = parse_output(command, config, "sw1")
    assert parsed.warnings == []
    device = Device(name="sw1", hostname="192.0.2.1", platform=platform)
    # The ports as `show interfaces` would list them (a port is known from there, not from the config).
    # The configuration's interface group: `configured` where a folder names its groups apart (Junos).
    group = "configured" if parsed.get("configured") else "interfaces"
    shown = Parsed(records={"interfaces": [{"name": r["name"]} for r in parsed.get(group)]})
    sections = {"config": parsed, "interfaces": shown}
    return build_switch(device, sections, {"config": command.command, "interfaces": "show interfaces"})


def _vlan_view(switch: Switch) -> dict[str, tuple]:
    def allowed(ranges: list | None) -> str | None:
        return vlans.text(ranges) if ranges is not None else None

    found = {p.name: (p.mode, p.access_vlan, p.native_vlan, allowed(p.allowed_vlans)) for p in switch.ports}
    for c in switch.port_channels:
        found[c.name] = (c.switchport, c.access_vlan, c.native_vlan, allowed(c.allowed_vlans))
    return found


@pytest.mark.parametrize(
    ("commands", "expected"),
    [
        (["10,20-30"], "10,20-30"),
        (["10,20-30", "add 31-40,5"], "5,10,20-40"),
        (["1-100", "remove 50-60"], "1-49,61-100"),
        (["except 1,4094"], "2-4093"),
        (["none", "add 7"], "7"),
        (["all"], "1-4094"),
        ([], "1-4094"),
        (["10, 11 ,12"], "10-12"),
        (["add 10"], "1-4094"),
        (["remove 1"], "2-4094"),
    ],
)
def test_allowed_list_commands_apply_in_order(commands, expected):
    assert vlans.text(vlans.apply_commands(commands)) == expected


@pytest.mark.parametrize("bad", ["10-5", "0", "4095", "ten", "10-", "1,,2"])
def test_allowed_list_typos_are_errors(bad):
    with pytest.raises(ValueError):
        vlans.parse_list(bad)


def test_ranges_contain_and_cover():
    allowed = vlans.parse_list("10,20-30")
    assert vlans.contains(allowed, 25) and not vlans.contains(allowed, 19)
    assert vlans.covers(allowed, vlans.parse_list("21-29,10"))
    assert not vlans.covers(allowed, vlans.parse_list("29-31"))
    assert vlans.text([]) == "none"


IOS = """\
hostname sw1
!
interface Port-channel5
 switchport trunk allowed vlan 10,20
 switchport trunk allowed vlan add 30-40
 switchport trunk native vlan 99
 switchport mode trunk
!
interface GigabitEthernet1/0/1
 switchport mode trunk
 channel-group 5 mode active
!
interface GigabitEthernet1/0/2
 switchport mode trunk
!
interface GigabitEthernet1/0/3
 switchport mode access
!
interface GigabitEthernet1/0/4
 switchport access vlan 30
 switchport mode access
!
interface GigabitEthernet1/0/5
 switchport trunk allowed vlan none
 switchport mode trunk
!
interface GigabitEthernet1/0/6
 description no mode line: DTP decides
 switchport trunk allowed vlan 10
!
interface GigabitEthernet1/0/7
 no switchport
 ip address 10.0.0.1 255.255.255.0
!
"""


def test_ios_running_config_vlans_with_documented_defaults():
    switch, warnings = _config_only("cisco_ios", IOS)
    assert warnings == []
    view = _vlan_view(switch)
    assert view["Port-channel5"] == ("trunk", None, 99, "10,20,30-40")
    # Trunk without an allowed line: all VLANs, native 1 (the IOS default), access port without a
    # VLAN line: VLAN 1.
    assert view["GigabitEthernet1/0/2"] == ("trunk", None, 1, "1-4094")
    assert view["GigabitEthernet1/0/3"] == ("access", 1, None, None)
    assert view["GigabitEthernet1/0/4"] == ("access", 30, None, None)
    assert view["GigabitEthernet1/0/5"] == ("trunk", None, 1, "none")
    # No mode configured: the mode is unknown and no default is invented; the configured list is kept.
    assert view["GigabitEthernet1/0/6"] == (None, None, None, "10")
    assert view["GigabitEthernet1/0/7"] == ("routed", None, None, None)


def test_a_broken_allowed_list_is_a_warning_and_stays_unknown():
    switch, warnings = _config_only(
        "cisco_ios", "interface GigabitEthernet1/0/1\n switchport trunk allowed vlan 10-5\n switchport mode trunk\n!\n"
    )
    assert _vlan_view(switch)["GigabitEthernet1/0/1"] == ("trunk", None, 1, None)
    assert len(warnings) == 1 and "GigabitEthernet1/0/1 allowed VLANs" in warnings[0]


NXOS = """\
hostname sw1

interface port-channel11
  switchport mode trunk
  switchport trunk native vlan 5
  switchport trunk allowed vlan 100-110
  switchport trunk allowed vlan add 120

interface Ethernet1/1
  switchport mode trunk
  channel-group 11 mode active

interface Ethernet1/2
  switchport access vlan 20
  switchport mode access
"""

EOS = """\
hostname sw1
!
interface Port-Channel11
   switchport trunk allowed vlan 20,100-110
   switchport trunk allowed vlan remove 105
   switchport mode trunk
!
interface Ethernet11
   channel-group 11 mode active
!
interface Ethernet31
   switchport access vlan 10
!
"""


def test_nxos_and_eos_running_config_vlans():
    nxos, warnings = _config_only("cisco_nxos", NXOS)
    assert warnings == []
    view = _vlan_view(nxos)
    assert view["Port-channel11"] == ("trunk", None, 5, "100-110,120")
    assert view["Ethernet1/2"] == ("access", 20, None, None)
    eos, warnings = _config_only("arista_eos", EOS)
    assert warnings == []
    view = _vlan_view(eos)
    assert view["Port-channel11"] == ("trunk", None, 1, "20,100-104,106-110")
    # An EOS member keeps its own switchport configuration, here EOS's default (access port in VLAN 1):
    # the channel's governs it while bundled, its own while it runs individually (LACP fallback; see the join).
    assert view["Ethernet11"] == ("access", 1, None, None)
    # An access VLAN with no mode line: the mode stays unknown, the VLAN is what was configured.
    assert view["Ethernet31"] == (None, 10, None, None)


JUNOS = """\
set system host-name sw1
set interfaces xe-0/0/0 unit 0 family ethernet-switching interface-mode trunk
set interfaces xe-0/0/0 unit 0 family ethernet-switching vlan members VMOTION
set interfaces xe-0/0/0 unit 0 family ethernet-switching vlan members VM-PROD
set interfaces xe-0/0/0 native-vlan-id 10
set interfaces xe-0/0/1 unit 0 family ethernet-switching port-mode trunk
set interfaces xe-0/0/1 unit 0 family ethernet-switching vlan members [ 300-310 MGMT ]
set interfaces xe-0/0/1 unit 0 family ethernet-switching native-vlan-id 10
set interfaces xe-0/0/2 ether-options 802.3ad ae0
set interfaces ae0 unit 0 family ethernet-switching interface-mode trunk
set interfaces ae0 unit 0 family ethernet-switching vlan members all
set interfaces ge-0/0/11 unit 0 family ethernet-switching interface-mode access
set interfaces ge-0/0/11 unit 0 family ethernet-switching vlan members MGMT
set interfaces ge-0/0/12 unit 0 family ethernet-switching interface-mode trunk
set interfaces ge-0/0/13 unit 0 family ethernet-switching interface-mode trunk
set interfaces ge-0/0/13 unit 0 family ethernet-switching vlan members NO-SUCH-VLAN
set vlans MGMT vlan-id 10
set vlans VM-PROD vlan-id 100
set vlans VMOTION vlan-id 20
"""


def test_junos_vlan_members_by_name_and_native_vlan():
    switch, warnings = _config_only("juniper_junos", JUNOS)
    view = _vlan_view(switch)
    assert view["xe-0/0/0"] == ("trunk", None, 10, "20,100")
    assert view["xe-0/0/1"] == ("trunk", None, 10, "10,300-310")
    assert view["ae0"] == ("trunk", None, 0, "1-4094")
    assert view["ge-0/0/11"] == ("access", 10, None, None)
    # A Junos trunk without members carries no default: unknown. No native-vlan-id: untagged dropped (0).
    assert view["ge-0/0/12"] == ("trunk", None, 0, None)
    assert view["ge-0/0/13"] == ("trunk", None, 0, None)
    assert warnings == [
        "sw1: show configuration | display set: ge-0/0/13 VLAN members: "
        "VLAN 'NO-SUCH-VLAN' is not defined under `vlans` (no vlan-id)"
    ]


@pytest.mark.parametrize("platform", ["cisco_ios", "cisco_nxos", "arista_eos", "juniper_junos"])
def test_samples_beside_the_templates_carry_vlans(platform):
    spec = load_platform(platform)
    sections: dict[str, Parsed] = {}
    for command in spec.commands:
        text = (command.template.parent / f"{command.slug}.txt").read_text(encoding="utf-8")
        sections.setdefault(command.section, Parsed()).merge(parse_output(command, text, "sw1"))
    device = Device(name="sw1", hostname="192.0.2.1", platform=platform)
    switch, warnings = build_switch(device, sections, {c.section: c.command for c in spec.commands})
    assert warnings == []
    trunks = [c for c in switch.port_channels if c.switchport == "trunk" and c.allowed_vlans]
    assert trunks, platform


def test_an_allowed_vlan_line_the_template_misses_is_an_error():
    """The independent count sees the line; a record without the value is reported, so a trunk is
    never silently taken to allow all VLANs."""
    command = next(c for c in load_platform("cisco_ios").commands if c.section == "config")
    count = next(c for c in command.records if c.group == "configured")
    text = "interface GigabitEthernet1/0/1\n switchport trunk allowed vlan 10\n switchport mode trunk\n!\n"
    read = [{"name": "GigabitEthernet1/0/1", "switchport_mode": "trunk", "allowed_vlans": "10"}]
    assert shortfalls(count, command.command, text, read) == []
    missed = [{"name": "GigabitEthernet1/0/1", "switchport_mode": "trunk"}]
    assert shortfalls(count, command.command, text, missed) == [
        "show running-config: allowed vlans shown but not parsed for 1 of 1 interfaces (GigabitEthernet1/0/1); "
        "it stays unknown"
    ]
    # ... and the assembly then applies no "all VLANs" default for that trunk.
    device = Device(name="sw1", hostname="192.0.2.1", platform="cisco_ios")
    sections = {
        "config": Parsed(records={"configured": missed}),
        "interfaces": Parsed(records={"interfaces": [{"name": "GigabitEthernet1/0/1"}]}),
    }
    switch, _ = build_switch(device, sections, {"config": command.command})
    assert _vlan_view(switch)["GigabitEthernet1/0/1"] == ("trunk", None, 1, None)
