"""LLDP (and CDP) neighbours from lldpd: `lldpctl -f json`.

lldpd's JSON turns a one-element list into an object, so one neighbour and
several look different. A sample with one neighbour (lldpd 1.0)::

    {"lldp": {"interface": {"eno1": {
        "via": "LLDP",
        "chassis": {"leaf1.dc.example": {"id": {"type": "mac", "value": "00:1e:49:a7:3c:00"},
                                         "mgmt-ip": "10.0.0.11"}},
        "port": {"id": {"type": "ifname", "value": "Ethernet1/11"}, "descr": "to kvm01 eno1"}}}}}

With two, `interface` is a list of one-key objects. A chassis without a
system name is `{"id": ..., ...}` directly.
"""

from __future__ import annotations

import json
from typing import Any

from hostlint.snapshot.common import Neighbour


class LldpParseError(ValueError):
    """Output that is not lldpctl's JSON."""


def _items(value: Any) -> list[tuple[str, Any]]:
    """`{"a": {...}}` or `[{"a": {...}}, {"b": {...}}]` as [(name, body), ...]."""
    if isinstance(value, dict):
        return list(value.items())
    if isinstance(value, list):
        return [pair for entry in value if isinstance(entry, dict) for pair in entry.items()]
    return []


def _first(value: Any) -> Any:
    return value[0] if isinstance(value, list) and value else value


def _chassis(chassis: Any) -> tuple[str | None, dict[str, Any]]:
    """(system name, chassis body) of the first chassis."""
    chassis = _first(chassis)
    if not isinstance(chassis, dict):
        return None, {}
    if "id" in chassis:
        return None, chassis
    for name, body in chassis.items():
        if isinstance(body, dict):
            return name, body
    return None, {}


def _port_id(port: dict[str, Any]) -> str | None:
    """The port's interface name: an `ifname` id, else its description (Junos sends an ifIndex id)."""
    port_id = _first(port.get("id"))
    if not isinstance(port_id, dict):
        port_id = {}
    if port_id.get("type") == "ifname":
        return port_id.get("value")
    return port.get("descr") or port_id.get("value")


def parse_lldpctl_json(text: str) -> dict[str, Neighbour]:
    """Local interface name -> the neighbour lldpd sees on it (LLDP, or CDP when lldpd speaks it)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LldpParseError(f"lldpctl output is not JSON: {exc.msg}") from exc
    lldp = _first(data.get("lldp")) if isinstance(data, dict) else None
    if not isinstance(lldp, dict):
        return {}
    neighbours = {}
    for ifname, body in _items(lldp.get("interface")):
        if not isinstance(body, dict):
            continue
        system_name, chassis = _chassis(body.get("chassis"))
        chassis_id = _first(chassis.get("id"))
        chassis_id = chassis_id.get("value") if isinstance(chassis_id, dict) else None
        port = _first(body.get("port")) or {}
        port_name = _port_id(port)
        port_description = port.get("descr") if isinstance(port.get("descr"), str) else None
        device_id = chassis_id or system_name
        if not device_id or not port_name:
            continue
        mgmt = _first(chassis.get("mgmt-ip"))
        descr = _first(chassis.get("descr"))
        via = str(body.get("via", "LLDP")).lower()
        neighbours[ifname] = Neighbour(
            protocol="cdp" if via.startswith("cdp") else "lldp",
            device_id=device_id,
            port_id=port_name,
            port_description=port_description,
            system_name=system_name,
            mgmt_address=mgmt if isinstance(mgmt, str) else None,
            platform=descr if isinstance(descr, str) else None,
        )
    return neighbours
