"""Every input typo is an error (exit 2, one line, a suggestion), never a check that checks nothing:
selectors, baseline codes, and rule files whose CEL does not compile or reads a field that is not there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.data import data_dir
from hostlint.rules import RuleError, load_rules, select
from hostlint.rules.celcheck import check_expression, tokenize
from hostlint.rules.load import load_rule
from hostlint.rules.validate import expressions, fact_model

LAB = Path(__file__).resolve().parent.parent / "fixtures" / "labs" / "clean"
SHIPPED = sorted(data_dir("rules").glob("*.yaml"))


def run(*args: str) -> tuple[int, str, str]:
    outcome = CliRunner().invoke(cli, list(args), standalone_mode=False)
    assert outcome.exception is None, outcome.output
    return int(outcome.return_value), outcome.stdout, outcome.stderr


@pytest.mark.parametrize(
    ("flag", "value", "suggestion"),
    [
        ("--select", "LGX01", "LG101"),
        ("--select", "ip-hash-without-port-chanel", "ip-hash-without-port-channel"),
        ("--ignore", "MTX", "MT"),
        ("--select", "LG001,QQ9", "`hostlint rules` lists them"),
    ],
)
def test_a_selector_that_names_no_rule_is_exit_2_with_a_suggestion(flag, value, suggestion):
    code, out, err = run("check", str(LAB), "--isolated", flag, value)
    assert code == Exit.USAGE
    assert out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith(f"hostlint: {flag}: ")
    assert suggestion in err


def test_a_rule_name_selects_its_rule_and_a_prefix_its_area():
    rules = load_rules()
    assert [r.code for r in select(rules, ["ip-hash-without-port-channel"], None)] == ["LG001"]
    assert {r.code[:2] for r in select(rules, ["mt"], None)} == {"MT"}
    assert "LG001" not in [r.code for r in select(rules, None, ["ip-hash-without-port-channel"])]


def test_a_baseline_entry_for_no_rule_is_exit_2(tmp_path):
    baseline = tmp_path / "baseline.yaml"
    baseline.write_text(yaml.safe_dump({"ignore": [{"code": "LG0O1", "object": "*", "reason": "typo"}]}))
    code, _, err = run("check", str(LAB), "--isolated", "--baseline", str(baseline))
    assert code == Exit.USAGE
    assert err == f"hostlint: {baseline}: baseline entry LG0O1 *: no rule LG0O1; did you mean LG001?\n"


def test_every_shipped_rule_expression_validates():
    rules = load_rules()
    assert len(rules) == len(SHIPPED)
    for rule in rules:
        model = fact_model(rule.iterate)
        for label, _, source in expressions(rule):
            assert check_expression(source, {rule.variable: model}) == [], (rule.code, label)


def _members(source: str) -> list[tuple[int, str]]:
    """(offset, name) of every `.field` access in `source` that is not a method call."""
    tokens = tokenize(source)
    return [
        (tokens[i + 1].offset, tokens[i + 1].text)
        for i in range(len(tokens) - 2)
        if tokens[i].text == "." and tokens[i + 1].kind == "ident" and tokens[i + 2].text != "("
    ] + (
        [(tokens[-1].offset, tokens[-1].text)]
        if len(tokens) > 1 and tokens[-2].text == "." and tokens[-1].kind == "ident"
        else []
    )


def _mutants():
    """Each shipped rule with the first field its violation reads misspelt."""
    for path in SHIPPED:
        text = path.read_text(encoding="utf-8")
        rule = load_rule(path)
        members = _members(rule.violation)
        if members:
            yield pytest.param(path, text, members[0][1], id=path.stem)


@pytest.mark.parametrize(("path", "text", "field"), list(_mutants()))
def test_a_misspelt_field_in_any_shipped_rule_is_a_one_line_error_with_its_position(tmp_path, path, text, field):
    lines = text.splitlines(keepends=True)
    start = next(n for n, line in enumerate(lines) if line.startswith("violation:"))
    at = next(n for n in range(start, len(lines)) if re.search(rf"\.{field}\b", lines[n]))
    typo = field + "x"
    lines[at] = re.sub(rf"\.{field}\b", f".{typo}", lines[at], count=1)
    column = re.search(rf"\.{typo}\b", lines[at]).start() + 2
    broken = tmp_path / path.name
    broken.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(RuleError) as caught:
        load_rule(broken)
    message = str(caught.value)
    assert len(message.splitlines()) == 1
    assert message.startswith(f"{broken}:{at + 1}:{column}: violation: ")
    assert f"has no field {typo!r}; did you mean {field!r}?" in message


def test_a_rule_that_does_not_compile_stops_check_with_exit_2_and_its_position(tmp_path):
    rules = tmp_path / "site-rules"
    rules.mkdir()
    text = (data_dir("rules") / "MT001.yaml").read_text(encoding="utf-8")
    text = text.replace("code: MT001", "code: ACME001").replace("name: vmk-mtu-above-vswitch", "name: acme-mtu")
    text = text.replace("violation: vmk.mtu > vmk.vswitch_mtu", "violation: vmk.mtu > > vmk.vswitch_mtu")
    (rules / "ACME001.yaml").write_text(text, encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row.startswith("violation:"))
    code, out, err = run("check", str(LAB), "--isolated", "--rules-dir", str(rules))
    assert code == Exit.USAGE
    assert out == ""
    assert err.startswith(f"hostlint: {rules / 'ACME001.yaml'}:{line}:22: violation: CEL syntax error: ")
    assert len(err.splitlines()) == 1


def test_every_broken_rule_is_reported_not_only_the_first(tmp_path):
    rules = tmp_path / "site-rules"
    rules.mkdir()
    source = (data_dir("rules") / "MT001.yaml").read_text(encoding="utf-8")
    for n, typo in enumerate(("vmk.mtux > 1", "vmk.vswitch_mtux > 1"), 1):
        text = source.replace("code: MT001", f"code: ACME00{n}").replace("vmk-mtu-above-vswitch", f"acme-{n}")
        (rules / f"ACME00{n}.yaml").write_text(text.replace("vmk.mtu > vmk.vswitch_mtu", typo), encoding="utf-8")
    code, _, err = run("check", str(LAB), "--isolated", "--rules-dir", str(rules))
    assert code == Exit.USAGE
    assert [line.split(": ", 2)[1].rsplit("/", 1)[-1].split(":")[0] for line in err.splitlines()] == [
        "ACME001.yaml",
        "ACME002.yaml",
    ]


def test_unknown_names_macro_scopes_and_indexing_are_followed():
    from hostlint.join.facts import IscsiFact, TeamFact

    def problems(source, variables):
        return [p.message for p in check_expression(source, variables)]

    team = {"team": TeamFact}
    assert problems('team.uplinks.exists(u, u.port_chanel == "x")', team) == [
        "u.port_chanel: UplinkFact has no field 'port_chanel'; did you mean 'port_channel'?"
    ]
    assert problems("team.uplinks[0].prot", team) == [
        "team.uplinks[...].prot: UplinkFact has no field 'prot'; did you mean 'port'?"
    ]
    assert problems("tem.mtu > 1", team) == ["unknown name 'tem'; did you mean 'team'?"]
    # A macro variable is known only inside its macro.
    assert problems('team.uplinks.exists(u, true) && u.nic == "x"', team) == [
        "unknown name 'u'; this rule's fact is 'team'"
    ]
    assert problems("team.mtu.value", team) == ["team.mtu.value: a value of type int has no field 'value'"]
    # Strings, numbers and map keys are not paths; a map's keys are not checked.
    assert problems('"a.b" + string(1.5) + team.missing.switch + {"k.x": 1}["k.x"]', team) == []
    assert problems("iscsi.bound.exists(b, b.targets_outside.size() > 0 && b.mtux == 1)", {"iscsi": IscsiFact}) == [
        "b.mtux: BoundVmk has no field 'mtux'; did you mean 'mtu'?"
    ]


def test_a_message_placeholder_that_is_no_value_is_an_error(tmp_path):
    text = (data_dir("rules") / "MT001.yaml").read_text(encoding="utf-8").replace("{vswitch}", "{vswitsh}")
    path = tmp_path / "MT001.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RuleError, match=r"MT001.yaml:\d+:\d+: message: \{vswitsh\} is neither a value"):
        load_rule(path)


def test_snapshot_validation_shows_every_error_on_one_line(tmp_path):
    path = tmp_path / "site.json"
    path.write_text('{"schema_version": 1, "esxi_hosts": [{"name": 1}, {"vswitches": 3}]}', encoding="utf-8")
    code, _, err = run("check", str(path), "--isolated")
    assert code == Exit.USAGE
    assert len(err.splitlines()) == 1
    assert "esxi_hosts.0.name" in err and "esxi_hosts.1.name" in err and "esxi_hosts.1.vswitches" in err
    assert "more)" not in err
