"""host-nic-autoneg: its expander and simulated applier; its templates and rollback are in action.yaml."""

from __future__ import annotations

from typing import Any

from hostlint.fixes.actions import HOST_PLATFORMS, Applier, Expander
from hostlint.fixes.apply import _host, _negotiate, _pnic_port
from hostlint.fixes.facts import require
from hostlint.fixes.site import Site
from hostlint.fixes.steps import Change
from hostlint.join.facts import Fact, TeamFact, UplinkFact
from hostlint.snapshot import Snapshot


def host_nic_autoneg(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    uplinks = [fact] if isinstance(fact, UplinkFact) else require(fact, TeamFact).uplinks
    changes = []
    for uplink in uplinks:
        if uplink.configured_speed_mbps is None:
            continue
        before = {"speed": uplink.configured_speed_mbps, "duplex": uplink.configured_duplex or "full"}
        changes.append(
            Change(
                action="host-nic-autoneg",
                device=uplink.host,
                platforms=HOST_PLATFORMS,
                target=uplink.nic,
                values={"nic": uplink.nic},
                after="auto",
                before=before,
                notes=[f"{uplink.nic} bounces: make sure the host keeps management on another uplink"],
            )
        )
    return changes


def _host_nic_autoneg(snapshot: Snapshot, change: Change) -> None:
    host = _host(snapshot, change.device)
    pnic, port = _pnic_port(snapshot, host, change.values["nic"])
    pnic.configured_speed_mbps = pnic.configured_duplex = None
    _negotiate(pnic, port)


EXPAND: Expander = host_nic_autoneg
APPLY: Applier = _host_nic_autoneg
