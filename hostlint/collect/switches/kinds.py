"""Which interfaces hostlint reads: switch ports and port-channels.

The assembly builds ports and channels only, and the record count
(`hostlint.collect.switches.counts`) counts only what the assembly would
build: an SVI, a tunnel or a subinterface the template did not read loses
nothing any rule uses, so it is no collection error.
"""

from __future__ import annotations

import re

# Not switch ports: SVIs, loopbacks, management, tunnels, NVE and EOS Vxlan (VTEPs), pseudowires,
# IOS-XE bridge-domain and virtual interfaces, Junos logical units and internal interfaces, and every
# subinterface (`.100`).
_NOT_PORTS = re.compile(
    r"^(vlan|loopback|lo\d|tunnel|null|management|mgmt|nve|vxlan|pseudowire|bdi\d|nvi\d|virtual-|dialer|irb|vme|"
    r"em\d|fxp|me\d|vcp-|jsrv|bme|cbp|dsc|esi|gr-|ip-|lsi|mtun|pimd|pime|pip|pp0|rbeb|tap|vtep)|\.\d+$",
    re.IGNORECASE,
)
_SUBINTERFACE = re.compile(r"\.\d+$")


def is_channel(name: str) -> bool:
    """A port-channel (IOS/NX-OS/EOS `Port-channel10`, Junos `ae0`), not one of its subinterfaces."""
    if _SUBINTERFACE.search(name):
        return False
    return name.startswith("Port-channel") or re.fullmatch(r"ae\d+", name) is not None


def is_port(name: str) -> bool:
    return not is_channel(name) and not _NOT_PORTS.search(name)


def is_read(name: str) -> bool:
    """A port or a port-channel: an interface whose facts some rule reads."""
    return is_channel(name) or is_port(name)
