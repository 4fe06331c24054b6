"""IOS interface names (the `names` piece): the Cisco-like names unchanged, `EthernetN` printed whole
in `show etherchannel summary` (hostlint/switches/cisco_like/names.py)."""

from __future__ import annotations

from hostlint.switches.cisco_like.names import NAMES

__all__ = ["NAMES"]
