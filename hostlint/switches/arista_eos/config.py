"""EOS: what the fixes read of its configuration grammar (hostlint.switches.base.ConfigGrammar)."""

from __future__ import annotations

from hostlint.switches.base import ConfigGrammar, EdgePort

CONFIG = ConfigGrammar(
    # `spanning-tree portfast` applies to trunks too; `portfast network` or `auto` are no edge setting (Arista
    # EOS User Manual, Spanning Tree Protocol, PortFast).
    edge_port=EdgePort(line=r"spanning-tree portfast"),
    rollback="stanza",
    # An MLAG channel's id: `mlag N` on the Port-Channel (Arista EOS User Manual, MLAG).
    multichassis_id="mlag",
    vlan_definition="`vlan N`",
)
