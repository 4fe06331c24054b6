"""Switch-wide bridged MTU figures shown from a state (hostlint.collect.switches.global_mtu reads them back):
the state holds them as each switchport's `l2_mtu` (the IP packet), the switch shows them once.

- NX-OS, Nexus 3000/5000/6000: a network-qos policy attached under `system qos` whose `class-default`
  carries the MTU (Cisco Nexus 5000 Series NX-OS Quality of Service Configuration Guide, "Configuring
  Jumbo MTU": `policy-map type network-qos jumbo` / `class type network-qos class-default` / `mtu 9216`
  / `system qos` / `service-policy type network-qos jumbo`). At the default 1500 no policy is shown, as
  the running configuration leaves defaults out.
- IOS, Catalyst 2960/3560/3750: `show system mtu` (Catalyst 3750 Metro Switch Command Reference, `show
  system mtu`: `System MTU size is N bytes`, `System Jumbo MTU size is N bytes`, `Routing MTU size is N
  bytes`), `system mtu` from the FastEthernet ports (1500 where it has none), `system mtu jumbo` from
  the others. A state of another family (a Catalyst 9000, a router) rejects the command, as a router
  does (hostlint reads the interface MTU there), and so does a state that holds no figure.
"""

from __future__ import annotations

from hostlint import platforms as registry
from hostlint.snapshot.switch import Switch

_DEFAULT = 1500


def _global(state: Switch, kind: str) -> bool:
    family = registry.switch(state.platform).mtu_family(state.model)
    return family is not None and family.l2_global == kind


def _bridged(state: Switch, fast: bool) -> int | None:
    figures = [
        item.l2_mtu
        for item in [*state.ports, *state.port_channels]
        if item.l2_mtu is not None and item.name.startswith("FastEthernet") == fast
    ]
    return figures[0] if figures else None


def switch_wide_l2_mtu(state: Switch) -> int | None:
    """The bridged figure a new interface of `state` carries where one switch-wide setting limits bridged
    frames (network-qos, system mtu jumbo), as its other switchports show it; None elsewhere."""
    family = registry.switch(state.platform).mtu_family(state.model)
    return _bridged(state, fast=False) if family is not None and family.l2_global is not None else None


def nxos_network_qos(state: Switch) -> list[str]:
    """The network-qos lines of a Nexus 3000/5000/6000 state's running configuration; none at the default."""
    mtu = _bridged(state, fast=False) if _global(state, "network-qos") else None
    if mtu is None or mtu == _DEFAULT:
        return []
    return [
        "policy-map type network-qos jumbo",
        "  class type network-qos class-default",
        f"    mtu {mtu}",
        "system qos",
        "  service-policy type network-qos jumbo",
        "",
    ]


def ios_system_mtu(state: Switch) -> str | None:
    """`show system mtu` of an older Catalyst state; None (rejected) on another family, and on a state that
    holds no figure (a switch collected without the command: what it would show is not known)."""
    jumbo = _bridged(state, fast=False)
    if not _global(state, "system-mtu") or jumbo is None:
        return None
    system = _bridged(state, fast=True) or _DEFAULT
    lines = [
        f"System MTU size is {system} bytes",
        f"System Jumbo MTU size is {jumbo} bytes",
        f"System Alternate MTU size is {system} bytes",
        f"Routing MTU size is {system} bytes",
    ]
    return "\n".join(lines) + "\n"
