"""switch-channel-mode-lacp: its expander and simulated applier.

Its text per platform is in hostlint/switches/<platform>/fixes.yaml (its description in action.yaml).
"""

from __future__ import annotations

from typing import Any

from hostlint.fixes.actions import Applier, Expander
from hostlint.fixes.apply import _join_channel, _on_switch, _renegotiate
from hostlint.fixes.apply import _switch as _switch_in
from hostlint.fixes.facts import uplinks_of
from hostlint.fixes.site import Site
from hostlint.fixes.steps import CannotFix, Change
from hostlint.fixes.switch_steps import _channel_mode_changes
from hostlint.join.facts import Fact
from hostlint.snapshot import Snapshot


def channel_mode_lacp(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    """A static or PAgP channel facing an LACP bond (802.3ad, OVS balance-tcp) turned into `mode active`."""
    uplinks = uplinks_of(fact, site, roles=("active",))
    loose = [f"{u.nic} -> {u.switch} {u.port}" for u in uplinks if u.link_up and not u.port_channel]
    if loose:
        raise CannotFix(f"not in any port-channel: {', '.join(loose)}; build the LACP channel by hand")
    return _channel_mode_changes(uplinks, site, "switch-channel-mode-lacp", ("lacp-active", "lacp-passive"), "active")


def _switch_channel_mode_lacp(snapshot: Snapshot, change: Change) -> None:
    values = change.values
    _join_channel(_switch_in(snapshot, change.device), values["interface"], values["members"], "lacp-active", None)
    _renegotiate(snapshot, _on_switch(change.device))


EXPAND: Expander = channel_mode_lacp
APPLY: Applier = _switch_channel_mode_lacp
