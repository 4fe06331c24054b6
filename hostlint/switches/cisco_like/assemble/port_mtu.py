"""A Cisco-like port's MTU figures: the L3 `mtu` shown, and the L2 figure where the platform's MTU family
reads one (EOS `l2 mtu`, NX-OS network-qos, older Catalysts' `system mtu`: hostlint.collect.switches.global_mtu).

Part of the Cisco-like assembly (hostlint/switches/cisco_like/assemble/__init__.py).
"""

from __future__ import annotations

from functools import partial

from hostlint import switches
from hostlint.collect.switches import global_mtu, normalise
from hostlint.snapshot.switch import (
    PortMode,
)
from hostlint.switches.cisco_like.assemble.reading import Reading, Record, as_int


def l3_mtu(platform: str, record: Record) -> int:
    return normalise.l3_mtu(platform, as_int(record["mtu"]))


def l2_mtu(
    name: str, config: Record, mode: PortMode | None, reading: Reading, members: list[str] | None = None
) -> int | None:
    """A switchport's L2 figure as the largest IP packet it carries, where the platform reads it from each
    interface's configuration (EOS `l2 mtu N`, the frame size): the configured frame, or the vendor's
    default when the configuration is silent; where the family's figure is global, that figure
    (hostlint.collect.switches.global_mtu). None where the platform has no such figure, the port is
    routed, or what shows it was not read (never the L3 `mtu` in its place). A channel's `members` say
    which ports it bundles (a global figure may differ by port speed)."""
    family = switches.switch(reading.platform).mtu_family(reading.model)
    if family is None or mode == "routed":
        return None
    if family.l2_global is not None:
        ports = members or [name]
        return _global_l2_mtu(family.l2_global, all(p.startswith("FastEthernet") for p in ports), reading)
    if family.l2_config is None or family.l2_default_frame is None:
        return None
    if not reading.shown("configured"):
        return None
    configured = config.get("l2_mtu")
    frame = reading.read("configured", f"{name} {family.l2_config}", lambda: as_int(configured)) if configured else None
    tag = 4 if mode == "trunk" else 0
    return min(frame or family.l2_default_frame, family.l2_default_frame) - family.l2_header - tag


def _global_l2_mtu(kind: str, fast_ethernet: bool, reading: Reading) -> int | None:
    """A switch-wide figure, read once per switch (and per port kind: 10/100 or faster), so a value that
    makes no sense is one warning, not one per port."""
    group = "network_qos" if kind == "network-qos" else "system_mtu"
    key = f"{kind} {fast_ethernet}"
    if key not in reading.global_l2:
        if not reading.shown(group):
            reading.global_l2[key] = None
        elif kind == "network-qos":
            qos = partial(global_mtu.network_qos_mtu, reading.records)
            reading.global_l2[key] = reading.read(group, "network-qos class-default mtu", qos)
        else:
            system = partial(global_mtu.system_mtu, reading.records, fast_ethernet)
            reading.global_l2[key] = reading.read(group, "system mtu", system)
    return reading.global_l2[key]
