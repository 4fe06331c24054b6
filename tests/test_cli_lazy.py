"""Commands are imported when they run: a collection does not load the rule engine or the fix planner."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from hostlint.cli.exit import Exit
from hostlint.cli.lazy import LazyGroup
from hostlint.cli.main import COMMANDS, cli

PROBE = """
import sys
from click.testing import CliRunner
from hostlint.cli.main import cli
outcome = CliRunner().invoke(cli, {args!r})
assert outcome.exit_code == 0, outcome.output
print(sorted(m for m in ("hostlint.rules.engine", "hostlint.fixes.plan", "hostlint.history") if m in sys.modules))
"""


def _loaded(args: list[str]) -> str:
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(args=args)], capture_output=True, text=True, timeout=120, check=True
    )
    return done.stdout.strip()


def test_a_collection_does_not_import_the_rule_engine():
    assert _loaded(["collect", "vsphere", "--help"]) == "[]"
    assert _loaded(["check", "--help"]) == "['hostlint.fixes.plan', 'hostlint.rules.engine']"


def test_help_lists_every_command_and_each_one_loads():
    outcome = CliRunner().invoke(cli, ["--help"])
    assert outcome.exit_code == 0
    for name in COMMANDS:
        assert f"  {name} " in outcome.output
        ctx = click.Context(cli)
        command = cli.get_command(ctx, name)
        assert isinstance(command, click.Command) and command.name in (name, f"{name}_cmd")


def test_an_unknown_command_is_a_usage_error():
    outcome = CliRunner().invoke(cli, ["chek"])
    assert outcome.exit_code == Exit.USAGE
    assert "No such command 'chek'" in outcome.output


def test_a_lazy_entry_that_is_not_a_command_is_refused():
    group = LazyGroup(name="g", lazy={"x": "hostlint.cli.exit:Exit"})
    with pytest.raises(TypeError, match="is not a click command"):
        group.get_command(click.Context(group), "x")
