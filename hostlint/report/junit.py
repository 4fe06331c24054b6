"""`--format junit`: JUnit XML, so a CI server shows each rule x object as a test.

One testsuite per rule code; a finding is a failure, a pass is an empty testcase,
and the checks a rule skipped for one cause are one skipped test named after the
cause (hostlint.report.skips), with the count and the first objects: the file grows
with findings, not with what could not be checked (the JSON report lists every
skipped object). Unresolved uplinks and collection errors go in one more suite,
`hostlint`, so a CI view that only counts tests still sees them. Probe evidence (hostlint probe) is
the suite `hostlint probes`: a failure per probe lost, one skipped test per cause that left probes
unproven, one passing test counting the delivered ones.

The elements and attributes are those of the JUnit schema Jenkins validates
against (jenkinsci/xunit-plugin, junit-10.xsd): `testsuites` carries no
`skipped` count there, so only the suites count skips.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import defaultdict
from dataclasses import dataclass, field

from hostlint.report.evidence import describe, section, unproven_groups
from hostlint.report.human import value_text
from hostlint.report.skips import group_skips
from hostlint.results import CheckResult, Finding
from hostlint.rules.model import Rule

# A testcase's outcome is the child element it carries; none means it passed.
OUTCOMES = {"failures": "failure", "errors": "error", "skipped": "skipped"}
COUNTED = ("tests", *OUTCOMES)
# The Jenkins schema allows no `skipped` attribute on `testsuites`.
ROOT_COUNTED = ("tests", "failures", "errors")
SKIPPED_LISTED = 10


@dataclass
class _Suite:
    name: str
    cases: list[ET.Element] = field(default_factory=list)


def render(result: CheckResult, rules: list[Rule]) -> str:
    root = junit_tree(result, rules)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def junit_tree(result: CheckResult, rules: list[Rule]) -> ET.Element:
    suites = _rule_suites(result, rules)
    for extra in (_hostlint_suite(result), _probe_suite(result)):
        if extra.cases:
            suites.append(extra)
    root = ET.Element("testsuites", name="hostlint")
    for suite in suites:
        root.append(_suite_element(suite))
    _set_counts(root, {key: sum(int(suite.get(key, "0")) for suite in root) for key in ROOT_COUNTED}, ROOT_COUNTED)
    return root


def _rule_suites(result: CheckResult, rules: list[Rule]) -> list[_Suite]:
    # Every rule that ran gets a suite, even with no cases: it shows the rule found nothing to check.
    names = {rule.code: rule.name for rule in rules}
    for finding in result.findings:
        names.setdefault(finding.code, finding.name)
    cases: dict[str, list[ET.Element]] = defaultdict(list)
    for finding in result.findings:
        cases[finding.code].append(_failure_case(finding))
    for group in group_skips(result, names):
        case = _case(group.code, f"skipped: {group.reason}")
        count = len(group.objects)
        skipped = ET.SubElement(
            case, "skipped", message=f"{count} {'object' if count == 1 else 'objects'}: {group.reason}"
        )
        listed = group.objects[:SKIPPED_LISTED]
        more = f"\nand {count - len(listed)} more (the JSON report lists every one)" if count > len(listed) else ""
        skipped.text = "\n".join(listed) + more
        cases[group.code].append(case)
    for passed in result.passed:
        cases[passed.code].append(_case(passed.code, passed.object))
    codes = sorted(set(names) | set(cases))
    return [_Suite(f"{code} {names[code]}" if code in names else code, _by_name(cases[code])) for code in codes]


def _case(classname: str, name: str) -> ET.Element:
    return ET.Element("testcase", classname=classname, name=name)


def _failure_case(finding: Finding) -> ET.Element:
    case = _case(finding.code, finding.object)
    failure = ET.SubElement(case, "failure", message=finding.message, type=finding.severity)
    failure.text = "\n".join(
        [
            f"expected: {value_text(finding.expected)}",
            f"actual:   {value_text(finding.actual)}",
            f"host:     {finding.host}",
            f"fix:      {finding.applicability or 'none'}",
        ]
    )
    return case


def _by_name(cases: list[ET.Element]) -> list[ET.Element]:
    return sorted(cases, key=lambda case: case.get("name", ""))


def _hostlint_suite(result: CheckResult) -> _Suite:
    suite = _Suite("hostlint")
    for uplink in result.unresolved:
        case = _case("unresolved-uplink", uplink.object)
        ET.SubElement(case, "skipped", message=uplink.reason)
        suite.cases.append(case)
    for error in result.collection_errors:
        case = _case("collection", f"{error.kind} {error.target}")
        ET.SubElement(case, "error", message=error.reason, type="collection")
        suite.cases.append(case)
    return suite


def _probe_suite(result: CheckResult) -> _Suite:
    """`hostlint probes`: a failure per probe lost or refused by its own host, a skipped test per cause
    that left probes unproven, and one passing test counting the delivered probes."""
    suite = _Suite("hostlint probes")
    probes = section(result)
    if probes is None:
        return suite
    for item in probes.listed:
        if item.outcome in ("lost", "refused-locally"):
            case = _case("probe", item.id)
            failure = ET.SubElement(case, "failure", message=f"{item.outcome}: {item.id}", type=item.outcome)
            failure.text = describe(item) + (f"\nfindings: {', '.join(item.findings)}" if item.findings else "")
            suite.cases.append(case)
    for cause, items in unproven_groups(probes.listed):
        case = _case("probe", f"not proven: {cause}")
        skipped = ET.SubElement(case, "skipped", message=f"{len(items)} probes: {cause}")
        listed = [item.id for item in items[:SKIPPED_LISTED]]
        hidden = len(items) - len(listed)
        more = f"\nand {hidden} more (the JSON report lists every one)" if hidden else ""
        skipped.text = "\n".join(listed) + more
        suite.cases.append(case)
    if probes.counts.delivered:
        suite.cases.append(_case("probe", f"{probes.counts.delivered} probes delivered"))
    return suite


def _suite_element(suite: _Suite) -> ET.Element:
    element = ET.Element("testsuite", name=suite.name)
    element.extend(suite.cases)
    _set_counts(element, _case_counts(suite.cases))
    return element


def _case_counts(cases: list[ET.Element]) -> dict[str, int]:
    counts = {"tests": len(cases)}
    counts.update({key: sum(1 for case in cases if case.find(tag) is not None) for key, tag in OUTCOMES.items()})
    return counts


def _set_counts(element: ET.Element, counts: dict[str, int], keys: tuple[str, ...] = COUNTED) -> None:
    for key in keys:
        element.set(key, str(counts[key]))
