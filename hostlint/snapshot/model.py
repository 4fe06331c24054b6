"""The snapshot: everything collected about one site, as versioned JSON."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field, StrictInt, field_validator

from hostlint.snapshot.common import CollectionError, Model, Name, Text
from hostlint.snapshot.esxi import DistributedSwitch, EsxiHost
from hostlint.snapshot.kvm import KvmHost
from hostlint.snapshot.probe import Probe
from hostlint.snapshot.switch import Switch

# 2: a fact the source did not show is null (unknown), never a default (1 filled MTU 1500, port
# up, channel static and the like in for facts the collector did not read).
# 3: vSphere objects carry their stable ids (host: vCenter instance UUID + managed object id; distributed
# switch: UUID; port group: key), names being for display; NSX-backed port groups and the vmks on them
# are told apart; free text (LLDP/CDP, descriptions, versions) keeps control characters escaped. Every
# new field is optional, so a version 2 snapshot reads as a version 3 one whose ids are unknown (its
# objects identified by name, as before): it is migrated on load, unchanged otherwise.
SCHEMA_VERSION = 3
MIGRATED_VERSIONS = (2,)


class CablingEntry(Model):
    """One cable, for sites where CDP/LLDP is off: host NIC -> switch port."""

    host: Name
    nic: Name
    switch: Name
    port: Name


class Snapshot(Model):
    schema_version: StrictInt = SCHEMA_VERSION
    collected_at: datetime | None = None
    source: Text | None = None
    esxi_hosts: list[EsxiHost] = Field(default_factory=list)
    distributed_switches: list[DistributedSwitch] = Field(default_factory=list)
    kvm_hosts: list[KvmHost] = Field(default_factory=list)
    switches: list[Switch] = Field(default_factory=list)
    cabling: list[CablingEntry] = Field(default_factory=list)
    collection_errors: list[CollectionError] = Field(default_factory=list)
    # Evidence from `hostlint probe` (don't-fragment pings between VMkernel ports); empty when none ran.
    probes: list[Probe] = Field(default_factory=list)

    @field_validator("schema_version")
    @classmethod
    def _known_version(cls, value: int) -> int:
        if value == 1:
            raise ValueError(
                "schema_version 1 is no longer read: version 1 filled facts the collector did not see with "
                "guesses (MTU 1500, port up, channel static); collect again with this hostlint, or for a "
                "hand-written snapshot state every fact (null where unknown) and set schema_version 3"
            )
        if value in MIGRATED_VERSIONS:
            return SCHEMA_VERSION
        if value != SCHEMA_VERSION:
            readable = ", ".join(str(v) for v in (*MIGRATED_VERSIONS, SCHEMA_VERSION))
            raise ValueError(f"unsupported schema_version {value}; this hostlint reads versions {readable}")
        return value
