"""`hostlint completion SHELL`: the shell's completion script, from click's own completion support."""

from __future__ import annotations

import click
from click.shell_completion import get_completion_class

from hostlint.cli.exit import Exit

SHELLS = ("bash", "zsh", "fish")
COMPLETE_VAR = "_HOSTLINT_COMPLETE"


@click.command()
@click.argument("shell", type=click.Choice(SHELLS))
@click.pass_context
def completion(ctx: click.Context, shell: str) -> int:
    """Print the completion script for SHELL. Add to your shell's startup file, e.g. for bash:

    eval "$(hostlint completion bash)"
    """
    root = ctx.find_root().command
    completer = get_completion_class(shell)
    assert completer is not None  # every name in SHELLS has a class in click
    click.echo(completer(root, {}, "hostlint", COMPLETE_VAR).source())
    return Exit.CLEAN
