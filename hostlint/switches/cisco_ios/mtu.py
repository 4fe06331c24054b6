"""IOS MTU: the interface `mtu` is the IP packet; older Catalysts limit bridged frames with the
switch-wide `system mtu jumbo` (the `mtu` piece, hostlint.switches.base.MtuLimits); `platform.py` carries the same
figures."""

from __future__ import annotations

from hostlint.switches.base import MtuFamily, MtuLimits

MTU = MtuLimits(
    jumbo=9198,
    families=(
        MtuFamily(
            family="Catalyst 2960/3560/3750",
            models=r"WS-C(2960|3560|3750)",
            bridged="l2_mtu",
            bridged_setting="system mtu jumbo",
            bridged_source="show system mtu",
            models_shown="`WS-C2960*`, `WS-C3560*`, `WS-C3750*`",
            shown_by="`show system mtu` (`system mtu` on 10/100 ports)",
            routed_by="interface `mtu` (routed ports)",
            written="no (global, needs a reload)",
            writes_bridged=False,
            # Not in the running configuration (kept in NVRAM, applied at reload): `show system mtu` says it.
            # Its figure is the IP packet: Cisco omits the 18 bytes of Ethernet header and FCS (Document
            # 24048, "Jumbo/Giant Frame Support on Catalyst Switches").
            l2_global="system-mtu",
            not_written="a global setting that takes effect only after a reload of the switch",
            l2_header=0,
            figure="system mtu jumbo",
            fast_ethernet_figure="system mtu",
            reference="Catalyst 3750-X and 3560-X Software Configuration Guide, 'Configuring the System MTU': "
            "https://www.cisco.com/c/en/us/td/docs/switches/lan/catalyst3750x_3560x/software/release/15-0_2_se/"
            "configuration/guide/3750x_cg/swint.html",
        ),
        MtuFamily(
            family="Catalyst 9000 and other IOS-XE",
            bridged="mtu",
            bridged_setting="interface mtu (system mtu where not overridden)",
            bridged_source="show interfaces",
            shown_by="`show interfaces`",
            routed_by="interface `mtu`",
            written="yes",
            reference="Troubleshoot MTU on Catalyst 9000 Series Switches: https://www.cisco.com/c/en/us/support/"
            "docs/switches/catalyst-9500-series-switches/217233-troubleshoot-mtu-on-catalyst-9000-series.html",
        ),
    ),
)
