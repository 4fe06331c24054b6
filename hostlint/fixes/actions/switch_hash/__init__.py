"""switch-hash: its expander and simulated applier.

Its text per platform is in hostlint/switches/<platform>/fixes.yaml (its description in action.yaml).
"""

from __future__ import annotations

from typing import Any

from hostlint.fixes.actions import Applier, Expander
from hostlint.fixes.apply import _switch as _switch_in
from hostlint.fixes.facts import uplinks_of
from hostlint.fixes.site import Site
from hostlint.fixes.steps import Change
from hostlint.fixes.switch_steps import _by_switch, _hash_change, _switch
from hostlint.join.facts import Fact
from hostlint.snapshot import Snapshot
from hostlint.snapshot.switch import LoadBalance


def switch_hash(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    wanted = params["hash"]
    changes = []
    # Standby uplinks' switches too: an IP-hash team's standby uplinks are made active (LG005's fix).
    for name in _by_switch(uplinks_of(fact, site, roles=("active", "standby"))):
        switch = _switch(site, name)
        if switch.load_balance is None or switch.load_balance.hash != wanted:
            changes.append(_hash_change(switch, wanted))
    return changes


def _switch_hash(snapshot: Snapshot, change: Change) -> None:
    _switch_in(snapshot, change.device).load_balance = LoadBalance(hash=change.after, raw=change.values.get("command"))


EXPAND: Expander = switch_hash
APPLY: Applier = _switch_hash
