"""The command line's contracts: selection, profiles, errors and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from support.cli import run

from hostlint.cli.exit import Exit

LABS = Path(__file__).parent.parent / "fixtures" / "labs"


def codes(stdout: str) -> set[str]:
    return {f["code"] for f in json.loads(stdout)["findings"]}


def test_profiles_are_cumulative_and_select_overrides_them() -> None:
    demo = str(LABS / "demo")
    assert codes(run("check", demo, "--format", "json", "--profile", "minimal")[1]) == {
        "LG001",
        "LG002",
        "LK001",
        "LK002",
        "MT001",
    }
    assert "LG003" in codes(run("check", demo, "--format", "json")[1])
    assert codes(run("check", demo, "--format", "json", "--profile", "minimal", "--select", "LG003")[1]) == {"LG003"}


def test_select_and_ignore_by_prefix() -> None:
    demo = str(LABS / "demo")
    assert codes(run("check", demo, "--format", "json", "--select", "LK")[1]) == {"LK001", "LK002"}
    assert codes(run("check", demo, "--format", "json", "--ignore", "LG,LK")[1]) == {"MT001"}


def test_rules_json_contract() -> None:
    code, out, _ = run("rules", "--format", "json")
    rows = json.loads(out)
    assert code == Exit.CLEAN
    assert {"code", "name", "severity", "platforms", "summary"} <= set(rows[0])
    assert "LG001" in {r["code"] for r in rows}


def test_rule_explains_by_code_or_name() -> None:
    code, out, _ = run("rule", "ip-hash-facing-lacp")
    assert code == Exit.CLEAN and "LG002" in out and "Why it matters" in out
    code, _, err = run("rule", "XX999")
    assert code == Exit.USAGE and "no rule 'XX999'" in err


def test_bad_snapshot_is_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "snap.json"
    bad.write_text('{"schema_version": 2, "esxi_hosts": [{"name": 3}]}')
    code, out, err = run("check", str(bad))
    assert code == Exit.USAGE and out == ""
    assert err.strip().count("\n") == 0 and "snap.json: field esxi_hosts.0.name" in err


def test_generated_rule_docs_are_current(tmp_path: Path) -> None:
    """docs/rules/ is generated from rules/*.yaml; regenerate with `hostlint docs docs/rules`."""
    code, _, _ = run("docs", str(tmp_path))
    assert code == Exit.CLEAN
    committed = Path(__file__).parent.parent / "docs" / "rules"
    generated = {p.name: p.read_text() for p in tmp_path.iterdir()}
    assert generated == {p.name: p.read_text() for p in committed.iterdir()}, "run `hostlint docs docs/rules`"


def test_unsafe_fixes_are_written_only_when_asked(tmp_path: Path) -> None:
    demo = str(LABS / "demo")
    code, _, _ = run("check", demo, "--fix-script", str(tmp_path / "safe"))
    assert code == Exit.FINDINGS
    safe_plan = (tmp_path / "safe" / "PLAN.md").read_text()
    assert "## Held back: unsafe fixes" in safe_plan and "LG001 `esx02.corp.example/vSwitch1`" in safe_plan
    assert not list((tmp_path / "safe").glob("cat-a.*"))
    run("check", demo, "--fix-script", str(tmp_path / "all"), "--unsafe-fixes")
    full_plan = (tmp_path / "all" / "PLAN.md").read_text()
    assert "Held back" not in full_plan
    assert (tmp_path / "all" / "cat-a.cisco_ios.txt").exists()
