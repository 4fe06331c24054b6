"""Per-platform collection specs: `spec.yaml` and the ttp templates beside it, in the platform's folder
(hostlint/switches/<platform>/; docs/collection.md).

A spec names the netmiko `device_type`, the `rejected` markers (output that
means the switch refused a command) and the `commands`, run in order. Each
command has a `section` (what its records describe: `config`, `interfaces`,
`channels`, `load_balance`, `cdp`, `lldp`, `multichassis`), may be `optional`
(a rejection means "feature absent", not a failure) and may list `empty`
markers (output that legitimately holds no records) and a `records` count
(hostlint.collect.switches.counts: how to count its records without the
template) and `carry` (fields a header record gives the records after
it), and `dedent` (match lines whatever their indentation). Its template and a captured sample are `<slug>.ttp` and
`<slug>.txt` beside the spec. The file's schema is `specfile.SpecFile`, strict: an unknown key is an
error naming the file and the key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from hostlint import switches
from hostlint.collect.switches.counts import RecordCount
from hostlint.collect.switches.specfile import SpecFile
from hostlint.platforms import UnsupportedPlatform, canonical_switch
from hostlint.switches.base import command_slug
from hostlint.yamlfile import load_model

__all__ = ["CommandSpec", "PlatformSpec", "UnsupportedPlatform", "command_slug", "load_folder", "load_platform"]


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
    platform: str
    device_type: str
    rejected: tuple[str, ...]
    commands: tuple[CommandSpec, ...] = field(default_factory=tuple)
    folder: Path = Path()


@cache
def load_platform(name: str) -> PlatformSpec:
    platform = canonical_switch(name)
    return load_folder(switches.folder(platform), platform)


def _registry_name(platform: str) -> str:
    """A registered platform's name as the registry spells it (aliases too); another name as written."""
    try:
        return canonical_switch(platform)
    except UnsupportedPlatform:
        return platform


def load_folder(folder: Path, platform: str | None = None) -> PlatformSpec:
    """The spec in `folder`, read as strictly as a registered platform's. Without `platform` the folder
    need not be registered (the parser score and the spec tests read templates of platforms that
    `hostlint collect switches` does not run yet); with it, the spec must name that platform."""
    spec = load_model(folder / "spec.yaml", SpecFile, "collector spec", UnsupportedPlatform)
    if platform is not None and _registry_name(spec.platform) != platform:
        raise UnsupportedPlatform(f"{folder / 'spec.yaml'}: platform {spec.platform!r} is not {platform!r}")
    commands = tuple(
        CommandSpec(
            command=entry.command,
            section=entry.section,
            template=folder / f"{command_slug(entry.command)}.ttp",
            optional=entry.optional,
            empty=tuple(entry.empty),
            records=tuple(RecordCount.from_spec(record.model_dump()) for record in entry.records),
            carry=tuple(entry.carry),
            dedent=entry.dedent,
        )
        for entry in spec.commands
    )
    return PlatformSpec(
        platform=platform or spec.platform,
        device_type=spec.device_type,
        rejected=tuple(spec.rejected),
        commands=commands,
        folder=folder,
    )
