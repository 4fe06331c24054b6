"""PowerShell fix scripts, parsed and checked against the PowerCLI reference.

No PowerShell can be installed from the registries this project reaches (Microsoft's packages come
from its own repositories; the npm `pwsh` package downloads it at install time), but a PowerShell
grammar can: tree-sitter-pwsh on PyPI, with the tree-sitter runtime. Every .ps1 of every lab's full
plan (`--unsafe-fixes`), of the synthetic site that asks for every host action, and of a vmk-migrate
what-if is parsed: a syntax error fails. Then every command in it is looked up in
tests/support/powercli_reference.py (written from VMware's PowerCLI cmdlet reference): an unknown cmdlet,
a parameter the cmdlet does not have, a value outside a parameter's enumeration, or a distributed
port group parameter given something else fails.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import tree_sitter_pwsh
from support.powercli_reference import CMDLETS, COMMON, PRODUCED_BY, VALUES
from tree_sitter import Language, Node, Parser

from hostlint.change.whatif import what_if
from hostlint.check import check_snapshot
from hostlint.fixes import build_plan
from hostlint.fixes.plan import Plan
from hostlint.fixes.write import write_plan
from hostlint.join import build_facts
from hostlint.results import CheckResult
from hostlint.rules import load_rules
from hostlint.snapshot import Snapshot, load_site
from hostlint.snapshot.esxi import Teaming, TeamingSet

LABS = Path(__file__).resolve().parent.parent / "fixtures" / "labs"
ALL_LABS = sorted(p.name for p in LABS.iterdir() if (p / "expected.yaml").is_file())
RULES = load_rules()
PARSER = Parser(Language(tree_sitter_pwsh.language()))
KNOWN = {name.lower(): name for name in CMDLETS}


def syntax_errors(source: str) -> list[str]:
    errors: list[str] = []

    def walk(node: Node) -> None:
        if node.type == "ERROR" or node.is_missing:
            row, column = node.start_point
            errors.append(f"line {row + 1}, column {column + 1}: {node.text.decode()[:60]!r}")
            return
        for child in node.children:
            walk(child)

    walk(PARSER.parse(source.encode()).root_node)
    return errors


def _commands(node: Node):
    if node.type == "command":
        yield node
    for child in node.children:
        yield from _commands(child)


def _argument(parameter: Node) -> Node | None:
    """The argument after `-Parameter` (or `-Parameter:value`), if the next element is one."""
    following = parameter.next_named_sibling
    while following is not None and following.type == "command_argument_sep":
        following = following.next_named_sibling
    if following is None or following.type == "command_parameter":
        return None
    return following


def _text(node: Node) -> str:
    return node.text.decode()


def _is_not_filter(command: Node) -> bool:
    name = command.child_by_field_name("command_name")
    return name is None or _text(name).lower() != "where-object"


def command_problems(source: str) -> list[str]:
    """Every cmdlet, parameter and enumerated value in the script checked against the reference."""
    problems = []
    for command in _commands(PARSER.parse(source.encode()).root_node):
        name_node = command.child_by_field_name("command_name")
        if name_node is None:
            continue  # `& $block`, `. script`: none in hostlint's scripts
        spelled = _text(name_node)
        cmdlet = KNOWN.get(spelled.lower())
        if cmdlet is None:
            problems.append(f"unknown cmdlet {spelled}")
            continue
        elements = command.child_by_field_name("command_elements")
        parameters = [n for n in elements.named_children if n.type == "command_parameter"] if elements else []
        for parameter in parameters:
            given = _text(parameter).lstrip("-").rstrip(":")
            known = {p.lower(): p for p in CMDLETS[cmdlet] | COMMON}
            if given.lower() not in known:
                problems.append(f"{cmdlet} has no parameter -{given}")
                continue
            canonical = known[given.lower()]
            argument = _argument(parameter)
            allowed = VALUES.get((cmdlet, canonical))
            if allowed is not None:
                value = _text(argument).strip("'\"") if argument is not None else ""
                if value.lower() not in {v.lower() for v in allowed}:
                    problems.append(f"{cmdlet} -{canonical} {value!r}: not one of {sorted(allowed)}")
            producer = PRODUCED_BY.get((cmdlet, canonical))
            if producer is not None:
                # `Get-X | Where-Object { $_.Name -ceq ... }` is still what Get-X returns, filtered exactly.
                inner = [c for c in _commands(argument) if _is_not_filter(c)] if argument is not None else []
                last = KNOWN.get(_text(inner[-1].child_by_field_name("command_name")).lower()) if inner else None
                if last != producer:
                    problems.append(f"{cmdlet} -{canonical} takes what {producer} returns, got {_text(argument)!r}")
    return problems


def _written(plan: Plan, snapshot: Snapshot, folder: Path) -> list[Path]:
    write_plan(plan, snapshot, folder)
    return sorted(folder.glob("*.ps1"))


def _check(scripts: list[Path]) -> None:
    for script in scripts:
        source = script.read_text(encoding="utf-8")
        assert not syntax_errors(source), f"{script.name}: {syntax_errors(source)}"
        assert not command_problems(source), f"{script.name}: {command_problems(source)}"


@pytest.mark.parametrize("lab", ALL_LABS)
def test_every_powershell_script_of_every_lab_parses_and_uses_real_cmdlets(lab: str, tmp_path: Path) -> None:
    snapshot = load_site([LABS / lab])
    plan = build_plan(check_snapshot(snapshot, RULES), snapshot, unsafe=True)
    scripts = _written(plan, snapshot, tmp_path)
    assert bool(scripts) == any("powercli" in s.change.platforms for s in plan.steps)
    _check(scripts)


def test_every_host_action_and_vmk_migrate_in_powershell(tmp_path: Path) -> None:
    from support.fix_sites import findings_for, site

    snapshot = site("cisco_nxos")
    plan = build_plan(findings_for(snapshot), snapshot, unsafe=True)
    scripts = _written(plan, snapshot, tmp_path / "site")
    migrate = what_if(snapshot, RULES, ["esx01/vmk1.portgroup=DSwitch1/iSCSI"]).plan
    assert [s.change.action for s in migrate.steps if "powercli" in s.change.platforms] == ["vmk-migrate"]
    scripts += _written(migrate, snapshot, tmp_path / "migrate")
    actions = {s.change.action for s in [*plan.steps, *migrate.steps] if "powercli" in s.change.platforms}
    assert {
        "host-teaming",
        "host-active-uplinks",
        "host-vswitch-mtu",
        "vmk-mtu",
        "host-nic-autoneg",
        "vmk-migrate",
    } <= actions
    _check(scripts)


@pytest.mark.parametrize(
    ("source", "problem"),
    [
        ("Get-VMHost -Name 'esx01' | Get-VirtualSwitch -Standard -Name 'vSwitch0' |\n", "syntax"),
        ("switch ($Step) {\n    1 { Get-VMHost -Name 'a'\n}\n", "syntax"),
        ("Get-VMhostNetworkAdaptor -VMHost $vmhost -Physical", "unknown cmdlet Get-VMhostNetworkAdaptor"),
        ("Get-VirtualSwitch -VMHost $vmhost -Standart", "Get-VirtualSwitch has no parameter -Standart"),
        ("$t | Set-NicTeamingPolicy -LoadBalancingPolicy LoadBalanceIp", ""),
        ("$t | Set-NicTeamingPolicy -LoadBalancingPolicy 'IPHash'", "-LoadBalancingPolicy 'IPHash'"),
        ("$t | Set-NicTeamingPolicy -NetworkFailoverDetectionPolicy 'Beacon'", "-NetworkFailoverDetectionPolicy"),
        (
            "Get-VMHostNetworkAdapter -VMHost $vmhost -VMKernel -Name 'vmk1' |\n"
            "    Set-VMHostNetworkAdapter -PortGroup (Get-VirtualPortGroup -VMHost $vmhost -Standard -Name 'A')",
            "takes what Get-VDPortgroup returns",
        ),
        (
            "Get-VMHostNetworkAdapter -Physical -Name 'vmnic0' |\n"
            "    Set-VMHostNetworkAdapter -Duplex 'full' -Confirm:$false",
            "",
        ),
    ],
)
def test_the_checks_reject_what_powershell_or_powercli_would(source: str, problem: str) -> None:
    errors, problems = syntax_errors(source), command_problems(source)
    if problem == "syntax":
        assert errors
    elif problem:
        assert not errors and any(problem in p for p in problems), problems
    else:
        assert not errors and not problems, (errors, problems)


def test_port_group_steps_in_powershell_roll_back_to_inheriting(tmp_path: Path) -> None:
    """A port group that pins only its failover order: the rollback inherits policy and failure
    detection from the vSwitch again (-Inherit...), and sets the order it pinned."""
    from support.fix_sites import finding, site

    snapshot = site("cisco_nxos")
    vmotion = next(p for p in snapshot.esxi_hosts[0].portgroups if p.name == "vMotion")
    vmotion.teaming = Teaming(policy="loadbalance_ip", active=["vmnic3"], standby=["vmnic2"])
    vmotion.teaming_set = TeamingSet(
        policy="inherited",
        failure_detection="inherited",
        notify_switches="inherited",
        failback="inherited",
        order="pinned",
    )
    team = next(t for t in build_facts(snapshot).teams if t.object == "esx01/vSwitch1/vMotion")
    findings = [
        finding("LG900", team, [("host-teaming", "host", {"policy": "failover_explicit"})]),
        # Both uplinks active: one active uplink of an IP-hash team in no channel would move the port
        # group to port ID instead (hostlint.fixes.actions.host_active_uplinks).
        finding(
            "LG901",
            team,
            [("host-active-uplinks", "host", {"active": ["vmnic2", "vmnic3"], "failure_detection": "link"})],
        ),
    ]
    scripts = _written(build_plan(CheckResult(findings=findings), snapshot, unsafe=True), snapshot, tmp_path)
    _check(scripts)
    rollback = (tmp_path / "esx01.rollback.ps1").read_text(encoding="utf-8")
    assert "Set-NicTeamingPolicy -InheritLoadBalancingPolicy $true" in rollback
    assert "Set-NicTeamingPolicy -InheritNetworkFailoverDetectionPolicy $true `" in rollback
    assert "-InheritFailoverOrder" not in rollback and "-MakeNicActive" in rollback
