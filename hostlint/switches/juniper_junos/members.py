"""Aggregated Ethernet member states: `show lacp interfaces`'s `LACP protocol` rows (Mux State, Receive
State) in hostlint's vocabulary (hostlint.snapshot.switch.MemberState); the `members` piece.

The mux state is the 802.1AX mux machine's (Junos "show lacp interfaces", field descriptions: `Detached`,
`Waiting`, `Attached`, `Collecting`, `Distributing`, `Collecting distributing`). A member that is
distributing carries the bundle's traffic: bundled. Any other member passes none: down when its port is
(receive state `Port disabled`), else suspended (LACP did not negotiate; Junos has no stand-alone member).
A static `ae` (no LACP) is not in `show lacp interfaces`: its members' states come from their links
(assemble.py).
"""

from __future__ import annotations

from hostlint.switches.base import MemberFlags

MEMBER_FLAGS = MemberFlags(
    words={"collecting distributing": "bundled", "distributing": "bundled"},
    default="suspended",
    port_down=("port disabled",),
)
