"""Shell completion (click's, for bash/zsh/fish) and the pre-commit hook for repositories of snapshots."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_prints_a_script_for_the_shell(shell):
    outcome = CliRunner().invoke(cli, ["completion", shell], standalone_mode=False)
    assert outcome.exception is None
    assert "_HOSTLINT_COMPLETE" in outcome.stdout
    assert f"{shell}_complete" in outcome.stdout or f"complete_{shell}" in outcome.stdout


@pytest.mark.parametrize(
    ("words", "expected"),
    [("hostlint ch", "check"), ("hostlint check --form", "--format"), ("hostlint check --format gi", "github")],
)
def test_completion_completes_commands_options_and_choices(words, expected):
    env = {"_HOSTLINT_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - 1)}
    outcome = CliRunner().invoke(cli, [], env=env, prog_name="hostlint")
    assert outcome.exit_code == 0
    assert f"plain,{expected}" in outcome.stdout.splitlines()


def test_the_pre_commit_hook_checks_the_snapshot_files_it_is_given():
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hook["id"] == "hostlint" and hook["language"] == "python" and "json" in hook["types_or"]
    command = shlex.split(hook["entry"])
    assert command[0] == "hostlint"
    # pre-commit appends the staged files that match: here a lab's snapshot files, their site checked as one.
    files = sorted(str(p) for p in (ROOT / "fixtures" / "labs" / "ip-hash-no-port-channel").glob("*.json"))
    outcome = CliRunner().invoke(cli, [*command[1:], "--isolated", *files], standalone_mode=False)
    assert outcome.exception is None, outcome.output
    assert outcome.return_value == Exit.FINDINGS
    assert "LG001" in outcome.stdout
