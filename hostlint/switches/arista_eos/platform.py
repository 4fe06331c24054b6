"""EOS: what hostlint knows of the platform as a fix target and collected switch (hostlint.switches.base)."""

from __future__ import annotations

from hostlint.switches.arista_eos.mtu import MTU
from hostlint.switches.base import SwitchPlatform

PLATFORM = SwitchPlatform(
    name="arista_eos",
    label="EOS",
    aliases=("eos", "arista.eos.eos"),
    interface_names="folder",
    channel_interface="Port-Channel{}",
    jumbo=MTU.jumbo,
    l2_header=MTU.l2_header,
    sources={
        "interfaces": "show interfaces",
        "channel_mode": "show running-config",
        "config": "show running-config",
        "member_state": "show port-channel summary",
        "peer_link": "show mlag",
    },
    mtu_families=MTU.families,
)
