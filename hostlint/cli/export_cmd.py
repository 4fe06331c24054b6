"""`hostlint export PATH... --format xlsx|csv -o OUT`: the inventory as spreadsheet tables."""

from __future__ import annotations

from pathlib import Path

import click

from hostlint.cli.exit import Exit
from hostlint.export import ExportError, inventory, write_csv, write_xlsx
from hostlint.snapshot import SnapshotError, load_site


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["xlsx", "csv"]),
    required=True,
    help="xlsx: one workbook, a tab per object type; csv: a folder with one file per object type.",
)
@click.option(
    "--output",
    "-o",
    required=True,
    type=click.Path(path_type=Path),
    help="The .xlsx file, or the folder for the CSV files (created; an earlier export there is replaced).",
)
@click.option("--force", is_flag=True, help="csv: write into a non-empty folder hostlint did not write.")
def export(paths: tuple[Path, ...], fmt: str, output: Path, force: bool) -> int:
    """vSwitches, port groups, vmks, physical NICs with the switch port at the other end, port-channels,
    KVM bonds and distributed switches, as tables. Unknown facts are empty cells."""
    try:
        if fmt == "xlsx":
            if output.suffix.lower() != ".xlsx":
                raise ExportError(f"-o {output}: an xlsx workbook's name ends in .xlsx")
            if output.is_dir():
                raise ExportError(f"-o {output}: is a folder")
            if not output.parent.is_dir():
                raise ExportError(f"-o {output}: {output.parent} does not exist")
        elif output.exists() and not output.is_dir():
            raise ExportError(f"-o {output}: exists and is not a folder (csv writes a folder of files)")
        sheets = inventory(load_site(list(paths)))
        written = [write_xlsx(sheets, output)] if fmt == "xlsx" else write_csv(sheets, output, force)
    except (SnapshotError, ExportError) as exc:
        click.echo(f"hostlint: {exc}", err=True)
        return Exit.USAGE
    rows = sum(len(sheet.rows) for sheet in sheets)
    click.echo(f"hostlint: wrote {len(sheets)} tables ({rows} rows) to {output} ({len(written)} files)", err=True)
    return Exit.CLEAN
