"""Fix folders are owned: a manifest lists the files a run wrote, with their SHA-256.

A later run into the same folder removes exactly the files the manifest lists and writes its own; it
refuses (FixFolderError) a non-empty folder without a manifest, a listed file changed since it was
written, and a file of someone else's where it would write one, unless forced. Manifest entries are
names, never paths: an entry with a separator or `..` makes the manifest invalid, so nothing outside
the folder is ever removed. A fix plan's manifest also holds its steps as data (`steps`), which
`hostlint probe --plan DIR --step N` reads.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any, BinaryIO

from hostlint import __version__

MANIFEST = ".hostlint-fix.json"
_FORMAT = 1


class FixFolderError(Exception):
    """The fix folder cannot be written without losing something hostlint did not write."""


def create_new(path: Path) -> BinaryIO:
    """`path` opened for writing as a new file of the folder: whatever has that name (a symlink planted
    there) is removed first, never followed, and the open itself refuses a link or an existing file
    (O_EXCL, O_NOFOLLOW), so a link made in between fails the write instead of redirecting it."""
    path.unlink(missing_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    return os.fdopen(os.open(path, flags, 0o666), "wb")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _plain(name: object) -> bool:
    return (
        isinstance(name, str)
        and name not in ("", ".", "..", MANIFEST)
        and not any(c in name for c in "/\\\0")
        and name == os.path.basename(name)
    )


def _listed(directory: Path) -> dict[str, str]:
    """name -> sha256 from the folder's manifest; FixFolderError when it is not one hostlint wrote."""
    path = directory / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise FixFolderError(f"{path}: not a hostlint fix manifest ({exc.__class__.__name__}); use --force") from exc
    files = data.get("files") if isinstance(data, dict) and data.get("generator") == "hostlint" else None
    if not isinstance(files, dict) or not all(
        _plain(name) and isinstance(entry, dict) and isinstance(entry.get("sha256"), str)
        for name, entry in files.items()
    ):
        raise FixFolderError(f"{path}: not a hostlint fix manifest (unexpected content); use --force")
    return {name: entry["sha256"] for name, entry in files.items()}


def claim(directory: Path, names: set[str], force: bool) -> None:
    """Make `directory` ready for a run that writes `names`: create it, or remove its earlier run."""
    if directory.exists() and not directory.is_dir():
        raise FixFolderError(f"{directory}: exists and is not a folder")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        present = {p.name for p in directory.iterdir()}
    except OSError as exc:
        raise FixFolderError(f"{directory}: {exc.strerror or exc}") from exc
    owned: dict[str, str] = {}
    if MANIFEST in present:
        try:
            owned = _listed(directory)
        except FixFolderError:
            if not force:
                raise
    elif present and not force:
        raise FixFolderError(
            f"{directory}: not empty and not written by hostlint (no {MANIFEST}); use an empty folder or --force"
        )
    if not force:
        changed = sorted(n for n, digest in owned.items() if n in present and _digest(directory / n) != digest)
        if changed:
            raise FixFolderError(
                f"{directory}: {changed[0]} was changed since hostlint wrote it; move it away or use --force"
            )
        foreign = sorted((present - set(owned) - {MANIFEST}) & names)
        if foreign:
            raise FixFolderError(f"{directory}: {foreign[0]} was not written by hostlint; move it away or use --force")
    try:
        for name in owned:
            path = directory / name
            if path.is_symlink() or path.is_file():
                path.unlink()
        (directory / MANIFEST).unlink(missing_ok=True)
    except OSError as exc:
        raise FixFolderError(f"{directory}: cannot remove an earlier run's file: {exc.strerror or exc}") from exc


def record(directory: Path, names: Iterable[str], steps: list[dict[str, Any]] | None = None) -> Path:
    """Write the manifest for the files just written (hashes read back from disk); `steps`, a fix plan's
    steps as data (hostlint.fixes.plan_steps), so a later command can run one step's verify."""
    files = {name: {"sha256": _digest(directory / name)} for name in sorted(names)}
    data: dict[str, Any] = {"generator": "hostlint", "version": __version__, "format": _FORMAT, "files": files}
    if steps is not None:
        data["steps"] = steps
    path = directory / MANIFEST
    partial = directory / f"{MANIFEST}.partial"
    with create_new(partial) as stream:
        stream.write((json.dumps(data, indent=2, sort_keys=True) + "\n").encode("utf-8"))
    partial.replace(path)
    return path
