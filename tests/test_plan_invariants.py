"""Every plan hostlint can write satisfies the plan invariants (hostlint.fixes.invariants, issue #26).

Checked over every lab (with and without --unsafe-fixes), every synthetic site the fix tests build,
and sites generated at random (tests/support/site_strategy.py) with a fixed seed; bench/plan_invariants.py
runs more. The examples below are the cases that motivated each invariant: each fails on the
planner before its fix.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, seed, settings
from support.fix_sites import findings_for, site
from support.kvm_sites import SWITCH_NAMES, kvm_site, lab, lab_result
from support.site_strategy import sites

from hostlint.change.setexpr import ChangeError, parse_set, resolve
from hostlint.check import check_snapshot
from hostlint.fixes import build_plan
from hostlint.fixes.actions import ActionError, check_fix_steps, units
from hostlint.fixes.invariants import Violation, check_plan, files_owned, one_object, rollback_restores
from hostlint.fixes.plan import Plan
from hostlint.fixes.render import render
from hostlint.fixes.scripts import script_name
from hostlint.fixes.write import write_plan
from hostlint.join import build_facts
from hostlint.rules import RuleError, load_rules
from hostlint.snapshot import Snapshot, load_site

LABS = Path(__file__).resolve().parent.parent / "fixtures" / "labs"
LAB_DIRS = sorted(p for p in LABS.iterdir() if (p / "expected.yaml").is_file())
RULES = load_rules()
# About a minute and a half on one core; bench/plan_invariants.py runs more with any seed.
GENERATED_SITES = 500


def _violations(snapshot: Snapshot, plan: Plan) -> list[str]:
    return [str(v) for v in check_plan(snapshot, plan, RULES)]


@pytest.mark.parametrize("unsafe", [True, False])
@pytest.mark.parametrize("lab_dir", LAB_DIRS, ids=lambda p: p.name)
def test_every_lab_plan_keeps_the_invariants(lab_dir: Path, unsafe: bool) -> None:
    snapshot = load_site([lab_dir])
    plan = build_plan(check_snapshot(snapshot, RULES), snapshot, unsafe=unsafe)
    assert _violations(snapshot, plan) == []


@pytest.mark.parametrize("platform", sorted(SWITCH_NAMES))
def test_every_synthetic_site_plan_keeps_the_invariants(platform: str) -> None:
    snapshot = site(platform)
    for result in (findings_for(snapshot), check_snapshot(snapshot, RULES)):
        plan = build_plan(result, snapshot)
        assert _violations(snapshot, plan) == []


def _as_collected(snapshot: Snapshot) -> Snapshot:
    """The site's switches as the collector reads them from the emulators: each interface's own
    running-configuration lines kept (config_lines), so invariant 4 is checked on them."""
    from support.offline_collect import offline
    from switch_emulator.stateful import StatefulSwitch
    from switch_rehearsal import emulated

    network = emulated(snapshot)
    switches = [offline(StatefulSwitch(s).state)[0] for s in network.switches]
    return network.model_copy(update={"switches": switches}, deep=True)


@pytest.mark.parametrize("platform", sorted(SWITCH_NAMES))
def test_every_synthetic_site_plan_as_collected_restores_its_lines(platform: str) -> None:
    snapshot = _as_collected(site(platform))
    plan = build_plan(findings_for(snapshot), snapshot, unsafe=True)
    assert _violations(snapshot, plan) == []
    # Checkable here: the channel removal's rollback re-types the channel's and its members' lines.
    removals = [s for s in plan.steps if s.action.action == "switch-remove-port-channel"]
    assert removals and all(s.change.values["channel_lines"] for s in removals)
    assert all(r["lines"] for s in removals for r in s.change.values["restore"])


def test_a_junos_rollback_sets_no_link_statement_the_port_did_not_have() -> None:
    snapshot = _as_collected(site("juniper_junos"))
    plan = build_plan(findings_for(snapshot), snapshot, unsafe=True)
    autoneg = [s for s in plan.steps if s.action.action == "switch-port-autoneg"]
    assert autoneg
    for step in autoneg:
        assert "no-auto-negotiation" not in render(step, "juniper_junos", "rollback")
        invented = copy.deepcopy(step)
        invented.change.values["restore_lines"] = [
            f"set interfaces {step.change.target} ether-options no-auto-negotiation"
        ]
        assert [v.invariant for v in rollback_restores([(invented, snapshot, snapshot)])] == [4]


@pytest.mark.parametrize("platform", [None, *sorted(SWITCH_NAMES)])
def test_kvm_site_plans_keep_the_invariants(platform: str | None) -> None:
    snapshot = lab() if platform is None else kvm_site(platform)
    plan = build_plan(lab_result(snapshot), snapshot)
    assert _violations(snapshot, plan) == []


@seed(26)
@settings(
    max_examples=GENERATED_SITES,
    deadline=None,
    database=None,
    derandomize=False,
    suppress_health_check=list(HealthCheck),
)
@given(sites())
def test_generated_site_plans_keep_the_invariants(snapshot: Snapshot) -> None:
    result = check_snapshot(snapshot, RULES)
    assert _violations(snapshot, build_plan(result, snapshot, unsafe=True)) == []


def test_generated_sites_exercise_each_spanning_tree_case() -> None:
    """Invariant 5 on generated sites meets all three: a new spanning-tree port warned about (no edge
    lines), one whose edge settings are unknown (lines not collected; Junos), and an edge port, unwarned."""
    from hostlint.fixes.invariants import simulate_plan
    from hostlint.fixes.members import PAIRS, edge_port, new_stp_ports

    seen: dict[object, int] = {}

    @seed(26)
    @settings(max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(sites())
    def count(snapshot: Snapshot) -> None:
        plan = build_plan(check_snapshot(snapshot, RULES), snapshot, unsafe=True)
        _, states, _ = simulate_plan(snapshot, plan)
        for step, before, after in states:
            if step.action.device != "switch":
                continue
            old = next(s for s in before.switches if s.name == step.device)
            new = next(s for s in after.switches if s.name == step.device)
            pair = old.multichassis.peer if old.multichassis and old.multichassis.kind in PAIRS else None
            peer = next((s for s in before.switches if s.name == pair), None)
            moved = [p["port"] if isinstance(p, dict) else p for p in step.change.values.get("members", [])]
            for name in new_stp_ports(old, new, moved, peer):
                lines = next((i.config_lines for i in [*old.port_channels, *old.ports] if i.name == name), [])
                edge = edge_port(old.platform, lines)
                kind = edge if isinstance(edge, bool) else "unknown"
                seen[kind] = seen.get(kind, 0) + 1
                notes = " ".join(step.change.notes)
                assert (name in notes and "spanning tree" in notes) is (edge is not True)

    count()
    assert set(seen) == {True, False, "unknown"}, seen


# --- the cases that motivated them ----------------------------------------------------------------


def _standby_beacon() -> tuple[Snapshot, Plan]:
    snapshot = load_site([LABS / "ip-hash-standby-beacon"])
    return snapshot, build_plan(check_snapshot(snapshot, RULES), snapshot, unsafe=False)


def test_lg005_makes_a_bundled_standby_active_and_removes_nothing() -> None:
    """vmnic3's switch port stays in port-channel11: taking vmnic3 off the vSwitch black-holes the flows
    the switch hashes to it. The safe fix makes it active."""
    _, plan = _standby_beacon()
    step = next(s for s in plan.steps if s.device.startswith("esx-sin-01"))
    assert step.change.after["active"] == ["vmnic1", "vmnic3"]
    assert step.change.after["removed"] == []
    assert any("port-channel11" in note for note in step.change.notes)


def test_lg005_without_a_channel_moves_to_port_id_and_keeps_the_spare_as_standby() -> None:
    """One active uplink, one unused, no channel anywhere: removing the unused one loses failover."""
    snapshot = load_site([LABS / "ip-hash-standby-beacon"])
    host = next(h for h in snapshot.esxi_hosts if h.name.startswith("esx-sin-01"))
    for switch in snapshot.switches:
        for switch_port in switch.ports:
            switch_port.port_channel = None
            switch_port.member_state = None
        switch.port_channels = [c for c in switch.port_channels if c.name == "port-channel1"]
    vswitch = next(v for v in host.vswitches if v.name == "vSwitch1")
    assert vswitch.teaming is not None
    vswitch.teaming.standby, vswitch.teaming.unused = [], ["vmnic3"]
    plan = build_plan(check_snapshot(snapshot, RULES), snapshot)
    steps = [s for s in plan.steps if s.device == host.name]
    assert (steps[0].action.action, steps[0].change.after) == ("host-teaming", "loadbalance_srcid")
    assert steps[1].change.after["standby"] == ["vmnic3"] and steps[1].change.after["removed"] == []
    assert _violations(snapshot, plan) == []


def test_the_no_channel_lab_keeps_its_spare_uplink_as_standby() -> None:
    snapshot = load_site([LABS / "ip-hash-unused-no-channel"])
    plan = build_plan(check_snapshot(snapshot, RULES), snapshot, unsafe=False)
    assert [(s.action.action, s.stage) for s in plan.steps] == [
        ("host-teaming", "host"),
        ("host-active-uplinks", "host"),
    ]
    assert plan.steps[1].change.after == {
        "active": ["vmnic1"],
        "standby": ["vmnic3"],
        "failure_detection": "link",
        "removed": [],
    }


def test_two_vlan_additions_on_one_trunk_are_no_conflict_and_build_on_each_other(tmp_path: Path) -> None:
    snapshot = load_site([LABS / "vlan-adds-one-trunk"])
    plan = build_plan(check_snapshot(snapshot, RULES), snapshot)
    assert plan.conflicts == []
    nx2 = [s for s in plan.steps if s.device == "nx2"]
    assert [(s.change.before, s.change.after) for s in nx2] == [
        (["20"], ["20", "100"]),
        (["20", "100"], ["20", "100", "110"]),
    ]
    write_plan(plan, snapshot, tmp_path)
    assert "## Conflicts" not in (tmp_path / "PLAN.md").read_text(encoding="utf-8")


def test_a_fix_with_a_disruptive_step_is_never_safe() -> None:
    """MT001 raised the vSwitch MTU (its uplinks reset) as `applicability: safe`."""
    mt001 = next(r for r in RULES if r.code == "MT001")
    assert mt001.fix is not None and mt001.fix.applicability == "unsafe"
    lying = mt001.model_copy(update={"fix": mt001.fix.model_copy(update={"applicability": "safe"})})
    with pytest.raises(RuleError, match="host-vswitch-mtu is DISRUPTIVE"):
        check_fix_steps([lying], lambda rule: "rules/MT001.yaml", units())
    snapshot = load_site([LABS / "jumbo-mismatch"])
    result = check_snapshot(snapshot, [mt001])
    for finding in result.findings:
        finding.applicability = "safe"  # as a stored result from before the rule was corrected says
    plan = build_plan(result, snapshot, unsafe=False)
    assert plan.steps == [] and len(plan.held_back) == len(result.findings)
    plan = build_plan(result, snapshot, unsafe=True)
    assert {s.applicability for step in plan.steps for s in step.sources} == {"unsafe"}


def test_actions_still_load() -> None:
    try:
        units()
    except ActionError as exc:  # pragma: no cover - the message is the diagnosis
        pytest.fail(str(exc))


def test_a_step_equal_to_the_current_state_is_not_planned() -> None:
    snapshot = site("cisco_nxos")
    vmk = next(v for v in build_facts(snapshot).vmks if v.object == "esx01/vmk1")
    from support.fix_sites import finding

    result = findings_for(snapshot)
    result.findings = [finding("MT003", vmk, [("vmk-mtu", "vmk", {"mtu": 1500})])]
    plan = build_plan(result, snapshot)
    assert plan.steps == []
    assert [m.reason for m in plan.unchanged] == ["already as wanted once the steps before it run"]


def _noop_override() -> tuple[Snapshot, Plan]:
    """portgroup-ip-hash-override with the plan a naive planner wrote: NFS-A's LG005 fixed by one
    host-active-uplinks step setting exactly its current order (a port group cannot remove vmnic3)."""
    from hostlint.fixes.actions import load_actions
    from hostlint.fixes.steps import Change, Source, Step

    snapshot = load_site([LABS / "portgroup-ip-hash-override"])
    [finding] = check_snapshot(snapshot, RULES).findings
    current = {"active": ["vmnic1"], "standby": ["vmnic3"], "failure_detection": "link"}
    change = Change(
        action="host-active-uplinks",
        device="esx-sin-03.dc.example.sg",
        platforms=("esxcli", "powercli", "vsphere-api"),
        target="vSwitch1/NFS-A",
        values={
            "kind": "vss-portgroup",
            "vswitch": "vSwitch1",
            "portgroup": "NFS-A",
            "inherits": ["failure_detection", "notify_switches", "failback"],
            **current,
            "remove": [],
        },
        after={**current, "removed": []},
        before=current,
    )
    source = Source(finding.code, finding.object, finding.message, finding.applicability, 0)
    step = Step(action=load_actions()["host-active-uplinks"], stage="host", change=change, sources=[source], seq=0)
    step.number = 1
    return snapshot, Plan(steps=[step])


def test_a_port_group_step_setting_its_current_values_is_refused_and_port_id_written_instead() -> None:
    """The naive step only pins the inherited failure detection: the simulated state differs, the team
    does not, and LG005 stays. The checker sees it; the planner moves NFS-A to port ID instead."""
    naive_site, naive = _noop_override()
    assert [v.invariant for v in check_plan(naive_site, naive, RULES)] == [2, 2]
    snapshot = load_site([LABS / "portgroup-ip-hash-override"])
    plan = build_plan(check_snapshot(snapshot, RULES), snapshot)
    [step] = plan.steps
    assert (step.action.action, step.change.target, step.change.before, step.change.after) == (
        "host-teaming",
        "vSwitch1/NFS-A",
        "loadbalance_ip",
        "loadbalance_srcid",
    )
    assert step.change.notes == ["no port of vSwitch1 is in a port-channel: port ID with vmnic3 standby"]
    assert _violations(snapshot, plan) == []


def test_a_port_group_step_that_could_only_set_its_current_values_names_the_finding() -> None:
    """vmnic1's port in a channel (port ID is no option) and vmnic3's in none (not made active): the
    only step left sets NFS-A's current order. It is refused and PLAN.md names LG005 with the reason."""
    from hostlint.fixes.plan_md import plan_markdown
    from hostlint.snapshot.switch import PortChannel

    snapshot = load_site([LABS / "portgroup-ip-hash-override"])
    leaf = snapshot.switches[0]
    port = next(p for p in leaf.ports if p.name == "Ethernet1/13")
    port.port_channel, port.member_state = "port-channel13", "bundled"
    leaf.port_channels.append(PortChannel(name="port-channel13", mode="static", members=[port.name], status="up"))
    plan = build_plan(check_snapshot(snapshot, RULES), snapshot, unsafe=True)
    assert [s for s in plan.steps if s.change.target == "vSwitch1/NFS-A"] == []
    [manual] = [m for m in plan.manual if m.source.code == "LG005"]
    assert "sets exactly its current values" in manual.reason and "cannot remove uplinks" in manual.reason
    assert manual.reason in plan_markdown(plan, snapshot)
    assert _violations(snapshot, plan) == []


def test_powercli_never_looks_a_name_up_as_a_pattern() -> None:
    """`-Name 'vSwitch1*'` matches vSwitch10-19 too; the scripts filter with -ceq instead."""
    snapshot = load_site([LABS / "demo"])
    host = snapshot.esxi_hosts[0]
    host.vswitches[0].name = "vSwitch1*"
    for pg in host.portgroups:
        if pg.vswitch == "vSwitch1":
            pg.vswitch = "vSwitch1*"
    plan = build_plan(check_snapshot(snapshot, RULES), snapshot)
    assert one_object(plan, snapshot) == []
    problems = [v for v in one_object(_with_name_lookup(plan), snapshot) if "wildcard" in v.message]
    assert problems, "the checker must see a -Name lookup"


def _with_name_lookup(plan: Plan) -> Plan:
    """The plan with one action's PowerCLI text as it was before (a `-Name` lookup), for the checker's test."""
    broken = copy.deepcopy(plan)
    for step in broken.steps:
        text = step.action.platforms.get("powercli")
        if text is not None:
            text.change = "Get-VirtualSwitch -VMHost $vmhost -Standard -Name {{ vswitch | ps }}\n"
            return broken
    raise AssertionError("no PowerCLI step in the demo plan")


def test_a_vmk_only_script_defines_vmhost_and_pings_on_the_vmk_netstack() -> None:
    snapshot = site("cisco_nxos")
    vmk = next(v for v in snapshot.esxi_hosts[0].vmks if v.name == "vmk1")
    vmk.netstack = "vmotion"
    from support.fix_sites import finding

    fact = next(v for v in build_facts(snapshot).vmks if v.object == "esx01/vmk1")
    result = findings_for(snapshot)
    result.findings = [finding("MT003", fact, [("vmk-mtu", "vmk", {"mtu": 9000})])]
    plan = build_plan(result, snapshot)
    assert one_object(plan, snapshot) == []
    from hostlint.fixes.render import render

    step = plan.steps[0]
    assert "vmkping -S vmotion " in render(step, "esxcli", "verify")
    assert "netstack = 'vmotion'" in render(step, "powercli", "verify")


def test_plan_set_beyond_the_esxi_limit_is_refused_naming_it() -> None:
    snapshot = load_site([LABS / "demo"])
    facts = build_facts(snapshot)
    with pytest.raises(ChangeError, match="above the ESXi maximum of 9000"):
        resolve(parse_set("esx01*/vmk1.mtu=9216"), facts)
    assert resolve(parse_set("esx01*/vmk1.mtu=9000"), facts)


def test_no_fix_writes_an_esxi_mtu_beyond_9000() -> None:
    snapshot = site("cisco_nxos")
    from support.fix_sites import finding

    fact = next(v for v in build_facts(snapshot).vmks if v.object == "esx01/vmk1")
    result = findings_for(snapshot)
    result.findings = [finding("MT003", fact, [("vmk-mtu", "vmk", {"mtu": 9216})])]
    plan = build_plan(result, snapshot)
    assert plan.steps == []
    assert [m.reason for m in plan.manual] == ["esx01/vmk1: MTU 9216 is above the ESXi maximum of 9000"]


@pytest.mark.parametrize("names", [("esx_01", "esx:01"), ("esx_01.corp.example", "esx:01.corp.example")])
def test_two_devices_never_share_a_script_file(names: tuple[str, str], tmp_path: Path) -> None:
    """Both hosts have the same fixes: every file of each is written, none overwritten."""
    snapshot = site("cisco_nxos")
    twin = snapshot.esxi_hosts[0].model_copy(deep=True)
    snapshot.esxi_hosts[0].name, twin.name = names
    snapshot.esxi_hosts.append(twin)
    plan = build_plan(check_snapshot(snapshot, RULES), snapshot)
    assert files_owned(plan) == []
    written = write_plan(plan, snapshot, tmp_path)
    host_files = [p for p in written if p.name.startswith("esx")]
    assert len(host_files) == len({p.name for p in host_files}) == 2 * 2 * 3  # 2 hosts x change/rollback x 3


def test_the_colliding_names_lab_writes_each_hosts_own_files(tmp_path: Path) -> None:
    """script-name-collisions: `esx:01` and `esx_01`, one step each; every file holds its host's step
    alone (the rehearsals run each step from its host's file: test_fix_rehearse*.py)."""
    snapshot = load_site([LABS / "script-name-collisions"])
    plan = build_plan(check_snapshot(snapshot, RULES), snapshot)
    assert [s.device for s in plan.steps] == ["esx:01", "esx_01"]
    assert files_owned(plan) == []
    written = {p.name for p in write_plan(plan, snapshot, tmp_path)}
    for step in plan.steps:
        for platform in step.change.platforms:
            for rollback in (False, True):
                name = script_name(step.device, platform, rollback)
                assert name in written
                text = (tmp_path / name).read_text(encoding="utf-8")
                assert f"{step.sources[0].object}:" in text
                other = next(s for s in plan.steps if s is not step)
                assert f"{other.sources[0].object}:" not in text
    names = {script_name(s.device, p, r) for s in plan.steps for p in s.change.platforms for r in (False, True)}
    assert len(names) == 12


def test_a_host_named_like_a_rollback_file_gets_its_own_files() -> None:
    assert script_name("esx01.rollback", "esxcli") != script_name("esx01", "esxcli", rollback=True)
    assert script_name("esx01.rollback", "powercli") != script_name("esx01", "powercli", rollback=True)


@pytest.mark.parametrize("planted", [".hostlint-fix.json.partial", "PLAN.md", "sw1.cisco_nxos.txt"])
def test_no_write_follows_a_symlink_in_the_fix_folder(planted: str, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text("not hostlint's\n", encoding="utf-8")
    folder = tmp_path / "fix"
    folder.mkdir()
    (folder / planted).symlink_to(target)
    snapshot = site("cisco_nxos")
    write_plan(build_plan(findings_for(snapshot), snapshot), snapshot, folder, force=True)
    assert target.read_text(encoding="utf-8") == "not hostlint's\n"
    assert not (folder / planted).is_symlink()


def test_a_raw_hash_with_an_annotation_is_normalised_not_withheld() -> None:
    """IOS prints `src-mac (default)`; the rollback writes the hash's own command, never the annotation."""
    snapshot = load_site([LABS / "ip-hash-wrong-hash"])
    for switch in snapshot.switches:
        assert switch.load_balance is not None and switch.load_balance.raw is not None
        switch.load_balance.raw += " (default)"
    plan = build_plan(check_snapshot(snapshot, RULES), snapshot)
    assert plan.withheld == []
    assert [(s.action.action, s.change.before) for s in plan.steps] == [("switch-hash", "src-dst-mac")]


def test_violations_name_their_invariant() -> None:
    assert str(Violation(3, 4, "removes vmnic3")) == "invariant 3: step 4: removes vmnic3"


def _split_team(vlans_known: bool) -> Plan:
    """vSwitch1's two ports in two static channels (Po5, Po6) on one IOS switch: IP hash needs one."""
    from support.fix_sites import finding

    from hostlint.snapshot.switch import PortChannel

    snapshot = site("cisco_ios")
    switch = snapshot.switches[0]
    for number, port_name in ((5, "TenGigabitEthernet1/0/11"), (6, "TenGigabitEthernet1/0/12")):
        port = next(p for p in switch.ports if p.name == port_name)
        port.port_channel, port.member_state = f"Port-channel{number}", "bundled"
        switch.port_channels.append(
            PortChannel(
                name=f"Port-channel{number}",
                mode="static",
                switchport="trunk",
                native_vlan=1,
                allowed_vlans=[(10, 10), (20, 30)] if vlans_known or number == 5 else None,
                members=[port_name],
                mtu=1500,
                status="up",
            )
        )
    team = next(t for t in build_facts(snapshot).teams if t.object == "esx01/vSwitch1")
    result = findings_for(snapshot)
    result.findings = [finding("LG001", team, [("switch-static-port-channel", "switch", {})])]
    return build_plan(result, snapshot)


def test_a_member_moves_between_channels_only_with_both_vlans_known_and_the_emptied_one_is_named() -> None:
    plan = _split_team(vlans_known=True)
    [step] = [s for s in plan.steps if s.action.action == "switch-static-port-channel"]
    assert step.change.values["number"] == 5
    assert "Port-channel6 is left without members" in " ".join(step.change.notes)
    plan = _split_team(vlans_known=False)
    assert not [s for s in plan.steps if s.action.action == "switch-static-port-channel"]
    assert "Port-channel6: its VLANs were not collected" in plan.manual[0].reason


def _lowering_only(rules: list) -> list:
    """The rules as they were before #26 on KVM: MT101 lowers the guest whatever the switch carries."""
    changed = []
    for rule in rules:
        if rule.code == "MT101":
            lower = next(step for step in rule.fix.steps if step.action == "guest-nic-mtu")
            fix = rule.fix.model_copy(update={"steps": [lower.model_copy(update={"when": "true"})]})
            rule = rule.model_copy(update={"fix": fix})
        changed.append(rule)
    return changed


@pytest.mark.parametrize(
    ("lab_name", "hops"), [("kvm-bonds", ["eno1", "eno2", "bond0", "br0"]), ("kvm-jumbo-path", ["eno1", "br-stor"])]
)
def test_a_kvm_guest_is_raised_to_where_its_switch_path_carries_it_never_lowered(
    lab_name: str, hops: list[str]
) -> None:
    """Issue #26: db01 (9000) on kvm01's 1500 br0/bond0/eno1-2, whose leaf1 ports bridge 9196; nfs01 (9000)
    on kvm04's 1500 br-stor/eno1 over a 9200 access port. The host path is raised, NICs first and the
    bridge last; the planner before (the guest lowered to 1500) breaks invariant 6."""
    snapshot = load_site([LABS / lab_name])
    plan = build_plan(check_snapshot(snapshot, RULES), snapshot, unsafe=True)
    raised = [s for s in plan.steps if "MT101" in s.codes and s.action.action == "host-path-mtu"]
    assert [[h["name"] for h in s.change.values["hops"]] for s in raised] == [hops]
    assert raised[0].change.after == 9000 and raised[0].action.disruptive == "yes"
    old_rules = _lowering_only(RULES)
    old_plan = build_plan(check_snapshot(snapshot, old_rules), snapshot, unsafe=True)
    violations = [v for v in check_plan(snapshot, old_plan, old_rules) if v.invariant == 6]
    assert violations and all("raise the host path instead" in v.message for v in violations)


def test_a_kvm_guest_is_lowered_where_a_driver_or_the_switch_cannot_carry_it() -> None:
    """kvm04's app02 sits on a 1500 access port: lowered. nfs01's eno1 driver accepting at most 1500
    (`ip -d link`: maxmtu) lowers it too; a raise beyond that maximum is invariant 6."""
    snapshot = load_site([LABS / "kvm-jumbo-path"])
    eno1 = next(i for i in snapshot.kvm_hosts[0].interfaces if i.name == "eno1")
    eno1.max_mtu = 1500
    plan = build_plan(check_snapshot(snapshot, RULES), snapshot, unsafe=True)
    assert sorted(s.change.target for s in plan.steps) == ["app02/52:54:00:4c:00:02", "nfs01/52:54:00:4c:00:01"]
    assert {s.action.action for s in plan.steps} == {"guest-nic-mtu"}
    assert _violations(snapshot, plan) == []
    eno1.max_mtu = 9000
    raising = build_plan(check_snapshot(snapshot, RULES), snapshot, unsafe=True)
    eno1.max_mtu = 1500
    assert [str(v) for v in check_plan(snapshot, raising, RULES) if v.invariant == 6] == [
        "invariant 6: step 2: raises eno1 to 9000, beyond its driver's maximum 1500"
    ]


def test_a_vswitch_raised_for_its_vmk_says_why_and_what_drops() -> None:
    """The README demo's DISRUPTIVE vSwitch0 raise (MT001, esx03's vmk2): the REVIEW line names the switch
    figure that makes raising right, and the management vmk that loses the network while the uplinks reset."""
    snapshot = load_site([LABS / "demo"])
    plan = build_plan(check_snapshot(snapshot, RULES), snapshot, unsafe=True)
    [step] = [s for s in plan.steps if s.action.action == "host-vswitch-mtu"]
    assert step.change.notes == [
        "the switch ports under vSwitch0 carry 9198 (vmnic0 -> cat-a GigabitEthernet1/0/12, vmnic1 -> cat-b "
        "GigabitEthernet1/0/12), so vSwitch0 is raised for vmk2; many NIC drivers reset the uplinks when their MTU "
        "changes: vSwitch0's uplinks drop for a moment: vmk0 on it too loses the network meanwhile"
    ]


def test_the_split_channels_lab_moves_the_member_and_names_the_emptied_channel() -> None:
    """ip-hash-split-channels: Te1/0/12 leaves Port-channel6 for Port-channel5 (both channels' VLANs known),
    shut around the move so Te1/0/11 keeps forwarding; Port-channel6 is named for removal."""
    snapshot = load_site([LABS / "ip-hash-split-channels"])
    plan = build_plan(check_snapshot(snapshot, RULES), snapshot, unsafe=True)
    assert [(s.action.action, s.change.target) for s in plan.steps if s.device == "ams-acc1"] == [
        ("switch-port-admin", "TenGigabitEthernet1/0/12"),
        ("switch-static-port-channel", "TenGigabitEthernet1/0/11,TenGigabitEthernet1/0/12"),
        ("switch-port-admin", "TenGigabitEthernet1/0/12"),
    ]
    [move] = [s for s in plan.steps if s.action.action == "switch-static-port-channel"]
    assert move.change.values["number"] == 5
    assert "Port-channel6 is left without members" in " ".join(move.change.notes)
    assert _violations(snapshot, plan) == []
