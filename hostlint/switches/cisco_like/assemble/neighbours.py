"""CDP and LLDP neighbours of a Cisco-like switch (`show cdp|lldp neighbors detail`; IOS's `show lldp
neighbors` table places a detail entry that shows no local port).

Part of the Cisco-like assembly (hostlint/switches/cisco_like/assemble/__init__.py).
"""

from __future__ import annotations

from functools import partial
from typing import Literal

from hostlint import names
from hostlint.snapshot.common import Neighbour
from hostlint.switches.cisco_like.assemble.reading import Reading, Record


def _lldp_table(reading: Reading) -> list[tuple[str, str, str]]:
    """IOS `show lldp neighbors` rows as (device id as shown, local port, port id).

    The Device ID column is 20 characters and a longer name runs into Local Intf;
    the Capability column may be blank.
    """
    rows = []
    for record in reading.group("lldp_table"):
        row = str(record.row or "")
        rest = row[20:].split()
        if len(rest) >= 3 and rest[1].isdigit():
            rows.append((row[:20].strip(), rest[0], rest[-1]))
    return rows


def _place(record: Record, table: list[tuple[str, str, str]]) -> str | None:
    """The local port of a detail entry that shows none: its one row in the table (same port, name)."""
    names_shown = [str(record[k]) for k in ("system_name", "chassis_id") if record.get(k)]
    port = str(record.get("port_id") or "")
    rows = [r for r in table if r[2] == port and any(n.startswith(r[0]) for n in names_shown if r[0])]
    if len(rows) != 1:
        return None
    table.remove(rows[0])
    return rows[0][1]


def read_neighbours(reading: Reading) -> dict[str, list[Neighbour]]:
    found: dict[str, list[Neighbour]] = {}
    table = _lldp_table(reading)
    protocols: tuple[tuple[Literal["cdp", "lldp"], str], ...] = (("cdp", "cdp_neighbours"), ("lldp", "neighbours"))
    for protocol, group in protocols:
        for record in reading.fields(group):
            if set(record) <= {"separator"}:
                continue  # the line of dashes before an entry, when `Local Intf:` started the entry itself
            local = record.get("local_port") or (_place(record, table) if protocol == "lldp" else None)
            if not local and protocol == "lldp":
                who = record.get("system_name") or record.get("chassis_id") or "?"
                reading.context.warnings.append(
                    f"{reading.context.device}: {reading.command(group)}: neighbour {who} "
                    f"(port {record.get('port_id') or '?'}) shows no local port and has no single row in "
                    "`show lldp neighbors`; it is not placed"
                )
            device_id = record.get("device_id") or record.get("system_name") or record.get("chassis_id")
            # A neighbour that sends an empty port ID is still there: its port stays "".
            port_id = record.get("port_id") or ""
            if not (local and device_id):
                continue
            neighbour = reading.read(
                group,
                "neighbour",
                partial(
                    Neighbour,
                    protocol=protocol,
                    device_id=str(device_id),
                    port_id=str(port_id),
                    port_description=record.get("port_description"),
                    system_name=record.get("system_name"),
                    mgmt_address=record.get("mgmt_address"),
                    platform=record.get("platform"),
                ),
            )
            if neighbour is not None:
                found.setdefault(names.interface(str(local)), []).append(neighbour)
    return found
