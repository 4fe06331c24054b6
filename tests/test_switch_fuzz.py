"""Parsers never crash: arbitrary or truncated output gives records or a warning naming device and command."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hostlint.collect.switches import Device, load_platform
from hostlint.collect.switches.assemble import build_switch
from hostlint.collect.switches.parse import Parsed, parse_output
from hostlint.platforms import SWITCH_NAMES

COMMANDS = [(platform, command) for platform in SWITCH_NAMES for command in load_platform(platform).commands]
SAMPLES = {
    (platform, command.command): (command.template.parent / f"{command.slug}.txt").read_text(encoding="utf-8")
    for platform, command in COMMANDS
}
# Text that looks like CLI output: words, digits, punctuation the templates key on, newlines.
_TOKENS = [*'abcdeghilmnoprstuvxyzEGIPST0123456789/-:.,()*!"% \t\n']
_TOKENS += ["is up", " MTU ", "Po1", "interface ", "Ethernet1/1", " mode on", "\n  ", "set interfaces "]
CLI_TEXT = st.lists(st.sampled_from(_TOKENS), max_size=120).map("".join) | st.text(max_size=200)
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check(platform: str, command, text: str) -> None:
    parsed = parse_output(command, text, "fuzz-sw")
    for warning in parsed.warnings + parsed.notes:
        assert warning.startswith(f"fuzz-sw: {command.command}: ")
    if not parsed.records and text.strip() and not any(marker in text for marker in command.empty):
        # Only `show version` (model and OS version: nothing is judged on them) is a logged note.
        complaints = parsed.notes if command.section == "version" else parsed.warnings
        assert complaints, f"{platform} {command.command}: unreadable output gave no warning"
    device = Device(name="fuzz-sw", hostname="192.0.2.9", platform=platform)
    _switch, warnings = build_switch(device, {command.section: parsed}, {command.section: command.command})
    for warning in warnings:
        assert warning.startswith(f"fuzz-sw: {command.command}: ")


@SETTINGS
@given(index=st.integers(0, len(COMMANDS) - 1), text=CLI_TEXT)
def test_arbitrary_text_never_crashes(index, text):
    platform, command = COMMANDS[index]
    _check(platform, command, text)


@SETTINGS
@given(index=st.integers(0, len(COMMANDS) - 1), cut=st.floats(0, 1), noise=st.text(max_size=20))
def test_truncated_samples_never_crash(index, cut, noise):
    platform, command = COMMANDS[index]
    sample = SAMPLES[(platform, command.command)]
    _check(platform, command, sample[: int(len(sample) * cut)] + noise)


def test_binary_garbage_warns_with_device_and_command():
    command = next(c for c in load_platform("cisco_ios").commands if c.command == "show interfaces")
    parsed = parse_output(command, "\x00\x01<xml>&amp;{{ not a template }}\n%%%", "sw-garbage")
    assert parsed.records == {}
    assert parsed.warnings == [
        "sw-garbage: show interfaces: output not understood (first line: '\\x00\\x01<xml>&amp;{{ not a template }}')"
    ]


def test_nonsense_values_are_warnings_not_crashes():
    command = next(c for c in load_platform("cisco_nxos").commands if c.command == "show interface")
    text = (
        "Ethernet1/1 is up\nadmin state is up, Dedicated Interface\n"
        "  MTU 0 bytes, BW 1 Kbit\n  full-duplex, 7 parsecs\n"
    )
    parsed = parse_output(command, text, "nx-odd")
    device = Device(name="nx-odd", hostname="192.0.2.9", platform="cisco_nxos")
    switch, warnings = build_switch(device, {"interfaces": parsed}, {"interfaces": "show interface"})
    assert [p.name for p in switch.ports] == ["Ethernet1/1"]
    assert any(w.startswith("nx-odd: show interface: Ethernet1/1 MTU") for w in warnings)
    assert any(w.startswith("nx-odd: show interface: Ethernet1/1 speed") for w in warnings)


def test_parsed_merge_keeps_both():
    first, second = Parsed({"a": [{"x": 1}]}, ["w1"]), Parsed({"a": [{"x": 2}], "b": [{"y": 1}]}, ["w2"])
    first.merge(second)
    assert first.records == {"a": [{"x": 1}, {"x": 2}], "b": [{"y": 1}]} and first.warnings == ["w1", "w2"]
