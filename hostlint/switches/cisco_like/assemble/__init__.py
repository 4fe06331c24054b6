"""Cisco-like records -> the snapshot's `Switch`: the assembly IOS, NX-OS and EOS share (each folder's
`assemble.py` calls `build` with its typed records, its hash reader and what its commands are; the
`assembly` piece). Their templates give the same fields (see each template's `<doc>`), so one conversion
serves the three; what differs is asked of the platform (channel naming, MTU figures, whether a member's own
switchport lines count: hostlint.switches.<platform>.platform) or is the folder's own (hashes.py,
members.py, names.py). Moved from hostlint/collect/switches/assemble.py unchanged in behaviour.

What comes from where:

- ports: `show interface(s)` (state, speed, duplex, MTU, description, `Belongs to`/`Member of`), the running
  configuration's interface stanzas (`configured`: switchport mode and VLANs, channel-group, speed,
  `shutdown`, EOS `l2 mtu`), the CDP/LLDP neighbours and the channel summary; a port known only from a
  neighbour table or a channel summary has no status, MTU or speed;
- channels: the summary (members with their flags, members.py; the `Protocol` column), the configuration
  (`channel-group N mode X`; NX-OS `vpc N`, EOS `mlag N`) and `show vpc brief`'s rows;
- the hash: `show etherchannel|port-channel load-balance` (IOS, NX-OS) or the configuration's
  `port-channel load-balance` fields (EOS), through the folder's hashes.py;
- multichassis: NX-OS vPC (`show vpc brief`), EOS MLAG (`show mlag`), an IOS stack (`show switch`, two or
  more members; no peer link shown: unknown).

A value that makes no sense is a warning naming the device and the command; the rest is still built.

The parts, one module each: `reading` (the typed records and the readers every part shares), `ports`,
`port_mtu`, `channels`, `neighbours`, `load_balance` and `multichassis`; `build` here puts them together.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from hostlint import names
from hostlint.collect.switches.kinds import is_port
from hostlint.snapshot.switch import LoadBalance, Switch
from hostlint.switches.assembly_kit import ReadContext, Records
from hostlint.switches.cisco_like.assemble.channels import build_channels, read_membership
from hostlint.switches.cisco_like.assemble.load_balance import configured_load_balance, shown_load_balance
from hostlint.switches.cisco_like.assemble.multichassis import read_multichassis
from hostlint.switches.cisco_like.assemble.neighbours import read_neighbours
from hostlint.switches.cisco_like.assemble.ports import build_port
from hostlint.switches.cisco_like.assemble.reading import Reading, Record, Typed, by_name


def build(
    platform: str,
    typed: Typed,
    commands: Mapping[str, str],
    load_balance: Callable[[Reading], LoadBalance | None],
    device: str,
    outputs: Records,
    mgmt_address: str | None = None,
    collected: frozenset[str] | None = None,
) -> tuple[Switch, list[str]]:
    """The switch `device` of `platform` as its commands' records (ttp group -> records) show it, and
    warnings for what could not be read. `typed`, `commands`: the folder's records.py; `load_balance`: its
    hash reader; `collected`: the commands whose output was read (None: those that gave a record). Each
    item's own configuration lines are the collector's to add (hostlint.collect.switches.assemble)."""
    reading = Reading(platform, outputs, typed, commands, collected, ReadContext(device))
    version: Record = {}
    for record in reading.fields("version"):  # one record per line: the first value wins
        version.update({k: v for k, v in record.items() if k not in version})
    # The model the switch records, the family the MTU figures follow (a `Model number` line before a
    # `cisco ... processor` line, whatever their order).
    reading.model = version.get("model") or version.get("hw_model")
    shown = by_name(reading.fields("interfaces"), reading, "interfaces")
    configured = by_name(reading.fields("configured"), reading, "configured")
    neighbours = read_neighbours(reading)
    membership = read_membership(reading)
    # A port is known from `show interfaces`, or only from a neighbour table or a channel summary
    # (then its own facts are unknown): nothing it carries is dropped for want of the other.
    known = [*shown, *neighbours, *membership]
    ports = [
        build_port(name, shown.get(name, {}), configured, reading, neighbours, membership)
        for name in dict.fromkeys(known)
        if is_port(name)
    ]
    channels = build_channels(ports, shown, configured, reading)
    hostname = next((s.hostname for s in reading.group("system") if s.hostname), None)
    aliases = [hostname] if hostname and names.device_key(hostname) != names.device_key(device) else []
    switch = Switch(
        name=device,
        aliases=aliases,
        mgmt_address=mgmt_address,
        platform=platform,
        model=reading.model,
        os_version=version.get("os_version")
        or version.get("xe_version")
        or version.get("system_version")
        or version.get("base_version"),
        load_balance=load_balance(reading),
        ports=ports,
        port_channels=channels,
        multichassis=read_multichassis(reading, channels, ports),
    )
    return switch, reading.context.warnings


__all__ = ["Reading", "build", "configured_load_balance", "shown_load_balance"]
