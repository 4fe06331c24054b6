"""Human output at estate scale: one rule's identical finding on hundreds of hosts is shown once with
a count and the first objects; --show-all, --statistics and -q."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from hostlint.check import check_snapshot
from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.report import render
from hostlint.results import CheckResult, Skipped
from hostlint.rules import load_rules, select
from hostlint.snapshot import load_site

LABS = Path(__file__).resolve().parent.parent / "fixtures" / "labs"
HOSTS = 400


@pytest.fixture(scope="module")
def estate() -> tuple[CheckResult, list]:
    """The LG001 finding of the ip-hash-no-port-channel lab, as if 400 hosts were cabled the same way."""
    rules = select(load_rules(), ["LG001"], None)
    snapshot = load_site([LABS / "ip-hash-no-port-channel"])
    (finding,) = check_snapshot(snapshot, rules).findings
    thing = finding.object.split("/", 1)[1]
    findings = [finding.model_copy(update={"host": f"esx{n:03}", "object": f"esx{n:03}/{thing}"}) for n in range(HOSTS)]
    skipped = [Skipped(code="LG001", object=f"esx{n:03}/vSwitch0", reason="switch not collected") for n in range(HOSTS)]
    return CheckResult(findings=findings, skipped=skipped), rules


def text(estate, layout: str) -> str:
    result, rules = estate
    return render("human", result, rules, None, color=False, layout=layout)


def test_grouped_output_shows_a_repeated_finding_once_with_its_count(estate):
    out = text(estate, "grouped")
    lines = out.splitlines()
    assert len(lines) < 50
    # Affected hosts come first, one line each (their findings are in the group above), up to a bound.
    assert "Affected hosts (400 of 400)" in lines
    assert "esx000  1 error · 1 skipped  (LG001 above)" in lines
    assert "esx019  1 error · 1 skipped  (LG001 above)" in lines
    assert "esx020" not in " ".join(line for line in lines if line.startswith("esx"))
    assert "  and 380 more affected hosts (--show-all)" in lines
    assert lines[0] == "Repeated findings (400 findings in 1 group, by rule)"
    assert lines[1] == "  error   LG001 ip-hash-without-port-channel  400 objects"
    assert "routes by IP hash, but its active uplinks are not all in one port-channel" in lines[2]
    objects = next(line for line in lines if line.strip().startswith("on "))
    assert objects.split("on", 1)[1].strip() == (
        "esx000/vSwitch1, esx001/vSwitch1, esx002/vSwitch1, esx003/vSwitch1, esx004/vSwitch1 "
        "and 395 more (--show-all lists every one)"
    )
    assert "  ber-acc-sw01  400 errors (LG001) on esx000, esx001," in out
    assert "esx009 and 390 more hosts\n" in out
    # Skips are counted per rule and cause; --show-skipped lists them.
    assert "  400  LG001 ip-hash-without-port-channel: switch not collected" in lines
    assert "esx399/vSwitch0" not in out
    assert lines[-1] == "400 findings (400 errors) on 400 hosts · 400 skipped · 0 passed · 0 unresolved uplinks"


def test_grouped_output_keeps_hosts_with_something_of_their_own(estate):
    result, rules = estate
    alone = result.findings[0].model_copy(update={"message": "something else", "host": "esx999", "object": "esx999/x"})
    out = render("human", CheckResult(findings=[*result.findings, alone]), rules, None, color=False)
    assert "esx999  1 error" in out
    assert "          something else" in out
    assert out.index("esx999  1 error") < out.index("esx000  1 error")


def test_show_all_lists_every_finding_under_its_host(estate):
    out = text(estate, "all")
    assert out.count("error   LG001 ip-hash-without-port-channel  esx") == HOSTS
    assert "Repeated findings" not in out
    assert "more (--show-all)" not in out


def test_statistics_counts_per_rule(estate):
    lines = text(estate, "statistics").splitlines()
    assert lines == [
        "400  LG001    [error] ip-hash-without-port-channel",
        "400  LG001    [skipped]",
        "400 findings (400 errors) on 400 hosts · 400 skipped · 0 passed · 0 unresolved uplinks",
    ]


def test_quiet_is_one_line_per_finding(estate):
    lines = text(estate, "quiet").splitlines()
    assert len(lines) == HOSTS
    assert lines[0] == (
        "esx000/vSwitch1: LG001 [error] routes by IP hash, but its active uplinks are not all in one port-channel"
    )


@pytest.mark.parametrize(
    ("flag", "first_line"),
    [
        ("--statistics", "1  LG001    [error] ip-hash-without-port-channel"),
        ("-q", "esx-ber-03.corp.example.com/vSwitch1: LG001 [error] routes by IP hash"),
        ("--show-all", "esx-ber-03.corp.example.com  1 error"),
    ],
)
def test_layout_flags_on_the_command_line(flag, first_line):
    lab = str(LABS / "ip-hash-no-port-channel")
    outcome = CliRunner().invoke(cli, ["check", "--isolated", lab, "--select", "LG001", flag], standalone_mode=False)
    assert outcome.exception is None, outcome.output
    assert outcome.return_value == Exit.FINDINGS
    assert outcome.stdout.splitlines()[0].startswith(first_line)


def test_many_clean_hosts_fold_into_one_line_and_few_do_not():
    from hostlint.results import Passed

    rules = load_rules()
    many = CheckResult(passed=[Passed(code="LG001", object=f"esx{n:03}/vSwitch1") for n in range(20)])
    out = render("human", many, rules, None, color=False)
    assert "20 hosts without findings: 20 fully checked (--show-all lists them)" in out
    assert "esx000" not in out
    assert "Clean: no findings, nothing skipped." in out
    few = CheckResult(passed=many.passed[:3])
    assert "esx002  no findings · 1 passed" in render("human", few, rules, None, color=False)


def test_skips_count_per_rule_and_cause_and_show_skipped_lists_every_object():
    """1,000 objects skipped for one missing command are one line; --show-skipped names each object."""
    rules = load_rules()
    reason = "leaf-r{n:03}a Ethernet1/{n}: trunk allowed VLANs not shown by `show running-config`"
    skipped = [
        Skipped(code="VL001", object=f"esx{n:04}/vSwitch0/VM Network", reason=reason.format(n=n)) for n in range(1000)
    ]
    result = CheckResult(skipped=skipped)
    counted = render("human", result, rules, None, color=False).splitlines()
    [line] = [line for line in counted if "VL001" in line]
    assert line.endswith(
        "1000  VL001 portgroup-vlan-not-carried: trunk allowed VLANs not shown by `show running-config`"
    )
    assert len(counted) < 15
    listed = render("human", result, rules, None, color=False, show_skipped=True)
    assert all(f"esx{n:04}/vSwitch0/VM Network" in listed for n in range(1000))
    outcome = CliRunner().invoke(
        cli, ["check", "--isolated", str(LABS / "demo"), "--show-skipped"], standalone_mode=False
    )
    assert outcome.exception is None, outcome.output
