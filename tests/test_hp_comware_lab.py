"""The Comware lab (fixtures/labs/comware-ip-hash-lacp, the ip-hash-lacp lab on an IRF fabric of two
HPE 5940s) gives the Cisco lab's findings; its switch served by the Comware emulator and collected over
SSH (netmiko `hp_comware`) gives them too; the plan's Comware steps, pasted with netmiko's
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
from switch_emulator.platforms.hp_comware import serve
from switch_emulator.stateful.comware import render

from hostlint.check import check_snapshot
from hostlint.collect.switches.inventory import PASSWORD_ENV
from hostlint.fixes.plan import build_plan
from hostlint.fixes.write import write_plan
from hostlint.rules import load_rules
from hostlint.snapshot import Snapshot, load_site

LABS = Path(__file__).resolve().parent.parent / "fixtures" / "labs"
LAB = LABS / "comware-ip-hash-lacp"
RULES = load_rules()
PASSWORD = "lab-secret"


def _keys(snapshot: Snapshot) -> set[tuple[str, str]]:
    return {(f.code, f.object) for f in check_snapshot(snapshot, RULES).findings}


def test_the_comware_lab_gives_the_cisco_labs_findings() -> None:
    comware = _keys(load_site([LAB]))
    assert comware == _keys(load_site([LABS / "ip-hash-lacp"]))
    assert {code for code, _ in comware} == {"LG002", "LG010"}


def test_the_plan_is_rehearsed_on_the_emulator_and_rolled_back_exactly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    original = load_site([LAB])
    (switch,) = original.switches
    served = serve(switch)
    with served_switch(original, "hp_comware", served, tmp_path) as emulated:
        port, collect = emulated.port, emulated.collect
        first = collect()
        assert _keys(first) == _keys(original)
        configured = render(served.state, "display current-configuration")
        plan = build_plan(check_snapshot(first, RULES), first, unsafe=True)
        folder = tmp_path / "fix"
        write_plan(plan, first, folder)
        steps = [s for s in plan.steps if s.device == switch.name]
        assert {s.change.action for s in steps} == {"switch-port-admin", "switch-channel-mode-static"}
        forward = blocks((folder / f"{switch.name}.hp_comware.txt").read_text(encoding="utf-8"))
        backward = blocks((folder / f"{switch.name}.rollback.hp_comware.txt").read_text(encoding="utf-8"))
        connection = login("hp_comware", port, PASSWORD)
        with ConnectHandler(**connection) as cli:
            for step in steps:
                answer = cli.send_config_set(forward[step.number])
                assert "% " not in answer, (step.number, answer)
        changed = collect()
        targeted = {(s.code, s.object) for step in steps for s in step.sources}
        assert targeted and not targeted & _keys(changed)
        (bagg,) = [c for c in changed.switches[0].port_channels if c.name == "Bridge-Aggregation122"]
        assert bagg.mode == "static"
        with ConnectHandler(**connection) as cli:
            for step in reversed(steps):
                answer = cli.send_config_set(backward[step.number])
                assert "% " not in answer, (step.number, answer)
        last = collect()
        now = render(served.state, "display current-configuration")
        assert now == configured, "\n".join(
            difflib.unified_diff(configured.splitlines(), now.splitlines(), lineterm="")
        )
    assert last.switches == first.switches
    assert _keys(last) == _keys(original)


def test_the_5940s_default_jumbo_frame_is_stored_whole_and_carries_an_esxi_9000_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`Maximum frame length: 9416` (the 5940's default `jumboframe enable`) is an IP MTU of 9398, above
    the 9216 the snapshot used to cap it at; the hosts' 9000 vSwitch over it is no finding, and a frame too
    small for it, typed over SSH, is."""
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    original = load_site([LAB])
    (switch,) = original.switches
    served = serve(switch)
    with served_switch(original, "hp_comware", served, tmp_path) as emulated:
        assert "Maximum frame length: 9416" in render(served.state, "display interface")
        collect = emulated.collect
        first = collect()
        (collected,) = first.switches
        assert {p.mtu for p in (*collected.ports, *collected.port_channels)} == {9398}
        assert collected.multichassis is not None and collected.multichassis.kind == "irf"  # `irf member` lines
        checked = check_snapshot(first, RULES)
        vswitch1 = {f"esx-ams1-c1-0{n}.dc.example.org/vSwitch1" for n in (1, 2)}
        assert vswitch1 <= {p.object for p in checked.passed if p.code == "MT002"}
        assert not [f for f in checked.findings if f.code.startswith("MT")]
        with ConnectHandler(**login("hp_comware", emulated.port, PASSWORD)) as cli:
            interfaces = ["Bridge-Aggregation121", "Ten-GigabitEthernet1/0/22", "Ten-GigabitEthernet2/0/22"]
            lines = [line for name in interfaces for line in (f"interface {name}", "jumboframe enable 9000", "quit")]
            answer = cli.send_config_set(lines)
            assert "% " not in answer, answer
        small = collect()
        assert {p.mtu for p in small.switches[0].port_channels if p.name == "Bridge-Aggregation121"} == {8982}
        mt002 = {f.object for f in check_snapshot(small, RULES).findings if f.code == "MT002"}
        assert mt002 and mt002 <= vswitch1
