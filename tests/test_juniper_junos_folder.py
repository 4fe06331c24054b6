"""Junos as one folder (hostlint/switches/juniper_junos): its typed records on the folder's own samples,
each sample's expected records beside it, and the records assembled into a `Switch` by the folder's
assemble.py (the collector's build_switch hands Junos to it), warnings for what makes no sense."""

from __future__ import annotations

import os
from typing import Any

import pytest
import yaml

from hostlint.collect.switches import load_platform
from hostlint.collect.switches.assemble import build_switch
from hostlint.collect.switches.inventory import Device
from hostlint.collect.switches.parse import Parsed, parse_output
from hostlint.switches.juniper_junos import assemble, names, records

SPEC = load_platform("juniper_junos")


def _sample(command: Any) -> str:
    return (command.template.parent / f"{command.slug}.txt").read_text(encoding="utf-8")


def _sample_records() -> dict[str, list[dict[str, Any]]]:
    """Every sample's records by ttp group (each group has its own name across the templates)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for command in SPEC.commands:
        for group, items in parse_output(command, _sample(command), "ex1").records.items():
            found.setdefault(group, []).extend(items)
    return found


# --- typed records ----------------------------------------------------------------------------------------


def test_every_sample_record_fits_its_model() -> None:
    found = _sample_records()
    assert set(found) == set(records.RECORDS)
    for group, items in found.items():
        assert len(records.typed(group, items)) == len(items)


def test_a_field_no_model_declares_is_named() -> None:
    with pytest.raises(records.RecordError, match="show lacp interfaces: lacp_members record: state"):
        records.typed("lacp_members", [{"channel": "ae0", "member": "xe-0/0/2", "state": "x"}])
    with pytest.raises(records.RecordError, match="group 'channels' has no model"):
        records.typed("channels", [{}])


@pytest.mark.parametrize("command", SPEC.commands, ids=lambda c: c.slug)
def test_each_sample_gives_the_records_beside_it(command: Any) -> None:
    """`<slug>.records.yaml` holds what the template reads from `<slug>.txt`, reviewed in the diff;
    `HOSTLINT_UPDATE_GOLDEN=1` writes it again."""
    parsed = parse_output(command, _sample(command), "ex1")
    assert parsed.warnings == [] and parsed.notes == []
    expected = command.template.parent / f"{command.slug}.records.yaml"
    if os.environ.get("HOSTLINT_UPDATE_GOLDEN") == "1":
        expected.write_text(yaml.safe_dump(parsed.records, sort_keys=True, allow_unicode=True), encoding="utf-8")
    assert parsed.records == yaml.safe_load(expected.read_text(encoding="utf-8"))


# --- assembly ---------------------------------------------------------------------------------------------


def test_the_samples_assemble_into_a_switch() -> None:
    switch, warnings = assemble.build("ex1", _sample_records(), "192.0.2.21")
    assert warnings == []
    assert switch.platform == "juniper_junos" and switch.mgmt_address == "192.0.2.21"
    assert switch.load_balance is not None and switch.load_balance.hash == "src-dst-ip"
    assert switch.multichassis is not None and switch.multichassis.kind == "virtual-chassis"
    channels = {c.name: c for c in switch.port_channels}
    assert channels["ae0"].mode == "static" and channels["ae0"].members == ["xe-0/0/2", "xe-0/0/3"]
    assert channels["ae1"].mode == "lacp-active" and channels["ae2"].mode == "lacp-passive"
    assert channels["ae0"].mtu == 9202  # media MTU 9216 less the 14-byte Ethernet header
    ports = {p.name: p for p in switch.ports}
    # A static ae's members: bundled while their link is up (no LACP to say otherwise).
    assert ports["xe-0/0/2"].member_state == "bundled"
    assert ports["ge-0/0/10"].status == "disabled" and ports["xe-0/0/5"].status == "down"
    assert all(names.NAMES.scriptable(p.name) and not names.NAMES.is_channel(p.name) for p in switch.ports)
    assert all(names.NAMES.is_channel(c.name) for c in switch.port_channels)


def test_config_lines_are_each_interfaces_own() -> None:
    """The collector gives each port and channel its own lines after the folder's build."""
    lines = {"xe-0/0/2": ["set interfaces xe-0/0/2 ether-options 802.3ad ae0"], "ae0": ["set interfaces ae0 mtu 9216"]}
    sections: dict[str, Parsed] = {}
    for command in SPEC.commands:
        sections.setdefault(command.section, Parsed()).merge(parse_output(command, _sample(command), "ex1"))
    device = Device(name="ex1", hostname="192.0.2.21", platform="juniper_junos")
    switch, _ = build_switch(device, sections, {}, lines)
    assert {p.name: p.config_lines for p in switch.ports}["xe-0/0/2"] == lines["xe-0/0/2"]
    assert {c.name: c.config_lines for c in switch.port_channels}["ae0"] == lines["ae0"]


def test_a_value_that_makes_no_sense_is_a_warning_and_the_rest_is_built() -> None:
    found = _sample_records()
    found["load_balance"] = [{"option": "no-ipv4-source-address"}, {"option": "no-ipv4-destination-address"}]
    found["configured"] = [*found["configured"], {"name": "xe-0/0/2", "speed": "7q"}]
    found["lacp_members"] = [*found["lacp_members"], {"channel": "ae1", "member": "xe-0/0/4", "surprise": "x"}]
    switch, warnings = assemble.build("ex1", found)
    assert switch.load_balance is None
    assert any("show configuration | display set: hash: hostlint reads no" in w for w in warnings)
    assert "ex1: show configuration | display set: xe-0/0/2 speed: speed '7q' not understood" in warnings
    assert any(w.startswith("ex1: show lacp interfaces: lacp_members record: surprise") for w in warnings)
    assert switch.port_channels  # the rest is still built
