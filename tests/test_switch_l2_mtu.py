"""EOS bridges frames up to its L2 MTU (`l2 mtu`, the platform maximum by default), not its IP `mtu`: the
collector reads the L2 figure from the running configuration (EOS User Manual, Ethernet Ports)."""

from __future__ import annotations

from hostlint.collect.switches import Device, load_platform
from hostlint.collect.switches.assemble import build_switch
from hostlint.collect.switches.parse import Parsed, parse_output

PLATFORM = "arista_eos"


def _switch(edit_config=lambda text: text, without: str | None = None):
    spec = load_platform(PLATFORM)
    sections: dict[str, Parsed] = {}
    for command in spec.commands:
        if command.section == without:
            continue
        text = (command.template.parent / f"{command.slug}.txt").read_text(encoding="utf-8")
        if command.command == "show running-config":
            text = edit_config(text)
        parsed = parse_output(command, text, "eos1")
        assert parsed.warnings == []
        sections.setdefault(command.section, Parsed()).merge(parsed)
    device = Device(name="eos1", hostname="192.0.2.1", platform=PLATFORM)
    switch, warnings = build_switch(device, sections, {c.section: c.command for c in spec.commands})
    assert warnings == []
    return switch


def _lowered(text: str) -> str:
    """Ethernet1 (a trunk) with `l2 mtu 1500`, Port-Channel11 with `l2 mtu 9000` (its member Ethernet11 follows)."""
    text = text.replace(
        "   description esx01 vmnic0\n   mtu 9214\n", "   description esx01 vmnic0\n   mtu 9214\n   l2 mtu 1500\n"
    )
    return text.replace("interface Port-Channel11\n", "interface Port-Channel11\n   l2 mtu 9000\n")


def test_a_switchport_without_l2_mtu_bridges_up_to_the_platform_maximum() -> None:
    ports = {p.name: p for p in _switch().ports}
    # Trunk: 9214-byte frames less the 14-byte header and the 4-byte tag.
    assert ports["Ethernet1"].mode == "trunk" and ports["Ethernet1"].l2_mtu == 9214 - 18
    assert all(p.l2_mtu is not None for p in ports.values() if p.mode in ("access", "trunk"))


def test_l2_mtu_lines_are_read_and_a_member_follows_its_channel() -> None:
    switch = _switch(_lowered)
    ports = {p.name: p for p in switch.ports}
    channels = {c.name: c for c in switch.port_channels}
    assert ports["Ethernet1"].l2_mtu == 1500 - 18
    assert ports["Ethernet1"].mtu == 9214  # the IP MTU is its own figure
    assert channels["Port-channel11"].l2_mtu == 9000 - 18
    assert ports["Ethernet11"].port_channel == "Port-channel11" and ports["Ethernet11"].l2_mtu == 9000 - 18


def test_without_the_running_configuration_the_l2_mtu_is_unknown() -> None:
    ports = _switch(without="config").ports
    assert ports and all(p.l2_mtu is None for p in ports)
