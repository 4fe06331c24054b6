"""`hostlint` entry point: the command group and its exit-code contract."""

from __future__ import annotations

import os
import sys
import traceback

import click

from hostlint import __version__
from hostlint.cli.exit import Exit
from hostlint.cli.lazy import LazyGroup
from hostlint.errors import UserError

DEBUG_ENV = "HOSTLINT_DEBUG"


# Each command is imported when it runs: a collection does not load the rule engine (hostlint.cli.lazy).
COMMANDS = {
    "check": "hostlint.cli.check_cmd:check",
    "collect": "hostlint.cli.collect_cmd:collect",
    "completion": "hostlint.cli.completion_cmd:completion",
    "diff": "hostlint.cli.history_cmd:diff",
    "docs": "hostlint.cli.rules_cmd:docs",
    "export": "hostlint.cli.export_cmd:export",
    "history": "hostlint.cli.history_cmd:history",
    "plan": "hostlint.cli.plan_cmd:plan",
    "pre-commit": "hostlint.cli.precommit_cmd:pre_commit",
    "probe": "hostlint.cli.probe_cmd:probe",
    "rule": "hostlint.cli.rules_cmd:rule",
    "rules": "hostlint.cli.rules_cmd:rules",
    "scan": "hostlint.cli.scan_cmd:scan",
    "schema": "hostlint.cli.schema_cmd:schema_cmd",
}


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="hostlint")
@click.option("--debug", is_flag=True, help=f"Show the traceback of an internal error. [env: {DEBUG_ENV}=1]")
def cli(debug: bool) -> None:
    """Lint ESXi and KVM host networking against the switches the hosts are cabled to."""


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
    except UserError as exc:
        click.echo(f"hostlint: {' '.join(str(exc).split())}", err=True)
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
