"""Which VRP figure limits a frame, and how it converts to hostlint's MTU (the largest IP packet).

Bridged (layer-2) ports: `jumboframe enable [N]` in the interface or Eth-Trunk view sets the largest
frame the port passes; `display interface` prints it as `The Maximum Frame Length is N` (S300, S500,
S2700, S5700 and S6700 Series Command Reference, "jumboframe enable"; CloudEngine 6800/5800 Command
Reference, "jumboframe enable"). The frame counts the Ethernet header and the FCS (14 + 4 bytes) and an
802.1Q tag (4): hostlint subtracts all three on every bridged port (the IP packet a tagged frame carries,
4 bytes short on an untagged access port), so the figure converts one way both ways and a rollback writes
back exactly the frame length it read (fixes.yaml: frame = MTU + 22). Routed interfaces (`Vlanif`, `undo portswitch`):
`mtu N` is the IP MTU, printed as `The Maximum Transmit Unit is N` ("mtu (interface view)").
An Eth-Trunk's figure governs its members (members take the trunk's `jumboframe` when they join).
"""

from __future__ import annotations

from hostlint.switches.base import MtuFamily, MtuLimits

HEADER = 18  # Ethernet header and FCS, counted in the frame length
TAG = 4  # an 802.1Q tag on a trunk
JUMBO_FRAME = 9216  # `jumboframe enable` without a value, and the S-series maximum most models take
JUMBO = JUMBO_FRAME - HEADER - TAG  # the largest IP packet hostlint asks for on a bridged port
ROUTED_MAX = 9600  # `mtu` range on a VLANIF: 46 to 9600
# The largest `jumboframe enable` of any model: 12288 on CloudEngine ToR switches, 12224 on the CE12800
# (CloudEngine 6800/5800 Command Reference, "jumboframe enable"; Ansible's ce_mtu module documents the same
# range: https://docs.ansible.com/ansible/2.9_ja/modules/ce_mtu_module.html).
LARGEST_FRAME = 12288
FIGURE = "jumboframe enable"
BRIDGED_SOURCE = "display interface"


def ip_mtu(frame_length: int) -> int:
    """The largest IP packet a bridged port with this frame length passes in a tagged frame."""
    return frame_length - HEADER - TAG


def frame_for(ip_mtu_value: int) -> int:
    """The `jumboframe enable` value that passes `ip_mtu_value` tagged (a trunk) and untagged."""
    return ip_mtu_value + HEADER + TAG


MTU = MtuLimits(
    jumbo=JUMBO,
    largest=max(LARGEST_FRAME - HEADER - TAG, ROUTED_MAX),
    families=(
        MtuFamily(
            family="(all)",
            bridged="mtu",
            bridged_setting=f"{FIGURE} (the frame length: header, FCS and a tag included)",
            bridged_source=BRIDGED_SOURCE,
            shown_by="`display interface` (`The Maximum Frame Length is N`)",
            routed_by="interface `mtu` (VLANIF, routed ports)",
            written="yes (`jumboframe enable`)",
            reference='S300, S500, S2700, S5700 and S6700 Series Command Reference, "jumboframe enable"; '
            'CloudEngine 6800/5800 Command Reference, "jumboframe enable"',
        ),
    ),
)
