"""Huawei VRP collected over SSH by hostlint's runner with netmiko's real `huawei` driver (the inventory
names it `huawei`, an alias of the folder, stored as `huawei_vrp`), from the stateful emulator serving the
switch the folder's samples stand for: the snapshot holds what the emulator shows, through the folder's
templates and assembly (hostlint/switches/huawei_vrp)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from switch_emulator.platforms.huawei_vrp import VrpSwitch, current_configuration, from_switch, rendered, sample_switch
from switch_emulator.server import EmulatedSwitch, SwitchEmulator

from hostlint.collect.hostkeys import HostKeyPolicy
from hostlint.collect.switches import collect_switches
from hostlint.collect.switches.inventory import PASSWORD_ENV, Device
from hostlint.collect.switches.stanzas import interface_lines
from hostlint.switches import canonical_switch


@pytest.fixture
def emulator() -> Iterator[SwitchEmulator]:
    with SwitchEmulator() as running:
        yield running


def test_vrp_collects_over_ssh_into_a_snapshot(
    emulator: SwitchEmulator, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PASSWORD_ENV, "lab-secret")
    state = from_switch(sample_switch())
    expected = rendered(from_switch(sample_switch()))
    port = emulator.add(EmulatedSwitch("hw-tor1", "huawei_vrp", stateful=VrpSwitch(state)))
    # Inventories name it as netmiko does (`huawei`); they store the registry's name, as here.
    platform = canonical_switch("huawei")
    assert platform == canonical_switch("huawei_vrpv8") == "huawei_vrp"
    device = Device(name="hw-tor1", hostname="127.0.0.1", port=port, platform=platform, username="netadmin")
    policy = HostKeyPolicy(emulator.write_known_hosts(tmp_path / "known_hosts"))
    snapshot = collect_switches([device], policy=policy)
    assert snapshot.collection_errors == []
    (switch,) = snapshot.switches
    assert switch.platform == "huawei_vrp" and switch.connection_state == "connected"
    assert switch.mgmt_address == "127.0.0.1"
    # Each interface's own lines of `display current-configuration`, verbatim: what a rollback types back.
    own = interface_lines(current_configuration(state))
    items = [*switch.port_channels, *switch.ports]
    assert {i.name: i.config_lines for i in items} == {i.name: own.get(i.name, []) for i in items}
    assert {i.name: i.config_lines for i in items}["Eth-Trunk1"] == own["Eth-Trunk1"] != []
    assert [c.model_copy(update={"config_lines": None}) for c in switch.port_channels] == expected.port_channels
    assert [dataclasses.replace(p, config_lines=None) for p in switch.ports] == expected.ports
    trunks = {c.name: (c.mode, c.load_balance) for c in switch.port_channels}
    assert trunks["Eth-Trunk1"] == ("lacp-active", "src-dst-ip") and trunks["Eth-Trunk3"][0] == "static"
    ports = {p.name: p for p in switch.ports}
    assert ports["XGigabitEthernet1/0/3"].member_state == "suspended"
    assert ports["XGigabitEthernet0/0/1"].neighbours[0].system_name == "esx01.example.com"
