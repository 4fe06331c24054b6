"""IOS: what the fixes read of its configuration grammar (hostlint.switches.base.ConfigGrammar)."""

from __future__ import annotations

from hostlint.switches.base import ConfigGrammar, EdgePort

CONFIG = ConfigGrammar(
    # The bare `spanning-tree portfast` acts on access ports only: a trunk needs the `trunk` keyword (Cisco
    # IOS "Configuring Optional Spanning-Tree Features", PortFast).
    edge_port=EdgePort(line=r"spanning-tree portfast (?:edge )?trunk"),
    rollback="stanza",
    vlan_definition="`vlan N`",
)
