"""vmk-migrate: its expander and simulated applier; its templates and rollback are in action.yaml."""

from __future__ import annotations

from typing import Any

from hostlint.fixes.actions import Applier, Expander
from hostlint.fixes.apply import ApplyError, _host
from hostlint.fixes.facts import require
from hostlint.fixes.site import Site
from hostlint.fixes.steps import CannotFix, Change
from hostlint.join.facts import Fact, VmkFact
from hostlint.snapshot import Snapshot


def vmk_migrate(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    """Move a vmk to a distributed port group (`DSwitch/PortGroup`), one change per vmk."""
    vmk: VmkFact = require(fact, VmkFact)
    dvswitch, _, portgroup = str(params["to"]).partition("/")
    if not portgroup:
        raise CannotFix(f"move {vmk.name} to DSWITCH/PORTGROUP, not {params['to']!r}")
    move = {
        "vmk": vmk.name,
        "dvswitch": dvswitch,
        "portgroup": portgroup,
        "from_portgroup": vmk.portgroup,
        "from_switch": vmk.dvswitch or vmk.vswitch,
    }
    return [
        Change(
            action="vmk-migrate",
            device=vmk.host,
            platforms=("powercli",),
            target=vmk.name,
            values={"moves": [move]},
            after=f"{dvswitch}/{portgroup}",
            before=f"{move['from_switch']}/{vmk.portgroup}",
            notes=[f"{vmk.name}'s traffic stops while it moves: the other paths must carry the I/O meanwhile"],
        )
    ]


def _vmk_migrate(snapshot: Snapshot, change: Change) -> None:
    host = _host(snapshot, change.device)
    for move in change.values["moves"]:
        vmk = next((v for v in host.vmks if v.name == move["vmk"]), None)
        if vmk is None:
            raise ApplyError(f"no {move['vmk']} on {host.name}")
        vmk.portgroup, vmk.dvswitch, vmk.vswitch = move["portgroup"], move["dvswitch"], None


def _vmk_migrate_under_way(snapshot: Snapshot, change: Change) -> None:
    """While vmks move, they are on no port group: their traffic has no path."""
    host = _host(snapshot, change.device)
    moving = {move["vmk"] for move in change.values["moves"]}
    for vmk in host.vmks:
        if vmk.name in moving:
            vmk.portgroup, vmk.dvswitch, vmk.vswitch = "(moving)", None, None


EXPAND: Expander = vmk_migrate
APPLY: Applier = _vmk_migrate
UNDER_WAY: Applier = _vmk_migrate_under_way
