"""EOS interface names (the `names` piece): the Cisco-like names, `show port-channel summary` printing
`Ethernet1` as `Et1` (hostlint/switches/cisco_like/names.py)."""

from __future__ import annotations

from hostlint.switches.cisco_like.names import with_ethernet_short

__all__ = ["NAMES"]

NAMES = with_ethernet_short("Et")
