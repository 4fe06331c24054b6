"""hostlint/switches/huawei_vrp as one platform folder: its samples parse into its typed records, the
records assemble into a `Switch` with the facts the samples show, and its names, hashes, member states
and families hold together (issue 29)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hostlint.collect.switches.parse import parse_output
from hostlint.collect.switches.platforms import PlatformSpec, load_folder
from hostlint.snapshot.switch import Switch
from hostlint.switches.huawei_vrp import assemble, families, hashes, members, mtu, names, records

FOLDER = Path(assemble.__file__).parent


def _spec() -> PlatformSpec:
    return load_folder(FOLDER, None)


def _sections(replace: dict[str, str] | None = None) -> assemble.Records:
    """Every command's records by ttp group, as the collector's runner hands them to `assemble.build`."""
    grouped: assemble.Records = {}
    for command in _spec().commands:
        text = (replace or {}).get(command.command)
        if text is None:
            text = (FOLDER / f"{command.slug}.txt").read_text(encoding="utf-8")
        parsed = parse_output(command, text, "hw-tor1")
        assert not parsed.warnings, parsed.warnings
        for group, items in parsed.records.items():
            assert records.GROUPS[group][0] == command.command, group
            grouped.setdefault(group, []).extend(items)
    return grouped


def _build(replace: dict[str, str] | None = None) -> tuple[Switch, list[str]]:
    return assemble.build("hw-tor1", _sections(replace))


def test_every_sample_record_is_valid_against_its_model() -> None:
    for group, items in _sections().items():
        for item in items:
            records.RECORDS[group].model_validate(item)


def test_a_model_refuses_a_field_the_template_does_not_give() -> None:
    with pytest.raises(ValueError, match="trunk_mod"):
        records.ConfigInterface.model_validate({"name": "Eth-Trunk1", "trunk_mod": "lacp"})


def test_the_samples_assemble_into_the_switch_they_show() -> None:
    switch, warnings = _build()
    assert warnings == []
    assert (switch.model, switch.os_version, switch.aliases) == ("S6730-H24X6C", "5.170", [])
    channels = {c.name: c for c in switch.port_channels}
    ports = {p.name: p for p in switch.ports}
    # `mode lacp` and `mode lacp-static` are LACP; no mode line is manual load balancing, static.
    assert {n: channels[n].mode for n in ("Eth-Trunk1", "Eth-Trunk2", "Eth-Trunk3")} == {
        "Eth-Trunk1": "lacp-active",
        "Eth-Trunk2": "lacp-active",
        "Eth-Trunk3": "static",
    }
    assert channels["Eth-Trunk1"].members == ["XGigabitEthernet0/0/1", "XGigabitEthernet1/0/1"]
    assert channels["Eth-Trunk1"].load_balance == "src-dst-ip"
    assert channels["Eth-Trunk1"].multichassis_id == 1
    assert channels["Eth-Trunk1"].allowed_vlans == [(1, 1), (100, 110)]
    assert channels["Eth-Trunk2"].allowed_vlans == [(100, 100), (110, 110)]
    # Frame length 9216 on a trunk member: 9216 - 14 header - 4 FCS - 4 tag.
    assert ports["XGigabitEthernet0/0/1"].mtu == 9194
    assert ports["XGigabitEthernet1/0/3"].member_state == "suspended"  # Unselect
    assert ports["XGigabitEthernet0/0/5"].member_state == "bundled"  # manual trunk, Up
    assert (ports["XGigabitEthernet0/0/2"].status, ports["XGigabitEthernet0/0/2"].access_vlan) == ("disabled", 100)
    assert ports["XGigabitEthernet0/0/2"].mtu == 1600 - 22  # a tagged frame's IP packet on every bridged port
    assert (ports["GigabitEthernet0/0/48"].configured_speed_mbps, ports["GigabitEthernet0/0/48"].duplex) == (
        1000,
        "half",
    )
    assert [n.system_name for n in ports["XGigabitEthernet0/0/1"].neighbours] == ["esx01.example.com"]
    assert "Vlanif100" not in ports and "NULL0" not in ports
    assert switch.multichassis is not None and (switch.multichassis.kind, switch.multichassis.domain_id) == (
        "m-lag",
        "1",
    )


def test_an_unknown_hash_is_a_named_unknown_never_a_default() -> None:
    config = (FOLDER / "display_current-configuration.txt").read_text(encoding="utf-8")
    config = config.replace(" load-balance src-dst-ip\n dfs-group", " load-balance enhanced\n dfs-group")
    switch, warnings = _build({"display current-configuration": config})
    trunk = next(c for c in switch.port_channels if c.name == "Eth-Trunk1")
    assert trunk.load_balance is None
    assert warnings == [
        "hw-tor1: display current-configuration: Eth-Trunk1: hostlint reads no 'enhanced' load-balance syntax"
    ]


def test_an_unknown_member_state_is_named() -> None:
    text = (FOLDER / "display_eth-trunk.txt").read_text(encoding="utf-8").replace("Unselect", "Unselected", 1)
    assert members.member_state("Unselected") == "suspended"
    assert members.member_state("Blocked") is None
    _, warnings = _build({"display eth-trunk": text})
    assert warnings == []


def test_a_cloudengine_switch_is_vrp8_with_its_names_and_lacp_static() -> None:
    version = "VRP (R) software, Version 8.180 (CE6881 V200R019C10SPC800)\nHUAWEI CE6881-48S6CQ uptime is 3 days\n"
    config = (
        "sysname ce1\n#\ninterface Eth-Trunk7\n port link-type trunk\n port trunk allow-pass vlan 100\n"
        " mode lacp-static\n#\ninterface 10GE1/0/1\n eth-trunk 7\n#\ninterface GE1/0/9\n port default vlan 20\n#\n"
    )
    sections = _sections({"display version": version, "display current-configuration": config})
    kept = {group: sections.get(group, []) for group in ("version", "system", "configured")}
    switch, warnings = assemble.build("ce1", kept)
    assert warnings == []
    assert families.family_of(switch.model, switch.os_version) is families.VRP8
    assert families.family(switch.model) == "vrp8"
    ports = {p.name: p for p in switch.ports}
    # GE1/0/9 is CloudEngine's long name (not GigabitEthernet) and an access port by default there.
    assert (ports["GE1/0/9"].mode, ports["GE1/0/9"].access_vlan) == ("access", 20)
    assert ports["10GE1/0/1"].port_channel == "Eth-Trunk7"
    assert switch.port_channels[0].mode == "lacp-active"


@pytest.mark.parametrize(
    ("model", "version", "family"),
    [
        ("S5735-L48T4X-A1", "5.170", "vrp5"),
        ("CE6881-48S6CQ", None, "vrp8"),
        (None, "8.191", "vrp8"),
        (None, None, None),
    ],
)
def test_the_family_comes_from_the_version_or_the_model(
    model: str | None, version: str | None, family: str | None
) -> None:
    found = families.family_of(model, version)
    assert (found.name if found else None) == family
    if found is None:
        assert "display version" in families.unknown_reason(model, version)


def test_every_hash_written_reads_back() -> None:
    for name in hashes.written():
        said = hashes.write(name)
        assert said is not None and hashes.read(said) == name
    assert hashes.read("According to SIP-XOR-DIP") == "src-dst-ip"
    assert hashes.read("src-dst-ip-port-vlan") is None


def test_every_interface_of_the_samples_is_named_by_the_folders_grammar() -> None:
    switch, _ = _build()
    for port in switch.ports:
        assert names.scriptable(port.name) and names.is_port(port.name), port.name
    for channel in switch.port_channels:
        assert names.scriptable(channel.name) and names.is_channel(channel.name), channel.name
    assert not names.scriptable("XGigabitEthernet0/0/1; reboot")
    assert names.long_name("XGE0/0/1") == "XGigabitEthernet0/0/1"
    assert names.long_name("GE1/0/1", "vrp8") == "GE1/0/1"
    assert names.short_name("XGigabitEthernet0/0/1") == "XGE0/0/1"


def test_a_cloudengine_frame_beyond_9216_is_stored_whole() -> None:
    """CloudEngine ToR ports take `jumboframe enable 12288` (hostlint/switches/huawei_vrp/mtu.py): the
    IP packet it carries, 12266, is what the snapshot holds (it refused anything above 9216 before)."""
    shown = (FOLDER / "display_interface.txt").read_text(encoding="utf-8")
    switch, warnings = _build({"display interface": shown.replace("Frame Length is 9216", "Frame Length is 12288")})
    assert warnings == []
    assert {p.name: p.mtu for p in switch.ports}["XGigabitEthernet0/0/1"] == 12288 - 22 == mtu.MTU.largest
