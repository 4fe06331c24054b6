"""switch-port-admin: shut switch ports and bring them back, one link of a live team forwarding meanwhile.

No rule asks for it: the planner adds it around channel changes under a live ESXi team
(hostlint.fixes.members, Broadcom KB 1022751). Its text is in each switch platform's fixes.yaml.
"""

from __future__ import annotations

from typing import Any

from hostlint import names
from hostlint.fixes.actions import Applier, Expander
from hostlint.fixes.apply import _on_switch, _port, _renegotiate
from hostlint.fixes.apply import _switch as _switch_in
from hostlint.fixes.site import Site
from hostlint.fixes.steps import CannotFix, Change
from hostlint.join.facts import Fact
from hostlint.snapshot import Snapshot


def switch_port_admin(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    """Never asked for by a rule: the plan places these steps itself (hostlint.fixes.members)."""
    raise CannotFix("switch-port-admin is planned around channel changes, not requested by a rule")


def _switch_port_admin(snapshot: Snapshot, change: Change) -> None:
    """Shut ports are down at both ends: the switch shows them disabled (a channel member down) and
    the host NIC cabled to each loses its link; back up, a static member bundles again."""
    switch = _switch_in(snapshot, change.device)
    up = change.after == "up"
    for name in change.values["ports"]:
        port = _port(switch, name)
        port.status = "up" if up else "disabled"
        if port.port_channel is not None:
            port.member_state = "bundled" if up else "down"
        for host in snapshot.esxi_hosts:
            for pnic in host.pnics:
                neighbour = pnic.neighbour
                if (
                    neighbour
                    and names.device_key(neighbour.device_id) == names.device_key(switch.name)
                    and names.interface_key(neighbour.port_id) == names.interface_key(port.name)
                ):
                    pnic.link_up = up
    _renegotiate(snapshot, _on_switch(change.device))


EXPAND: Expander = switch_port_admin
APPLY: Applier = _switch_port_admin
