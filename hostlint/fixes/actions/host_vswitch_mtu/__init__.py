"""host-vswitch-mtu: its expander and simulated applier; its templates and rollback are in action.yaml."""

from __future__ import annotations

from typing import Any

from hostlint.fixes.actions import HOST_PLATFORMS, Applier, Expander
from hostlint.fixes.apply import _host, _vswitch
from hostlint.fixes.facts import require
from hostlint.fixes.host_steps import _esxi_mtu
from hostlint.fixes.site import Site
from hostlint.fixes.steps import CannotFix, Change
from hostlint.join.facts import Fact, TeamFact, VmkFact
from hostlint.snapshot import Snapshot


def host_vswitch_mtu(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    mtu = _esxi_mtu(int(params["mtu"]), fact.object)
    notes: list[str] = []
    if isinstance(fact, VmkFact):
        if fact.dvswitch:
            raise CannotFix(
                f"{fact.dvswitch} is a distributed switch: its MTU is set in vCenter and applies to every host "
                f"on it, so raise it to {mtu} there once every host's switch ports carry {mtu}"
            )
        vswitch, current = fact.vswitch, fact.vswitch_mtu
        if fact.path_mtu is not None and fact.path:
            # Why the vSwitch goes up rather than the vmk down, and what the engineer sees meanwhile.
            notes = [
                f"the switch ports under {vswitch} carry {fact.path_mtu} ({', '.join(fact.path)}), so {vswitch} "
                f"is raised for {fact.name}; many NIC drivers reset the uplinks when their MTU changes: "
                f"{vswitch}'s uplinks drop for a moment"
            ]
            host = site.host(fact.host)
            others = [v.name for v in host.vmks if v.vswitch == vswitch and v.name != fact.name] if host else []
            if others:
                notes[0] += f": {', '.join(others)} on it too loses the network meanwhile"
    else:
        team: TeamFact = require(fact, TeamFact, VmkFact)
        if team.kind in ("dvs-portgroup", "dvs"):
            raise CannotFix("a distributed switch's MTU is set in vCenter")
        vswitch, current = team.vswitch, team.mtu
    if vswitch is None:
        raise CannotFix(f"{fact.object} is not on a standard vSwitch")
    return [
        Change(
            action="host-vswitch-mtu",
            device=fact.host,
            platforms=HOST_PLATFORMS,
            target=vswitch,
            values={"vswitch": vswitch},
            after=mtu,
            before=current,
            notes=notes,
        )
    ]


def _host_vswitch_mtu(snapshot: Snapshot, change: Change) -> None:
    _vswitch(_host(snapshot, change.device), change.values["vswitch"]).mtu = int(change.after)


EXPAND: Expander = host_vswitch_mtu
APPLY: Applier = _host_vswitch_mtu
