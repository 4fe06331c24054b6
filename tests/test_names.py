"""Interface and device name normalisation used by the join."""

import pytest

from hostlint import names, switches
from hostlint.fixes.spelling import short_interface


@pytest.mark.parametrize(
    ("short", "long"),
    [
        ("Gi1/0/1", "GigabitEthernet1/0/1"),
        ("GigabitEthernet1/0/1", "GigabitEthernet1/0/1"),
        ("gi1/0/1", "GigabitEthernet1/0/1"),
        ("Te1/1/1", "TenGigabitEthernet1/1/1"),
        ("Eth1/1", "Ethernet1/1"),
        ("Et1", "Ethernet1"),
        ("ethernet1/49/1", "Ethernet1/49/1"),
        ("Po10", "Port-channel10"),
        ("port-channel10", "Port-channel10"),
        ("Port-Channel10", "Port-channel10"),
        ("Fa0/1", "FastEthernet0/1"),
        ("Twe1/0/1", "TwentyFiveGigE1/0/1"),
        ("Hu1/0/49", "HundredGigE1/0/49"),
        ("xe-0/0/1", "xe-0/0/1"),
        ("ae0", "ae0"),
        ("GigabitEthernet 1/0/1", "GigabitEthernet1/0/1"),
    ],
)
def test_interface_long_form(short: str, long: str) -> None:
    assert names.interface(short) == long


def test_interface_keys_match_across_spellings() -> None:
    assert names.interface_key("Gi1/0/1") == names.interface_key("GIGABITETHERNET1/0/1")
    assert names.interface_key("Eth1/1") != names.interface_key("Eth1/11")


@pytest.mark.parametrize(
    ("reported", "key"),
    [
        ("SW1", "sw1"),
        ("sw1.example.net", "sw1"),
        ("nx1.lab.example.net(FDO22310001)", "nx1"),
        ("10.0.0.1", "10.0.0.1"),
    ],
)
def test_device_key(reported: str, key: str) -> None:
    assert names.device_key(reported) == key


@pytest.mark.parametrize(
    ("printed", "canonical"),
    [
        ("lag1", "lag1"),
        ("lag 1", "lag1"),  # AOS-CX configuration: `interface lag 1`
        ("LAG1", "lag1"),
        ("1/1/1", "1/1/1"),  # AOS-CX ports: member/slot/port, no type word
        ("Eth-Trunk 1", "Eth-Trunk1"),
        ("BAGG10", "Bridge-Aggregation10"),
        ("Route-Aggregation1", "Route-Aggregation1"),
        ("Trk2", "Trk2"),
    ],
)
def test_other_vendors_channel_and_port_forms(printed: str, canonical: str) -> None:
    assert names.interface(printed) == canonical


@pytest.mark.parametrize(
    ("name", "channel"),
    [
        ("Port-channel10", True),
        ("ae0", True),
        ("lag1", True),
        ("Bridge-Aggregation10", True),
        ("Route-Aggregation1", True),
        ("Eth-Trunk1", True),
        ("Trk1", True),
        ("1/1/1", False),
        ("Ethernet1", False),
        ("xe-0/0/1", False),
        ("GigabitEthernet1/0/1", False),
        ("Port-channel10.100", False),  # a subinterface of the channel, not the channel
        ("lag1.10", False),
        ("track1", False),
    ],
)
def test_a_channel_is_told_by_its_form_not_by_its_platform(name: str, channel: bool) -> None:
    from hostlint.collect.switches.kinds import is_channel, is_port

    assert names.is_channel_name(name) is channel
    assert is_channel(name) is channel
    if channel:
        assert not is_port(name)  # issue 29: AOS-CX `lag1` was taken for a physical port


def test_a_bare_slot_port_name_keeps_its_subinterface_apart() -> None:
    assert names.physical_port("1/1/1.100") == "1/1/1"
    assert names.physical_port("10.1") == "10.1"  # a number with a unit is no port


@pytest.mark.parametrize(
    "name", ["M-GigabitEthernet0/0/0", "MEth0/0/1", "InLoopBack0", "Register-Tunnel0", "Vlanif100", "Vlan-interface100"]
)
def test_other_vendors_management_and_internal_interfaces_are_not_ports(name: str) -> None:
    from hostlint.collect.switches.kinds import is_read

    assert not is_read(name)


@pytest.mark.parametrize(
    ("shown", "canonical", "port"),
    [
        ("XE-0/0/11", "xe-0/0/11", "xe-0/0/11"),
        ("xe-0/0/11.0", "xe-0/0/11.0", "xe-0/0/11"),
        ("AE0.0", "ae0.0", "ae0"),
        ("Et-0/0/48", "et-0/0/48", "et-0/0/48"),
        ("mge-1/0/3.100", "mge-1/0/3.100", "mge-1/0/3"),
    ],
)
def test_junos_forms_come_from_its_folder(shown: str, canonical: str, port: str) -> None:
    """Junos's one-case names and logical units are its folder's (juniper_junos/names.py), read through the
    registry: the central names module holds no Junos pattern of its own."""
    grammar = switches.names("juniper_junos")
    assert grammar is not None and grammar.lower_case and grammar.unit
    assert names.interface(shown) == canonical
    assert names.physical_port(shown) == port
    assert grammar.scriptable(canonical)
    assert grammar.is_channel("ae10") and not grammar.is_channel("xe-0/0/1")


CISCO_LIKE = ("cisco_ios", "cisco_nxos", "arista_eos")


def test_the_cisco_like_abbreviations_come_from_their_folders() -> None:
    """IOS, NX-OS and EOS read one set of abbreviations (their folders' names.py, copied from cisco_like), and
    hostlint reads those wherever a name comes from; no other platform's abbreviations are read so."""
    from hostlint import switches

    grammars = {name: switches.names(name) for name in CISCO_LIKE}
    assert all(g is not None and g.long_everywhere for g in grammars.values())
    assert len({tuple(sorted(g.long.items())) for g in grammars.values() if g is not None}) == 1
    ios = grammars["cisco_ios"]
    assert ios is not None
    for short, long in ios.long.items():
        assert names.interface(f"{short.upper()}1/0/1") == f"{long}1/0/1"
    others = [n for n in switches.SWITCH_NAMES if n not in CISCO_LIKE and switches.names(n) is not None]
    assert others and not any(g.long_everywhere for g in map(switches.names, others) if g is not None)
    assert names.interface("XGE1/0/1") == "XGE1/0/1"  # Comware's and VRP's own, and they differ


@pytest.mark.parametrize(
    ("platform", "shown"),
    [
        ("cisco_ios", ["Gi1/0/1", "Te1/1/1", "Po10", "Ethernet1/1", "Twe1/0/1"]),
        ("cisco_nxos", ["Gi1/0/1", "Te1/1/1", "Po10", "Eth1/1", "Twe1/0/1"]),
        ("arista_eos", ["Gi1/0/1", "Te1/1/1", "Po10", "Et1/1", "Twe1/0/1"]),
    ],
)
def test_a_channel_summary_abbreviates_as_its_platform(platform: str, shown: list[str]) -> None:
    long = ["GigabitEthernet1/0/1", "TenGigabitEthernet1/1/1", "Port-channel10", "Ethernet1/1", "TwentyFiveGigE1/0/1"]
    assert [short_interface(name, platform) for name in long] == shown
    assert short_interface("xe-0/0/1", platform) == "xe-0/0/1"
