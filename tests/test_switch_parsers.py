"""Switch parsers on the captured samples beside each template, and the vendor -> vocabulary tables."""

from __future__ import annotations

import pytest

from hostlint import switches
from hostlint.collect.switches import Device, load_platform
from hostlint.collect.switches import normalise as n
from hostlint.collect.switches.assemble import build_switch
from hostlint.collect.switches.parse import Parsed, parse_output
from hostlint.platforms import SWITCH_NAMES, UnsupportedPlatform, canonical_switch
from hostlint.switches.arista_eos.hashes import HASHES as EOS_HASHES
from hostlint.switches.cisco_ios.hashes import HASHES as IOS_HASHES
from hostlint.switches.cisco_nxos.hashes import HASHES as NXOS_HASHES
from hostlint.switches.juniper_junos.hashes import HASHES as JUNOS_HASHES
from hostlint.vocab import HASH_FIELDS

NAMES = {"cisco_ios": "sw-ios1", "cisco_nxos": "nx1", "arista_eos": "eos1", "juniper_junos": "ex1"}


def _command(platform: str, command: str):
    return next(c for c in load_platform(platform).commands if c.command == command)


def _parse(platform: str, command: str, text: str | None = None) -> Parsed:
    spec = _command(platform, command)
    if text is None:
        text = (spec.template.parent / f"{spec.slug}.txt").read_text(encoding="utf-8")
    parsed = parse_output(spec, text, NAMES.get(platform, platform))
    assert parsed.warnings == []
    return parsed


def _switch(platform: str):
    spec = load_platform(platform)
    sections: dict[str, Parsed] = {}
    for command in spec.commands:
        sections.setdefault(command.section, Parsed()).merge(_parse(platform, command.command))
    device = Device(name=NAMES.get(platform, platform), hostname="192.0.2.1", platform=platform)
    switch, warnings = build_switch(device, sections, {c.section: c.command for c in spec.commands})
    assert warnings == []
    return switch


@pytest.mark.parametrize("platform", SWITCH_NAMES)
def test_every_command_has_a_template_and_a_sample_that_parses(platform):
    spec = load_platform(platform)
    assert spec.commands
    for command in spec.commands:
        assert command.template.is_file(), command.template
        sample = command.template.parent / f"{command.slug}.txt"
        assert sample.is_file(), sample
        assert _parse(platform, command.command).records, command.command


# Cisco IOS ----------------------------------------------------------------------------------------


def test_ios_etherchannel_summary_members_flags_and_empty_channel():
    channels = {r["name"]: r for r in _parse("cisco_ios", "show etherchannel summary").get("channels")}
    assert set(channels) == {"Po1", "Po10", "Po20", "Po30"}
    assert channels["Po10"]["protocol"] == "-"
    assert channels["Po20"]["members"].split() == ["Gi1/0/5(P)", "Gi1/0/6(D)"]
    assert "members" not in channels["Po30"]


def test_ios_etherchannel_summary_wrapped_members():
    text = (
        "Group  Port-channel  Protocol    Ports\n"
        "------+-------------+-----------+-----------------------------------------------\n"
        "1      Po1(SU)         LACP      Te1/1/1(P)  Te1/1/2(P)  Te1/1/3(P)  Te1/1/4(P)  \n"
        "                                 Te2/1/1(P)  Te2/1/2(s)  \n"
        "2      Po2(SD)          -        \n"
    )
    channels = _parse("cisco_ios", "show etherchannel summary", text).get("channels")
    assert channels[0]["members"].split() == [
        "Te1/1/1(P)",
        "Te1/1/2(P)",
        "Te1/1/3(P)",
        "Te1/1/4(P)",
        "Te2/1/1(P)",
        "Te2/1/2(s)",
    ]
    assert channels[1]["name"] == "Po2" and "members" not in channels[1]


def test_ios_interfaces_state_mtu_speed():
    records = {r["name"]: r for r in _parse("cisco_ios", "show interfaces").get("interfaces")}
    expected = {"state": "up", "mtu": "9198", "duplex": "Full", "speed": "1000Mb/s"}
    assert {k: records["GigabitEthernet1/0/3"][k] for k in expected} == expected
    assert records["GigabitEthernet1/0/8"]["state"] == "administratively down"
    assert records["GigabitEthernet1/0/9"]["reason"] == "err-disabled"
    assert records["Port-channel10"]["members"] == "Gi1/0/3 Gi1/0/4"


def test_ios_running_config_channel_modes_and_forced_speed():
    records = {r["name"]: r for r in _parse("cisco_ios", "show running-config").get("configured")}
    assert records["GigabitEthernet1/0/3"]["channel_mode"] == "on"
    assert records["GigabitEthernet1/0/5"]["channel_mode"] == "active"
    assert (records["GigabitEthernet1/0/7"]["speed"], records["GigabitEthernet1/0/7"]["duplex"]) == ("1000", "full")


def test_ios_lldp_wrapped_description_does_not_split_entries():
    neighbours = [r for r in _parse("cisco_ios", "show lldp neighbors detail").get("neighbours") if "local_port" in r]
    assert [(r["local_port"], r["system_name"], r["port_id"]) for r in neighbours] == [
        ("Gi1/0/5", "kvm01.lab.example.net", "5254.0012.3401"),
        ("Te1/1/1", "core1.lab.example.net", "Te1/0/1"),
    ]


def test_ios_switch_model():
    switch = _switch("cisco_ios")
    ports = {p.name: p for p in switch.ports}
    channels = {c.name: c for c in switch.port_channels}
    assert switch.load_balance.hash == "src-dst-ip"
    assert channels["Port-channel10"].mode == "static"
    assert channels["Port-channel10"].members == ["GigabitEthernet1/0/3", "GigabitEthernet1/0/4"]
    assert channels["Port-channel20"].mode == "lacp-active"
    assert channels["Port-channel30"].members == [] and channels["Port-channel30"].status == "down"
    assert ports["GigabitEthernet1/0/6"].status == "down" and ports["GigabitEthernet1/0/6"].speed_mbps is None
    assert ports["GigabitEthernet1/0/8"].status == "disabled"
    assert ports["GigabitEthernet1/0/9"].status == "err-disabled"
    forced = ports["GigabitEthernet1/0/7"]
    assert (forced.configured_speed_mbps, forced.configured_duplex, forced.mtu) == (1000, "full", 1500)
    assert ports["GigabitEthernet1/0/1"].configured_speed_mbps is None
    assert ports["GigabitEthernet1/0/3"].mtu == 9198
    assert ports["GigabitEthernet1/0/3"].neighbours[0].device_id == "esx01.lab.example.net"
    assert ports["GigabitEthernet1/0/3"].neighbours[0].port_id == "vmnic2"
    assert switch.multichassis.kind == "stack"


# Cisco NX-OS --------------------------------------------------------------------------------------


def test_nxos_summary_empty_channel_and_down_member():
    channels = {r["name"]: r for r in _parse("cisco_nxos", "show port-channel summary").get("channels")}
    assert channels["Po11"]["protocol"] == "NONE"
    assert channels["Po20"]["members"].split() == ["Eth1/20(D)"]
    assert "members" not in channels["Po40"]


def test_nxos_load_balance_and_vpc():
    assert _parse("cisco_nxos", "show port-channel load-balance").get("load_balance")[0]["raw"] == "src-dst ip rotate 0"
    vpc = _parse("cisco_nxos", "show vpc brief")
    assert vpc.get("vpc")[0]["domain_id"] == "10"
    assert [(r["id"], r["port"], r["status"]) for r in vpc.get("vpcs")] == [
        ("11", "Po11", "up"),
        ("20", "Po20", "down*"),
    ]


def test_nxos_switch_model():
    switch = _switch("cisco_nxos")
    ports = {p.name: p for p in switch.ports}
    channels = {c.name: c for c in switch.port_channels}
    assert switch.load_balance.hash == "src-dst-ip"
    assert channels["Port-channel11"].mode == "static" and channels["Port-channel11"].multichassis_id == 11
    assert channels["Port-channel11"].mtu == 9216
    assert channels["Port-channel20"].status == "down"
    assert ports["Ethernet1/11"].port_channel == "Port-channel11"
    assert ports["Ethernet1/31"].configured_speed_mbps == 1000 and ports["Ethernet1/31"].mode == "access"
    assert ports["Ethernet1/32"].status == "err-disabled" and ports["Ethernet1/30"].status == "disabled"
    assert switch.multichassis.model_dump() == {
        "kind": "vpc",
        "domain_id": "10",
        "peer": "nx2.lab.example.net",
        "peer_link_up": True,
    }


# Arista EOS ---------------------------------------------------------------------------------------


def test_eos_summary_lacp_flags_and_empty_channel():
    channels = {r["name"]: r for r in _parse("arista_eos", "show port-channel summary").get("channels")}
    assert channels["Po1000"]["members"].split() == ["Et49/1(PG+)", "Et50/1(PG+)"]
    assert channels["Po20"]["protocol"] == "LACP(a)"
    assert "members" not in channels["Po2000"]


def test_eos_switch_model():
    switch = _switch("arista_eos")
    ports = {p.name: p for p in switch.ports}
    channels = {c.name: c for c in switch.port_channels}
    assert switch.load_balance.hash == "src-dst-ip-port"
    assert channels["Port-channel11"].mode == "static" and channels["Port-channel11"].multichassis_id == 11
    assert channels["Port-channel1000"].mode == "lacp-active"
    assert ports["Ethernet31"].configured_speed_mbps == 1000 and ports["Ethernet31"].configured_duplex == "full"
    assert ports["Ethernet11"].mtu == 9214
    assert switch.multichassis.kind == "mlag" and switch.multichassis.peer == "eos2.lab.example.net"


# Junos --------------------------------------------------------------------------------------------


def test_junos_display_set_lines():
    parsed = _parse("juniper_junos", "show configuration | display set")
    lines = parsed.get("configured")
    assert {"name": "xe-0/0/2", "channel_group": "ae0"} in lines
    assert {"name": "ae1", "channel_mode": "active"} in lines
    assert [r["option"] for r in parsed.get("load_balance")] == ["no-l4-source-port", "no-l4-destination-port"]


def test_junos_switch_model():
    switch = _switch("juniper_junos")
    ports = {p.name: p for p in switch.ports}
    channels = {c.name: c for c in switch.port_channels}
    assert switch.load_balance.hash == "src-dst-ip"
    assert channels["ae0"].mode == "static" and channels["ae0"].members == ["xe-0/0/2", "xe-0/0/3"]
    assert channels["ae1"].mode == "lacp-active" and channels["ae2"].mode == "lacp-passive"
    assert channels["ae0"].mtu == 9202  # media MTU 9216 less the 14-byte Ethernet header
    assert ports["xe-0/0/2"].mtu == 9202 and ports["xe-0/0/2"].duplex == "full"
    assert ports["ge-0/0/10"].status == "disabled" and ports["xe-0/0/5"].status == "down"
    assert (ports["ge-0/0/11"].configured_speed_mbps, ports["ge-0/0/11"].configured_duplex) == (1000, "full")
    assert ports["xe-0/0/2"].neighbours[0].system_name == "esx01.lab.example.net"
    assert switch.multichassis.kind == "virtual-chassis"


# Vocabulary ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        ("src-dst-ip", "src-dst-ip"),
        ("src-mac", "src-mac"),
        ("dst-mixed-ip-port", "dst-ip-port"),
        ("src-dst-mixed-ip-port", "src-dst-ip-port"),
        ("vlan-src-dst-ip", "src-dst-ip-vlan"),
    ],
)
def test_ios_hashes(raw, name):
    assert IOS_HASHES.read(raw) == name


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        ("src-dst ip rotate 0", "src-dst-ip"),
        ("src-dst ip-l4port", "src-dst-ip-port"),
        ("src-dst mac", "src-dst-mac"),
        ("src-dst ip-l4port-vlan rotate 4", "src-dst-ip-port-vlan"),
        ("dst ip", "dst-ip"),
        ("source-dest-ip", "src-dst-ip"),
        ("source-dest-ip-port", "src-dst-ip-port"),
    ],
)
def test_nxos_hashes(raw, name):
    assert NXOS_HASHES.read(raw) == name


@pytest.mark.parametrize(
    ("fields", "name"),
    [
        (None, "src-dst-ip-port"),
        ("source-ip destination-ip", "src-dst-ip"),
        ("mac-header", "src-dst-mac"),
        ("ip-tcp-udp-header", "src-dst-ip-port"),
        ("destination-ip", "dst-ip"),
    ],
)
def test_eos_hashes(fields, name):
    assert EOS_HASHES.read(fields) == name


@pytest.mark.parametrize(
    ("options", "name"),
    [
        (set(), "src-dst-ip-port"),
        ({"no-l4-source-port", "no-l4-destination-port"}, "src-dst-ip"),
        ({"layer-3"}, "src-dst-ip"),
        ({"layer-3", "layer-4"}, "src-dst-ip-port"),
        ({"no-ipv4-source-address"}, "dst-ip-port"),
    ],
)
def test_junos_hashes(options, name):
    assert JUNOS_HASHES.read(" ".join(sorted(options))) == name


def test_a_junos_hash_the_table_lacks_is_a_named_unknown():
    with pytest.raises(ValueError, match="hostlint reads no 'no-ipv4-destination-address no-ipv4-source-address'"):
        JUNOS_HASHES.read("no-ipv4-destination-address no-ipv4-source-address")
    with pytest.raises(ValueError, match="hostlint reads no 'symmetric-hash' load-balance syntax"):
        JUNOS_HASHES.read("symmetric-hash")


def test_every_normalised_hash_is_in_the_vocabulary_and_unknown_ones_are_errors():
    for name in ("src-dst-ip", "src-dst-ip-port", "dst-ip-port", "src-dst-ip-port-vlan", "src-dst-mac"):
        assert name in HASH_FIELDS
    for bad in (
        lambda: IOS_HASHES.read("fancy"),
        lambda: NXOS_HASHES.read("src-dst banana"),
        lambda: EOS_HASHES.read("foo"),
    ):
        with pytest.raises(ValueError):
            bad()


@pytest.mark.parametrize("platform", ["cisco_ios", "cisco_nxos", "arista_eos"])
@pytest.mark.parametrize(
    ("shown", "state"),
    [
        ("P", "bundled"),
        ("PG+", "bundled"),
        ("bndl", "bundled"),
        ("hot-sby", "hot-standby"),
        ("H", "hot-standby"),
        ("s", "suspended"),
        ("SUSP", "suspended"),
        ("I", "individual"),
        ("stand-alone", "individual"),
        ("G^", "individual"),
        ("D", "down"),
        ("w", None),
        ("u", None),
        ("G-", None),
        ("", None),
        (None, None),
    ],
)
def test_cisco_like_member_flags(platform, shown, state):
    """The channel summary's legend, read by each Cisco-like folder's members.py (the shared base's)."""
    flags = switches.member_flags(platform)
    assert flags is not None
    assert flags.state(shown) == state


@pytest.mark.parametrize(
    ("raw", "mode"),
    [
        ("on", "static"),
        ("active", "lacp-active"),
        ("passive", "lacp-passive"),
        ("desirable", "pagp"),
        ("auto", "pagp"),
    ],
)
def test_channel_modes(raw, mode):
    assert n.channel_mode(raw) == mode


@pytest.mark.parametrize(
    ("raw", "mbps"),
    [
        ("1000Mb/s", 1000),
        ("10Gb/s", 10000),
        ("10 Gb/s", 10000),
        ("10Gbps", 10000),
        ("1000mbps", 1000),
        ("1g", 1000),
        ("1000", 1000),
        ("1000full", 1000),
        ("Auto-speed", None),
        ("auto", None),
        (None, None),
    ],
)
def test_speeds(raw, mbps):
    assert n.speed_mbps(raw) == mbps


def test_mtu_conversions():
    assert n.l3_mtu("juniper_junos", 9216) == 9202
    assert n.l3_mtu("juniper_junos", 1518, tagged=True) == 1500
    assert n.l3_mtu("cisco_nxos", 9216) == 9216
    assert n.l3_mtu("cisco_ios", 9198) == 9198


def test_platform_aliases_and_unsupported():
    assert canonical_switch("cisco.nxos.nxos") == "cisco_nxos"
    assert canonical_switch("eos") == "arista_eos"
    assert canonical_switch("cisco_xe") == "cisco_ios"
    with pytest.raises(UnsupportedPlatform, match="hp_procurve"):
        canonical_switch("hp_procurve")


def _version(platform: str, text: str | None = None) -> tuple[str | None, str | None]:
    """Model and OS version as assembled from `show version` alone (its lines are records merged)."""
    device = Device(name=NAMES.get(platform, platform), hostname="192.0.2.1", platform=platform)
    switch, warnings = build_switch(device, {"version": _parse(platform, "show version", text)}, {})
    assert warnings == []
    return switch.model, switch.os_version


def test_ios_version_xe_and_classic():
    assert _version("cisco_ios") == ("WS-C3850-48T", "16.12.10a")
    classic = (
        "Cisco IOS Software, C2960X Software (C2960X-UNIVERSALK9-M), Version 15.2(7)E8, RELEASE SOFTWARE (fc1)\n"
        "Technical Support: http://www.cisco.com/techsupport\n\n"
        "Model number                    : WS-C2960X-48TS-L\n"
        "System serial number            : FOC2145Z0AB\n"
    )
    assert _version("cisco_ios", classic) == ("WS-C2960X-48TS-L", "15.2(7)E8")


def test_eos_mlag_disabled_is_understood_and_no_pair():
    text = (
        "MLAG Configuration:              \n"
        "domain-id                          :                   \n"
        "local-interface                    :                   \n"
        "peer-address                       :           0.0.0.0 \n"
        "peer-link                          :                   \n"
        "peer-config                        :                   \n"
        "                                                        \n"
        "MLAG Status:                     \n"
        "state                              :          Disabled \n"
        "negotiation status                 :                   \n"
        "peer-link status                   :                   \n"
        "local-int status                   :                   \n"
        "system-id                          : 00:00:00:00:00:00 \n"
    )
    parsed = _parse("arista_eos", "show mlag", text)
    assert parsed.get("mlag")[0]["state"] == "Disabled"
    device = Device(name="eos9", hostname="192.0.2.9", platform="arista_eos")
    switch, warnings = build_switch(device, {"multichassis": parsed}, {"multichassis": "show mlag"})
    assert switch.multichassis is None and warnings == []


def test_nxos_vpc_feature_without_domain_is_no_pair():
    text = (
        "Legend:\n"
        "                (*) - local vPC is down, forwarding via vPC peer-link\n\n"
        "vPC domain id                     : Not configured\n"
        "Peer status                       : peer link not configured\n"
        "vPC keep-alive status             : Disabled\n"
    )
    parsed = _parse("cisco_nxos", "show vpc brief", text)
    device = Device(name="nx9", hostname="192.0.2.9", platform="cisco_nxos")
    switch, warnings = build_switch(device, {"multichassis": parsed}, {"multichassis": "show vpc brief"})
    assert switch.multichassis is None and warnings == []


@pytest.mark.parametrize(
    ("platform", "command", "text"),
    [
        ("cisco_ios", "show etherchannel summary", "Number of channel-groups in use: 0\nNumber of aggregators: 0\n"),
        ("cisco_nxos", "show port-channel summary", "Group Port-       Type     Protocol  Member Ports\n"),
        ("arista_eos", "show port-channel summary", "Number of port channels in use: 0\nNumber of aggregators: 0\n"),
        ("juniper_junos", "show lldp neighbors", "Local Interface    Parent Interface    Chassis Id    Port info\n"),
        ("cisco_ios", "show cdp neighbors detail", "% CDP is not enabled\n"),
    ],
)
def test_known_empty_outputs_are_not_warnings(platform, command, text):
    assert _parse(platform, command, text).records == {}
