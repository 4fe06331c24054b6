"""Loading snapshots: versioning, clear errors naming file and field, merging a site."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hostlint.snapshot import Snapshot, SnapshotError, load_site, load_snapshot

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


# --- schema version 3: ids, migration from version 2 ---------------------------------------------


def test_every_version_2_fixture_loads_as_version_3_with_its_facts_unchanged() -> None:
    fixtures = sorted((Path(__file__).parent.parent / "fixtures").rglob("*.json"))
    version_2 = [path for path in fixtures if json.loads(path.read_text()).get("schema_version") == 2]
    assert len(version_2) > 10
    for path in version_2:
        raw = json.loads(path.read_text())
        loaded = load_snapshot(path)
        assert loaded.schema_version == 3, path
        # The migration changes only the version: the file read as version 3 is the same snapshot, and
        # every id is unknown (objects are identified by name, as before).
        assert Snapshot.model_validate({**raw, "schema_version": 3}) == loaded, path
        assert all(h.moid is None and h.vcenter_uuid is None for h in loaded.esxi_hosts), path
        assert all(d.uuid is None for d in loaded.distributed_switches), path


def test_version_1_and_unknown_versions_are_refused_with_what_is_read(tmp_path: Path) -> None:
    with pytest.raises(SnapshotError, match=r"schema_version 1 is no longer read.*set schema_version 3"):
        load_snapshot(_write(tmp_path, "v1.json", {"schema_version": 1}))
    with pytest.raises(SnapshotError, match=r"unsupported schema_version 4; this hostlint reads versions 2, 3"):
        load_snapshot(_write(tmp_path, "v4.json", {"schema_version": 4}))


def _host(name: str, vcenter_uuid: str | None, moid: str | None) -> dict:
    return {"name": name, "vcenter_uuid": vcenter_uuid, "moid": moid}


def test_hosts_and_switches_sharing_a_name_merge_when_their_ids_differ(tmp_path: Path) -> None:
    def part(uuid: str) -> dict:
        return {
            "schema_version": 3,
            "esxi_hosts": [_host("esx01", f"vc-{uuid}", "host-10")],
            "distributed_switches": [{"name": "DSwitch", "uuid": f"dvs-{uuid}"}],
        }

    site = load_site([_write(tmp_path, "a.json", part("a")), _write(tmp_path, "b.json", part("b"))])
    assert [(h.name, h.vcenter_uuid) for h in site.esxi_hosts] == [("esx01", "vc-a"), ("esx01", "vc-b")]
    assert [d.uuid for d in site.distributed_switches] == ["dvs-a", "dvs-b"]
    # The same host (same vCenter, same id) in two files is still one object twice: an error.
    _write(tmp_path, "c.json", part("a"))
    with pytest.raises(SnapshotError, match=r"c\.json: ESXi host 'esx01' is also in .*a\.json"):
        load_site([tmp_path])
