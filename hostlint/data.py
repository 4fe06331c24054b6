"""Where the shipped data folder (`rules/`) is.

In a built wheel it is packaged as `hostlint/_data/<name>`; in a source
checkout (or an editable install) it is the top-level folder beside
`hostlint/`. (The collectors' specs and templates are package files in each
platform's folder, hostlint/switches/<platform>/.)
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    packaged = _PACKAGE / "_data" / name
    if packaged.is_dir():
        return packaged
    return _PACKAGE.parent / name
