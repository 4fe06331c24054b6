"""`hostlint rules` (the catalogue) and `hostlint rule CODE` (one rule explained)."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from hostlint.cli.exit import Exit
from hostlint.rules import RuleError, find, load_rules
from hostlint.rules.docs import rule_markdown, write_docs


def _load():
    try:
        return load_rules()
    except RuleError as exc:
        raise click.ClickException(str(exc)) from exc


@click.command()
@click.option("--format", "fmt", type=click.Choice(["human", "json"]), default="human", show_default=True)
def rules(fmt: str) -> int:
    """List every rule: code, name, severity, platforms, summary."""
    catalogue = _load()
    if fmt == "json":
        rows = [
            {
                "code": r.code,
                "name": r.name,
                "severity": r.severity,
                "profile": r.profile,
                "platforms": r.platforms,
                "summary": r.summary,
            }
            for r in catalogue
        ]
        click.echo(json.dumps(rows, indent=2))
        return Exit.CLEAN
    table = Table("code", "name", "severity", "profile", "summary", box=None)
    for r in catalogue:
        table.add_row(r.code, r.name, r.severity, r.profile, r.summary)
    Console().print(table)
    return Exit.CLEAN


@click.command()
@click.argument("code")
def rule(code: str) -> int:
    """Explain one rule (by code or name): why it matters, examples, references, fix."""
    found = find(_load(), code)
    if found is None:
        click.echo(f"hostlint: no rule {code!r}; `hostlint rules` lists them", err=True)
        return Exit.USAGE
    Console().print(Markdown(rule_markdown(found)))
    return Exit.CLEAN


@click.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
def docs(directory: Path) -> int:
    """Write one markdown page per rule, and an index, into DIRECTORY."""
    written = write_docs(_load(), directory)
    click.echo(f"hostlint: wrote {len(written)} pages to {directory}", err=True)
    return Exit.CLEAN
