"""NX-OS: what the fixes read of its configuration grammar (hostlint.switches.base.ConfigGrammar)."""

from __future__ import annotations

from hostlint.switches.base import ConfigGrammar, EdgePort

CONFIG = ConfigGrammar(
    # The bare `spanning-tree port type edge` acts on access ports only: a trunk needs the `trunk` keyword
    # (Cisco NX-OS "Configuring STP Extensions", spanning-tree port type edge trunk).
    edge_port=EdgePort(line=r"spanning-tree (?:port type edge|portfast) trunk"),
    rollback="stanza",
    # A vPC channel's id: `vpc N` on the port-channel (Cisco Nexus NX-OS Interfaces Configuration Guide, vPCs).
    multichassis_id="vpc",
    vlan_definition="`vlan N`",
)
