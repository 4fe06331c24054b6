"""A switch collected from the stateful emulator's renderings without SSH: the collector's own parse and
assembly of each command's rendered output (for generated states and for plans checked as collected)."""

from __future__ import annotations

from switch_emulator.stateful import RENDERERS

from hostlint.collect.switches import Device, load_platform, stanzas
from hostlint.collect.switches.assemble import build_switch
from hostlint.collect.switches.parse import Parsed, parse_output
from hostlint.snapshot.switch import Switch

LOOPBACK = "127.0.0.1"


def offline(state: Switch) -> tuple[Switch, list[str]]:
    """The collector's parse and assembly of the rendered outputs, without SSH (for generated states)."""
    spec = load_platform(state.platform)
    sections: dict[str, Parsed] = {}
    commands: dict[str, str] = {}
    errors: list[str] = []
    config: str | None = None
    for command in spec.commands:
        text = RENDERERS[state.platform](state, command.command)
        if text is None:
            if not command.optional:
                errors.append(f"{command.command}: not rendered")
            continue
        commands.setdefault(command.section, command.command)
        sections.setdefault(command.section, Parsed()).merge(parse_output(command, text, state.name))
        config = text if command.section == "config" else config
    device = Device(name=state.name, hostname=LOOPBACK, platform=state.platform)
    own = stanzas.interface_lines(config) if config is not None else None
    switch, warnings = build_switch(device, sections, commands, own)
    return switch, errors + [w for p in sections.values() for w in p.warnings] + warnings
