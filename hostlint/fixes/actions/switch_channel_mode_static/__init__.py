"""switch-channel-mode-static: its expander and simulated applier.

Its text per platform is in hostlint/switches/<platform>/fixes.yaml (its description in action.yaml).
"""

from __future__ import annotations

from typing import Any

from hostlint.fixes.actions import Applier, Expander
from hostlint.fixes.apply import _join_channel, _on_switch, _renegotiate
from hostlint.fixes.apply import _switch as _switch_in
from hostlint.fixes.facts import uplinks_of
from hostlint.fixes.site import Site
from hostlint.fixes.steps import Change
from hostlint.fixes.switch_steps import _channel_mode_changes
from hostlint.join.facts import Fact
from hostlint.snapshot import Snapshot


def channel_mode_static(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    # Standby uplinks' halves too (the other vPC/MLAG peer): an IP-hash team's standby is made active (LG005).
    uplinks = uplinks_of(fact, site, roles=("active", "standby"))
    return _channel_mode_changes(uplinks, site, "switch-channel-mode-static", ("static",), "on")


def _switch_channel_mode_static(snapshot: Snapshot, change: Change) -> None:
    values = change.values
    _join_channel(_switch_in(snapshot, change.device), values["interface"], values["members"], "static", None)
    _renegotiate(snapshot, _on_switch(change.device))


EXPAND: Expander = channel_mode_static
APPLY: Applier = _switch_channel_mode_static
