"""Per-site parameters: what this site expects where a rule cannot know it (MTU per VLAN, storage VLANs)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from hostlint.snapshot import SnapshotError
from hostlint.strict import Strict
from hostlint.yamlfile import load_model

STORAGE_SERVICES = ("iscsi", "nfs", "vsan", "nvme-tcp", "nvme-rdma")


class MtuPolicy(Strict):
    storage: int | None = None
    vlans: dict[int, int] = Field(default_factory=dict)
    portgroups: dict[str, int] = Field(default_factory=dict)


class SiteParams(Strict):
    """`--site FILE`: a port group's MTU wins over its VLAN's, which wins over the storage MTU."""

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
    return load_model(path, SiteParams, "site parameters", SnapshotError)
