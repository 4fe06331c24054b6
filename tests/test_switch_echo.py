"""A command echo that netmiko did not strip (it arrived behind the prompt on a slow session) is not output."""

from __future__ import annotations

from hostlint.collect.switches.runner import without_echo

CDP = "-------------------------\nDevice ID:esx01\n"


def test_an_echo_behind_the_prompt_is_dropped() -> None:
    assert without_echo("nx2#show cdp neighbors detail\n" + CDP, "show cdp neighbors detail") == CDP
    assert without_echo("\r\nsw1>show lldp neighbors detail\n" + CDP, "show lldp neighbors detail") == CDP
    assert without_echo("admin@qfx1> show lacp interfaces\n" + CDP, "show lacp interfaces") == CDP


def test_a_bare_echo_is_dropped() -> None:
    assert without_echo("show cdp neighbors detail\n" + CDP, "show cdp neighbors detail") == CDP


def test_output_without_an_echo_is_kept_whole() -> None:
    assert without_echo(CDP, "show cdp neighbors detail") == CDP
    # A first line that merely mentions the command is output, not an echo.
    text = "Last command: show cdp neighbors detail was slow\n" + CDP
    assert without_echo(text, "show cdp neighbors detail") == text
