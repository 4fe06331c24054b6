"""Per-platform collection specs: `collectors/<platform>/spec.yaml` and the ttp templates beside it.

A spec names the netmiko `device_type`, the `rejected` markers (output that
means the switch refused a command) and the `commands`, run in order. Each
command has a `section` (what its records describe: `config`, `interfaces`,
`channels`, `load_balance`, `cdp`, `lldp`, `multichassis`), may be `optional`
(a rejection means "feature absent", not a failure) and may list `empty`
markers (output that legitimately holds no records) and a `records` count
(hostlint.collect.switches.counts: how to count its records without the
template) and `carry` (fields a header record gives the records after
it), and `dedent` (match lines whatever their indentation). Its template and a captured sample are `<slug>.ttp` and
`<slug>.txt` beside the spec.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import yaml

from hostlint.collect.switches.counts import RecordCount
from hostlint.data import data_dir
from hostlint.snapshot.switch import Platform

SUPPORTED: tuple[Platform, ...] = ("cisco_ios", "cisco_nxos", "arista_eos", "juniper_junos")

# Names other tools use for the same platforms: netmiko device types, napalm drivers,
# Ansible `ansible_network_os` (short and collection-qualified).
_ALIASES: dict[str, str] = {
    "cisco_xe": "cisco_ios",
    "ios": "cisco_ios",
    "cisco.ios.ios": "cisco_ios",
    "nxos": "cisco_nxos",
    "nxos_ssh": "cisco_nxos",
    "cisco.nxos.nxos": "cisco_nxos",
    "eos": "arista_eos",
    "arista.eos.eos": "arista_eos",
    "juniper": "juniper_junos",
    "junos": "juniper_junos",
    "junipernetworks.junos.junos": "juniper_junos",
}


class UnsupportedPlatform(ValueError):
    """A device whose platform hostlint has no collector for."""


@dataclass(frozen=True)
class CommandSpec:
    command: str
    section: str
    template: Path
    optional: bool = False
    empty: tuple[str, ...] = ()
    records: tuple[RecordCount, ...] = ()
    # Fields a header record (`Interface X detected 2 LLDP neighbors`, `Aggregated interface: ae1`)
    # hands to the records after it in the same group; the header record itself is dropped.
    carry: tuple[str, ...] = ()
    # Match lines whatever their indentation (releases indent blocks differently, captures use tabs):
    # the template's lines are then written without leading whitespace.
    dedent: bool = False

    @property
    def slug(self) -> str:
        return command_slug(self.command)


@dataclass(frozen=True)
class PlatformSpec:
    platform: Platform
    device_type: str
    rejected: tuple[str, ...]
    commands: tuple[CommandSpec, ...] = field(default_factory=tuple)
    folder: Path = Path()


def command_slug(command: str) -> str:
    """File stem for a command's template and sample: `show lacp interfaces` -> `show_lacp_interfaces`."""
    return re.sub(r"[^a-z0-9_-]", "", re.sub(r"\s+", "_", command.strip().lower().replace("|", " ")))


def canonical_platform(name: str | None) -> Platform:
    """The collector name for a platform as inventories spell it; unsupported names are an error."""
    key = (name or "").strip().lower()
    key = _ALIASES.get(key, key)
    if key not in SUPPORTED:
        raise UnsupportedPlatform(f"platform {name!r} is not supported; supported: {', '.join(SUPPORTED)}")
    return key


@cache
def load_platform(name: str) -> PlatformSpec:
    platform = canonical_platform(name)
    folder = data_dir("collectors") / platform
    raw = yaml.safe_load((folder / "spec.yaml").read_text(encoding="utf-8"))
    commands = tuple(
        CommandSpec(
            command=entry["command"],
            section=entry["section"],
            template=folder / f"{command_slug(entry['command'])}.ttp",
            optional=bool(entry.get("optional", False)),
            empty=tuple(entry.get("empty", ())),
            records=tuple(RecordCount.from_spec(raw) for raw in entry.get("records", ())),
            carry=tuple(entry.get("carry", ())),
            dedent=bool(entry.get("dedent", False)),
        )
        for entry in raw["commands"]
    )
    return PlatformSpec(
        platform=platform,
        device_type=raw["device_type"],
        rejected=tuple(raw.get("rejected", ())),
        commands=commands,
        folder=folder,
    )
