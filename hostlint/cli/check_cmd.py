"""`hostlint check PATH...`: findings for saved snapshots or lab folders."""

from __future__ import annotations

from pathlib import Path

import click

from hostlint.check import check_paths
from hostlint.cli.exit import Exit
from hostlint.report import FORMATS, render
from hostlint.rules import RuleError, load_rules, select
from hostlint.rules.model import PROFILES
from hostlint.snapshot import SnapshotError


def _prefixes(values: tuple[str, ...]) -> list[str]:
    return [p.strip() for value in values for p in value.split(",") if p.strip()]


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--select", "selected", multiple=True, help="Only rules whose code starts with these prefixes (e.g. LG,MT001)."
)
@click.option("--ignore", "ignored", multiple=True, help="Skip rules whose code starts with these prefixes.")
@click.option(
    "--profile",
    type=click.Choice(PROFILES),
    default="recommended",
    show_default=True,
    help="minimal: what breaks connectivity; recommended: + best practice; strict: + advisories.",
)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="human", show_default=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), help="Write the report here.")
@click.option(
    "--fix-script",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write per-device fix and rollback scripts and PLAN.md into this folder (never run).",
)
def check(
    paths: tuple[Path, ...],
    selected: tuple[str, ...],
    ignored: tuple[str, ...],
    profile: str,
    fmt: str,
    output: Path | None,
    fix_script: Path | None,
) -> int:
    """Check snapshot files, lab folders and cabling files (merged into one site)."""
    try:
        rules = select(load_rules(), _prefixes(selected), _prefixes(ignored), profile)
        snapshot, result = check_paths(list(paths), rules)
    except (SnapshotError, RuleError) as exc:
        click.echo(f"hostlint: {exc}", err=True)
        return Exit.USAGE
    report = render(fmt, result, rules, snapshot, color=output is None)
    if output:
        output.write_text(report, encoding="utf-8")
    else:
        click.echo(report, nl=False)
    if fix_script is not None:
        from hostlint.fixes import write_scripts

        written = write_scripts(result, snapshot, fix_script)
        click.echo(f"hostlint: wrote {len(written)} files to {fix_script}", err=True)
    if result.collection_errors:
        return Exit.PARTIAL
    return Exit.FINDINGS if result.findings else Exit.CLEAN
