"""IOS: what hostlint knows of the platform as a fix target and collected switch (hostlint.switches.base)."""

from __future__ import annotations

from hostlint.switches.base import SwitchPlatform
from hostlint.switches.cisco_ios.mtu import MTU

PLATFORM = SwitchPlatform(
    name="cisco_ios",
    label="IOS",
    aliases=("cisco_xe", "ios", "cisco.ios.ios"),
    interface_names="folder",
    channel_interface="Port-channel{}",
    jumbo=MTU.jumbo,
    l2_header=MTU.l2_header,
    writes_hash=True,
    members_match_channel=True,
    unanswered_lacp_member="individual",
    mtu_on_members=True,
    sources={
        "interfaces": "show interfaces",
        "channel_mode": "show running-config",
        "config": "show running-config",
        "member_state": "show etherchannel summary",
        "peer_link": "show switch",
    },
    mtu_families=MTU.families,
)
