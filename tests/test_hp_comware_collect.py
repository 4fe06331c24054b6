"""HPE Comware collected over SSH by hostlint's runner with netmiko's real `hp_comware` driver, from the
stateful emulator serving the switch the folder's samples stand for: the snapshot holds what the
samples show, through the folder's own templates and assembly."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from switch_emulator.platforms.hp_comware import sample_switch, serve
from switch_emulator.server import EmulatedSwitch, SwitchEmulator

from hostlint.collect.hostkeys import HostKeyPolicy
from hostlint.collect.switches import collect_switches
from hostlint.collect.switches.inventory import PASSWORD_ENV, Device

XGE = "Ten-GigabitEthernet"


@pytest.fixture
def emulator() -> Iterator[SwitchEmulator]:
    with SwitchEmulator() as running:
        yield running


def test_comware_collects_over_ssh_into_a_snapshot(
    emulator: SwitchEmulator, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PASSWORD_ENV, "lab-secret")
    expected, _ = sample_switch()
    port = emulator.add(EmulatedSwitch("hpe-tor1", "hp_comware", stateful=serve(expected)))
    device = Device(name="hpe-tor1", hostname="127.0.0.1", port=port, platform="hp_comware", username="netadmin")
    policy = HostKeyPolicy(emulator.write_known_hosts(tmp_path / "known_hosts"))
    snapshot = collect_switches([device], policy=policy)
    assert snapshot.collection_errors == []
    (switch,) = snapshot.switches
    assert switch.platform == "hp_comware" and switch.connection_state == "connected"
    assert switch.load_balance == expected.load_balance
    assert [(c.name, c.mode, c.members) for c in switch.port_channels] == [
        (c.name, c.mode, c.members) for c in expected.port_channels
    ]
    ports = {p.name: p for p in switch.ports}
    assert ports[f"{XGE}2/0/3"].member_state == "suspended"
    assert ports[f"{XGE}1/0/1"].neighbours[0].system_name == "esx01.example.com"
