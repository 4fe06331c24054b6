"""The `-o` snapshot file of the collect commands: checked before collecting, written without a traceback."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from hostlint.snapshot import Snapshot

# A click command or the function it is being built from (what click.option decorates).
CommandT = TypeVar("CommandT", bound=Callable[..., Any])


def _writable_place(ctx: click.Context, param: click.Parameter, path: Path | None) -> Path | None:
    """Refuse, before anything is collected, a file whose folder does not exist or is a file."""
    if path is None:
        return None
    folder = path.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise click.ClickException(f"-o {path}: {folder} {what}")
    if path.is_dir():
        raise click.ClickException(f"-o {path}: is a folder")
    return path


def output_option(command: CommandT) -> CommandT:
    return click.option(
        "--output",
        "-o",
        required=True,
        type=click.Path(dir_okay=False, path_type=Path),
        callback=_writable_place,
        help="Snapshot file to write (its folder must exist).",
    )(command)


def write_snapshot(snapshot: Snapshot, path: Path, exclude_none: bool = False) -> None:
    """Write the snapshot; a failure is one line (ClickException, exit 2), not a traceback."""
    text = snapshot.model_dump_json(indent=1, exclude_none=exclude_none) + "\n"
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"-o {path}: cannot write: {exc.strerror or exc}") from exc
