"""Adopting hostlint on an existing estate: baseline files and site parameters."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
import yaml

from hostlint.baseline import Baseline, BaselineEntry, load_baseline, write_baseline
from hostlint.check import check_paths
from hostlint.rules import load_rules
from hostlint.site import SiteParams, load_site_params
from hostlint.snapshot import SnapshotError

DEMO = Path(__file__).parent.parent / "fixtures" / "labs" / "demo"
RULES = load_rules()
TODAY = date(2026, 11, 22)


def _pairs(result) -> set[tuple[str, str]]:
    return {(f.code, f.object) for f in result.findings}


def test_written_baseline_silences_exactly_todays_findings(tmp_path: Path) -> None:
    _, before = check_paths([DEMO], RULES)
    path = tmp_path / "baseline.yaml"
    assert write_baseline(before, path, TODAY) == len(before.findings) == 7
    _, after = check_paths([DEMO], RULES, baseline=load_baseline(path))
    assert after.findings == [] and {(i.code, i.object) for i in after.ignored} == _pairs(before)
    assert all("accepted when adopting hostlint on 2026-11-22" in i.reason for i in after.ignored)


def test_patterns_expiry_and_unused_entries() -> None:
    from hostlint.check import check_snapshot
    from hostlint.snapshot import load_site

    baseline = Baseline(
        ignore=[
            BaselineEntry(code="LG003", object="esx0*.corp.example/vSwitch1", reason="hash change in CHG-1234"),
            BaselineEntry(code="MT001", object="*", reason="NFS MTU review", until=date(2026, 11, 1)),
            BaselineEntry(code="LK003", object="*", reason="old"),
        ]
    )
    result = check_snapshot(load_site([DEMO]), RULES, baseline=baseline, today=TODAY)
    assert {(i.code, i.object) for i in result.ignored} == {
        ("LG003", "esx01.corp.example/vSwitch1"),
        ("LG003", "esx03.corp.example/vSwitch1"),
    }
    assert ("MT001", "esx03.corp.example/vmk2") in _pairs(result)
    assert any("MT001 * expired on 2026-11-01" in n for n in result.notes)
    assert any("LK003 * matched nothing" in n for n in result.notes)


def test_baseline_entry_without_reason_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "b.yaml"
    path.write_text(yaml.safe_dump({"ignore": [{"code": "LG001", "object": "*", "reason": " "}]}))
    with pytest.raises(SnapshotError, match=r"b\.yaml: field ignore\.0\.reason: .*needs a reason"):
        load_baseline(path)


def test_site_parameters_precedence() -> None:
    site = SiteParams.model_validate(
        {"mtu": {"storage": 9000, "vlans": {20: 9000, 50: 1500}, "portgroups": {"NFS": 9000}}, "storage_vlans": [50]}
    )
    assert site.expected_mtu("NFS", 50, []) == 9000
    assert site.expected_mtu("iSCSI-A", 50, ["iscsi"]) == 1500
    assert site.expected_mtu("vSAN", 60, ["vsan"]) == 9000
    assert site.expected_mtu("Management Network", 10, ["management"]) is None


def test_site_file_drives_mt007(tmp_path: Path) -> None:
    path = tmp_path / "site.yaml"
    path.write_text("mtu:\n  vlans: {20: 9000}\n  portgroups: {Management Network: 9000}\n")
    _, result = check_paths([DEMO], RULES, site=load_site_params(path))
    mt007 = sorted(f.object for f in result.findings if f.code == "MT007")
    assert mt007 == [f"esx0{n}.corp.example/vmk0" for n in (1, 2, 3)]


def test_site_file_errors_name_the_field(tmp_path: Path) -> None:
    path = tmp_path / "site.yaml"
    path.write_text("mtu:\n  vlan: {20: 9000}\n")
    with pytest.raises(SnapshotError, match=r"site\.yaml: field mtu\.vlan: Extra inputs"):
        load_site_params(path)
