"""Writing inventory tables as an XLSX workbook (openpyxl) or a folder of CSV files.

Names are data, never code: a spreadsheet program evaluates a CSV cell starting with `=`, `+`, `-`,
`@` (or a tab / carriage return before one) as a formula (CSV injection). In CSV such a cell gets a
leading `'`, as OWASP recommends; in XLSX every text cell is written as a string (never a formula)
with Excel's quote-prefix flag, so the name stays exactly as the device reported it.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from openpyxl import Workbook
from openpyxl.cell import Cell as XlsxCell
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from hostlint.export.sheet import Cell, Sheet
from hostlint.fixes.manifest import FixFolderError, claim, create_new, record

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class ExportError(Exception):
    """The export cannot be written; the message names the path."""


def csv_text(value: Cell) -> str:
    """A cell as CSV text: empty for unknown, `'` before text a spreadsheet would run as a formula."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return "'" + value if value.startswith(FORMULA_STARTS) else value
    return str(value)


def write_csv(sheets: list[Sheet], directory: Path, force: bool = False) -> list[Path]:
    """One `<sheet>.csv` per table in `directory`, owned through the fix-folder manifest: an earlier
    export there is replaced, a non-empty folder hostlint did not write is refused unless `force`."""
    files = {f"{sheet.file}.csv": sheet for sheet in sheets}
    try:
        claim(directory, set(files), force)
        written = []
        for name, sheet in files.items():
            path = directory / name
            # A symlink left here (with --force) is replaced, never followed.
            with create_new(path) as raw, io.TextIOWrapper(raw, encoding="utf-8", newline="") as stream:
                writer = csv.writer(stream)
                writer.writerow(sheet.columns)
                writer.writerows([csv_text(cell) for cell in row] for row in sheet.rows)
            written.append(path)
        record(directory, files)
    except FixFolderError as exc:
        raise ExportError(str(exc)) from None
    except OSError as exc:
        raise ExportError(f"{directory}: cannot write: {exc.strerror or exc}") from None
    return written


def _cell(sheet: WriteOnlyWorksheet, value: Cell) -> XlsxCell | None:
    if value is None or value == "":
        return None
    cell = WriteOnlyCell(sheet, value=value)
    if isinstance(value, str):
        # openpyxl reads a string starting with `=` as a formula: force text, and mark it so Excel
        # keeps it text when the cell is edited.
        cell.data_type = "s"
        cell.quotePrefix = True
    return cell


def write_xlsx(sheets: list[Sheet], path: Path) -> Path:
    """One workbook, one tab per table: a bold, frozen header row with filters on every column."""
    workbook = Workbook(write_only=True)
    bold = Font(bold=True)
    for table in sheets:
        sheet = workbook.create_sheet(table.title)
        sheet.freeze_panes = "A2"
        if table.columns:
            sheet.auto_filter.ref = f"A1:{get_column_letter(len(table.columns))}{len(table.rows) + 1}"
        header = []
        for title in table.columns:
            cell = WriteOnlyCell(sheet, value=title)
            cell.font = bold
            header.append(cell)
        sheet.append(header)
        for row in table.rows:
            sheet.append([_cell(sheet, value) for value in row])
    partial = path.with_name(path.name + ".partial")
    try:
        with create_new(partial) as stream:  # a symlink planted as the .partial is removed, never followed
            workbook.save(stream)
        partial.replace(path)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise ExportError(f"{path}: cannot write: {exc.strerror or exc}") from None
    return path
