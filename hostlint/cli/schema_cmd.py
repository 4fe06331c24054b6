"""`hostlint schema NAME`: the JSON Schema of a snapshot or of a JSON output."""

from __future__ import annotations

import json

import click

from hostlint.cli.exit import Exit
from hostlint.schemas import SCHEMAS, schema


@click.command("schema")
@click.argument("name", type=click.Choice(sorted(SCHEMAS)))
def schema_cmd(name: str) -> int:
    """Print the JSON Schema of NAME: snapshot (collect output), report (check --format json),
    rules (rules --format json), gitlab (check --format gitlab) or scan-inventory (scan --inventory FILE)."""
    click.echo(json.dumps(schema(name), indent=2))
    return Exit.CLEAN
