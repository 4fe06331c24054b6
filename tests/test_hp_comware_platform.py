"""HPE Comware as one folder (hostlint/switches/hp_comware): its name grammar, hash table, member flags,
MTU figures and typed records, each on the folder's own samples; the records assemble into a `Switch`
with the channels, members, VLANs, MTU, hash, IRF and neighbours the samples show."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hostlint.collect.switches.parse import parse_output
from hostlint.collect.switches.platforms import load_folder
from hostlint.switches.hp_comware import hashes, members, mtu, names, records

FOLDER = Path(__file__).resolve().parent.parent / "hostlint" / "switches" / "hp_comware"
SPEC = load_folder(FOLDER)


def sample_records() -> dict[str, list[dict[str, Any]]]:
    """Every group of every command's sample, as the templates read them (no warning allowed)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for command in SPEC.commands:
        parsed = parse_output(command, (FOLDER / f"{command.slug}.txt").read_text(encoding="utf-8"), "hpe-tor1")
        assert parsed.warnings == [] and parsed.notes == [], command.command
        for group, items in parsed.records.items():
            assert group not in found, f"group {group!r} filled by two commands"
            found[group] = items
    return found


# --- names ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("short", "long"),
    [
        ("XGE1/0/1", "Ten-GigabitEthernet1/0/1"),
        ("FGE1/0/53", "FortyGigE1/0/53"),
        ("HGE1/0/25", "HundredGigE1/0/25"),
        ("WGE1/0/2", "TwentyFiveGigE1/0/2"),
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


def test_every_interface_of_the_samples_is_a_port_a_channel_or_neither_by_name() -> None:
    found = sample_records()
    for member in found["members"]:
        assert names.is_port(member["port"]) and names.is_channel(member["channel"])
    for interface in found["interfaces"]:
        name = interface["name"]
        assert names.is_port(name) != names.is_channel(name) or name.startswith(names.NOT_PORTS), name


# --- hashes -----------------------------------------------------------------------------------------------


def test_hash_table_round_trips_every_name_it_writes() -> None:
    for name in hashes.HASHES.names:
        assert hashes.HASHES.read(hashes.HASHES.write(name)) == name


def test_hash_read_ignores_field_order_and_names_an_unknown() -> None:
    assert hashes.HASHES.read("source-ip destination-ip") == "src-dst-ip"
    assert hashes.HASHES.read("destination-ip source-ip destination-port source-port") == "src-dst-ip-port"
    with pytest.raises(hashes.UnknownHash, match="no Comware load-sharing mode 'ingress-port'"):
        hashes.HASHES.read("ingress-port")
    with pytest.raises(hashes.UnknownHash, match="src-dst-ip-vlan"):
        hashes.HASHES.write("src-dst-ip-vlan")


def test_every_hash_the_samples_show_is_read() -> None:
    found = sample_records()
    shown = [r["fields"] for r in found["load_balance"]]
    shown += [r["load_sharing"] for r in found["configured"] if "load_sharing" in r]
    assert len(shown) == 2
    assert [hashes.HASHES.read(s) for s in shown] == ["src-dst-ip", "src-dst-ip-port"]


# --- members and MTU --------------------------------------------------------------------------------------


def test_member_flags_of_the_samples_map_to_states() -> None:
    flags = {m["status"] for m in sample_records()["members"]}
    assert flags <= set(members.MEMBER_FLAGS)
    assert members.member_state("S", True) == "bundled"
    assert members.member_state("U", True) == "suspended"
    assert members.member_state("U", False) == "down"
    assert members.member_state("I", None) == "individual"
    with pytest.raises(ValueError, match="unknown Comware member status 'X'"):
        members.member_state("X", True)


def test_mtu_figures() -> None:
    assert mtu.bridged_mtu(9416, tagged=False) == 9398
    assert mtu.bridged_mtu(1536, tagged=True) == 1514
    assert mtu.frame_for(9000, tagged=True) == 9022
    assert mtu.frame_for(1500, tagged=False) == 1536  # Comware takes no smaller frame
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
