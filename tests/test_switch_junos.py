"""The Junos stateful switch emulator (tests/switch_emulator/platforms/juniper_junos.py) against hostlint's Junos
scripts: every change and rollback hostlint writes for a Junos switch is pasted into the emulated CLI
as an engineer would (each step's block, then its CONFIRM lines), is accepted, leaves the state the
plan intends, and the rollback script restores the state exactly; what Junos rejects is rejected with
its text and leaves the state as it was; `commit confirmed` rolls back by itself unless confirmed.

The show commands the collector sends are answered from the state and read back by the real collector
(parse and assembly, tests/test_switch_junos.py::offline).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.fix_sites import findings_for, site
from support.kvm_sites import kvm_site
from switch_emulator.platforms.juniper_junos import JunosSession, configuration, display_set, render

from hostlint.check import check_snapshot
from hostlint.collect.switches import Device, load_platform
from hostlint.collect.switches.assemble import build_switch
from hostlint.collect.switches.parse import Parsed, parse_output
from hostlint.fixes import build_plan, write_scripts
from hostlint.fixes.apply import apply_change
from hostlint.results import CheckResult
from hostlint.rules import load_rules
from hostlint.snapshot import Snapshot, load_site
from hostlint.snapshot.switch import Switch

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "hostlint" / "switches" / "juniper_junos"
MODELS = {"els": "ex4300-48t", "non-els": "ex4200-48t", "qfx": "qfx5120-48y", "mx": "mx204"}


class Clock:
    """A clock the test moves: `commit confirmed` deadlines without sleeping."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def offline(state: Switch) -> tuple[Switch, list[str]]:
    """The collector's parse and assembly of what the emulator shows for `state` (no SSH)."""
    spec = load_platform(state.platform)
    sections: dict[str, Parsed] = {}
    commands: dict[str, str] = {}
    for command in spec.commands:
        text = render(state, command.command)
        assert text is not None, command.command
        commands.setdefault(command.section, command.command)
        sections.setdefault(command.section, Parsed()).merge(parse_output(command, text, state.name))
    device = Device(name=state.name, hostname="127.0.0.1", platform=state.platform)
    switch, warnings = build_switch(device, sections, commands)
    return switch, [w for p in sections.values() for w in p.warnings] + warnings


def paste(session: JunosSession, state: Switch, lines: list[str]) -> list[tuple[str, str]]:
    """Lines as an SSH session delivers them (StatefulSwitch's routing): a show in operational mode
    to the renderer, everything else to the configuration session. Returns (line, answer) pairs."""
    answers = []
    for line in lines:
        if line.startswith("show ") and session.prompt().endswith("> "):
            answer = render(state, line) or "syntax error"
        else:
            answer = session.execute(line)
        answers.append((line, answer))
    return answers


_REFUSED = re.compile(r"syntax error|error:|unknown command|missing argument|not within range")


def refused(answers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(line, answer) for line, answer in answers if _REFUSED.search(answer)]


def collected(state: Switch) -> Switch:
    """The switch as the collector reads it, without what a collection cannot give back."""
    switch, warnings = offline(state)
    assert warnings == []
    switch.mgmt_address = None
    return switch


# --- scripts as an engineer pastes them -----------------------------------------------------------


def steps_of(script: str) -> list[tuple[list[str], list[str]]]:
    """Each step's block and its CONFIRM lines, comments dropped (the CLI ignores them anyway)."""
    steps = []
    for chunk in re.split(r"^# (?:Undo s|S)tep \d+ of \d+.*$", script, flags=re.M)[1:]:
        block, _, confirm = chunk.partition("\n# CONFIRM ")
        commands = [line for line in block.splitlines() if line.strip() and not line.startswith("#")]
        confirms = [line for line in confirm.splitlines()[1:] if line.strip() and not line.startswith("#")]
        steps.append((commands, confirms))
    return steps


def junos_scripts(snapshot: Snapshot, tmp_path: Path, result: object = None) -> dict[str, tuple[str, str]]:
    """Switch name -> (change script, rollback script) for every Junos switch with steps."""
    findings = result if result is not None else findings_for(snapshot)
    written = write_scripts(findings, snapshot, tmp_path)  # type: ignore[arg-type]
    scripts: dict[str, tuple[str, str]] = {}
    for path in written:
        match = re.fullmatch(r"(.+?)(\.rollback)?\.juniper_junos\.txt", path.name)
        if match:
            change, rollback = scripts.get(match.group(1), ("", ""))
            text = path.read_text(encoding="utf-8")
            scripts[match.group(1)] = (change, text) if match.group(2) else (text, rollback)
    return scripts


def junos_site(model: str) -> Snapshot:
    snapshot = site("juniper_junos")
    snapshot.switches[0].model = model
    return snapshot


def rehearse(
    snapshot: Snapshot,
    tmp_path: Path,
    result: object = None,
    partners: frozenset[str] = frozenset(),
    vlans: dict[str, int] | None = None,
) -> dict[str, tuple[Switch, Switch, Switch]]:
    """Every Junos script of the plan pasted step by step with its confirm, then its rollback script.
    Returns switch -> (state before, after the change script, after the rollback script)."""
    states = {}
    plan_steps = build_plan(result if result is not None else findings_for(snapshot), snapshot).steps  # type: ignore[arg-type]
    for name, (change, rollback) in junos_scripts(snapshot, tmp_path, result).items():
        start = next(s for s in snapshot.switches if s.name == name)
        state = start.model_copy(deep=True)
        # The scripts say: VLANs a trunk is given must exist (`set vlans NAME vlan-id N`); the site has them.
        session = JunosSession(state, partners, clock=Clock(), vlans=vlans or {"VM-100": 100})
        for block, confirm in steps_of(change):
            assert refused(paste(session, state, block)) == [], block
            assert session.pending is not None or not any(line.startswith("commit confirmed") for line in block)
            assert refused(paste(session, state, confirm)) == []
            assert session.pending is None
        after = state.model_copy(deep=True)
        for block, confirm in steps_of(rollback):
            assert refused(paste(session, state, block)) == [], block
            assert refused(paste(session, state, confirm)) == []
        states[name] = (start, after, state.model_copy(deep=True))
        # The plan's own model of the change (hostlint.fixes.apply) on the facts the switch change sets.
        simulated = snapshot.model_copy(deep=True)
        for step in plan_steps:
            apply_change(simulated, step.change)
        intended = next(s for s in simulated.switches if s.name == name)
        # Member states follow the far end too (a host step may change it): compared where the switch changed.
        changed = {p.name for p, q in zip(start.ports, after.ports, strict=True) if p != q}
        assert _intended(intended, changed) == _intended(after, changed), name
    return states


def _intended(switch: Switch, changed: set[str]) -> dict[str, object]:
    """What a switch step sets: bundles, their modes and members, MTUs, forced speeds, VLANs carried,
    and whether each member carries traffic."""
    channels = {c.name: (c.mode, sorted(c.members), c.mtu) for c in switch.port_channels}
    ports = {
        p.name: (
            p.port_channel,
            p.member_state if p.name in changed else None,
            p.mtu,
            p.configured_speed_mbps,
            p.configured_duplex,
            p.allowed_vlans,
            p.native_vlan or 0,
        )
        for p in switch.ports
        if p.mode != "routed"
    }
    return {"channels": channels, "ports": ports}


def recheck(snapshot: Snapshot, result: CheckResult, states: dict[str, tuple[Switch, Switch, Switch]]) -> None:
    """The contract's check: the Junos switches re-collected from the emulator after the change (the
    hosts as hostlint's own model of the plan leaves them) clear the findings the Junos steps target and
    raise none the first collection did not have; after the rollback the collection is the first one."""
    rules = load_rules()
    plan = build_plan(result, snapshot)
    first = snapshot.model_copy(deep=True)
    first.switches = [collected(s) if s.platform == "juniper_junos" else s for s in first.switches]
    before = {(f.code, f.object) for f in check_snapshot(first, rules).findings}
    changed = snapshot.model_copy(deep=True)
    for step in plan.steps:  # hosts as hostlint models them after every step; the switch as shown
        apply_change(changed, step.change)
    changed.switches = [collected(states[s.name][1]) if s.name in states else s for s in first.switches]
    after = {(f.code, f.object) for f in check_snapshot(changed, rules).findings}
    targeted = {(src.code, src.object) for st in plan.steps if st.device in states for src in st.sources}
    assert targeted and targeted <= before
    assert not targeted & after
    assert after <= before
    for start, _after, back in states.values():
        assert collected(back) == collected(start)


# --- rehearsals -----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(MODELS))
def test_every_junos_step_and_its_rollback_on_the_synthetic_site(kind: str, tmp_path: Path) -> None:
    snapshot = junos_site(MODELS[kind])
    states = rehearse(snapshot, tmp_path)
    assert set(states) == {"sw1"}
    start, after, back = states["sw1"]
    assert after != start
    assert back == start  # the rollback restores the state exactly
    assert collected(back) == collected(start)


def test_the_cabling_lab_plan_rehearsed(tmp_path: Path) -> None:
    snapshot = load_site([ROOT / "fixtures" / "labs" / "cabling-file"])
    # The lab leaves ae23's VLANs unread, and then its removal is left to a person (tests/test_fix_choice.py);
    # here they are known: the trunk of esx-zrh-03's vSwitch1 port groups, which its member carries once it goes.
    qfx = next(s for s in snapshot.switches if s.name == "zrh-qfx02")
    ae23 = next(c for c in qfx.port_channels if c.name == "ae23")
    ae23.switchport, ae23.native_vlan, ae23.allowed_vlans = "trunk", 1, [(50, 51), (300, 300), (310, 310)]
    result = check_snapshot(snapshot, load_rules())
    junos = [s.name for s in snapshot.switches if s.platform == "juniper_junos"]
    vlans = {"NFS": 50, "vMotion": 51, "VM-Prod": 300, "VM-Test": 310}
    states = rehearse(snapshot, tmp_path, result, vlans=vlans)
    # zrh-qfx02's decommissioned ae23 (one member, LACP towards nothing) is removed, then restored.
    assert set(states) == {"zrh-qfx02"} and set(junos) >= set(states)
    start, after, back = states["zrh-qfx02"]
    assert "ae23" not in {c.name for c in after.port_channels}
    assert back == start
    recheck(snapshot, result, states)


def test_a_static_channel_facing_an_lacp_bond_becomes_lacp_and_bundles(tmp_path: Path) -> None:
    """kvm_site's site: kvm02's 802.3ad bond on static ae20 (xe-0/0/3, xe-0/0/4); its far end runs LACP."""
    snapshot = kvm_site("juniper_junos")
    snapshot.switches[0].model = "ex4300-48t"
    result = check_snapshot(snapshot, load_rules())
    states = rehearse(snapshot, tmp_path, result, partners=frozenset({"xe-0/0/3", "xe-0/0/4"}))
    start, after, back = states["sw1"]
    ae20 = next(c for c in after.port_channels if c.name == "ae20")
    assert ae20.mode == "lacp-active" and ae20.status == "up"
    assert {p.name: p.member_state for p in after.ports if p.port_channel == "ae20"} == {
        "xe-0/0/3": "bundled",
        "xe-0/0/4": "bundled",
    }
    assert back == start
    recheck(snapshot, result, states)


def test_lacp_towards_a_far_end_without_lacp_is_suspended() -> None:
    state = junos_site("ex4300-48t").switches[0]
    session = JunosSession(state, frozenset({"xe-0/0/31"}), clock=Clock())
    paste(session, state, ["configure", "delete interfaces ae30 aggregated-ether-options lacp", "commit"])
    assert {p.name: p.member_state for p in state.ports if p.port_channel == "ae30"} == {
        "xe-0/0/31": "bundled",
        "xe-0/0/32": "bundled",
    }
    paste(session, state, ["set interfaces ae30 aggregated-ether-options lacp passive", "commit", "exit"])
    assert {p.name: p.member_state for p in state.ports if p.port_channel == "ae30"} == {
        "xe-0/0/31": "bundled",
        "xe-0/0/32": "suspended",
    }
    assert next(c.mode for c in state.port_channels if c.name == "ae30") == "lacp-passive"


def test_rename_moves_a_statement() -> None:
    session, state, _clock = _session()
    answers = paste(
        session,
        state,
        [
            "configure",
            "rename interfaces xe-0/0/11 unit 0 to interfaces xe-0/0/12 unit 0",
            "delete interfaces xe-0/0/12 unit 0",
            "rename interfaces xe-0/0/11 unit 0 to interfaces xe-0/0/12 unit 0",
            "show | compare",
        ],
    )
    assert answers[1][1] == "error: target statement already exists\n"
    assert answers[3][1] == ""
    assert answers[4][1] == (
        "[edit interfaces xe-0/0/11 unit 0 family ethernet-switching]\n-   interface-mode trunk;\n"
    )


# --- commit confirmed -----------------------------------------------------------------------------


def _session(model: str = "ex4300-48t") -> tuple[JunosSession, Switch, Clock]:
    state = junos_site(model).switches[0]
    clock = Clock()
    return JunosSession(state, frozenset(), clock=clock), state, clock


def _mtu(state: Switch, port: str) -> int | None:
    return next(p.mtu for p in state.ports if p.name == port)


CHANGE = ["configure private", "set interfaces xe-0/0/11 mtu 9216", "commit confirmed 10", "exit"]
CONFIRM = ["configure private", "commit", "exit"]


def test_commit_confirmed_rolls_back_by_itself_without_the_confirm() -> None:
    session, state, clock = _session()
    before = state.model_copy(deep=True)
    answers = dict(paste(session, state, CHANGE))
    assert "rolled back in 10 minutes unless confirmed" in answers["commit confirmed 10"]
    assert _mtu(state, "xe-0/0/11") == 9202
    clock.now += 599
    session.prompt()
    assert _mtu(state, "xe-0/0/11") == 9202
    clock.now += 1
    session.prompt()  # the next thing the engineer sees: the change is gone
    assert state == before
    assert "set interfaces xe-0/0/11 mtu 9216" not in render(state, "show configuration | display set")  # type: ignore[operator]


def test_the_scripts_confirm_keeps_the_change() -> None:
    session, state, clock = _session()
    paste(session, state, CHANGE)
    clock.now += 300
    assert refused(paste(session, state, CONFIRM)) == []
    clock.now += 3600
    session.prompt()
    assert _mtu(state, "xe-0/0/11") == 9202
    assert session.pending is None


def test_plan_step_without_its_confirm_is_undone(tmp_path: Path) -> None:
    """Step by step as PLAN.md says, but the engineer never pastes a CONFIRM: each step is undone."""
    snapshot = junos_site("ex4300-48t")
    change, _ = junos_scripts(snapshot, tmp_path)["sw1"]
    state = snapshot.switches[0].model_copy(deep=True)
    clock = Clock()
    session = JunosSession(state, frozenset(), clock=clock, vlans={"VM-100": 100})
    start = state.model_copy(deep=True)
    for block, _confirm in steps_of(change):
        if not block:
            continue  # a step left to a person (REVIEW only)
        assert refused(paste(session, state, block)) == []
        # Bringing a port back (`delete ... disable`) changes nothing here: its shutdown was undone already.
        brings_back = any(line.startswith("delete interfaces ") and line.endswith(" disable") for line in block)
        assert state != start or brings_back
        clock.now += 10 * 60
        session.prompt()
        assert state == start


def plan_md_steps(plan_md: str) -> list[tuple[int, list[str], list[str]]]:
    """Each Junos step of PLAN.md: its number, its verify commands, the CONFIRM lines it says to paste."""
    found = []
    for section in re.split(r"^### ", plan_md, flags=re.M)[1:]:
        run = re.search(r"\*\*Run:\*\* step (\d+) of `[^`]+\.juniper_junos\.txt`", section)
        if not run:
            continue
        verify = re.search(r"\*\*Verify\*\* \(juniper_junos\):\n\n  ```\n(.*?)\n  ```", section, flags=re.S)
        confirm = re.search(r"paste the step's CONFIRM lines \(([^)]*)\)", section.replace("\n  ", " "))
        commands = [line.strip() for line in verify.group(1).splitlines()] if verify else []
        lines = re.findall(r"`([^`]+)`", confirm.group(1)) if confirm else []
        found.append((int(run.group(1)), commands, lines))
    return found


def test_script_and_plan_md_sequence_leaves_every_change_in_place(tmp_path: Path) -> None:
    """An engineer following PLAN.md: run the step's block, run its verify commands, paste the CONFIRM
    lines PLAN.md names; an hour later every change is still there (and equals the scripted rehearsal)."""
    snapshot = junos_site("ex4300-48t")
    written = write_scripts(findings_for(snapshot), snapshot, tmp_path)
    plan_md = next(p for p in written if p.name == "PLAN.md").read_text(encoding="utf-8")
    script = (tmp_path / "sw1.juniper_junos.txt").read_text(encoding="utf-8")
    blocks = {
        int(m.group(1)): chunk
        for m, chunk in zip(re.finditer(r"^# Step (\d+) of", script, flags=re.M), steps_of(script), strict=True)
    }
    state = snapshot.switches[0].model_copy(deep=True)
    clock = Clock()
    session = JunosSession(state, frozenset(), clock=clock, vlans={"VM-100": 100})
    steps = plan_md_steps(plan_md)
    assert [n for n, _, _ in steps] == sorted(blocks)
    for number, verify, confirm in steps:
        block, _ = blocks[number]
        assert refused(paste(session, state, block)) == []
        for command in verify:
            shown = render(state, command)
            assert shown is not None and "error" not in shown, command
        if block:
            assert confirm == ["configure private", "commit", "exit"]
        clock.now += 5 * 60
        assert refused(paste(session, state, confirm if block else [])) == []
        clock.now += 3600
        session.prompt()
    expected = rehearse(junos_site("ex4300-48t"), tmp_path / "scripted")["sw1"][1]
    assert state == expected != snapshot.switches[0]


def test_commit_check_also_confirms_and_the_default_is_ten_minutes() -> None:
    session, state, clock = _session()
    answers = dict(paste(session, state, ["configure", "set interfaces xe-0/0/11 mtu 9216", "commit confirmed"]))
    assert "rolled back in 10 minutes" in answers["commit confirmed"]
    assert session.execute("commit check") == "configuration check succeeds\n"
    clock.now += 3600
    session.prompt()
    assert _mtu(state, "xe-0/0/11") == 9202
    assert session.execute("rollback 60") != "load complete\n"
    assert session.execute("rollback 7") == "error: rollback 7 does not exist\n"


def test_rollback_and_compare() -> None:
    session, state, _clock = _session()
    paste(session, state, ["configure", "set interfaces xe-0/0/11 mtu 9216", "commit", "exit"])
    assert _mtu(state, "xe-0/0/11") == 9202
    answers = dict(paste(session, state, ["configure", "rollback 1", "show | compare"]))
    assert answers["rollback 1"] == "load complete\n"
    assert answers["show | compare"] == "[edit interfaces xe-0/0/11]\n-   mtu 9216;\n"
    paste(session, state, ["commit", "exit"])
    assert _mtu(state, "xe-0/0/11") == 1500


def test_the_shared_candidate_is_kept_across_configure_and_applies_on_commit() -> None:
    session, state, _clock = _session()
    answers = dict(paste(session, state, ["configure", "set interfaces xe-0/0/11 mtu 9216", "exit"]))
    assert answers["exit"] == "The configuration has been changed but not committed\nExiting configuration mode\n"
    assert _mtu(state, "xe-0/0/11") == 1500
    assert (
        paste(session, state, ["configure", "show | compare"])[-1][1] == "[edit interfaces xe-0/0/11]\n+   mtu 9216;\n"
    )
    paste(session, state, ["commit", "exit"])
    assert _mtu(state, "xe-0/0/11") == 9202


def test_private_candidate_is_discarded_on_exit_and_nothing_applies_before_commit() -> None:
    session, state, _clock = _session()
    before = state.model_copy(deep=True)
    answers = dict(paste(session, state, ["configure private", "set interfaces xe-0/0/11 mtu 9216"]))
    assert answers["configure private"].startswith("warning: uncommitted changes will be discarded on exit")
    assert state == before
    assert session.prompt() == "netadmin@sw1# "
    paste(session, state, ["exit"])
    assert session.prompt() == "netadmin@sw1> "
    assert dict(paste(session, state, ["configure", "show | compare"]))["show | compare"] == ""


# --- rejections -----------------------------------------------------------------------------------


REJECTED = [
    # ELS: speed is on the interface ("speed (Ethernet)"); ether-options speed takes no speed value.
    ("ex4300-48t", ["set interfaces xe-0/0/1 ether-options speed 1g"], "syntax error."),
    # non-ELS: speed and link-mode live under ether-options; no ELS interface-mode, no interface native VLAN.
    ("ex4200-48t", ["set interfaces xe-0/0/1 speed 1g"], "syntax error."),
    ("ex4200-48t", ["set interfaces xe-0/0/1 link-mode full-duplex"], "syntax error."),
    ("ex4200-48t", ["set interfaces xe-0/0/1 unit 0 family ethernet-switching interface-mode trunk"], "syntax error."),
    ("ex4200-48t", ["set interfaces xe-0/0/2 native-vlan-id 1"], "syntax error."),
    ("ex4300-48t", ["set interfaces xe-0/0/1 unit 0 family ethernet-switching port-mode trunk"], "syntax error."),
    ("ex4300-48t", ["set interfaces xe-0/0/1 unit 0 family ethernet-switching native-vlan-id 1"], "syntax error."),
    ("ex4300-48t", ["set interfaces xe-0/0/11 mtu 9217"], "value 9217 is not within range (256..9216) at '9217'"),
    ("ex4300-48t", ["set interfaces xe-0/0/11 frobnicate"], "syntax error."),
    ("ex4300-48t", ["set vlans V vlan-id 4095"], "value 4095 is not within range (1..4094) at '4095'"),
    # commit check: a member with a logical unit; a bundle above the device count; an undefined VLAN.
    (
        "ex4300-48t",
        ["set interfaces xe-0/0/11 ether-options 802.3ad ae20", "commit"],
        "[edit interfaces xe-0/0/11]\n  'unit 0'\n    Logical unit is not allowed on aggregated links\n"
        "error: configuration check-out failed",
    ),
    (
        "ex4300-48t",
        ["delete interfaces xe-0/0/12 unit 0", "set interfaces xe-0/0/12 ether-options 802.3ad ae40", "commit"],
        "'ae40'\n    Aggregated Ethernet interface ae40 does not exist: chassis aggregated-devices ethernet "
        "device-count is 31\nerror: configuration check-out failed",
    ),
    (
        "ex4300-48t",
        ["delete chassis aggregated-devices", "commit check"],
        "device-count is not configured\nerror: configuration check-out failed",
    ),
    (
        "ex4300-48t",
        ["set interfaces xe-0/0/11 unit 0 family ethernet-switching vlan members 300", "commit"],
        "No vlan matches vlan tag 300 for interface xe-0/0/11.0\nerror: configuration check-out failed",
    ),
]


@pytest.mark.parametrize(("model", "lines", "error"), REJECTED)
def test_rejected_as_junos_does_and_nothing_changes(model: str, lines: list[str], error: str) -> None:
    session, state, _clock = _session(model)
    before = state.model_copy(deep=True)
    config = dict(session.active)
    answers = paste(session, state, ["configure private", *lines])
    assert error in answers[-1][1]
    paste(session, state, ["commit", "exit"] if "commit" not in lines[-1] else ["exit"])
    assert state == before
    assert session.active == config


def test_the_caret_points_at_the_word_refused() -> None:
    session, state, _clock = _session("ex4200-48t")
    paste(session, state, ["configure"])
    answer = session.execute("set interfaces xe-0/0/1 speed 1g")
    caret = answer.splitlines()[0]
    assert len(caret) - 1 == len("netadmin@sw1# ") + len("set interfaces xe-0/0/1 ")


def test_deleting_what_is_not_there_only_warns() -> None:
    session, state, _clock = _session("ex4300-48t")
    paste(session, state, ["configure"])
    assert session.execute("delete interfaces xe-0/0/11 ether-options speed") == "warning: statement not found\n"
    assert session.execute("delete interfaces xe-0/0/11 speed") == "warning: statement not found\n"


# --- the collector reads what the emulator shows --------------------------------------------------


def _sample_state() -> Switch:
    """The switch hostlint collects from the captured Junos samples (hostlint/switches/juniper_junos/*.txt)."""
    spec = load_platform("juniper_junos")
    sections: dict[str, Parsed] = {}
    commands: dict[str, str] = {}
    for command in spec.commands:
        text = (SAMPLES / (command.command.replace(" | ", "_").replace(" ", "_") + ".txt")).read_text()
        commands.setdefault(command.section, command.command)
        sections.setdefault(command.section, Parsed()).merge(parse_output(command, text, "ex1"))
    switch, warnings = build_switch(
        Device(name="ex1", hostname="127.0.0.1", platform="juniper_junos"), sections, commands
    )
    assert warnings == []
    return switch


def test_the_collected_sample_switch_shown_again_reads_back_the_same() -> None:
    state = _sample_state()
    state.mgmt_address = None
    assert collected(state) == state


def _kinds(text: str) -> set[str]:
    """The kinds of line a show output has: names and numbers blanked, up to the first colon."""
    kinds = set()
    for line in text.splitlines():
        kind = re.sub(r"\d+", "N", re.sub(r"(?:ge|xe|et|ae)-?[\d/]+(?:\.\d+)?", "IF", line))
        kinds.add(" ".join(kind.split()).split(":")[0][:40])
    return kinds


@pytest.mark.parametrize(
    "command",
    ["show interfaces extensive", "show lacp interfaces", "show lldp neighbors", "show virtual-chassis"],
)
def test_every_kind_of_line_of_the_captured_sample_is_shown(command: str) -> None:
    sample = (SAMPLES / (command.replace(" ", "_") + ".txt")).read_text(encoding="utf-8")
    shown = render(_sample_state(), command)
    assert shown is not None
    assert _kinds(shown) == _kinds(sample)


def _junos_states() -> list[Switch]:
    """The synthetic sites' Junos switch per family and every Junos switch of the labs."""
    states = [junos_site(model).switches[0] for model in MODELS.values()]
    for lab in sorted((ROOT / "fixtures" / "labs").iterdir()):
        if (lab / "switches.json").is_file():
            states += [s for s in load_site([lab]).switches if s.platform == "juniper_junos"]
    return states


@pytest.mark.parametrize("state", _junos_states(), ids=lambda s: f"{s.name}-{s.model}")
def test_a_collected_state_is_a_fixpoint(state: Switch) -> None:
    """What the collector reads from the emulator, shown again, reads back the same."""
    first = collected(state)
    assert collected(first) == first
    assert [p.name for p in first.ports] == [p.name for p in state.ports]
    assert [(c.name, c.mode, c.members) for c in first.port_channels] == [
        (c.name, c.mode, c.members) for c in state.port_channels
    ]


def test_configuration_follows_the_family() -> None:
    els = display_set(configuration(junos_site("ex4300-48t").switches[0]))
    non_els = display_set(configuration(junos_site("ex4200-48t").switches[0]))
    assert "set interfaces xe-0/0/1 speed 1g" in els
    assert "set interfaces xe-0/0/2 native-vlan-id 5" in els
    assert "set interfaces xe-0/0/1 ether-options speed 1g" in non_els
    assert "set interfaces xe-0/0/2 unit 0 family ethernet-switching native-vlan-id 5" in non_els
    assert "set interfaces xe-0/0/2 unit 0 family ethernet-switching port-mode trunk" in non_els


@pytest.mark.parametrize(
    ("mux", "receive", "state"),
    [
        ("Collecting distributing", "Current", "bundled"),
        ("Distributing", "Current", "bundled"),
        ("Collecting distributing", "Port disabled", "bundled"),
        ("Detached", "Port disabled", "down"),
        ("Attached", "Defaulted", "suspended"),
        ("Waiting", None, "suspended"),
        ("", "Port disabled", None),
        (None, None, None),
    ],
)
def test_member_flags_come_from_the_folder(mux: str | None, receive: str | None, state: str | None) -> None:
    """Junos's mux words (juniper_junos/members.py, read through the registry): only a distributing member
    is bundled; any other is suspended, or down when its receive state says its port is disabled."""
    from hostlint import switches

    flags = switches.member_flags("juniper_junos")
    assert flags is not None
    assert flags.state(mux, receive) == state
