"""Per-site parameters: what this site expects where a rule cannot know it (MTU per VLAN, storage VLANs)."""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from hostlint.snapshot import SnapshotError

STORAGE_SERVICES = ("iscsi", "nfs", "vsan", "nvme-tcp", "nvme-rdma")


class MtuPolicy(BaseModel):
    model_config = ConfigDict(extra="forbid")

    storage: int | None = None
    vlans: dict[int, int] = Field(default_factory=dict)
    portgroups: dict[str, int] = Field(default_factory=dict)


class SiteParams(BaseModel):
    """`--site FILE`: a port group's MTU wins over its VLAN's, which wins over the storage MTU."""

    model_config = ConfigDict(extra="forbid")

    mtu: MtuPolicy = Field(default_factory=MtuPolicy)
    storage_vlans: list[int] = Field(default_factory=list)

    def is_storage(self, vlan: int | None, services: list[str]) -> bool:
        return vlan in self.storage_vlans or any(s in STORAGE_SERVICES for s in services)

    def expected_mtu(self, portgroup: str, vlan: int | None, services: list[str]) -> int | None:
        if portgroup in self.mtu.portgroups:
            return self.mtu.portgroups[portgroup]
        if vlan is not None and vlan in self.mtu.vlans:
            return self.mtu.vlans[vlan]
        if self.is_storage(vlan, services):
            return self.mtu.storage
        return None


def load_site_params(path: Path) -> SiteParams:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        return SiteParams.model_validate(raw)
    except (OSError, yaml.YAMLError) as exc:
        raise SnapshotError(f"{path}: cannot read site parameters: {exc}") from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top level)"
        raise SnapshotError(f"{path}: field {where}: {first['msg']}") from exc
