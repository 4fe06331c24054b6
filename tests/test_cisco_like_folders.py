"""Cisco IOS, NX-OS and Arista EOS as folders (hostlint/switches/<platform>/, sharing
hostlint/switches/cisco_like/): their typed records on the folders' own samples, each sample's expected
records beside it, and the records assembled into a `Switch` by the folder's assemble.py (the collector's
build_switch hands each platform to its folder), warnings for what makes no sense."""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Any

import pytest
import yaml

from hostlint.collect.switches import Device, load_platform, stanzas
from hostlint.collect.switches.assemble import build_switch
from hostlint.collect.switches.parse import Parsed, parse_output

PLATFORMS = ("cisco_ios", "cisco_nxos", "arista_eos")
COMMANDS = [(p, c) for p in PLATFORMS for c in load_platform(p).commands]


def _module(platform: str, piece: str) -> ModuleType:
    return importlib.import_module(f"hostlint.switches.{platform}.{piece}")


def _sample(command: Any) -> str:
    return (command.template.parent / f"{command.slug}.txt").read_text(encoding="utf-8")


def _sample_records(platform: str) -> dict[str, list[dict[str, Any]]]:
    """Every sample's records by ttp group (each group has its own name across the platform's templates)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for command in load_platform(platform).commands:
        for group, items in parse_output(command, _sample(command), "sw1").records.items():
            found.setdefault(group, []).extend(items)
    return found


# --- typed records ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("platform", PLATFORMS)
def test_every_sample_record_fits_its_model_and_every_group_is_a_command_s(platform: str) -> None:
    records = _module(platform, "records")
    found = _sample_records(platform)
    assert set(found) <= set(records.RECORDS) == set(records.COMMANDS)
    for group, items in found.items():
        assert len(records.typed(group, items)) == len(items)
    # Each group's command is one of the platform's, and fills that group in its template.
    spec = {c.command: c for c in load_platform(platform).commands}
    for group, command in records.COMMANDS.items():
        assert f'<group name="{group}"' in spec[command].template.read_text(encoding="utf-8"), (group, command)


def test_a_field_no_model_declares_is_named() -> None:
    records = _module("cisco_nxos", "records")
    with pytest.raises(records.RecordError, match="show vpc brief: peer_link record: colour"):
        records.typed("peer_link", [{"port": "Po1", "colour": "red"}])
    with pytest.raises(records.RecordError, match=r"group 'stack' has no model in cisco_nxos/records\.py"):
        records.typed("stack", [{}])


def test_a_group_that_does_not_fit_is_one_warning_and_the_rest_is_built() -> None:
    assemble = _module("cisco_ios", "assemble")
    switch, warnings = assemble.build(
        "sw-x",
        {"interfaces": [{"name": "Gi1/0/1", "colour": "red"}], "channels": [{"name": "Po1", "members": "Gi1/0/2(P)"}]},
    )
    assert warnings == ["sw-x: show interfaces: interfaces record: colour: Extra inputs are not permitted"]
    assert [p.name for p in switch.ports] == ["GigabitEthernet1/0/2"]
    assert [(c.name, c.members) for c in switch.port_channels] == [("Port-channel1", ["GigabitEthernet1/0/2"])]


@pytest.mark.parametrize(("platform", "command"), COMMANDS, ids=lambda c: getattr(c, "slug", c))
def test_each_sample_gives_the_records_beside_it(platform: str, command: Any) -> None:
    """`<slug>.records.yaml` holds what the template reads from `<slug>.txt`, reviewed in the diff;
    `HOSTLINT_UPDATE_GOLDEN=1` writes it again."""
    parsed = parse_output(command, _sample(command), "sw1")
    assert parsed.warnings == [] and parsed.notes == []
    expected = command.template.parent / f"{command.slug}.records.yaml"
    if os.environ.get("HOSTLINT_UPDATE_GOLDEN") == "1":
        expected.write_text(yaml.safe_dump(parsed.records, sort_keys=True, allow_unicode=True), encoding="utf-8")
    assert parsed.records == yaml.safe_load(expected.read_text(encoding="utf-8"))


# --- assembly ---------------------------------------------------------------------------------------------


def _collected(platform: str, drop: tuple[str, ...] = ()) -> tuple[Any, list[str]]:
    """The samples through the collector's path (parse by section, build_switch), without `drop`."""
    spec = load_platform(platform)
    sections: dict[str, Parsed] = {}
    commands: dict[str, str] = {}
    config = None
    for command in spec.commands:
        if command.command in drop:
            continue
        text = _sample(command)
        commands.setdefault(command.section, command.command)
        sections.setdefault(command.section, Parsed()).merge(parse_output(command, text, "sw1"))
        config = text if command.section == "config" else config
    own = stanzas.interface_lines(config) if config is not None else None
    return build_switch(Device(name="sw1", hostname="192.0.2.9", platform=platform), sections, commands, own)


@pytest.mark.parametrize("platform", PLATFORMS)
def test_the_samples_assemble_into_the_switch_the_collector_builds(platform: str) -> None:
    switch, warnings = _module(platform, "assemble").build("sw1", _sample_records(platform), "192.0.2.9")
    collected, collected_warnings = _collected(platform)
    assert warnings == collected_warnings == []
    # The collector adds each interface's own configuration lines; the rest is the folder's build.
    for item in (*collected.ports, *collected.port_channels):
        item.config_lines = None
    assert switch == collected
    assert switch.platform == platform and switch.load_balance is not None
    assert switch.ports and switch.port_channels and any(p.neighbours for p in switch.ports)
    names = _module(platform, "names").NAMES
    assert all(names.is_channel(c.name) for c in switch.port_channels)
    assert not any(names.is_channel(p.name) for p in switch.ports)


def test_each_platform_reads_its_own_multichassis() -> None:
    kinds = {p: _module(p, "assemble").build("sw1", _sample_records(p))[0].multichassis for p in PLATFORMS}
    assert {p: m.kind if m else None for p, m in kinds.items()} == {
        "cisco_ios": "stack",
        "cisco_nxos": "vpc",
        "arista_eos": "mlag",
    }


def test_an_unknown_hash_syntax_is_a_named_unknown_never_another_vendors_default() -> None:
    """Each platform reads its hash with its own folder's table (hashes.py, through its assemble.py):
    nothing branches on a syntax's name, so no platform falls into another's reader. What its table
    lacks is a warning naming it and no hash; a silent EOS configuration is EOS's documented default."""
    eos = _module("arista_eos", "assemble")
    switch, warnings = eos.build("sw-x", {"load_balance": [{"fields": "mpls-label"}]})
    assert switch.load_balance is None
    assert warnings == [
        "sw-x: show running-config: hash: EOS load-balance fields 'mpls-label' have no name in hostlint's "
        "hash vocabulary"
    ]
    switch, warnings = eos.build("sw-x", {})
    assert switch.load_balance is not None and switch.load_balance.raw == "default" and warnings == []
    switch, warnings = _module("cisco_nxos", "assemble").build("sw-x", {"load_balance": [{"raw": "src-dst gre"}]})
    assert switch.load_balance is None
    assert warnings == [
        "sw-x: show port-channel load-balance: hash: load-balance 'src-dst gre' is not an NX-OS hash this "
        "collector knows"
    ]
    # NX-OS shows no load-balance line: unknown, and nothing said (it was not shown).
    switch, warnings = _module("cisco_nxos", "assemble").build("sw-x", {})
    assert switch.load_balance is None and warnings == []


def test_a_silent_configuration_is_not_a_missing_one() -> None:
    """EOS's L2 figure: with the configuration read, a switchport without `l2 mtu` has EOS's default frame;
    without the configuration the figure is unknown (`collected` tells them apart where no record does)."""
    read, _ = _collected("arista_eos")
    missing, _ = _collected("arista_eos", drop=("show running-config",))
    switchports = [p for p in read.ports if p.mode in ("access", "trunk")]
    assert switchports and all(p.l2_mtu is not None for p in switchports)
    assert all(p.l2_mtu is None for p in missing.ports)
    assemble = _module("arista_eos", "assemble")
    shown = {"interfaces": [{"name": "Ethernet1", "state": "up", "protocol": "up", "mtu": "9214"}]}
    silent, _ = assemble.build("sw-x", shown, collected=frozenset({"show interfaces", "show running-config"}))
    unread, _ = assemble.build("sw-x", shown, collected=frozenset({"show interfaces"}))
    assert silent.ports[0].l2_mtu is not None and unread.ports[0].l2_mtu is None
