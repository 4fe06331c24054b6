"""Aggregation member states: `display link-aggregation verbose`'s Status column (HPE FlexFabric 7500
Layer 2 - LAN Switching Command Reference 5200-1937a, "display link-aggregation verbose": `S` Selected,
`U` Unselected, `I` Individual) in hostlint's vocabulary (hostlint.snapshot.switch.MemberState).

A Selected port carries the aggregate's traffic: bundled. An Unselected one does not: its link is
down, or (dynamic groups) its partner does not answer LACP or disagrees, or (static groups) its
attributes differ from the reference port's; hostlint calls a member that is up and not carrying
traffic suspended, and one whose link is down, down (assemble.py looks at the port's state). An
Individual port (`lacp edge-port`, no LACP partner) forwards on its own: individual.
"""

from __future__ import annotations

from hostlint.switches.base import MemberFlags, MemberState

MEMBER_FLAGS = MemberFlags(flags=(("S", "bundled"), ("U", "suspended"), ("I", "individual")))
# The state of an LACP member whose partner does not answer (Comware: Unselected).
UNANSWERED_LACP_MEMBER: MemberState = "suspended"


def member_state(flag: str, link_up: bool | None) -> MemberState:
    """The state of a member shown with `flag`; its port's link, when known, tells a down port from a
    suspended one. An unknown flag is a ValueError naming it."""
    state = MEMBER_FLAGS.state(flag) if flag.strip() in {f for f, _ in MEMBER_FLAGS.flags} else None
    if state is None:
        raise ValueError(f"unknown Comware member status {flag!r} (known: S, U, I)")
    return "down" if state == "suspended" and link_up is False else state
