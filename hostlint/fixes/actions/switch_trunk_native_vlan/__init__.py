"""switch-trunk-native-vlan: its expander and simulated applier.

Its text per platform is in hostlint/switches/<platform>/fixes.yaml (its description in action.yaml).
"""

from __future__ import annotations

from typing import Any

from hostlint import platforms as registry
from hostlint import vlans
from hostlint.fixes.actions import Applier, Expander
from hostlint.fixes.apply import _switch as _switch_in
from hostlint.fixes.apply import _vlan_interface
from hostlint.fixes.facts import uplinks_of
from hostlint.fixes.site import Site
from hostlint.fixes.steps import CannotFix, Change
from hostlint.fixes.switch_steps import _switch, _trunks
from hostlint.join.facts import Fact
from hostlint.snapshot import Snapshot


def trunk_native_vlan(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    """The native VLAN of every trunk behind the team that has another one."""
    wanted = params["vlan"]
    if not isinstance(wanted, int) or not vlans.FIRST <= wanted <= vlans.LAST:
        raise CannotFix(f"native VLAN {wanted!r} is not one to set: choose the native VLAN by hand")
    changes = []
    for (switch_name, interface), uplink in _trunks(uplinks_of(fact, site)).items():
        if uplink.native_vlan is None:
            raise CannotFix(f"{switch_name} {interface}: native VLAN not collected; set it by hand")
        if uplink.native_vlan == wanted:
            continue
        switch = _switch(site, switch_name)
        notes = [f"untagged frames on {interface} move from VLAN {uplink.native_vlan} to VLAN {wanted}"]
        note = registry.switch(switch.platform).native_vlan_note
        if note:
            notes.append(note)
        changes.append(
            Change(
                action="switch-trunk-native-vlan",
                device=switch.name,
                platforms=(switch.platform,),
                target=interface,
                values={"interface": interface},
                after=wanted,
                before=uplink.native_vlan,
                notes=notes,
            )
        )
    return changes


def _switch_trunk_native_vlan(snapshot: Snapshot, change: Change) -> None:
    interface = _vlan_interface(_switch_in(snapshot, change.device), change.values["interface"])
    interface.native_vlan = int(change.after)


EXPAND: Expander = trunk_native_vlan
APPLY: Applier = _switch_trunk_native_vlan
