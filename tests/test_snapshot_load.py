"""Loading snapshots: versioning, clear errors naming file and field, merging a site."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hostlint.snapshot import SnapshotError, load_site, load_snapshot

LAB = Path(__file__).parent.parent / "fixtures" / "labs" / "clean"


def _write(tmp_path: Path, name: str, data) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return path


def test_unknown_schema_version_names_file_and_field(tmp_path: Path) -> None:
    path = _write(tmp_path, "future.json", {"schema_version": 99})
    with pytest.raises(SnapshotError, match=r"future\.json: field schema_version: .*unsupported schema_version 99"):
        load_snapshot(path)


def test_missing_schema_version(tmp_path: Path) -> None:
    path = _write(tmp_path, "other.json", {"hosts": []})
    with pytest.raises(SnapshotError, match=r"other\.json: field schema_version: missing"):
        load_snapshot(path)


def test_truncated_file(tmp_path: Path) -> None:
    text = (LAB / "hosts.json").read_text()
    path = _write(tmp_path, "cut.json", text[: len(text) // 2])
    with pytest.raises(SnapshotError, match=r"cut\.json: not valid JSON \(line \d+"):
        load_snapshot(path)


def test_bad_field_is_named_with_its_path(tmp_path: Path) -> None:
    data = json.loads((LAB / "hosts.json").read_text())
    data["esxi_hosts"][1]["vswitches"][0]["teaming"]["policy"] = "loadbalance_magic"
    path = _write(tmp_path, "bad.json", data)
    with pytest.raises(SnapshotError, match=r"bad\.json: field esxi_hosts\.1\.vswitches\.0\.teaming\.policy"):
        load_snapshot(path)


def test_unknown_field_is_an_error_not_ignored(tmp_path: Path) -> None:
    data = json.loads((LAB / "hosts.json").read_text())
    data["esxi_hosts"][0]["vswitches"][0]["mtu_typo"] = 9000
    with pytest.raises(SnapshotError, match=r"vswitches\.0\.mtu_typo: Extra inputs"):
        load_snapshot(_write(tmp_path, "typo.json", data))


def test_lab_folder_merges_hosts_and_switches() -> None:
    site = load_site([LAB])
    assert len(site.esxi_hosts) >= 2 and len(site.switches) == 2


def test_same_switch_in_two_files_is_an_error(tmp_path: Path) -> None:
    switches = (LAB / "switches.json").read_text()
    name = json.loads(switches)["switches"][0]["name"]
    _write(tmp_path, "a.json", switches)
    _write(tmp_path, "b.json", switches)
    with pytest.raises(SnapshotError, match=rf"b\.json: switch '{name}' is also in .*a\.json"):
        load_site([tmp_path])


def test_cabling_file_errors_name_the_field(tmp_path: Path) -> None:
    path = _write(tmp_path, "cabling.yaml", "cabling:\n  - {host: esx01, nic: vmnic0, switch: sw1}\n")
    with pytest.raises(SnapshotError, match=r"cabling\.yaml: field 0\.port: Field required"):
        load_site([path])


def test_missing_path(tmp_path: Path) -> None:
    with pytest.raises(SnapshotError, match="no such file or folder"):
        load_site([tmp_path / "nope.json"])


def test_round_trip_keeps_everything() -> None:
    site = load_site([LAB])
    again = type(site).model_validate_json(site.model_dump_json())
    assert again == site
