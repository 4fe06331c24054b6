"""Parsed records of one switch -> the `Switch` model, by the platform's folder.

Every platform's folder holds its own assembly (hostlint/switches/<platform>/assemble.py, `build`: the
Cisco-like ones share hostlint/switches/cisco_like/assemble/); this module hands it the records by ttp
group (a folder names its groups apart, whatever command fills them) and which commands were collected,
then gives each port and channel its own configuration lines. A value that
cannot be read becomes a warning naming the device and the command it came from; the rest of the switch is
still built.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module

from hostlint import names
from hostlint.collect.switches.inventory import Device
from hostlint.collect.switches.parse import Parsed, Record
from hostlint.collect.switches.platforms import load_platform
from hostlint.snapshot.switch import PortChannel, Switch, SwitchPort


def _folder_assembly(platform: str) -> Callable[..., tuple[Switch, list[str]]]:
    """A platform folder's own conversion of its records (hostlint/switches/<platform>/assemble.py, `build`)."""
    build: Callable[..., tuple[Switch, list[str]]] = import_module(f"hostlint.switches.{platform}.assemble").build
    return build


def _by_group(sections: dict[str, Parsed]) -> dict[str, list[Record]]:
    """Every command's records by ttp group (a folder names its groups apart, whatever their section)."""
    grouped: dict[str, list[Record]] = {}
    for parsed in sections.values():
        for group, records in parsed.records.items():
            grouped.setdefault(group, []).extend(records)
    return grouped


def _own_lines(items: Sequence[SwitchPort | PortChannel], config_lines: dict[str, list[str]]) -> None:
    """Each port's and channel's own configuration lines, verbatim ([] for one the configuration does not list)."""
    own = {names.interface_key(name): lines for name, lines in config_lines.items()}
    for item in items:
        item.config_lines = list(own.get(names.interface_key(item.name), []))


def build_switch(
    device: Device,
    sections: dict[str, Parsed],
    commands: dict[str, str],
    config_lines: dict[str, list[str]] | None = None,
) -> tuple[Switch, list[str]]:
    """The switch as collected, and warnings for what could not be read (each naming device and command).
    `config_lines`: each interface's own configuration lines (hostlint.collect.switches.stanzas), when the
    configuration was read."""
    # Which of the platform's commands were collected: a build tells a command collected with no record
    # from one not collected (Cisco-like: a silent configuration means the default L2 figure, a missing one
    # an unknown figure).
    spec = load_platform(device.platform)
    collected = frozenset(c.command for c in spec.commands if c.section in sections)
    build = _folder_assembly(device.platform)
    built, notes = build(device.name, _by_group(sections), device.hostname, collected=collected)
    if config_lines is not None:
        # Each port's and channel's own lines, for every platform alike (rollbacks type them back).
        _own_lines((*built.ports, *built.port_channels), config_lines)
    return built, notes
