"""VRP: what the fixes read of its configuration grammar (hostlint.switches.base.ConfigGrammar)."""

from __future__ import annotations

from hostlint.switches.base import ConfigGrammar, EdgePort

CONFIG = ConfigGrammar(
    # hostlint reads no edge-port setting here (VRP's is `stp edged-port enable` in the interface's view), so
    # a new spanning-tree port's note says it cannot tell.
    edge_port=EdgePort(line=None),
    rollback="stanza",
    # `vlan N` (or `vlan batch`) in system view.
    vlan_definition="`vlan N`",
)
