"""NX-OS: what hostlint knows of the platform as a fix target and collected switch (hostlint.switches.base)."""

from __future__ import annotations

from hostlint.switches.base import SwitchPlatform
from hostlint.switches.cisco_nxos.mtu import MTU

PLATFORM = SwitchPlatform(
    name="cisco_nxos",
    label="NX-OS",
    aliases=("nxos", "nxos_ssh", "cisco.nxos.nxos"),
    interface_names="folder",
    channel_interface="port-channel{}",
    jumbo=MTU.jumbo,
    l2_header=MTU.l2_header,
    writes_hash=True,
    members_match_channel=True,
    sources={
        "interfaces": "show interface",
        "channel_mode": "show running-config",
        "config": "show running-config",
        "member_state": "show port-channel summary",
        "peer_link": "show vpc brief",
    },
    mtu_families=MTU.families,
)
