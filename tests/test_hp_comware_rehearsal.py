"""Every switch action on HPE Comware, rehearsed: the synthetic site of tests/support/fix_sites.py (every
switch action asked for) on one Comware switch served by the Comware emulator; collected over SSH, its
plan's Comware blocks pasted in plan order with netmiko's `send_config_set` (none refused), then every
undo in reverse; the switch collected again equals the first collection and its running configuration
is restored line for line. (The esxcli side of such plans is
tests/test_fix_rehearse.py's.)"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from netmiko import ConnectHandler
from support.fix_blocks import blocks
from support.fix_sites import findings_for, site
from support.netmiko_login import login
from support.served_switch import served_switch
from switch_emulator.platforms.hp_comware import serve
from switch_emulator.stateful.comware import render

from hostlint.collect.switches.inventory import PASSWORD_ENV
from hostlint.fixes.plan import build_plan
from hostlint.fixes.write import write_plan

PASSWORD = "lab-secret"


def test_every_switch_action_runs_on_the_comware_emulator_and_rolls_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    original = site("hp_comware")
    (switch,) = original.switches
    served = serve(switch)
    with served_switch(original, "hp_comware", served, tmp_path) as emulated:
        port, collect = emulated.port, emulated.collect
        first = collect()
        configured = render(served.state, "display current-configuration")
        plan = build_plan(findings_for(first), first, unsafe=True)
        folder = tmp_path / "fix"
        write_plan(plan, first, folder)
        steps = [s for s in plan.steps if s.device == switch.name]
        actions = {s.change.action for s in steps}
        assert len(actions) >= 7, actions
        forward = blocks((folder / f"{switch.name}.hp_comware.txt").read_text(encoding="utf-8"))
        backward = blocks((folder / f"{switch.name}.rollback.hp_comware.txt").read_text(encoding="utf-8"))
        connection = login("hp_comware", port, PASSWORD)
        with ConnectHandler(**connection) as cli:
            for step in steps:
                answer = cli.send_config_set(forward[step.number])
                assert "% " not in answer, (step.number, step.change.action, answer)
        changed = collect()
        assert changed.switches != first.switches
        with ConnectHandler(**connection) as cli:
            for step in reversed(steps):
                answer = cli.send_config_set(backward[step.number])
                assert "% " not in answer, (step.number, step.change.action, answer)
        last = collect()
        now = render(served.state, "display current-configuration")
    # A Comware port joining an aggregate takes the aggregate's VLAN lines: the rollback of
    # switch-static-port-channel types the members' own collected lines back, so nothing differs.
    joined = {p for s in steps if s.change.action == "switch-static-port-channel" for p in s.change.values["ports"]}
    assert joined
    lost = [line for line in difflib.ndiff(configured.splitlines(), now.splitlines()) if line[:1] in "+-?"]
    assert lost == [], "\n".join(lost)
    assert first.switches == last.switches
