"""Switch-wide bridged figures read into each switchport's `l2_mtu` (hostlint.collect.switches.global_mtu):
the Nexus 3000/5000/6000 network-qos class-default MTU from the running configuration (Cisco Nexus 5000
QoS Configuration Guide, "MTU"; Cisco Document 118994), and the older Catalysts' `system mtu jumbo` /
`system mtu` from `show system mtu` (Catalyst 3750-X and 3560-X Software Configuration Guide)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from hostlint.check import check_snapshot
from hostlint.cli.main import cli
from hostlint.collect.switches import Device, load_platform
from hostlint.collect.switches.assemble import build_switch
from hostlint.collect.switches.parse import Parsed, parse_output
from hostlint.rules import load_rules
from hostlint.snapshot import load_site
from hostlint.snapshot.switch import Switch

N5K_VERSION = ("cisco Nexus9000 C93180YC-FX Chassis", "cisco Nexus 5596 Chassis")
C3750_VERSION = ("Model Number                       : WS-C3850-48T", "Model number             : WS-C3750X-48P-S")

# A network-qos policy as the Nexus 5000 QoS Configuration Guide writes it (FCoE class kept at its 2158).
JUMBO_POLICY = """system jumbomtu 9216
policy-map type network-qos jumbo
  class type network-qos class-fcoe
    pause no-drop
    mtu 2158
  class type network-qos class-default
    mtu 9216
system qos
  service-policy type qos input fcoe-default-in-policy
  service-policy type network-qos jumbo
"""


def _switch(
    platform: str,
    edits: dict[str, Callable[[str], str]],
    without: str | None = None,
    extra_warnings: bool = False,
) -> tuple[Switch, list[str]]:
    spec = load_platform(platform)
    sections: dict[str, Parsed] = {}
    for command in spec.commands:
        if command.section == without:
            continue
        text = (command.template.parent / f"{command.slug}.txt").read_text(encoding="utf-8")
        text = edits.get(command.command, lambda t: t)(text)
        parsed = parse_output(command, text, "sw1")
        assert parsed.warnings == []
        sections.setdefault(command.section, Parsed()).merge(parsed)
    device = Device(name="sw1", hostname="192.0.2.1", platform=platform)
    switch, warnings = build_switch(device, sections, {c.section: c.command for c in spec.commands})
    if not extra_warnings:
        assert warnings == []
    return switch, warnings


def _with(config: str, text: str) -> str:
    """The running configuration with `config` where NX-OS prints its global QoS lines."""
    return text.replace("\nport-channel load-balance", "\n" + config + "\nport-channel load-balance")


def _nexus5k(config: str = "", **kwargs) -> Switch:
    edits = {
        "show version": lambda text: text.replace(*N5K_VERSION),
        "show running-config": lambda text: _with(config, text),
    }
    return _switch("cisco_nxos", edits, **kwargs)[0]


def _bridged(switch: Switch) -> dict[str, int | None]:
    found = {p.name: p.l2_mtu for p in switch.ports if p.mode in ("access", "trunk")}
    found.update({c.name: c.l2_mtu for c in switch.port_channels if c.switchport in ("access", "trunk")})
    return found


def test_a_nexus_5000_bridges_up_to_its_network_qos_class_default_mtu() -> None:
    switch = _nexus5k(JUMBO_POLICY)
    assert switch.model == "5596"
    bridged = _bridged(switch)
    assert bridged and set(bridged.values()) == {9216}, bridged
    # The interface `mtu 9216` lines are not what limits these ports; a routed port keeps no L2 figure.
    assert all(p.l2_mtu is None for p in switch.ports if p.mode == "routed")


def test_without_a_network_qos_policy_a_nexus_5000_bridges_1500() -> None:
    assert set(_bridged(_nexus5k()).values()) == {1500}
    for name in ("default-nq-policy", "fcoe-default-nq-policy", "default-nq-8e-policy"):
        predefined = f"system qos\n  service-policy type network-qos {name}\n"
        assert set(_bridged(_nexus5k(predefined)).values()) == {1500}


def test_system_jumbomtu_bounds_the_class_mtu_and_a_class_without_mtu_is_1500() -> None:
    assert set(_bridged(_nexus5k(JUMBO_POLICY.replace("system jumbomtu 9216", "system jumbomtu 9000"))).values()) == {
        9000
    }
    silent = JUMBO_POLICY.replace("  class type network-qos class-default\n    mtu 9216\n", "")
    assert set(_bridged(_nexus5k(silent)).values()) == {1500}


def test_a_policy_not_in_the_configuration_leaves_the_figure_unknown_with_one_warning() -> None:
    config = "system qos\n  service-policy type network-qos jumbo-elsewhere\n"
    edits = {
        "show version": lambda text: text.replace(*N5K_VERSION),
        "show running-config": lambda text: _with(config, text),
    }
    switch, warnings = _switch("cisco_nxos", edits, extra_warnings=True)
    assert set(_bridged(switch).values()) == {None}
    assert warnings == [
        "sw1: show running-config: network-qos class-default mtu: network-qos policy 'jumbo-elsewhere' under "
        "`system qos` is not in the configuration"
    ]


def test_a_nexus_9000_has_no_l2_figure_whatever_its_qos() -> None:
    switch, _ = _switch("cisco_nxos", {"show running-config": lambda text: JUMBO_POLICY + text})
    assert set(_bridged(switch).values()) == {None}


def _catalyst(system_mtu: str | None = None, without: str | None = None) -> Switch:
    edits: dict[str, Callable[[str], str]] = {"show version": lambda text: text.replace(*C3750_VERSION)}
    if system_mtu is not None:
        edits["show system mtu"] = lambda _: system_mtu
    return _switch("cisco_ios", edits, without=without)[0]


def test_a_catalyst_3750_bridges_gigabit_ports_up_to_system_mtu_jumbo() -> None:
    switch = _catalyst()
    assert switch.model == "WS-C3750X-48P-S"
    bridged = _bridged(switch)
    assert bridged and set(bridged.values()) == {9000}, bridged


def test_fast_ethernet_ports_follow_system_mtu_and_no_jumbo_line_means_system_mtu() -> None:
    """Port-channel20 bundles GigabitEthernet1/0/5-6 in the sample: made FastEthernet in every output, the
    ports and their channel bridge up to `system mtu`; the Gigabit ports up to `system mtu jumbo`."""
    shown = "System MTU size is 1998 bytes\nSystem Jumbo MTU size is 9000 bytes\nRouting MTU size is 1500 bytes\n"

    def fast(text: str) -> str:
        for number in (5, 6):
            text = text.replace(f"GigabitEthernet1/0/{number}", f"FastEthernet1/0/{number}")
            text = text.replace(f"Gi1/0/{number}", f"Fa1/0/{number}")
        return text

    spec = load_platform("cisco_ios")
    edits: dict[str, Callable[[str], str]] = {command.command: fast for command in spec.commands}
    edits["show version"] = lambda text: text.replace(*C3750_VERSION)
    edits["show system mtu"] = lambda _: shown
    switch = _switch("cisco_ios", edits)[0]
    bridged = _bridged(switch)
    assert bridged["FastEthernet1/0/5"] == bridged["FastEthernet1/0/6"] == 1998
    assert next(c for c in switch.port_channels if c.name == "Port-channel20").l2_mtu == 1998
    assert bridged["GigabitEthernet1/0/1"] == 9000
    assert set(_bridged(_catalyst("System MTU size is 1500 bytes\n")).values()) == {1500}


def test_without_show_system_mtu_the_catalyst_figure_is_unknown() -> None:
    assert set(_bridged(_catalyst(without="system_mtu")).values()) == {None}


LABS = Path(__file__).resolve().parent.parent / "fixtures" / "labs"


@pytest.mark.parametrize(
    ("lab", "reason"),
    [
        ("nexus5k-network-qos-default", "fra-n5k02 limits bridged frames by system jumbomtu and a network-qos"),
        ("catalyst3750-system-mtu-default", "lnz-acc01 limits bridged frames by system mtu jumbo, a global setting"),
    ],
)
def test_the_fix_of_a_global_figure_is_withheld_saying_why(lab: str, reason: str, tmp_path: Path) -> None:
    outcome = CliRunner().invoke(
        cli, ["check", str(LABS / lab), "--fix-script", str(tmp_path / "fix"), "--unsafe-fixes"], standalone_mode=False
    )
    assert outcome.exception is None, outcome.output
    plan = (tmp_path / "fix" / "PLAN.md").read_text(encoding="utf-8")
    manual = plan[plan.index("## Needs manual work") :]
    assert reason in manual and "hostlint does not script it" in manual
    assert not [p.name for p in (tmp_path / "fix").iterdir() if p.suffix == ".txt"], "no switch script is written"


@pytest.mark.parametrize("lab", ["nexus5k-network-qos-jumbo", "catalyst3750-system-mtu-default"])
def test_an_unknown_model_skips_the_bridged_comparison_naming_it(lab: str) -> None:
    snapshot = load_site([LABS / lab])
    for switch in snapshot.switches:
        switch.model = None
    result = check_snapshot(snapshot, [r for r in load_rules() if r.code == "MT002"])
    assert result.findings == []
    reasons = [s.reason for s in result.skipped if s.code == "MT002"]
    assert reasons and all("model not shown by `show version`" in r for r in reasons), reasons


def test_a_vmk_path_reads_the_global_figure_where_its_switch_mtu_is_unknown() -> None:
    """MT005 (the vmk against its switch path, when its vSwitch's MTU was not read) compares the network-qos
    figure: on the default-policy leaf the 9000-byte vmks fire; on the jumbo-policy leaf they pass."""
    rules = [r for r in load_rules() if r.code == "MT005"]
    verdicts = {}
    for lab in ("nexus5k-network-qos-default", "nexus5k-network-qos-jumbo"):
        snapshot = load_site([LABS / lab])
        for vswitch in snapshot.esxi_hosts[0].vswitches:
            vswitch.mtu = None
        result = check_snapshot(snapshot, rules)
        assert [s for s in result.skipped if s.code == "MT005"] == []
        verdicts[lab] = sorted(f.object.rsplit("/", 1)[-1] for f in result.findings)
    assert verdicts == {"nexus5k-network-qos-default": ["vmk1", "vmk2"], "nexus5k-network-qos-jumbo": []}
