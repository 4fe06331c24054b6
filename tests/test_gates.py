"""CI gates: what makes hostlint exit 1, and what must never pass as clean."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml
from support.cli import run

from hostlint.cli.exit import Exit
from hostlint.schemas import schema

ROOT = Path(__file__).resolve().parent.parent
LABS = ROOT / "fixtures" / "labs"


@pytest.mark.parametrize(
    ("lab", "extra", "fail_on", "expected"),
    [
        # Only warnings (LK003, LK004).
        ("mixed-speed-link-down", [], "error", Exit.CLEAN),
        ("mixed-speed-link-down", [], "warning", Exit.FINDINGS),
        ("mixed-speed-link-down", [], "info", Exit.FINDINGS),
        # Only an info finding (PC003, strict profile).
        ("pcie-budgets", ["--profile", "strict", "--select", "PC003"], "warning", Exit.CLEAN),
        ("pcie-budgets", ["--profile", "strict", "--select", "PC003"], "info", Exit.FINDINGS),
        ("demo", [], "error", Exit.FINDINGS),
    ],
)
def test_fail_on_sets_the_severity_that_fails(lab, extra, fail_on, expected):
    code, out, _ = run("check", str(LABS / lab), "--isolated", "--format", "json", "--fail-on", fail_on, *extra)
    assert code == expected
    # The report is the same whatever the gate: the findings below it are still listed.
    assert json.loads(out)["findings"]


def test_fail_on_default_fails_on_any_finding():
    assert run("check", str(LABS / "mixed-speed-link-down"), "--isolated", "-q")[0] == Exit.FINDINGS


def test_scan_fail_on_sets_its_exit_code(tmp_path):
    db = str(tmp_path / "h.sqlite")
    code, out, _ = run("scan", str(LABS / "mixed-speed-link-down"), "--isolated", "--db", db, "--fail-on", "error")
    assert code == Exit.CLEAN and "scan 1 stored" in out


@pytest.mark.parametrize(
    "selection",
    [
        ["--select", "LG", "--ignore", "LG"],
        ["--select", "LG001", "--ignore", "LG001"],
        ["--ignore", "LG,MT,LK,IS,PC,VN,VM,VL"],
    ],
)
@pytest.mark.parametrize("command", ["check", "scan"])
def test_selecting_no_rule_is_a_usage_error_not_clean(tmp_path, command, selection):
    extra = ["--db", str(tmp_path / "h.sqlite")] if command == "scan" else []
    code, out, err = run(command, str(LABS / "clean"), "--isolated", *selection, *extra)
    assert code == Exit.USAGE, out
    assert len(err.splitlines()) == 1 and "no rule is selected" in err and "Clean" not in out
    assert not (tmp_path / "h.sqlite").exists()


def test_write_baseline_exits_0_and_the_baseline_then_passes(tmp_path):
    baseline = tmp_path / "baseline.yaml"
    code, _, err = run("check", str(LABS / "demo"), "--isolated", "-q", "--write-baseline", str(baseline))
    assert code == Exit.CLEAN, err
    entries = yaml.safe_load(baseline.read_text(encoding="utf-8"))["ignore"]
    # The demo's 7 findings (tests/test_html.py counts them on the page too).
    assert len(entries) == 7 and "wrote 7 baseline entries" in err
    assert run("check", str(LABS / "demo"), "--isolated", "-q", "--baseline", str(baseline))[0] == Exit.CLEAN


def test_diff_fail_on_new_exits_1_for_new_findings_only(tmp_path):
    db = str(tmp_path / "h.sqlite")
    lab = tmp_path / "lab"
    shutil.copytree(LABS / "ip-hash-no-port-channel", lab)
    (lab / "expected.yaml").unlink()
    assert run("scan", str(LABS / "clean"), "--isolated", "--db", db)[0] == Exit.CLEAN
    assert run("scan", str(lab), "--isolated", "--db", db)[0] == Exit.FINDINGS
    assert run("scan", str(LABS / "clean"), "--isolated", "--db", db)[0] == Exit.CLEAN
    # 1 -> 2: LG001 is new.
    code, out, _ = run("diff", "1", "2", "--db", db, "--fail-on-new")
    assert code == Exit.FINDINGS and "LG001" in out
    assert run("diff", "1", "2", "--db", db)[0] == Exit.CLEAN
    # 2 -> 3: only resolved findings; a gate on new ones passes.
    assert run("diff", "2", "3", "--db", db, "--fail-on-new")[0] == Exit.CLEAN


def test_the_report_schema_is_closed_and_its_severity_an_enum():
    report_schema = schema("report")
    _, out, _ = run("check", str(LABS / "demo"), "--isolated", "--format", "json")
    report = json.loads(out)
    jsonschema.validate(report, report_schema)
    finding = report["findings"][0]
    for bad in ({**finding, "severity": "critical"}, {**finding, "severity_typo": "error"}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**report, "findings": [bad]}, report_schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(
            {**report, "skipped": [{"code": "LG001", "object": None, "reason": "r", "x": 1}]}, report_schema
        )


def _site_repository(tmp_path: Path) -> Path:
    """A repository of snapshots: snapshots/lon1 holds the lab with IP hash and no port-channel."""
    repo = tmp_path / "repo"
    site = repo / "snapshots" / "lon1"
    site.mkdir(parents=True)
    for name in ("hosts.json", "switches.json"):
        shutil.copy(LABS / "ip-hash-no-port-channel" / name, site / name)
    shutil.copytree(LABS / "clean", repo / "snapshots" / "par1", ignore=shutil.ignore_patterns("expected.yaml"))
    (repo / "package.json").write_text('{"name": "tooling", "version": "1.0.0"}\n', encoding="utf-8")
    return repo


def _hook_entry() -> list[str]:
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    command = hook["entry"].split()
    assert command[:2] == ["hostlint", "pre-commit"] and hook["language"] == "python"
    return command[1:]


def test_the_pre_commit_hook_checks_the_whole_site_of_a_changed_snapshot(tmp_path, monkeypatch):
    repo = _site_repository(tmp_path)
    monkeypatch.chdir(repo)
    entry = _hook_entry()
    (repo / "snapshots" / "lon1" / "notes.json").write_text('{"owner": "lon1"}\n', encoding="utf-8")
    # Only hosts.json is staged; LG001 needs the switch side in the unchanged switches.json beside it.
    code, out, err = run(*entry, "--isolated", "--sites", "snapshots", "snapshots/lon1/hosts.json", "package.json")
    assert code == Exit.FINDINGS, err
    assert "LG001" in out and "site snapshots/lon1" in err and "par1" not in err
    # Without --sites, a snapshot's folder is its site.
    assert run(*entry, "--isolated", "snapshots/lon1/hosts.json")[0] == Exit.FINDINGS
    assert run(*entry, "--isolated", "--fail-on", "warning", "snapshots/par1/hosts.json")[0] == Exit.CLEAN


def test_the_pre_commit_hook_passes_over_files_that_are_not_hostlint_snapshots(tmp_path, monkeypatch):
    repo = _site_repository(tmp_path)
    monkeypatch.chdir(repo)
    (repo / "snapshots" / "notes.json").write_text('{"owner": "netops"}\n', encoding="utf-8")
    (repo / "snapshots" / "lon1" / "notes.json").write_text('{"owner": "lon1"}\n', encoding="utf-8")
    code, out, err = run(*_hook_entry(), "--isolated", "--sites", "snapshots", "package.json", "snapshots/notes.json")
    assert (code, out, err) == (Exit.CLEAN, "", "")
    # A snapshot outside the sites folder is not one of its sites.
    shutil.copy(repo / "snapshots" / "lon1" / "hosts.json", repo / "hosts.json")
    assert run(*_hook_entry(), "--isolated", "--sites", "snapshots", "hosts.json")[0] == Exit.CLEAN


def test_fail_on_from_the_settings_file_and_the_flag_wins(tmp_path):
    settings = tmp_path / "hostlint.toml"
    settings.write_text('fail_on = "error"\n', encoding="utf-8")
    lab = str(LABS / "mixed-speed-link-down")  # warnings only
    assert run("check", lab, "--config", str(settings), "-q")[0] == Exit.CLEAN
    assert run("check", lab, "--config", str(settings), "-q", "--fail-on", "warning")[0] == Exit.FINDINGS
    settings.write_text('fail_on = "fatal"\n', encoding="utf-8")
    code, _, err = run("check", lab, "--config", str(settings), "-q")
    assert code == Exit.USAGE and "fail_on" in err
