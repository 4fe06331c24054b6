"""switch-trunk-allow-vlan: its expander and simulated applier.

Its text per platform is in hostlint/switches/<platform>/fixes.yaml (its description in action.yaml).
"""

from __future__ import annotations

from typing import Any

from hostlint import switches, vlans
from hostlint.fixes.actions import Applier, Expander
from hostlint.fixes.apply import _switch as _switch_in
from hostlint.fixes.apply import _vlan_interface
from hostlint.fixes.facts import uplinks_of
from hostlint.fixes.site import Site
from hostlint.fixes.steps import CannotFix, Change
from hostlint.fixes.switch_steps import _switch, _trunks, _words
from hostlint.join.facts import Fact
from hostlint.snapshot import Snapshot
from hostlint.snapshot.switch import Switch


def _vlan_definition(switch: Switch) -> str:
    """How the platform defines a VLAN (its folder's `config.py` `CONFIG.vlan_definition`)."""
    return switches.config(switch.platform).vlan_definition


def trunk_allow_vlan(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    """`switchport trunk allowed vlan add` of the wanted VLANs a trunk lacks; never a replacement."""
    wanted = vlans.merge([(int(low), int(high)) for low, high in params["vlans"]])
    uplinks = uplinks_of(fact, site)
    changes = []
    for (switch_name, interface), uplink in _trunks(uplinks).items():
        if uplink.allowed_vlans is None:
            raise CannotFix(f"{switch_name} {interface}: allowed VLANs not collected; add the VLANs by hand")
        allowed = [(low, high) for low, high in uplink.allowed_vlans]
        lacking = vlans.subtract(wanted, allowed)
        if not lacking:
            continue
        switch = _switch(site, switch_name)
        words = [vlans.text([r]) for r in lacking]
        changes.append(
            Change(
                action="switch-trunk-allow-vlan",
                device=switch.name,
                platforms=(switch.platform,),
                target=interface,
                values={"interface": interface, "vlans": words},
                after=_words(vlans.merge(allowed + lacking)),
                before=_words(allowed),
                notes=[
                    f"VLAN {','.join(words)} must exist on {switch.name} ({_vlan_definition(switch)}) to be forwarded"
                ],
            )
        )
    others = [
        f"{u.nic} -> {u.switch} {u.vlan_interface} ({u.vlan_mode} port)"
        for u in uplinks
        if u.vlan_mode in ("access", "routed")
    ]
    if others and not changes:
        raise CannotFix(f"not trunks: {', '.join(others)}; making a port a trunk changes its traffic, do it by hand")
    if others:
        changes[0].notes.append(f"not changed (not trunks, do them by hand): {', '.join(others)}")
    return changes


def _switch_trunk_allow_vlan(snapshot: Snapshot, change: Change) -> None:
    interface = _vlan_interface(_switch_in(snapshot, change.device), change.values["interface"])
    added = [r for word in change.values["vlans"] for r in vlans.parse_list(word)]
    interface.allowed_vlans = vlans.merge(list(interface.allowed_vlans or []) + added)


EXPAND: Expander = trunk_allow_vlan
APPLY: Applier = _switch_trunk_allow_vlan
