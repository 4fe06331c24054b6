"""HPE Comware as one folder (hostlint/switches/hp_comware): its name grammar, hash table, member flags,
MTU figures and typed records, each on the folder's own samples; the records assemble into a `Switch`
with the channels, members, VLANs, MTU, hash, IRF and neighbours the samples show."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from switch_emulator.platforms.hp_comware import RENDER, SPEC, sample_records, sample_switch

from hostlint.collect.switches.parse import parse_output
from hostlint.fixes import identifiers
from hostlint.switches.hp_comware import assemble, hashes, members, mtu, names, records

XGE = "Ten-GigabitEthernet"


# --- names ------------------------------------------------------------------------------------------------

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "ntc-templates" / "hp_comware"
# Every interface name in a capture: a type word (hyphenated words, as `Ten-GigabitEthernet`) and numbers.
_NAME = re.compile(r"(?<![\w.-])([A-Z][A-Za-z]*(?:-[A-Za-z]+)*)(\d+(?:/\d+){0,3}(?::\d+)?)(?![\w/.-])")
# The type words of the Ethernet ports and aggregates among them (long or short), which scripts name.
_ETHERNET_AND_AGGREGATES = {
    *("GigabitEthernet", "GE", "Ten-GigabitEthernet", "XGE", "Twenty-FiveGigE", "WGE", "FortyGigE", "FGE"),
    *("HundredGigE", "HGE", "Bridge-Aggregation", "BAGG", "Route-Aggregation", "RAGG"),
}


@pytest.mark.skipif(not CORPUS.is_dir(), reason="no ../shared/corpus/ntc-templates beside the repository")
def test_every_port_and_aggregate_the_corpus_names_passes_the_folders_script_grammar() -> None:
    found = {
        match.group(0)
        for capture in sorted(CORPUS.rglob("*.raw"))
        for match in _NAME.finditer(capture.read_text(encoding="utf-8", errors="replace"))
        if match.group(1) in _ETHERNET_AND_AGGREGATES
    }
    assert len(found) > 100 and {n.rstrip("0123456789/:") for n in found} == _ETHERNET_AND_AGGREGATES - {
        "WGE",
        "FGE",
        "HGE",
        "RAGG",
    }
    kind = identifiers.interface_kind("hp_comware")
    refused = {name: identifiers.problem(kind, names.long(name)) for name in found}
    assert {name: why for name, why in refused.items() if why} == {}
    assert all(names.is_port(n) or names.is_channel(n) for n in found)


@pytest.mark.parametrize(
    ("short", "long"),
    [
        ("XGE1/0/1", "Ten-GigabitEthernet1/0/1"),
        ("FGE1/0/53", "FortyGigE1/0/53"),
        ("HGE1/0/25", "HundredGigE1/0/25"),
        ("WGE1/0/2", "Twenty-FiveGigE1/0/2"),
        ("GE1/0/48", "GigabitEthernet1/0/48"),
        ("BAGG10", "Bridge-Aggregation10"),
        ("MGE0/0/0", "M-GigabitEthernet0/0/0"),
    ],
)
def test_names_long_and_short(short: str, long: str) -> None:
    assert names.long(short) == long
    assert names.long(long) == long
    assert names.short(long) == short


def test_names_channels_ports_and_script_grammar() -> None:
    assert names.is_channel("BAGG10") and names.is_channel("Bridge-Aggregation10")
    assert names.channel_number("Bridge-Aggregation10") == 10
    assert not names.is_channel("Ten-GigabitEthernet1/0/1")
    assert names.is_port("XGE1/0/1") and names.is_port("Ten-GigabitEthernet1/0/49:1")
    for not_port in ("Bridge-Aggregation10", "Vlan-interface100", "M-GigabitEthernet0/0/0", "LoopBack0"):
        assert not names.is_port(not_port), not_port
    assert names.SCRIPT.match("Ten-GigabitEthernet1/0/1")
    for unsafe in ("Ten-GigabitEthernet1/0/1 ; reboot", "XGE1/0/1", "Ten-GigabitEthernet1/0/1\nquit", "1/0/1"):
        assert not names.SCRIPT.match(unsafe), unsafe
    assert names.neighbour_forms("XGE1/0/1") == ("Ten-GigabitEthernet1/0/1", "XGE1/0/1")
    assert names.NAMES.is_channel("BAGG10") and not names.NAMES.is_channel("XGE1/0/1")
    assert names.NAMES.scriptable("Ten-GigabitEthernet1/0/1") and not names.NAMES.scriptable("XGE1/0/1")


def test_every_interface_of_the_samples_is_a_port_a_channel_or_neither_by_name() -> None:
    found = sample_records()
    for member in found["members"]:
        assert names.is_port(member["port"]) and names.is_channel(member["channel"])
    for interface in found["interfaces"]:
        name = interface["name"]
        assert names.is_port(name) != names.is_channel(name) or name.startswith(names.NOT_PORTS), name


# --- hashes -----------------------------------------------------------------------------------------------


def test_hash_table_round_trips_every_name_it_writes() -> None:
    assert len(hashes.HASHES.written()) == 14
    for name in hashes.HASHES.written():
        assert hashes.HASHES.read(hashes.HASHES.write(name)) == name


def test_hash_read_ignores_field_order_and_names_an_unknown() -> None:
    assert hashes.HASHES.read("source-ip destination-ip") == "src-dst-ip"
    assert hashes.HASHES.read("destination-ip source-ip destination-port source-port") == "src-dst-ip-port"
    with pytest.raises(hashes.UnknownHash, match="reads no 'ingress-port' load-balance syntax"):
        hashes.HASHES.read("ingress-port")
    # Without the line the mode depends on the model: unknown, never a default taken.
    with pytest.raises(hashes.UnknownHash, match="no documented default"):
        hashes.HASHES.read(None)
    assert hashes.HASHES.write("src-dst-ip-vlan") is None


def test_every_hash_the_samples_show_is_read() -> None:
    found = sample_records()
    shown = [r["fields"] for r in found["load_balance"]]
    shown += [r["load_sharing"] for r in found["configured"] if "load_sharing" in r]
    assert len(shown) == 2
    assert [hashes.HASHES.read(s) for s in shown] == ["src-dst-ip", "src-dst-ip-port"]


# --- members and MTU --------------------------------------------------------------------------------------


def test_member_flags_of_the_samples_map_to_states() -> None:
    flags = {m["status"] for m in sample_records()["members"]}
    assert flags == {"S", "U"}
    assert all(members.MEMBER_FLAGS.state(flag) for flag in flags)
    assert members.member_state("S", True) == "bundled"
    assert members.member_state("U", True) == "suspended"
    assert members.member_state("U", False) == "down"
    assert members.member_state("I", None) == "individual"
    with pytest.raises(ValueError, match="unknown Comware member status 'X'"):
        members.member_state("X", True)


def test_mtu_figures() -> None:
    assert mtu.bridged_mtu(9416) == 9398
    assert mtu.bridged_mtu(1536) == 1518
    assert mtu.frame_for(9000) == 9018
    assert mtu.frame_for(1500) == 1536  # Comware takes no smaller frame
    assert mtu.frame_for(mtu.bridged_mtu(5000)) == 5000  # read and written back: the same frame
    assert mtu.JUMBO - mtu.HEADER == 9216  # the jumbo hostlint writes: every Comware model takes its frame
    assert mtu.configured_frame("10000") == 10000  # the chassis ports of the real captures
    assert mtu.MTU.largest == mtu.bridged_mtu(mtu.LARGEST_FRAME) == 9982  # what a snapshot holds at most
    assert mtu.configured_frame("enabled") == 9416
    assert mtu.configured_frame("disabled") == 1536
    assert mtu.configured_frame(None) is None
    with pytest.raises(ValueError, match="jumboframe enable 12000"):
        mtu.configured_frame("12000")


# --- typed records ----------------------------------------------------------------------------------------


def test_every_sample_record_fits_its_model() -> None:
    found = sample_records()
    assert set(found) <= set(records.RECORDS)
    for group, items in found.items():
        assert len(records.typed(group, items)) == len(items)


def test_a_field_no_model_declares_is_named() -> None:
    with pytest.raises(records.RecordError, match="display link-aggregation verbose: members record: flags"):
        records.typed("members", [{"channel": "Bridge-Aggregation10", "port": "XGE1/0/1", "status": "S", "flags": "x"}])
    with pytest.raises(records.RecordError, match="group 'lacp' has no model"):
        records.typed("lacp", [{}])


# --- assembly ---------------------------------------------------------------------------------------------


def test_the_samples_assemble_into_a_switch() -> None:
    switch, warnings = sample_switch()
    assert warnings == []
    assert switch.platform == "hp_comware" and switch.aliases == ["hpe-tor1"]
    assert switch.model == "HPE FF 5940 48SFP+ 6QSFP28 Switch" and switch.os_version == "7.1.070"
    assert switch.load_balance is not None and switch.load_balance.hash == "src-dst-ip"
    assert switch.multichassis is not None and switch.multichassis.kind == "irf"
    channels = {c.name: c for c in switch.port_channels}
    assert {name: (c.mode, c.members) for name, c in channels.items()} == {
        "Bridge-Aggregation10": ("lacp-active", [f"{XGE}1/0/1", f"{XGE}2/0/1"]),
        "Bridge-Aggregation20": ("lacp-active", [f"{XGE}1/0/3", f"{XGE}2/0/3"]),
        "Bridge-Aggregation30": ("static", [f"{XGE}1/0/5", f"{XGE}2/0/5"]),
    }
    assert channels["Bridge-Aggregation20"].load_balance == "src-dst-ip-port"
    assert channels["Bridge-Aggregation20"].allowed_vlans == [(100, 100), (110, 110)]  # VLAN 1 undone
    assert channels["Bridge-Aggregation10"].allowed_vlans == [(1, 1), (100, 110)]
    ports = {p.name: p for p in switch.ports}
    assert ports[f"{XGE}1/0/1"].member_state == "bundled"
    assert ports[f"{XGE}2/0/3"].member_state == "suspended"
    assert ports[f"{XGE}1/0/1"].mtu == 9398  # a 9416-byte frame less header and FCS
    spare = ports[f"{XGE}1/0/2"]
    assert (spare.status, spare.mode, spare.access_vlan, spare.mtu) == ("disabled", "access", 100, 1518)
    assert [(n.device_id, n.port_id) for n in ports[f"{XGE}1/0/1"].neighbours] == [("esx01.example.com", "vmnic0")]
    assert all(names.is_port(p.name) for p in switch.ports)


def test_a_value_that_makes_no_sense_is_a_warning_and_the_rest_is_built() -> None:
    found = sample_records()
    found["load_balance"] = [{"fields": "ingress-port"}]
    found["members"] = [{**found["members"][0], "status": "X"}, *found["members"][1:]]
    switch, warnings = assemble.build("hpe-tor1", found)
    assert switch.load_balance is None
    assert warnings == [
        "hpe-tor1: display link-aggregation verbose: Ten-GigabitEthernet1/0/1 status: unknown Comware member status "
        "'X' (known: S, U, I)",
        "hpe-tor1: display current-configuration: link-aggregation global load-sharing mode: hostlint reads no "
        "'ingress-port' load-balance syntax",
    ]
    assert len(switch.port_channels) == 3


def test_the_emulator_renders_the_switch_the_collector_reads_back() -> None:
    """RENDER writes a Switch as Comware prints it; the folder's templates and assembly read the same
    channels, members, VLANs, MTU, hash and neighbours back."""
    switch, _ = sample_switch()
    read: dict[str, list[dict[str, Any]]] = {}
    for command in SPEC.commands:
        text = RENDER(switch, command.command)
        assert text is not None, command.command
        parsed = parse_output(command, text, "hpe-tor1")
        assert parsed.warnings == [], parsed.warnings
        for group, items in parsed.records.items():
            read.setdefault(group, []).extend(items)
    again, warnings = assemble.build("hpe-tor1.example.com", read)
    assert warnings == []
    assert again.load_balance == switch.load_balance
    assert again.multichassis == switch.multichassis
    for field in ("mode", "members", "allowed_vlans", "native_vlan", "switchport"):
        assert [getattr(c, field) for c in again.port_channels] == [getattr(c, field) for c in switch.port_channels]
    ports = {p.name: p for p in switch.ports}
    for port in again.ports:
        before = ports[port.name]
        for field in ("member_state", "port_channel", "mtu", "status", "mode", "access_vlan", "native_vlan"):
            known = getattr(before, field)
            # A fact the samples did not show (a port only in the configuration) is printed as something.
            assert known is None or getattr(port, field) == known, (port.name, field)
        shown = [(n.device_id, n.port_id) for n in port.neighbours]
        assert shown == [(n.device_id, n.port_id) for n in before.neighbours]


# --- expected records beside each sample (sqlfluff's parse fixtures) ---------------------------------------


@pytest.mark.parametrize("command", SPEC.commands, ids=lambda c: c.slug)
def test_each_sample_gives_the_records_beside_it(command: Any) -> None:
    """`<slug>.records.yaml` holds what the template reads from `<slug>.txt`, reviewed in the diff;
    `HOSTLINT_UPDATE_GOLDEN=1` writes it again."""
    folder = command.template.parent
    parsed = parse_output(command, (folder / f"{command.slug}.txt").read_text(encoding="utf-8"), "hpe-tor1")
    assert parsed.warnings == [] and parsed.notes == []
    expected = folder / f"{command.slug}.records.yaml"
    if os.environ.get("HOSTLINT_UPDATE_GOLDEN") == "1":
        expected.write_text(yaml.safe_dump(parsed.records, sort_keys=True, allow_unicode=True), encoding="utf-8")
    assert parsed.records == yaml.safe_load(expected.read_text(encoding="utf-8"))
