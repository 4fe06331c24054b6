"""Junos MTU: the interface `mtu` is the media MTU, Ethernet header included (the `mtu` piece,
hostlint.switches.base.MtuLimits); `platform.py` carries the same figures."""

from __future__ import annotations

from hostlint.switches.base import MtuFamily, MtuLimits

MTU = MtuLimits(
    jumbo=9216,
    l2_header=14,
    families=(
        MtuFamily(
            family="(all)",
            bridged="mtu",
            bridged_setting="interface mtu (media MTU, Ethernet header included)",
            bridged_source="show interfaces extensive",
            shown_by="`show interfaces extensive`",
            routed_by="interface `mtu` (less `family inet mtu`)",
            written="yes",
            reference="Junos, 'Media MTU Overview': https://www.juniper.net/documentation/us/en/software/junos/"
            "interfaces-ethernet-switches/topics/topic-map/switches-interface-mtu.html",
        ),
    ),
)
