"""Eth-Trunk member states as `display eth-trunk` prints them, in hostlint's vocabulary
(hostlint.snapshot.switch.MemberState).

LACP trunks: `Selected` (bundled, carrying traffic), `Unselect` (not selected: no LACPDU from the
partner, or a key or speed mismatch; the port forwards nothing, hostlint's `suspended`), `Indep` (LACP
gave up and the port forwards on its own, `lacp force-forward`: `individual`). Manual (static) trunks
print the member's link, `Up` / `Down` (S300, S500, S2700, S5700 and S6700 Series Command Reference,
"display eth-trunk", output description). A flag not in the table is a named unknown.
"""

from __future__ import annotations

from hostlint.switches.base import MemberFlags, MemberState

WORDS: dict[str, MemberState] = {
    "selected": "bundled",
    "unselect": "suspended",
    "unselected": "suspended",
    "indep": "individual",
    "independent": "individual",
    "up": "bundled",
    "down": "down",
}
# An LACP member whose partner does not answer: VRP keeps it Unselect, forwarding nothing.
UNANSWERED_LACP_MEMBER: MemberState = "suspended"


MEMBER_FLAGS = MemberFlags(words=WORDS)


def member_state(flag: str) -> MemberState | None:
    return MEMBER_FLAGS.state(flag)
