"""Junos: what hostlint knows of the platform as a fix target and collected switch (hostlint.switches.base)."""

from __future__ import annotations

from hostlint.switches.base import SwitchPlatform
from hostlint.switches.juniper_junos.mtu import MTU
from hostlint.targets import Vocabulary

PLATFORM = SwitchPlatform(
    name="juniper_junos",
    label="Junos",
    aliases=("juniper", "junos", "junipernetworks.junos.junos"),
    # `commit confirmed 10` rolls the change back by itself after 10 minutes unless a later
    # `commit` confirms it (Junos CLI User Guide, "commit confirmed"): every block is followed by
    # that confirm.
    vocabulary=Vocabulary(
        comment="#",
        enter=("configure private",),
        leave=("commit confirmed 10", "exit"),
        confirm=("configure private", "commit", "exit"),
        confirm_minutes=10,
    ),
    channel_interface="ae{}",
    interface_names="folder",
    jumbo=MTU.jumbo,
    l2_header=MTU.l2_header,
    vlan_syntax="vlan members",
    multichassis_by_hand="MC-LAG (mc-ae)",
    sources={
        "interfaces": "show interfaces extensive",
        "channel_mode": "show configuration | display set",
        "config": "show configuration | display set",
        "member_state": "show lacp interfaces",
        "peer_link": "show virtual-chassis",
    },
    mtu_families=MTU.families,
)
