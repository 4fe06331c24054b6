"""A site's own rules: the guide's example (docs/writing-a-rule.md) run as written, declared in a
settings file and firing on a lab; `hostlint rule test`; prefixes and names that clash refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.data import data_dir

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "writing-a-rule.md"
LAB = ROOT / "fixtures" / "labs" / "clean"
LAB_HOSTS = ("esx01.lab.example.net", "esx02.lab.example.net", "esx03.lab.example.net")


def run(*args: str) -> tuple[int, str, str]:
    outcome = CliRunner().invoke(cli, list(args), standalone_mode=False)
    assert outcome.exception is None, outcome.output
    return int(outcome.return_value), outcome.stdout, outcome.stderr


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The guide's files (each fenced block that starts `# file: PATH`) written under a fresh folder."""
    written = []
    for body in re.findall(r"```\w+\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S):
        first = body.split("\n", 1)[0]
        if first.startswith("# file: "):
            path = tmp_path / first.removeprefix("# file: ").strip()
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(body, encoding="utf-8")
            written.append(path.relative_to(tmp_path).as_posix())
    assert written == ["site-rules/ACME001.yaml", "site-rules/cases/ACME001.yaml", "hostlint.toml"]
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_guides_rule_passes_its_own_cases(site):
    code, out, _ = run("rule", "test", "site-rules")
    assert out.splitlines()[-1] == "3 of 3 cases hold for 1 rules in site-rules"
    assert code == Exit.CLEAN


def test_a_case_that_does_not_hold_fails_rule_test(site):
    cases = site / "site-rules" / "cases" / "ACME001.yaml"
    cases.write_text(cases.read_text().replace("portgroup: vMotion-20", "portgroup: vmotion20"))
    code, out, _ = run("rule", "test", "site-rules")
    assert code == Exit.FINDINGS
    assert "ACME001 case 'named by the standard': expected pass, got fail" in out


def test_a_rule_without_cases_is_a_usage_error(site):
    (site / "site-rules" / "cases" / "ACME001.yaml").unlink()
    code, _, err = run("rule", "test", "site-rules")
    assert code == Exit.USAGE
    assert "no cases for rule ACME001" in err


def test_the_shipped_rules_pass_their_cases_through_the_command():
    code, out, _ = run("rule", "test", str(data_dir("rules")), "--cases", str(ROOT / "tests" / "rule_cases"))
    assert code == Exit.CLEAN, out
    assert re.fullmatch(r"(\d+) of \1 cases hold for \d+ rules in .*", out.splitlines()[-1])


def test_the_guides_rule_declared_in_the_settings_file_fires_on_a_lab(site):
    code, out, _ = run("check", str(LAB), "--format", "json")
    assert code == Exit.FINDINGS
    findings = json.loads(out)["findings"]
    acme = [f for f in findings if f["code"] == "ACME001"]
    assert sorted(f["object"] for f in acme) == [f"{host}/vmk1" for host in LAB_HOSTS]
    assert acme[0]["message"] == "vMotion port group vMotion does not follow the vMotion-<VLAN> naming standard"
    # The settings file's select ran hostlint's LG and MT rules with it, and nothing else.
    code, out, _ = run("check", str(LAB), "--format", "sarif")
    ran = {r["id"] for r in json.loads(out)["runs"][0]["tool"]["driver"]["rules"]}
    assert "ACME001" in ran and {code[:2] for code in ran - {"ACME001"}} == {"LG", "MT"}


def test_the_guides_rule_is_listed_explained_and_selectable_by_name(site):
    _, out, _ = run("rules", "--format", "json")
    assert "ACME001" in [r["code"] for r in json.loads(out)]
    code, out, _ = run("check", str(LAB), "--format", "json", "--select", "vmotion-portgroup-name")
    assert {f["code"] for f in json.loads(out)["findings"]} == {"ACME001"}
    assert code == Exit.FINDINGS


def test_the_guides_error_example_is_what_a_misspelt_field_prints(site):
    rule = site / "site-rules" / "ACME001.yaml"
    rule.write_text(rule.read_text().replace("!vmk.portgroup.matches", "!vmk.portgrup.matches"))
    code, _, err = run("check", str(LAB))
    assert code == Exit.USAGE
    shown = re.search(r"hostlint: /srv/net/(site-rules/ACME001\.yaml:.*)", GUIDE.read_text()).group(1)
    assert err == f"hostlint: {site.resolve()}/{shown}\n"


@pytest.mark.parametrize(
    ("code", "name", "error"),
    [
        ("LG901", "acme-x", "starts with hostlint's prefix LG; use your own"),
        ("MTU001", "acme-x", "starts with hostlint's prefix MT; use your own"),
        ("ACME001", "ip-hash-without-port-channel", "name 'ip-hash-without-port-channel' is already rule LG001's"),
        ("AC1", "acme-x", "field code: Value error, a rule code is 2-8 capital letters and 3-4 digits"),
    ],
)
def test_a_site_rule_that_clashes_with_hostlints_is_refused(site, code, name, error):
    rule = site / "site-rules" / "ACME001.yaml"
    text = (
        rule.read_text()
        .replace("code: ACME001", f"code: {code}")
        .replace("name: vmotion-portgroup-name", f"name: {name}")
    )
    rule.unlink()
    (site / "site-rules" / f"{code}.yaml").write_text(text)
    exit_code, _, err = run("check", str(LAB))
    assert exit_code == Exit.USAGE
    assert error in err
    assert len(err.splitlines()) == 1
