"""`hostlint export`: the snapshot's inventory as spreadsheet tables (XLSX or CSV)."""

from hostlint.export.tables import inventory
from hostlint.export.write import ExportError, write_csv, write_xlsx

__all__ = ["ExportError", "inventory", "write_csv", "write_xlsx"]
