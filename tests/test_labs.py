"""Every lab under fixtures/labs/ gives exactly the findings its expected.yaml names.

A lab is a small believable site (hosts.json, switches.json, optional
cabling.yaml) with a problem or two planted in it, and an expected.yaml:

    description: the site and the problem planted in it
    findings:                 # exactly these (code, object) pairs
      - {code: LG001, object: esx02.site.example/vSwitch1}
    unresolved: [objects]     # optional: uplinks the join may leave without a switch port
    skipped:                  # optional: for the codes named here, exactly these skips,
      - {code: LG010, object: ..., reason: a substring of the reason}
    profile: strict           # optional, the default: the rule profile the lab is checked with
    nothing_skipped: true     # optional: every rule that applies was decided (no unknown fact)

A lab may also be written as its switches' own output: a `cli/` folder with a Nornir
`hosts.yaml` and per device one file per command (tests/captured_switches.py), from which
its switches.json is built; the lab's switches.json must then be what those outputs give.

Besides the check itself, each lab is checked through the CLI, and once more
with its switch data removed: what needs switch facts must then be skipped
with a reason, never silently passed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from captured_switches import document, snapshot_of
from click.testing import CliRunner

from hostlint.check import check_paths, check_snapshot
from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.results import CheckResult, Finding
from hostlint.rules import Rule, load_rules
from hostlint.rules.load import select
from hostlint.rules.model import PROFILES
from hostlint.snapshot import load_site

LABS = Path(__file__).resolve().parent.parent / "fixtures" / "labs"
LAB_DIRS = sorted(p for p in LABS.iterdir() if (p / "expected.yaml").is_file())
EXPECTED_KEYS = {"description", "findings", "unresolved", "skipped", "profile", "nothing_skipped"}

# Rules (or the host side of a rule) that read only host facts: they must still
# find what they found when the switch data is gone. LK002's switch side (a
# half-duplex switch port) is not here: without switch data it must be skipped.
HOST_SIDE = {
    "LG005": lambda finding: True,
    "MT001": lambda finding: True,
    "MT008": lambda finding: True,
    "LK003": lambda finding: True,
    "LK004": lambda finding: True,
    "LK002": lambda finding: finding.fact.get("duplex") == "half",
}

Pair = tuple[str, str]


def expected_of(lab: Path) -> dict:
    return yaml.safe_load((lab / "expected.yaml").read_text(encoding="utf-8"))


def profile_of(lab: Path) -> str:
    return expected_of(lab).get("profile", "strict")


def expected_pairs(lab: Path) -> set[Pair]:
    return {(f["code"], f["object"]) for f in expected_of(lab)["findings"] or []}


def pairs(items) -> set[Pair]:
    return {(item.code, item.object) for item in items}


def difference(expected: set[Pair], actual: set[Pair]) -> str:
    missing = "".join(f"\n  missing    {code} {obj}" for code, obj in sorted(expected - actual))
    extra = "".join(f"\n  unexpected {code} {obj}" for code, obj in sorted(actual - expected))
    return missing + extra


@pytest.fixture(scope="module")
def all_rules() -> list[Rule]:
    return load_rules()


def lab_rules(lab: Path, all_rules: list[Rule]) -> list[Rule]:
    """The rules of the lab's profile (strict, every rule, unless it says otherwise)."""
    return select(all_rules, None, None, profile_of(lab))


@pytest.fixture(scope="module")
def results(all_rules) -> dict[str, CheckResult]:
    """Each lab checked once with its profile's rules (on first use), shared by the tests below."""

    class Checked(dict):
        def __missing__(self, name: str) -> CheckResult:
            self[name] = check_paths([LABS / name], lab_rules(LABS / name, all_rules))[1]
            return self[name]

    return Checked()


def lab_params():
    return [pytest.param(lab, id=lab.name) for lab in LAB_DIRS]


def test_every_lab_folder_has_an_expected_file():
    folders = sorted(p.name for p in LABS.iterdir() if p.is_dir())
    assert folders == [lab.name for lab in LAB_DIRS], "a lab folder without expected.yaml is never checked"
    assert len(LAB_DIRS) >= 8


@pytest.mark.parametrize("lab", lab_params())
def test_expected_file_is_well_formed(lab):
    expected = expected_of(lab)
    assert set(expected) <= EXPECTED_KEYS, f"unknown keys {set(expected) - EXPECTED_KEYS}"
    assert isinstance(expected.get("description"), str) and len(expected["description"]) > 80
    findings = expected["findings"] or []
    assert all(set(f) == {"code", "object"} for f in findings), findings
    assert len({(f["code"], f["object"]) for f in findings}) == len(findings), "a finding is listed twice"
    assert isinstance(expected.get("unresolved", []), list)
    assert all(set(s) == {"code", "object", "reason"} for s in expected.get("skipped") or []), expected["skipped"]
    assert expected.get("profile", "strict") in PROFILES
    assert expected.get("nothing_skipped", True) is True, "nothing_skipped: true, or leave it out"


STATES_EVERY_FACT = [lab for lab in LAB_DIRS if expected_of(lab).get("nothing_skipped")]


@pytest.mark.parametrize("lab", STATES_EVERY_FACT, ids=lambda p: p.name)
def test_lab_that_states_every_fact_skips_nothing(lab, results):
    skipped = sorted(f"{s.code} {s.object}: {s.reason}" for s in results[lab.name].skipped)
    assert not skipped, f"{lab.name} states every fact, yet rules were skipped: {skipped}"


@pytest.mark.parametrize("lab", [lab for lab in LAB_DIRS if (lab / "cli").is_dir()], ids=lambda p: p.name)
def test_lab_switches_are_what_their_captured_outputs_give(lab):
    """Rebuild with `python3 tests/captured_switches.py fixtures/labs/<lab>` after a parser change."""
    committed = (lab / "switches.json").read_text(encoding="utf-8")
    collected_at = load_site([lab / "switches.json"]).collected_at
    assert document(snapshot_of(lab, collected_at)) == committed


@pytest.mark.parametrize("lab", [lab for lab in LAB_DIRS if expected_of(lab).get("skipped")], ids=lambda p: p.name)
def test_lab_skips_exactly_what_it_declares_with_the_reason(lab, results):
    declared = {(s["code"], s["object"]): s["reason"] for s in expected_of(lab)["skipped"]}
    codes = {code for code, _ in declared}
    actual = {(s.code, s.object): s.reason for s in results[lab.name].skipped if s.code in codes}
    assert set(actual) == set(declared), f"{lab.name}: skips differ:{difference(set(declared), set(actual))}"
    for key, reason in declared.items():
        assert reason in actual[key], (key, actual[key])


@pytest.mark.parametrize("lab", lab_params())
def test_lab_gives_exactly_its_planted_findings(lab, results):
    expected = expected_pairs(lab)
    actual = pairs(results[lab.name].findings)
    assert actual == expected, f"{lab.name}: findings differ from expected.yaml:{difference(expected, actual)}"


@pytest.mark.parametrize("lab", lab_params())
def test_lab_resolves_every_uplink_it_does_not_declare_unresolved(lab, results):
    declared = set(expected_of(lab).get("unresolved") or [])
    unresolved = {u.object: u.reason for u in results[lab.name].unresolved}
    assert set(unresolved) == declared, f"{lab.name}: unresolved uplinks {unresolved}, declared {sorted(declared)}"
    assert all(unresolved.values())


@pytest.mark.parametrize("lab", lab_params())
def test_cli_exit_code_and_json(lab):
    # standalone_mode=False: the command returns its exit code, which main() passes to sys.exit.
    # --profile: the lab's (strict unless it says otherwise), as check_paths above uses.
    args = ["check", str(lab), "--profile", profile_of(lab), "--format", "json"]
    outcome = CliRunner().invoke(cli, args, standalone_mode=False)
    assert outcome.exception is None, outcome.output
    expected = expected_pairs(lab)
    assert int(outcome.return_value) == (Exit.FINDINGS if expected else Exit.CLEAN)
    document = json.loads(outcome.output)
    assert {"schema_version", "findings", "skipped"} <= set(document)
    assert isinstance(document["schema_version"], int)
    actual = {(f["code"], f["object"]) for f in document["findings"]}
    assert actual == expected, f"{lab.name}: JSON findings differ:{difference(expected, actual)}"


def _without_switches(lab: Path, all_rules: list[Rule]) -> CheckResult:
    snapshot = load_site([lab])
    snapshot.switches = []
    return check_snapshot(snapshot, lab_rules(lab, all_rules))


@pytest.mark.parametrize("lab", lab_params())
def test_without_switch_data_switch_rules_are_skipped_not_passed(lab, results, all_rules):
    needs_switch = {rule.code for rule in all_rules if "switch" in rule.needs}
    switch_names = [s.name for s in load_site([lab]).switches]
    before = results[lab.name]
    after = _without_switches(lab, all_rules)

    found = sorted(pairs(f for f in after.findings if f.code in needs_switch))
    assert not found, f"{lab.name}: rules that need switch data found something without it: {found}"

    skipped = {(s.code, s.object): s.reason for s in after.skipped}
    for finding in before.findings:
        if finding.code not in needs_switch:
            continue
        key = (finding.code, finding.object)
        assert key in skipped, f"{lab.name}: {finding.code} {finding.object} neither found nor skipped"
        reason = skipped[key]
        assert reason and (f"{finding.host}/" in reason or any(name in reason for name in switch_names)), (
            f"{lab.name}: skip reason for {key} names no uplink or switch: {reason!r}"
        )


@pytest.mark.parametrize("lab", lab_params())
def test_without_switch_data_host_rules_still_find(lab, results, all_rules):
    before: list[Finding] = results[lab.name].findings
    after = _without_switches(lab, all_rules)
    found = pairs(after.findings)
    skipped = pairs(after.skipped)

    host_side = {(f.code, f.object) for f in before if f.code in HOST_SIDE and HOST_SIDE[f.code](f)}
    assert host_side <= found, f"{lab.name}: host-only findings lost without switch data:{difference(host_side, found)}"

    silent = sorted((f.code, f.object) for f in before if (f.code, f.object) not in found | skipped)
    assert not silent, f"{lab.name}: findings that vanished without switch data, neither found nor skipped: {silent}"
