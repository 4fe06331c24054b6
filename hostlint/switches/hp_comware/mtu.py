"""Comware MTU figures and their limits.

Two figures (HPE FlexFabric 5940 Ethernet Interface Command Reference):

- bridged frames: `jumboframe enable [size]` on the port, "the maximum length of Ethernet frames that are
  allowed to pass through"; 1536 to 9416 bytes, 9416 by default and when `size` is left out; `undo
  jumboframe enable` allows 1536. `display interface` prints it as `Maximum frame length: N`.
- routed packets: `mtu size` on a routed interface (VLAN interface, Route-Aggregation, a port in
  `port link-mode route`), the IP MTU, 1500 by default; `Maximum transmission unit: N`.

The most a port takes depends on the model: 9416 on the FlexFabric 5940 and the H3C S6850 (their command
references: "By default, an aggregate interface allows jumbo frames with a maximum length of 9416 bytes"),
10000 on the chassis and 40G ports of the real captures (ntc-templates hp_comware `display interface`:
`Maximum frame length: 10000` on FortyGigE1/0/49 and Ten-GigabitEthernet13/2/12), 9664 on MSR routers. A
snapshot holds the largest (LARGEST_FRAME less the header: an IP MTU of 9982); the 5940's default of 9416
is an IP MTU of 9398.

A frame's length counts its Ethernet header (14 bytes) and FCS (4), as IEEE 802.3's 1518-byte frame
carries a 1500-byte packet: the largest IP packet a bridged port passes is the frame length less 18.
A trunk's 802.1Q tag is not taken off (as Junos media MTU, PLATFORM's one `l2_header`), so a figure
read and written back is the same frame: rollbacks restore it exactly. The 4 bytes a tagged frame
may lack are below what the rules ask (a host MTU of 9000 needs a 9018-byte frame, 9022 tagged, and the
default is 9416).
"""

from __future__ import annotations

from hostlint.switches.base import MtuFamily, MtuLimits

JUMBO_FRAME = 9416
NO_JUMBO_FRAME = 1536
MIN_FRAME = 1536
LARGEST_FRAME = 10000
HEADER = 18
# The frame hostlint writes for jumbo (`jumboframe enable 9234`): a 9216-byte IP packet, the jumbo the
# other platforms write, plus the header; within what every Comware model takes (9416 and up).
JUMBO = 9216 + HEADER
DEFAULT_IP_MTU = 1500
REFERENCE = (
    "HPE FlexFabric 5940 Ethernet Interface Command Reference, 'jumboframe enable' and 'mtu': "
    "https://support.hpe.com/hpesc/public/docsocialize?docId=a00049266en_us"
)


def bridged_mtu(frame: int) -> int:
    """The largest IP packet a bridged port with this maximum frame length passes."""
    return frame - HEADER


def frame_for(mtu: int) -> int:
    """The `jumboframe enable` size that passes IP packets of `mtu` bytes (the inverse of bridged_mtu),
    raised to the smallest size Comware takes."""
    return max(mtu + HEADER, MIN_FRAME)


def configured_frame(value: str | None) -> int | None:
    """The frame length a port's `jumboframe` line sets: `enabled` (no size) is the platform's jumbo,
    `disabled` (`undo jumboframe enable`) 1536, a number itself; None when the line is absent."""
    if value is None:
        return None
    if value == "enabled":
        return JUMBO_FRAME
    if value == "disabled":
        return NO_JUMBO_FRAME
    frame = int(value)
    if not MIN_FRAME <= frame <= LARGEST_FRAME:
        raise ValueError(f"jumboframe enable {frame} is outside {MIN_FRAME}..{LARGEST_FRAME}")
    return frame


# The figure that limits bridged frames is each port's own (`display interface`'s frame length, read
# into the port's `mtu` as the IP packet it carries): one family.
MTU = MtuLimits(
    jumbo=JUMBO,
    l2_header=HEADER,
    largest=LARGEST_FRAME - HEADER,
    families=(
        MtuFamily(
            family="(all)",
            bridged="mtu",
            bridged_setting="jumboframe enable (per port, the frame: Ethernet header and FCS included)",
            bridged_source="display interface",
            shown_by="`display interface` (`Maximum frame length`)",
            routed_by="interface `mtu` (VLAN interfaces, routed ports)",
            written="yes (`jumboframe enable`)",
            reference=REFERENCE,
        ),
    ),
)
