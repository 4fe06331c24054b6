"""One vocabulary for port-channel load-balance hashes.

Switch collectors normalise each vendor's spelling to one of the names below;
rules read the hash's fields (does it include both source and destination IP?).
"""

from __future__ import annotations

HASH_FIELDS: dict[str, tuple[str, ...]] = {
    "src-mac": ("src-mac",),
    "dst-mac": ("dst-mac",),
    "src-dst-mac": ("src-mac", "dst-mac"),
    "src-ip": ("src-ip",),
    "dst-ip": ("dst-ip",),
    "src-dst-ip": ("src-ip", "dst-ip"),
    "src-port": ("src-port",),
    "dst-port": ("dst-port",),
    "src-dst-port": ("src-port", "dst-port"),
    "src-ip-port": ("src-ip", "src-port"),
    "dst-ip-port": ("dst-ip", "dst-port"),
    "src-dst-ip-port": ("src-ip", "dst-ip", "src-port", "dst-port"),
    "src-dst-mac-ip": ("src-mac", "dst-mac", "src-ip", "dst-ip"),
    "src-dst-mac-ip-port": ("src-mac", "dst-mac", "src-ip", "dst-ip", "src-port", "dst-port"),
    "src-dst-ip-vlan": ("src-ip", "dst-ip", "vlan"),
    "src-dst-ip-port-vlan": ("src-ip", "dst-ip", "src-port", "dst-port", "vlan"),
}


# vSphere LACP LAG hashes (VMwareDvsLacpLoadBalanceAlgorithm) in the same vocabulary.
LAG_HASHES: dict[str, str] = {
    "srcMac": "src-mac",
    "destMac": "dst-mac",
    "srcDestMac": "src-dst-mac",
    "srcIp": "src-ip",
    "destIp": "dst-ip",
    "srcDestIp": "src-dst-ip",
    "srcTcpUdpPort": "src-port",
    "destTcpUdpPort": "dst-port",
    "srcDestTcpUdpPort": "src-dst-port",
    "srcDestIpTcpUdpPort": "src-dst-ip-port",
    "srcDestIpVlan": "src-dst-ip-vlan",
    "srcDestIpTcpUdpPortVlan": "src-dst-ip-port-vlan",
}


def hash_fields(name: str | None) -> list[str]:
    """Fields of a normalised hash name; an unknown or missing name has none."""
    if name is None:
        return []
    return list(HASH_FIELDS.get(name, ()))
