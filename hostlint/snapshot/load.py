"""Reading snapshots, lab folders and cabling files, and merging them into one site."""

from __future__ import annotations

from pathlib import Path

from hostlint.inputfile import InputError, load_json
from hostlint.snapshot.model import CablingEntry, Snapshot
from hostlint.yamlfile import read_yaml, validate

CABLING_NAMES = ("cabling.yaml", "cabling.yml")


class SnapshotError(Exception):
    """A snapshot, lab or cabling file that cannot be used; the message names file and field."""


def load_snapshot(path: Path) -> Snapshot:
    try:
        raw = load_json(path)
    except InputError as exc:
        raise SnapshotError(str(exc)) from None
    if not isinstance(raw, dict):
        raise SnapshotError(f"{path}: a snapshot is a JSON object, found {type(raw).__name__}")
    if "schema_version" not in raw:
        raise SnapshotError(f"{path}: field schema_version: missing; is this a hostlint snapshot?")
    return validate(path, raw, Snapshot, SnapshotError)


def load_cabling(path: Path) -> list[CablingEntry]:
    raw = read_yaml(path, "cabling file", SnapshotError) or {}
    entries = raw.get("cabling", raw) if isinstance(raw, dict) else raw
    return validate(path, entries, list[CablingEntry], SnapshotError)


def _files_in(path: Path) -> list[Path]:
    if path.is_dir():
        files = sorted(p for p in path.glob("*.json") if p.is_file())
        files += [path / name for name in CABLING_NAMES if (path / name).is_file()]
        if not files:
            raise SnapshotError(f"{path}: no snapshot (*.json) in this folder")
        return files
    if not path.exists():
        raise SnapshotError(f"{path}: no such file or folder")
    return [path]


_LABELS = {
    "esxi_hosts": "ESXi host",
    "distributed_switches": "distributed switch",
    "kvm_hosts": "KVM host",
    "switches": "switch",
}


def identity(item: object) -> str:
    """What makes a host or switch itself: an ESXi host its vCenter's instance UUID and its managed object
    id, a distributed switch its UUID (snapshot version 3); anything else, and objects of older
    snapshots, their name. Two objects of one name with different ids (two vCenters' `esx01`, two
    datacenters' `DSwitch`) are two objects."""
    vcenter, moid, uuid = (getattr(item, field, None) for field in ("vcenter_uuid", "moid", "uuid"))
    if vcenter and moid:
        return f"{vcenter}/{moid}"
    if uuid:
        return f"uuid:{uuid}"
    return f"name:{str(getattr(item, 'name', '')).lower()}"


def merge(snapshots: list[tuple[Path, Snapshot]]) -> Snapshot:
    """Several snapshots of one site (hosts from vCenter, switches from SSH) as one; the same object
    (by identity) in two of them is an error, two objects that share a name are not."""
    site = Snapshot()
    owners: dict[tuple[str, str], Path] = {}
    for path, snap in snapshots:
        for field, label in _LABELS.items():
            for item in getattr(snap, field):
                key = (field, identity(item))
                if key in owners:
                    raise SnapshotError(f"{path}: {label} {item.name!r} is also in {owners[key]}")
                owners[key] = path
                getattr(site, field).append(item)
        site.cabling.extend(snap.cabling)
        site.probes.extend(snap.probes)
        site.collection_errors.extend(snap.collection_errors)
        site.collected_at = max(filter(None, (site.collected_at, snap.collected_at)), default=None)
        site.source = site.source or snap.source
    return site


def load_site(paths: list[Path]) -> Snapshot:
    """Snapshot files, lab folders and cabling files merged into one site."""
    loaded: list[tuple[Path, Snapshot]] = []
    for path in paths:
        for file in _files_in(path):
            if file.suffix in (".yaml", ".yml"):
                loaded.append((file, Snapshot(cabling=load_cabling(file))))
            else:
                loaded.append((file, load_snapshot(file)))
    if len(loaded) == 1:
        return loaded[0][1]
    return merge(loaded)
