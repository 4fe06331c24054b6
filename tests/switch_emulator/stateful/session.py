"""The configuration session a stateful emulated switch hands every non-show line to.

One per platform (switch_emulator.platforms.<platform> `SESSION`; cisco_ios, cisco_nxos and arista_eos
share switch_emulator.stateful.cisco_base). It holds the CLI mode and changes `state`, a
hostlint.snapshot.Switch, the way the platform would: configured and derived operational fields
together, and only when the platform accepts the line.
"""

from __future__ import annotations

from typing import Protocol

from hostlint.snapshot.switch import Switch


class ConfigSession(Protocol):
    def __init__(self, state: Switch, lacp_partners: frozenset[str]) -> None:
        """`lacp_partners`: names of the ports whose far end runs LACP (what the switch cannot know)."""

    def prompt(self) -> str:
        """The prompt for the current mode, hostname `state.name`: `sw1#`, `sw1(config-if)#`..."""
        ...

    def execute(self, line: str) -> str:
        """'' or the platform's acknowledgement on success; the platform's error text on rejection
        (then `state` is unchanged)."""
        ...
