"""Junos: what the fixes read of its configuration grammar (hostlint.switches.base.ConfigGrammar).

Its collected interface lines are `set` statements (`show configuration | display set`), each naming its
interface: a rollback deletes the interface and types them back.
"""

from __future__ import annotations

from hostlint.switches.base import ConfigGrammar, EdgePort, ForcedLink

CONFIG = ConfigGrammar(
    # An interface's lines (`set interfaces NAME ...`) never hold its spanning tree, which lives under
    # `protocols rstp|mstp|vstp interface NAME edge` (Junos "edge (Spanning Trees)"): known only where such a
    # line was kept with the interface.
    edge_port=EdgePort(
        line=r"set protocols (?:rstp|mstp|vstp)(?: vlan \S+| msti \S+)? interface \S+ edge",
        in_interface=False,
    ),
    rollback="statements",
    # An ae's LACP role and timers (Junos "lacp (Aggregated Ethernet)"): switch-channel-mode-static deletes
    # `aggregated-ether-options lacp` whole.
    channel_lacp="set interfaces {} aggregated-ether-options lacp",
    # The statements switch-port-autoneg deletes (fixes.yaml, every family); its rollback sets back those the
    # port's collected lines had. hostlint models speed and duplex, not `no-auto-negotiation`.
    forced_link=ForcedLink(
        prefix="set interfaces {} ",
        statements=(
            "speed",
            "link-mode",
            "ether-options speed",
            "ether-options link-mode",
            "ether-options no-auto-negotiation",
            "gigether-options no-auto-negotiation",
        ),
        line=r"^set interfaces (\S+) (?:(?:gig)?ether-options )?(?:speed|link-mode|no-auto-negotiation)\b",
        unmodelled=("no-auto-negotiation",),
    ),
    vlan_definition="`set vlans NAME vlan-id N`; Junos refuses the commit otherwise",
)
