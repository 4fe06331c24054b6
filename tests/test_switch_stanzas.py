"""Each interface's own running-configuration lines, verbatim (hostlint.collect.switches.stanzas), on the
collectors' samples of every platform, and what the collected switch keeps of them (config_lines)."""

from __future__ import annotations

import pytest

from hostlint.collect.switches import Device, load_platform, stanzas
from hostlint.collect.switches.assemble import build_switch
from hostlint.collect.switches.parse import Parsed, parse_output


def _sample(platform: str) -> str:
    command = next(c for c in load_platform(platform).commands if c.section == "config")
    return command.template.with_suffix(".txt").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("platform", "name", "lines"),
    [
        (
            "cisco_ios",
            "Port-channel10",
            [
                "description esx01 vSwitch1 ip-hash",
                "switchport trunk allowed vlan 20,100",
                "switchport mode trunk",
                "spanning-tree portfast trunk",
            ],
        ),
        (
            "cisco_nxos",
            "port-channel11",
            [
                "description esx01 vSwitch1 ip-hash",
                "switchport mode trunk",
                "switchport trunk allowed vlan 20,100-110",
                "spanning-tree port type edge trunk",
                "mtu 9216",
                "vpc 11",
            ],
        ),
        (
            "arista_eos",
            "Ethernet20",
            [
                "description kvm01 eno2 (bond0)",
                "mtu 9214",
                "switchport trunk allowed vlan 100-110",
                "switchport mode trunk",
                "channel-group 20 mode active",
            ],
        ),
        (
            "juniper_junos",
            "ae1",
            [
                'set interfaces ae1 description "kvm01 bond0"',
                "set interfaces ae1 mtu 9216",
                "set interfaces ae1 aggregated-ether-options lacp active",
                "set interfaces ae1 aggregated-ether-options lacp periodic fast",
                "set interfaces ae1 unit 0 family ethernet-switching interface-mode trunk",
                "set interfaces ae1 unit 0 family ethernet-switching vlan members VM-PROD",
            ],
        ),
    ],
)
def test_each_interface_keeps_its_own_lines_verbatim_and_in_order(platform: str, name: str, lines: list[str]) -> None:
    found = {key.lower(): value for key, value in stanzas.interface_lines(_sample(platform)).items()}
    assert found[name.lower()] == lines


def test_comments_profiles_and_ranges_belong_to_no_interface() -> None:
    text = (
        "interface profile HOSTS\n   command switchport mode trunk\n!\n"
        "interface Ethernet1\n   description esx01\n   ! a note\n   spanning-tree portfast\n!\n"
        "router bgp 65000\n   neighbor 10.0.0.1 remote-as 65001\n"
    )
    assert stanzas.interface_lines(text) == {"Ethernet1": ["description esx01", "spanning-tree portfast"]}
    junos = (
        "set interfaces interface-range HOSTS member xe-0/0/1\n"
        "set interfaces xe-0/0/1 mtu 9216\n"
        "set vlans A vlan-id 10\n"
    )
    assert stanzas.interface_lines(junos) == {"xe-0/0/1": ["set interfaces xe-0/0/1 mtu 9216"]}


def _switch(platform: str, with_config: bool) -> dict[str, list[str] | None]:
    spec = load_platform(platform)
    sections: dict[str, Parsed] = {}
    commands: dict[str, str] = {}
    config = None
    for command in spec.commands:
        if command.section == "config" and not with_config:
            continue
        sample = command.template.with_suffix(".txt")
        if not sample.is_file():
            continue
        text = sample.read_text(encoding="utf-8")
        commands.setdefault(command.section, command.command)
        sections.setdefault(command.section, Parsed()).merge(parse_output(command, text, "sw1"))
        config = text if command.section == "config" else config
    own = stanzas.interface_lines(config) if config is not None else None
    switch, _ = build_switch(Device(name="sw1", hostname="sw1", platform=platform), sections, commands, own)
    return {item.name: item.config_lines for item in [*switch.ports, *switch.port_channels]}


@pytest.mark.parametrize("platform", ["cisco_ios", "cisco_nxos", "arista_eos", "juniper_junos"])
def test_the_collected_switch_keeps_the_lines_and_says_when_they_were_not_read(platform: str) -> None:
    read = _switch(platform, with_config=True)
    # Every interface has its lines once the configuration was read ([] where it has none) ...
    assert read and all(lines is not None for lines in read.values())
    assert any(lines for lines in read.values())
    # ... and None (left out of the snapshot) where it was not.
    assert all(lines is None for lines in _switch(platform, with_config=False).values())
