"""The VRP lab (fixtures/labs/vrp-ip-hash-lacp, the ip-hash-lacp lab on an iStack of two Huawei S6730-H
switches) gives the Cisco lab's findings, finding by finding; its switches.json is what hostlint collects
over SSH (netmiko `huawei`) from the VRP emulator serving it; the plan's VRP steps, pasted with netmiko's
`send_config_set`, clear the findings they target, and their rollback restores the switch exactly, its
running configuration line for line."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from netmiko import ConnectHandler
from support.fix_blocks import blocks
from support.netmiko_login import login
from support.served_switch import served_switch
from switch_emulator.platforms.huawei_vrp import render, serve

from hostlint.check import check_snapshot
from hostlint.collect.switches.inventory import PASSWORD_ENV
from hostlint.fixes.plan import build_plan
from hostlint.fixes.write import write_plan
from hostlint.rules import load_rules
from hostlint.snapshot import Snapshot, load_site

LABS = Path(__file__).resolve().parent.parent / "fixtures" / "labs"
LAB = LABS / "vrp-ip-hash-lacp"
RULES = load_rules()
PASSWORD = "lab-secret"


def _keys(snapshot: Snapshot) -> set[tuple[str, str]]:
    return {(f.code, f.object) for f in check_snapshot(snapshot, RULES).findings}


def _findings(snapshot: Snapshot) -> list[tuple[str, str, str]]:
    return sorted((f.code, f.object, f.severity) for f in check_snapshot(snapshot, RULES).findings)


def test_the_vrp_lab_gives_the_cisco_labs_findings() -> None:
    vrp = _findings(load_site([LAB]))
    assert vrp == _findings(load_site([LABS / "ip-hash-lacp"]))
    assert [code for code, _, _ in vrp] == ["LG002", "LG010", "LG010"]


# The lab as it is (an S-series iStack, VRP 5, netmiko `huawei`), and the same switch as a CloudEngine (VRP 8,
# netmiko `huawei_vrpv8`): changes wait for `commit` there (families.py), so every block of its plan ends
# with one and the emulator keeps them as a candidate until it comes.
VARIANTS = [(None, "huawei"), (("CE6881-48S6CQ", "8.180"), "huawei_vrpv8")]


@pytest.mark.parametrize(("cloudengine", "driver"), VARIANTS, ids=["vrp5", "vrp8"])
def test_the_plan_is_rehearsed_on_the_emulator_and_rolled_back_exactly(
    cloudengine: tuple[str, str] | None, driver: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    original = load_site([LAB])
    if cloudengine is not None:  # VRP 8 configures an LACP Eth-Trunk as `mode lacp-static`
        model, version = cloudengine
        cloud = original.switches[0].model_copy(update={"model": model, "os_version": version}, deep=True)
        for channel in cloud.port_channels:
            channel.config_lines = [
                "mode lacp-static" if line == "mode lacp" else line for line in channel.config_lines or []
            ]
        original = original.model_copy(update={"switches": [cloud]})
    (switch,) = original.switches
    served = serve(switch)
    with served_switch(original, "huawei_vrp", served, tmp_path) as emulated:
        port, collect = emulated.port, emulated.collect
        first = collect()
        # The lab's switches.json is this collection; its address and aliases are the inventory's.
        assert first.switches == [switch.model_copy(update={"mgmt_address": "127.0.0.1", "aliases": []})]
        assert _findings(first) == _findings(original)
        configured = render(served.state, "display current-configuration")
        assert configured is not None
        plan = build_plan(check_snapshot(first, RULES), first, unsafe=True)
        folder = tmp_path / "fix"
        write_plan(plan, first, folder)
        steps = [s for s in plan.steps if s.device == switch.name]
        assert {s.change.action for s in steps} == {"switch-port-admin", "switch-channel-mode-static"}
        forward = blocks((folder / f"{switch.name}.huawei_vrp.txt").read_text(encoding="utf-8"))
        backward = blocks((folder / f"{switch.name}.rollback.huawei_vrp.txt").read_text(encoding="utf-8"))
        commits = {lines[-1].strip() == "commit" for lines in (*forward.values(), *backward.values())}
        assert commits == {cloudengine is not None}
        connection = login(driver, port, PASSWORD)
        with ConnectHandler(**connection) as cli:
            for step in steps:
                answer = cli.send_config_set(forward[step.number])
                assert "Error" not in answer, (step.number, answer)
        changed = collect()
        targeted = {(s.code, s.object) for step in steps for s in step.sources}
        assert targeted and not targeted & _keys(changed)
        (trunk,) = [c for c in changed.switches[0].port_channels if c.name == "Eth-Trunk122"]
        assert trunk.mode == "static"
        with ConnectHandler(**connection) as cli:
            for step in reversed(steps):
                answer = cli.send_config_set(backward[step.number])
                assert "Error" not in answer, (step.number, answer)
        last = collect()
        now = render(served.state, "display current-configuration")
        assert now == configured, "\n".join(
            difflib.unified_diff(configured.splitlines(), (now or "").splitlines(), lineterm="")
        )
    assert last.switches == first.switches
    assert _findings(last) == _findings(original)
