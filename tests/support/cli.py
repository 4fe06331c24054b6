"""The command line in process, as the CLI tests drive it."""

from __future__ import annotations

from click.testing import CliRunner

from hostlint.cli.main import cli


def run(*args: str) -> tuple[int, str, str]:
    """`hostlint ARGS...`: (exit code, stdout, stderr); an exception the command does not catch is raised."""
    result = CliRunner().invoke(cli, list(args), standalone_mode=False, catch_exceptions=False)
    return result.return_value, result.stdout, result.stderr
