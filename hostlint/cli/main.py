"""`hostlint` entry point: the command group and its exit-code contract."""

from __future__ import annotations

import os
import sys
import traceback

import click

from hostlint import __version__
from hostlint.cli.check_cmd import check
from hostlint.cli.collect_cmd import collect
from hostlint.cli.completion_cmd import completion
from hostlint.cli.exit import Exit
from hostlint.cli.export_cmd import export
from hostlint.cli.history_cmd import diff, history
from hostlint.cli.plan_cmd import plan
from hostlint.cli.rules_cmd import docs, rule, rules
from hostlint.cli.scan_cmd import scan
from hostlint.cli.schema_cmd import schema_cmd

DEBUG_ENV = "HOSTLINT_DEBUG"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="hostlint")
@click.option("--debug", is_flag=True, help=f"Show the traceback of an internal error. [env: {DEBUG_ENV}=1]")
def cli(debug: bool) -> None:
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
cli.add_command(export)


def _debug(argv: list[str]) -> bool:
    # Read from argv, not from click, so an error while click parses is covered too.
    if os.environ.get(DEBUG_ENV):
        return True
    return "--debug" in (argv[: argv.index("--")] if "--" in argv else argv)


def main() -> None:
    try:
        code = cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("hostlint: aborted", err=True)
        sys.exit(Exit.USAGE)
    except click.ClickException as exc:
        exc.show()
        sys.exit(Exit.USAGE)
    except Exception as exc:  # the last line of defence: one line, a code of its own, never a bare traceback
        if _debug(sys.argv[1:]):
            traceback.print_exc()
        else:
            reason = " ".join(str(exc).split())[:300]
            click.echo(
                f"hostlint: internal error: {type(exc).__name__}"
                + (f": {reason}" if reason else "")
                + "; rerun with --debug for the traceback",
                err=True,
            )
        sys.exit(Exit.INTERNAL)
    sys.exit(int(code or 0))


if __name__ == "__main__":
    main()
