"""switch-port-autoneg: its expander and simulated applier.

Its text per platform is in hostlint/switches/<platform>/fixes.yaml (its description in action.yaml).
"""

from __future__ import annotations

from typing import Any

from hostlint import names, switches
from hostlint.fixes.actions import Applier, Expander
from hostlint.fixes.apply import _negotiate, _port
from hostlint.fixes.apply import _switch as _switch_in
from hostlint.fixes.facts import known, uplinks_of
from hostlint.fixes.site import Site, port
from hostlint.fixes.steps import Change
from hostlint.join.facts import Fact, UplinkFact
from hostlint.snapshot import Snapshot
from hostlint.switches.base import ForcedLink


def _restore(uplink: UplinkFact, site: Site, forced: ForcedLink) -> list[str] | None:
    """The port's collected lines setting a statement the change deletes (the platform's `config.py`
    `CONFIG.forced_link`), which the rollback sets back; None when its lines were not collected."""
    switch = site.switch(uplink.switch) if uplink.switch else None
    found = port(switch, uplink.port) if switch is not None and uplink.port else None
    if found is None or found.config_lines is None:
        return None
    return forced.held(found.name, found.config_lines)


def port_autoneg(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    changes = []
    for uplink in uplinks_of(fact, site):
        if uplink.port_configured_speed_mbps is None and uplink.port_configured_duplex is None:
            continue
        values: dict[str, Any] = {"port": uplink.port}
        notes = [f"{uplink.port} bounces: {uplink.object} loses its link for a moment"]
        platform = switches.find_switch(uplink.platform)
        forced = switches.config(platform.name).forced_link if platform is not None else None
        if forced is not None:
            values["restore_lines"] = _restore(uplink, site, forced)
            if values["restore_lines"] is None:
                unmodelled = " or ".join(f"`{statement}`" for statement in forced.unmodelled)
                notes.append(
                    f"{uplink.port}: its configuration lines were not collected, so whether it had"
                    f" {unmodelled} is unknown: the rollback sets its speed and link mode back, not that"
                )
        changes.append(
            Change(
                action="switch-port-autoneg",
                device=known(uplink.switch, uplink),
                platforms=(known(uplink.platform, uplink),),
                target=known(uplink.port, uplink),
                values=values,
                after="auto",
                before={"speed": uplink.port_configured_speed_mbps, "duplex": uplink.port_configured_duplex},
                notes=notes,
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
