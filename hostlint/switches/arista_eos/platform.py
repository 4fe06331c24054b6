"""EOS: what hostlint knows of the platform as a fix target and collected switch (hostlint.switches.base)."""

from __future__ import annotations

from hostlint.switches.base import MtuFamily, SwitchPlatform

PLATFORM = SwitchPlatform(
    name="arista_eos",
    label="EOS",
    aliases=("eos", "arista.eos.eos"),
    channel_interface="Port-Channel{}",
    ethernet_short="Et",
    jumbo=9214,
    hash_source="eos",
    sources={
        "interfaces": "show interfaces",
        "channel_mode": "show running-config",
        "config": "show running-config",
        "member_state": "show port-channel summary",
        "peer_link": "show mlag",
    },
    mtu_families=(
        # `mtu` is the IP MTU, enforced on routed traffic only (EOS User Manual, "Layer 3 MTU"); bridged
        # frames are limited by the L2 MTU, the platform maximum unless `l2 mtu` lowers it.
        MtuFamily(
            family="(all)",
            bridged="l2_mtu",
            bridged_setting="l2 mtu (the platform maximum by default)",
            bridged_source="show running-config",
            l2_config="l2 mtu",
            l2_default_frame=9214,
            figure="l2 mtu",
            reference="EOS User Manual, Ethernet Ports, 'l2 mtu' and 'mtu' (Layer 3 only): "
            "https://www.arista.com/en/um-eos/eos-ethernet-ports",
        ),
    ),
)
