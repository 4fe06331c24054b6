"""Interface and device name normalisation used by the join."""

import pytest

from hostlint import names


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
