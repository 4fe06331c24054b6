"""switch-port-autoneg: its expander and simulated applier; its templates and rollback are in action.yaml."""

from __future__ import annotations

from typing import Any

from hostlint import names
from hostlint.fixes.actions import Applier, Expander
from hostlint.fixes.apply import _negotiate, _port
from hostlint.fixes.apply import _switch as _switch_in
from hostlint.fixes.facts import known, uplinks_of
from hostlint.fixes.site import Site
from hostlint.fixes.steps import Change
from hostlint.join.facts import Fact
from hostlint.snapshot import Snapshot


def port_autoneg(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    changes = []
    for uplink in uplinks_of(fact, site):
        if uplink.port_configured_speed_mbps is None and uplink.port_configured_duplex is None:
            continue
        changes.append(
            Change(
                action="switch-port-autoneg",
                device=known(uplink.switch, uplink),
                platforms=(known(uplink.platform, uplink),),
                target=known(uplink.port, uplink),
                values={"port": uplink.port},
                after="auto",
                before={"speed": uplink.port_configured_speed_mbps, "duplex": uplink.port_configured_duplex},
                notes=[f"{uplink.port} bounces: {uplink.object} loses its link for a moment"],
            )
        )
    return changes


def _switch_port_autoneg(snapshot: Snapshot, change: Change) -> None:
    switch = _switch_in(snapshot, change.device)
    port = _port(switch, change.values["port"])
    port.configured_speed_mbps = port.configured_duplex = None
    for host in snapshot.esxi_hosts:
        for pnic in host.pnics:
            neighbour = pnic.neighbour
            if (
                neighbour
                and names.device_key(neighbour.device_id) == names.device_key(switch.name)
                and (names.interface_key(neighbour.port_id) == names.interface_key(port.name))
            ):
                _negotiate(pnic, port)


EXPAND: Expander = port_autoneg
APPLY: Applier = _switch_port_autoneg
