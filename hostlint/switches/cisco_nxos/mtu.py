"""NX-OS MTU: the interface `mtu` is the IP packet; Nexus 3000/5000/6000 limit bridged frames with
the network-qos class MTU (the `mtu` piece, hostlint.switches.base.MtuLimits); `platform.py` carries the same
figures."""

from __future__ import annotations

from hostlint.switches.base import MtuFamily, MtuLimits

MTU = MtuLimits(
    jumbo=9216,
    families=(
        # An L2 port's `show interface` MTU stays 1500 on these: the network-qos class MTU limits it.
        # Which Nexus 3000 models use network-qos and which a per-port MTU: Cisco Document 118994, "Configure
        # and Verify Maximum Transmission Unit on Nexus Platforms" (network-qos: 3048, 3064, 3132Q, 3132Q-X,
        # 3132Q-XL, 3172, 3500, every 5000/5500/6000; per port: 3132Q-V, 3164, 31108, 31128PQ, 3200,
        # 36180YC-R). `show version` names them `N5K-C5672UP`, `C3064PQ`, `Nexus5548` or a bare `5596`.
        MtuFamily(
            family="Nexus 3000/5000/6000",
            models=r"(N[356]K-|Nexus ?)?C?(30(48|64)|3132Q(?!-V)|3172|35\d\d|5\d{3}|6\d{3})",
            bridged="l2_mtu",
            bridged_setting="system jumbomtu and a network-qos policy's class mtu",
            bridged_source="show running-config",
            models_shown="Nexus 3048, 3064, 3132Q/-X/-XL, 3172, 3500, every 5000/5500/6000",
            shown_by="`show running-config` (`system qos`, `policy-map type network-qos`)",
            routed_by="interface `mtu` (L3 ports)",
            written="no (global QoS policy)",
            writes_bridged=False,
            # The class MTU counts the frame's payload, as the interface `mtu` does: the IP packet.
            l2_global="network-qos",
            not_written="switch-wide QoS (the network-qos policy under `system qos`, every port and FEX port)",
            l2_header=0,
            figure="network-qos class-default mtu",
            reference="Cisco Nexus 5000 Series NX-OS Quality of Service Configuration Guide, "
            "'Configuring Jumbo MTU': https://www.cisco.com/c/en/us/support/docs/switches/"
            "nexus-5000-series-switches/112080-config-mtu-nexus.html; Cisco Document 118994: "
            "https://www.cisco.com/c/en/us/support/docs/switches/nexus-9000-series-switches/"
            "118994-config-nexus-00.html",
        ),
        MtuFamily(
            family="Nexus 9000 and other NX-OS",
            bridged="mtu",
            bridged_setting="interface mtu",
            bridged_source="show interface",
            shown_by="`show interface`",
            routed_by="interface `mtu`",
            written="yes",
            reference="Cisco Nexus 9000 NX-OS Interfaces Configuration Guide, 'Configuring the MTU Interface': "
            "https://www.cisco.com/c/en/us/td/docs/dcn/nx-os/nexus9000/103x/configuration/interfaces/"
            "cisco-nexus-9000-nx-os-interfaces-configuration-guide-103x/m-configuring-layer-2-interfaces.html",
        ),
    ),
)
