"""`collect kvm` usage mistakes end as exit 2 with one line naming the option, before anything connects."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--host", ""], "--host '': want [USER@]HOST"),
        (["--host", "root@"], "--host 'root@': want [USER@]HOST"),
        (["--host", "-oProxyCommand=sh"], "--host '-oProxyCommand=sh': want [USER@]HOST"),
        (["--host", "kvm01", "--ssh-option", "Port=abc"], "--ssh-option Port=abc: not a port number"),
        (["--host", "kvm01", "--no-libvirt", "--ssh-option", "Port=0"], "--ssh-option Port=0: not a port number"),
        (["--host", "kvm01", "--ssh-option", "Port"], "--ssh-option 'Port': want KEY=VALUE"),
        (["--local", "--timeout", "0"], "0.0 is not in the range x>0"),
    ],
)
def test_usage_errors_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    outcome = CliRunner().invoke(cli, ["collect", "kvm", *args, "-o", str(tmp_path / "k.json")], standalone_mode=False)
    assert isinstance(outcome.exception, click.UsageError), outcome.output
    assert outcome.exception.exit_code == Exit.USAGE
    assert message in outcome.exception.format_message()
    assert not (tmp_path / "k.json").exists()
