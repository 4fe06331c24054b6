"""Reading a switch inventory file, and the error every inventory reader raises."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hostlint.inputfile import InputError, load_yaml, read_text


class InventoryError(ValueError):
    """An inventory that cannot be used; the message names the file and the device or group."""


def read_inventory_yaml(path: Path) -> Any:
    try:
        return load_yaml(path)
    except InputError as exc:
        raise InventoryError(str(exc)) from None


def read_inventory_text(path: Path) -> str:
    try:
        return read_text(path)
    except InputError as exc:
        raise InventoryError(str(exc)) from None
