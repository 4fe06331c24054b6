"""A switch that is slow to show its prompt is collected whole, or the collection says what it lost.

netmiko finds the prompt by sending a bare Enter before each command; here the canned IOS switch
(the `static` scenario) answers that Enter 2.5 s late, as a loaded switch or link may.
"""

from __future__ import annotations

from switch_emulator import EmulatedSwitch, SwitchEmulator, build

from hostlint.collect.hostkeys import HostKeyPolicy
from hostlint.collect.switches import Device, collect_switches
from hostlint.collect.switches.inventory import PASSWORD_ENV


def test_a_slow_prompt_loses_nothing_silently(tmp_path, monkeypatch) -> None:
    with SwitchEmulator() as emulator:
        switch = EmulatedSwitch(name="sw-ios1", platform="cisco_ios", outputs=build("cisco_ios"), delays={"": 2.5})
        port = emulator.add(switch)
        monkeypatch.setenv(PASSWORD_ENV, "lab-secret")
        known_hosts = emulator.write_known_hosts(tmp_path / "known_hosts")
        device = Device(name="sw-ios1", hostname="127.0.0.1", port=port, platform="cisco_ios", username="netadmin")
        snapshot = collect_switches([device], policy=HostKeyPolicy(known_hosts))
    collected = snapshot.switches[0]
    reasons = [e.reason for e in snapshot.collection_errors]
    # Either the answers came whole, or each command that always answers and did not is named.
    if len(collected.ports) < 9 or collected.load_balance is None:
        assert any("'show interfaces': empty answer" in r for r in reasons), reasons
        assert any("'show running-config': empty answer" in r for r in reasons), reasons


def test_a_blank_answer_to_a_command_that_always_answers_is_asked_again(tmp_path, monkeypatch) -> None:
    blank = {"show running-config", "show interfaces"}
    with SwitchEmulator() as emulator:
        switch = EmulatedSwitch(name="sw-ios1", platform="cisco_ios", outputs=build("cisco_ios"), blank_once=set(blank))
        port = emulator.add(switch)
        monkeypatch.setenv(PASSWORD_ENV, "lab-secret")
        known_hosts = emulator.write_known_hosts(tmp_path / "known_hosts")
        device = Device(name="sw-ios1", hostname="127.0.0.1", port=port, platform="cisco_ios", username="netadmin")
        snapshot = collect_switches([device], policy=HostKeyPolicy(known_hosts))
    assert switch.blank_once == set(), [e.reason for e in snapshot.collection_errors]
    assert snapshot.collection_errors == []
    collected = snapshot.switches[0]
    assert len(collected.ports) >= 9 and collected.load_balance is not None
