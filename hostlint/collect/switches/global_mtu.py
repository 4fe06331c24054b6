"""A switch-wide L2 figure (hostlint.platforms.MtuFamily.l2_global) as the largest IP packet a bridged port
carries, from the records of the commands that show it.

- **NX-OS network-qos** (Nexus 3000/5000/6000): bridged frames are limited per system class, by the `mtu`
  of the class in the network-qos policy attached under `system qos` (`service-policy type network-qos
  NAME`); an interface takes no MTU of its own. Host traffic no `type qos` policy classifies is in
  `class-default`, whose MTU is read here. Without an attached policy, or with one of the system-defined
  policies (`default-nq-policy`, `fcoe-default-nq-policy`...), and for a class without an `mtu` line, the
  class MTU is the Ethernet default 1500; `system jumbomtu` (default 9216) bounds every class MTU (Cisco
  Nexus 5000 Series NX-OS Quality of Service Configuration Guide, "MTU"; Cisco Document 118994,
  "Configure and Verify Maximum Transmission Unit on Nexus Platforms", "Network QoS MTU Configuration").
  A policy named under `system qos` that the configuration does not define leaves the figure unknown.
- **IOS `system mtu`** (Catalyst 2960/3560/3750): `system mtu jumbo` limits Gigabit and faster ports,
  `system mtu` the 10/100 ports; neither is in the running configuration (they are kept in NVRAM and take
  effect at reload), `show system mtu` shows both (Catalyst 3750-X and 3560-X Software Configuration
  Guide, "Configuring the System MTU": "Gigabit Ethernet ports are not affected by the system mtu
  command; 10/100 ports are not affected by the system mtu jumbo command"). A release that shows no
  jumbo line applies `system mtu` to every port. Both figures are the IP packet (Cisco omits the 18
  bytes of Ethernet header and FCS).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from hostlint.collect.switches.parse import Record

Records = Callable[[str, str], list[Record]]

NETWORK_QOS_DEFAULT = 1500
JUMBOMTU_DEFAULT = 9216
# The system-defined policies (`default-nq-policy`, `fcoe-default-nq-policy`, and on Nexus 5600/6000 the
# `default-nq-4e-policy`...`default-nq-8e-policy` templates) leave class-default at the default MTU; the running
# configuration does not print them.
PREDEFINED_NETWORK_QOS = re.compile(r"(fcoe-)?default-nq(-\d+e)?-policy")


def _int(value: Any) -> int:
    number = int(str(value).strip())
    if number <= 0:
        raise ValueError(f"MTU {number} is not a size")
    return number


def _classes(policy: Record) -> list[Record]:
    classes = policy.get("classes") or []
    return [c for c in (classes if isinstance(classes, list) else [classes]) if isinstance(c, dict)]


def network_qos_mtu(records: Records) -> int:
    """The class-default MTU of the attached network-qos policy, bounded by `system jumbomtu`.

    Raises ValueError naming what is missing when the attached policy is not in the configuration.
    """
    attached = next((str(r["network_qos"]) for r in records("config", "system_qos") if r.get("network_qos")), None)
    jumbo_line = next((r["jumbomtu"] for r in records("config", "jumbomtu") if r.get("jumbomtu")), None)
    jumbomtu = _int(jumbo_line) if jumbo_line is not None else JUMBOMTU_DEFAULT
    policy = next((p for p in records("config", "network_qos") if p.get("policy") == attached), None)
    if policy is None:
        if attached is None or PREDEFINED_NETWORK_QOS.fullmatch(attached):
            return min(NETWORK_QOS_DEFAULT, jumbomtu)
        raise ValueError(f"network-qos policy {attached!r} under `system qos` is not in the configuration")
    default = next((c for c in _classes(policy) if c.get("class") == "class-default"), {})
    mtu = _int(default["mtu"]) if default.get("mtu") else NETWORK_QOS_DEFAULT
    return min(mtu, jumbomtu)


def system_mtu(records: Records, fast_ethernet: bool) -> int | None:
    """`show system mtu`'s figure for a FastEthernet port (or a channel of them): `system mtu`; for the
    others `system mtu jumbo` (where a release shows no jumbo line, `system mtu`). None when not shown."""
    shown: Record = {}
    for record in records("system_mtu", "system_mtu"):
        shown.update({k: v for k, v in record.items() if k not in shown})
    if fast_ethernet or not shown.get("jumbo"):
        return _int(shown["system"]) if shown.get("system") else None
    return _int(shown["jumbo"])
