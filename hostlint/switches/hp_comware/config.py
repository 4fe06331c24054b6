"""Comware: what the fixes read of its configuration grammar (hostlint.switches.base.ConfigGrammar)."""

from __future__ import annotations

from hostlint.switches.base import ConfigGrammar, EdgePort

CONFIG = ConfigGrammar(
    # hostlint reads no edge-port setting here (Comware's is `stp edged-port` in the port's or the aggregate's
    # view: HPE Layer 2 - LAN Switching Command Reference, "stp edged-port"), so a new spanning-tree port's
    # note says it cannot tell.
    edge_port=EdgePort(line=None),
    rollback="stanza",
    # `vlan N` in system view (Layer 2 - LAN Switching Command Reference, "vlan").
    vlan_definition="`vlan N`",
)
