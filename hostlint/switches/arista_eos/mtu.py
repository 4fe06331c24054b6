"""EOS MTU: the interface `mtu` is the IP MTU, routed traffic only; bridged frames are limited by
the L2 MTU (the `mtu` piece, hostlint.switches.base.MtuLimits); `platform.py` carries the same
figures."""

from __future__ import annotations

from hostlint.switches.base import MtuFamily, MtuLimits

MTU = MtuLimits(
    jumbo=9214,
    families=(
        # `mtu` is the IP MTU, enforced on routed traffic only (EOS User Manual, "Layer 3 MTU"); bridged
        # frames are limited by the L2 MTU, the platform maximum unless `l2 mtu` lowers it.
        MtuFamily(
            family="(all)",
            bridged="l2_mtu",
            bridged_setting="l2 mtu (the platform maximum by default)",
            bridged_source="show running-config",
            shown_by="`show running-config` (`l2 mtu` lines)",
            routed_by="interface `mtu` (the IP MTU, 1500 by default)",
            written="yes (`l2 mtu`)",
            l2_config="l2 mtu",
            l2_default_frame=9214,
            figure="l2 mtu",
            reference="EOS User Manual, Ethernet Ports, 'l2 mtu' and 'mtu' (Layer 3 only): "
            "https://www.arista.com/en/um-eos/eos-ethernet-ports",
        ),
    ),
)
