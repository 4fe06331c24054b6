"""IOS's port-channel member states (the `members` piece): the Cisco-like summary flags, unchanged
(hostlint/switches/cisco_like/members.py)."""

from __future__ import annotations

from hostlint.switches.cisco_like.members import MEMBER_FLAGS

__all__ = ["MEMBER_FLAGS"]
