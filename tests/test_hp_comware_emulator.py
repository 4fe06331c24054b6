"""The HPE Comware stateful emulator (tests/switch_emulator/stateful/comware.py): its display output reads
back through hostlint's Comware templates (hostlint/switches/hp_comware) as the state it was rendered from,
its configuration grammar changes that state as Comware does and refuses what Comware refuses, and
netmiko's `hp_comware` driver drives it over SSH."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from netmiko import ConnectHandler
from support.netmiko_login import login
from switch_emulator.server import EmulatedSwitch, SwitchEmulator
from switch_emulator.stateful.comware import (
    INCOMPLETE,
    UNRECOGNIZED,
    WRONG,
    ComwareSession,
    ComwareState,
    ComwareSwitch,
    Interface,
    render,
)

from hostlint.collect.switches.parse import parse_output
from hostlint.collect.switches.platforms import load_folder

ROOT = Path(__file__).resolve().parent.parent
SPEC = load_folder(ROOT / "hostlint" / "switches" / "hp_comware")
XGE = "Ten-GigabitEthernet"


def tor() -> ComwareState:
    """An IRF pair: LACP Bridge-Aggregation10 to esx01 (both partners answer), static Bridge-Aggregation30 to
    esx03, an access port shut down, VLANs 100 and 110."""
    trunk: dict[str, Any] = {"link_type": "trunk", "permitted": {1, *range(100, 111)}, "jumbo": 9416}
    interfaces = [
        Interface(name="Bridge-Aggregation10", description="esx01 vmnic0-1", dynamic=True, speed_gbps=0, **trunk),
        Interface(name="Bridge-Aggregation30", link_type="trunk", permitted={100, 110}, speed_gbps=0),
        Interface(name=f"{XGE}1/0/1", group=10, neighbour=("esx01.example.com", "vmnic0"), **trunk),
        Interface(name=f"{XGE}2/0/1", group=10, neighbour=("esx01.example.com", "vmnic1"), **trunk),
        Interface(name=f"{XGE}1/0/2", description="spare", access_vlan=100, shutdown=True),
        Interface(name=f"{XGE}1/0/5", group=30, link_type="trunk", permitted={100, 110}),
        Interface(name=f"{XGE}2/0/5", group=30, link_type="trunk", permitted={100, 110}, link_up=False),
    ]
    return ComwareState(
        sysname="hpe-tor1",
        interfaces={i.name: i for i in interfaces},
        vlans={1: None, 100: "vmotion", 110: "iscsi"},
        load_sharing=("destination-ip", "source-ip"),
        irf={1: 32, 2: 1},
        irf_ports={"1/2": [f"{XGE}1/0/49", f"{XGE}1/0/50"], "2/1": [f"{XGE}2/0/49"]},
        lacp_partners=frozenset({f"{XGE}1/0/1", f"{XGE}2/0/1"}),
    )


def parsed(state: ComwareState, command: str) -> dict[str, list[dict[str, Any]]]:
    """The records hostlint's Comware template reads from the emulator's output; no warning allowed."""
    spec = next(c for c in SPEC.commands if c.command == command)
    text = render(state, command)
    assert text is not None, command
    result = parse_output(spec, text, state.sysname)
    assert result.warnings == [] and result.notes == [], (command, result.warnings, result.notes)
    return {group: result.get(group) for group in ("interfaces", "channels", "members", "neighbours", "vlans")}


def config_records(state: ComwareState) -> Any:
    spec = next(c for c in SPEC.commands if c.command == "display current-configuration")
    result = parse_output(spec, render(state, spec.command) or "", "sw")
    assert result.warnings == [] and result.notes == []
    return result


def configuration(state: ComwareState) -> dict[str, dict[str, Any]]:
    spec = next(c for c in SPEC.commands if c.command == "display current-configuration")
    return {r["name"]: r for r in parse_output(spec, render(state, spec.command) or "", "sw").get("configured")}


# --- round trip: rendered from the state, read back by the templates ------------------------------------


def test_every_command_the_collector_sends_is_answered_and_reads_back_without_a_warning() -> None:
    state = tor()
    for command in SPEC.commands:
        spec_records = parse_output(command, render(state, command.command) or "", "hpe-tor1")
        assert spec_records.records and spec_records.warnings == [], command.command


def test_aggregation_modes_members_and_selected_state_read_back() -> None:
    records = parsed(tor(), "display link-aggregation verbose")
    assert {r["name"]: r["mode"] for r in records["channels"]} == {
        "Bridge-Aggregation10": "Dynamic",
        "Bridge-Aggregation30": "Static",
    }
    # XGE2/0/5's link is down: Unselected in its static group.
    assert {(r["channel"], r["port"]): r["status"] for r in records["members"]} == {
        ("Bridge-Aggregation10", "XGE1/0/1"): "S",
        ("Bridge-Aggregation10", "XGE2/0/1"): "S",
        ("Bridge-Aggregation30", "XGE1/0/5"): "S",
        ("Bridge-Aggregation30", "XGE2/0/5"): "U",
    }


def test_configuration_lines_read_back_as_configured() -> None:
    config = configuration(tor())
    aggregate = config["Bridge-Aggregation10"]
    assert (aggregate["link_type"], aggregate["permit_vlans"], aggregate["aggregation_mode"]) == (
        "trunk",
        "1 100 to 110",
        "dynamic",
    )
    assert config["Bridge-Aggregation30"]["deny_vlans"] == "1"
    assert config["Bridge-Aggregation30"]["permit_vlans"] == "100 110"
    member = config[f"{XGE}1/0/1"]
    assert (member["channel_group"], member["jumboframe"]) == ("10", "9416")
    assert config[f"{XGE}1/0/2"]["shutdown"] is True and config[f"{XGE}1/0/2"]["access_vlan"] == "100"


def test_irf_members_ports_and_the_global_hash_read_back() -> None:
    result = config_records(tor())
    assert {(r["member"], r["priority"]) for r in result.get("irf")} == {("1", "32"), ("2", "1")}
    assert {r["irf_port"]: r["ports"] for r in result.get("irf_ports")} == {
        "1/2": f"{XGE}1/0/49 {XGE}1/0/50",
        "2/1": f"{XGE}2/0/49",
    }
    assert [r["fields"] for r in result.get("load_balance")] == ["destination-ip source-ip"]


def test_interfaces_vlans_and_neighbours_read_back() -> None:
    state = tor()
    interfaces = {r["name"]: r for r in parsed(state, "display interface")["interfaces"]}
    assert interfaces[f"{XGE}1/0/1"]["state"] == "UP" and interfaces[f"{XGE}1/0/1"]["frame_length"] == "9416"
    assert interfaces[f"{XGE}1/0/2"]["state"] == "Administratively DOWN"
    assert interfaces[f"{XGE}2/0/5"]["state"] == "DOWN"
    vlan_records = {r["vlan_id"]: r for r in parsed(state, "display vlan all")["vlans"]}
    assert set(vlan_records) == {"1", "100", "110"}
    tagged_100 = vlan_records["100"]["tagged"]["ports"].split()
    assert "Bridge-Aggregation10" in tagged_100 and f"{XGE}1/0/5" in tagged_100
    assert vlan_records["100"]["untagged"]["ports"].split() == [f"{XGE}1/0/2"]
    neighbours = {
        (r["local_port"], r["port_id"])
        for r in parsed(state, "display lldp neighbor-information verbose")["neighbours"]
    }
    assert neighbours == {(f"{XGE}1/0/1", "vmnic0"), (f"{XGE}2/0/1", "vmnic1")}


# --- the configuration grammar ---------------------------------------------------------------------------


def run(session: ComwareSession, *lines: str) -> list[str]:
    return [session.execute(line) for line in lines]


def test_views_and_prompts_follow_system_view_interface_quit_and_return() -> None:
    session = ComwareSession(tor())
    assert session.prompt() == "<hpe-tor1>"
    run(session, "system-view")
    assert session.prompt() == "[hpe-tor1]"
    run(session, "interface ten-gigabitethernet 1/0/5")
    assert session.prompt() == f"[hpe-tor1-{XGE}1/0/5]"
    run(session, "quit")
    assert session.prompt() == "[hpe-tor1]"
    run(session, "interface XGE1/0/5", "return")
    assert session.prompt() == "<hpe-tor1>"


def test_vlan_view_creates_names_and_deletes_a_vlan() -> None:
    state = tor()
    session = ComwareSession(state)
    run(session, "system-view", "vlan 200")
    assert session.prompt() == "[hpe-tor1-vlan200]"
    run(session, "name backup", "quit")
    vlan_records = {r["vlan_id"]: r for r in parsed(state, "display vlan all")["vlans"]}
    assert vlan_records["200"]["name"] == "backup"
    assert run(session, "undo vlan 1") == ["The default VLAN cannot be deleted."]
    run(session, "undo vlan 200")
    assert "200" not in {r["vlan_id"] for r in parsed(state, "display vlan all")["vlans"]}


def test_a_static_group_becomes_dynamic_and_its_members_wait_for_lacp() -> None:
    state = tor()
    session = ComwareSession(state)
    assert run(session, "system-view", "interface Bridge-Aggregation30", "link-aggregation mode dynamic")[2] == ""
    records = parsed(state, "display link-aggregation verbose")
    assert {r["name"]: r["mode"] for r in records["channels"]}["Bridge-Aggregation30"] == "Dynamic"
    # esx03's end runs no LACP: XGE1/0/5 is no longer Selected.
    assert {r["port"]: r["status"] for r in records["members"]}["XGE1/0/5"] == "U"
    run(session, "undo link-aggregation mode")
    assert configuration(state)["Bridge-Aggregation30"].get("aggregation_mode") is None


def test_an_aggregate_s_vlan_and_frame_lines_reach_its_members() -> None:
    state = tor()
    session = ComwareSession(state)
    run(
        session,
        "system-view",
        "interface Bridge-Aggregation30",
        "port trunk permit vlan 200 to 202",
        "jumboframe enable 9000",
    )
    config = configuration(state)
    assert config[f"{XGE}2/0/5"]["permit_vlans"] == "100 110 200 to 202"
    assert config[f"{XGE}2/0/5"]["jumboframe"] == "9000"
    run(session, "undo port trunk permit vlan 110 200 to 202", "undo jumboframe enable")
    config = configuration(state)
    assert config[f"{XGE}1/0/5"]["permit_vlans"] == "100" and config[f"{XGE}1/0/5"]["jumboframe"] == "disabled"
    interfaces = {r["name"]: r for r in parsed(state, "display interface")["interfaces"]}
    assert interfaces[f"{XGE}1/0/5"]["frame_length"] == "1536"


def test_a_port_joins_leaves_and_the_aggregate_is_removed() -> None:
    state = tor()
    session = ComwareSession(state)
    answers = run(
        session,
        "system-view",
        "interface Bridge-Aggregation40",
        "quit",
        "interface Ten-GigabitEthernet1/0/2",
        "undo shutdown",
        "port link-aggregation group 40",
    )
    assert answers[-1] == "" and state.interfaces[f"{XGE}1/0/2"].group == 40
    run(session, "quit", "undo interface Bridge-Aggregation10")
    assert "Bridge-Aggregation10" not in state.interfaces
    assert state.interfaces[f"{XGE}1/0/1"].group is None
    run(session, "link-aggregation global load-sharing mode source-mac destination-mac")
    assert state.load_sharing == ("source-mac", "destination-mac")
    run(session, "undo link-aggregation global load-sharing mode")
    assert "load-sharing" not in (render(state, "display current-configuration") or "")


@pytest.mark.parametrize(
    ("lines", "refusal"),
    [
        (["display nothing"], None),
        (["system-view", "interface Bridge-Aggregation10", "port link-aggregation group 10"], UNRECOGNIZED),
        (["system-view", "interface XGE1/0/5", "port link-aggregation group 99"], "does not exist"),
        (["system-view", "interface XGE1/0/5", "port trunk permit vlan 5000"], WRONG),
        (["system-view", "interface XGE1/0/5", "port trunk permit vlan"], INCOMPLETE),
        (["system-view", "interface XGE1/0/5", "port access vlan 100"], "access first"),
        (["system-view", "interface XGE1/0/5", "port link-type hybrid"], "access first"),
        (["system-view", "interface XGE1/0/5", "jumboframe enable 20000"], WRONG),
        (["system-view", "interface XGE1/0/5", "link-aggregation mode dynamic"], UNRECOGNIZED),
        (["system-view", "link-aggregation global load-sharing mode src-dst-ip"], WRONG),
        (["system-view", "interface Vlan-interface7"], WRONG),
        (["interface XGE1/0/5"], UNRECOGNIZED),
    ],
)
def test_what_comware_refuses_leaves_the_state_unchanged(lines: list[str], refusal: str | None) -> None:
    state = tor()
    switch = ComwareSwitch(state)
    before = render(state, "display current-configuration")
    answers = [switch.execute(line) for line in lines]
    assert (refusal or UNRECOGNIZED) in answers[-1]
    assert render(state, "display current-configuration") == before


# --- over SSH, with netmiko's hp_comware driver --------------------------------------------------------


def test_netmiko_collects_and_configures_over_ssh() -> None:
    state = tor()
    with SwitchEmulator() as emulator:
        port = emulator.add(EmulatedSwitch("hpe-tor1", "hp_comware", stateful=ComwareSwitch(state)))
        device = login("hp_comware", port, "lab-secret")
        with ConnectHandler(**device) as connection:
            assert connection.base_prompt == "hpe-tor1"
            before = connection.send_command("display link-aggregation verbose")
            connection.send_config_set(["interface Bridge-Aggregation30", "link-aggregation mode dynamic"])
            after = connection.send_command("display link-aggregation verbose")
            config = connection.send_command("display current-configuration")
    spec = next(c for c in SPEC.commands if c.command == "display link-aggregation verbose")
    modes = [
        {r["name"]: r["mode"] for r in parse_output(spec, text, "hpe-tor1").get("channels")} for text in (before, after)
    ]
    assert modes[0]["Bridge-Aggregation30"] == "Static" and modes[1]["Bridge-Aggregation30"] == "Dynamic"
    assert "interface Bridge-Aggregation30\n port link-type trunk" in config
    assert state.interfaces["Bridge-Aggregation30"].dynamic
