"""Where the shipped data folders (`rules/`, `collectors/`) are.

In a built wheel they are packaged as `hostlint/_data/<name>`; in a source
checkout (or an editable install) they are the top-level folders beside
`hostlint/`.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    packaged = _PACKAGE / "_data" / name
    if packaged.is_dir():
        return packaged
    return _PACKAGE.parent / name
