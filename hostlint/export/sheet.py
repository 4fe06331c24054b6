"""One exported table: a title, its columns and its rows of plain cells."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

# A cell is a value as the snapshot holds it, or None for a fact that is unknown (an empty cell,
# never a default).
Cell = str | int | float | bool | None


@dataclass
class Sheet:
    """`title` names the spreadsheet tab; `file` the CSV file (a plain, portable name)."""

    title: str
    file: str
    columns: tuple[str, ...]
    rows: list[tuple[Cell, ...]] = field(default_factory=list)

    def add(self, *cells: Cell) -> None:
        if len(cells) != len(self.columns):
            raise ValueError(f"{self.title}: {len(cells)} cells for {len(self.columns)} columns")
        self.rows.append(cells)


def joined(names: Iterable[str] | None) -> str | None:
    """A list of names in one cell; None (unknown) stays None."""
    return None if names is None else ", ".join(names)
