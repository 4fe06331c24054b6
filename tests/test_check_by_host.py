"""The memory-lean paths of a check say exactly what the whole-site paths say (issue 27, Deliver 5).

- a snapshot read element by element (hostlint.snapshot.stream) is the model the whole parsed tree
  validates to, on every lab and a generated site; what the streamed read does not handle (a
  duplicate key, a field that does not validate, bad JSON) still gives the ordinary one-line error;
- rules run host by host with each host's facts dropped (`check_snapshot(keep_facts=False)`) give
  the same findings (with their fact dumps), skips, passes and unresolved uplinks, in the same
  order, as rules run on the whole site's facts;
- a JSON report written in pieces is the text rendered whole.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from hostlint.check import check_snapshot
from hostlint.cli.main import cli
from hostlint.inputfile import load_json
from hostlint.join import build_facts, facts_by_host
from hostlint.join.facts import Facts
from hostlint.report import json_report
from hostlint.results import CheckResult
from hostlint.rules import load_rules
from hostlint.snapshot import Snapshot, SnapshotError, load_site
from hostlint.snapshot.load import load_snapshot
from hostlint.snapshot.stream import read_streamed
from hostlint.yamlfile import validate

ROOT = Path(__file__).resolve().parent.parent
LABS = sorted(p for p in (ROOT / "fixtures" / "labs").iterdir() if (p / "hosts.json").is_file())
SNAPSHOT_FILES = sorted(p for lab in LABS for p in lab.glob("*.json"))
RULES = load_rules()


def _make_site(hosts: int) -> Any:
    spec = importlib.util.spec_from_file_location("make_site", ROOT / "bench" / "make_site.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_site"] = module
    spec.loader.exec_module(module)
    return module.make_site(hosts, seed=5)


def _whole(path: Path) -> Snapshot:
    return validate(path, load_json(path), Snapshot, SnapshotError)


@pytest.mark.parametrize("path", SNAPSHOT_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_streamed_read_is_the_whole_read(path: Path) -> None:
    streamed = read_streamed(path.read_text(encoding="utf-8"))
    assert streamed is not None
    assert streamed.model_dump() == _whole(path).model_dump()


def test_streamed_read_of_a_generated_site_shares_repeated_strings(tmp_path: Path) -> None:
    path = tmp_path / "site.json"
    path.write_text(_make_site(30).snapshot.model_dump_json(), encoding="utf-8")
    streamed = load_snapshot(path)
    assert streamed.model_dump() == _whole(path).model_dump()
    modes = [pnic.name for host in streamed.esxi_hosts for pnic in host.pnics if pnic.name == "vmnic0"]
    assert len(modes) == 30 and len({id(name) for name in modes}) == 1


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('{"schema_version": 3, "esxi_hosts": [], "esxi_hosts": []}', "duplicate key 'esxi_hosts'"),
        ('{"schema_version": 3, "esxi_hosts": [{"name": "a", "name": "b"}]}', "duplicate key 'name'"),
        ('{"schema_version": 3, "esxi_hosts": [{"nmae": "a"}]}', "field esxi_hosts.0.name: Field required"),
        ('{"schema_version": 3, "switches": [1,]}', "not valid JSON"),
        ('{"schema_version": 3} []', "not valid JSON"),
        ('{"esxi_hosts": []}', "field schema_version: missing"),
    ],
)
def test_what_the_streamed_read_refuses_has_the_ordinary_error(tmp_path: Path, text: str, error: str) -> None:
    path = tmp_path / "s.json"
    path.write_text(text, encoding="utf-8")
    assert read_streamed(text) is None
    with pytest.raises(SnapshotError, match=error):
        load_snapshot(path)


def _same(whole: CheckResult, by_host: CheckResult) -> None:
    assert by_host.facts is None
    assert json_report.render(by_host) == json_report.render(whole)
    assert [tuple(p) for p in by_host.passed] == [tuple(p) for p in whole.passed]
    assert [f.fact for f in by_host.findings] == [f.fact for f in whole.findings]


@pytest.mark.parametrize("lab", LABS, ids=lambda p: p.name)
def test_rules_host_by_host_give_the_whole_site_result(lab: Path) -> None:
    snapshot = load_site([lab])
    _same(check_snapshot(snapshot, RULES), check_snapshot(snapshot, RULES, keep_facts=False))


def test_rules_host_by_host_on_a_generated_site() -> None:
    site = _make_site(120)
    whole = check_snapshot(site.snapshot, RULES)
    assert whole.findings and whole.skipped and whole.passed
    _same(whole, check_snapshot(site.snapshot, RULES, keep_facts=False))


def test_facts_by_host_are_the_site_facts_in_parts() -> None:
    snapshot = _make_site(50).snapshot
    parts = list(facts_by_host(snapshot))
    assert len(parts) == 51  # one per host, then the VMkernel ports, probes and unresolved uplinks of the site
    assert all(not part.vmks for part in parts[:-1])
    assert parts[-1].vmks and not parts[-1].uplinks
    assert build_facts(snapshot).model_dump() == {
        kind: [fact.model_dump() for part in parts for fact in part.of_kind(kind)] for kind in Facts.model_fields
    }


def _check(*args: str) -> tuple[int, str]:
    outcome = CliRunner().invoke(cli, ["check", *args], standalone_mode=False)
    assert outcome.exception is None, outcome.output
    return int(outcome.return_value), outcome.output


def test_json_report_to_a_file_is_the_report_rendered_whole(tmp_path: Path) -> None:
    lab = ROOT / "fixtures" / "labs" / "demo"
    out = tmp_path / "report.json"
    to_file = _check(str(lab), "--format", "json", "-o", str(out))
    code, printed = _check(str(lab), "--format", "json")
    assert to_file == (1, "") and code == 1
    assert out.read_text(encoding="utf-8") == printed
    assert json.loads(printed)["summary"]["findings"] == 7
