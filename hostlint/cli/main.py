"""`hostlint` entry point: the command group and its exit-code contract."""

from __future__ import annotations

import sys

import click

from hostlint import __version__
from hostlint.cli.check_cmd import check
from hostlint.cli.collect_cmd import collect
from hostlint.cli.completion_cmd import completion
from hostlint.cli.exit import Exit
from hostlint.cli.history_cmd import diff, history
from hostlint.cli.plan_cmd import plan
from hostlint.cli.rules_cmd import docs, rule, rules
from hostlint.cli.scan_cmd import scan
from hostlint.cli.schema_cmd import schema_cmd


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="hostlint")
def cli() -> None:
    """Lint ESXi and KVM host networking against the switches the hosts are cabled to."""


cli.add_command(check)
cli.add_command(collect)
cli.add_command(rules)
cli.add_command(rule)
cli.add_command(docs)
cli.add_command(scan)
cli.add_command(history)
cli.add_command(diff)
cli.add_command(plan)
cli.add_command(schema_cmd)
cli.add_command(completion)


def main() -> None:
    try:
        code = cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("hostlint: aborted", err=True)
        sys.exit(Exit.USAGE)
    except click.ClickException as exc:
        exc.show()
        sys.exit(Exit.USAGE)
    sys.exit(int(code or 0))
