"""Which interfaces hostlint reads: switch ports and port-channels.

The assembly builds ports and channels only, and the record count
(`hostlint.collect.switches.counts`) counts only what the assembly would
build: an SVI, a tunnel or a subinterface the template did not read loses
nothing any rule uses, so it is no collection error.
"""

from __future__ import annotations

import re

from hostlint.names import is_channel_name

# Not switch ports: SVIs, loopbacks, management, tunnels, NVE and EOS Vxlan (VTEPs), pseudowires,
# IOS-XE bridge-domain and virtual interfaces, Junos logical units and internal interfaces, Comware's
# and VRP's management ports (`M-GigabitEthernet0/0/0`, `MEth0/0/1`), internal loopback
# (`InLoopBack0`), PIM register tunnel and console/aux lines, and every subinterface (`.100`).
_NOT_PORTS = re.compile(
    r"^(vlan|loopback|lo\d|tunnel|null|management|mgmt|nve|vxlan|pseudowire|bdi\d|nvi\d|virtual-|dialer|irb|vme|"
    r"em\d|fxp|me\d|vcp-|jsrv|bme|cbp|dsc|esi|gr-|ip-|lsi|mtun|pimd|pime|pip|pp0|rbeb|tap|vtep|"
    r"m-gigabitethernet|meth\d|inloopback|register-tunnel|aux\d)|\.\d+$",
    re.IGNORECASE,
)


def is_channel(name: str) -> bool:
    """A port-channel in any vendor's form (hostlint.names.CHANNEL_FORMS: `Port-channel10`, `ae0`,
    `lag1`, `Bridge-Aggregation1`, `Eth-Trunk1`...), not one of its subinterfaces."""
    return is_channel_name(name)


def is_port(name: str) -> bool:
    return not is_channel(name) and not _NOT_PORTS.search(name)


def is_read(name: str) -> bool:
    """A port or a port-channel: an interface whose facts some rule reads."""
    return is_channel(name) or is_port(name)
