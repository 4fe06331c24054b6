"""Output files of the commands (snapshots, reports, baselines): checked before the work, written cleanly."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
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


def optional_output_option(help_text: str) -> Callable[[CommandT], CommandT]:
    """`-o FILE` for a command that writes a snapshot only when asked, checked as `output_option`'s."""
    return click.option(
        "--output",
        "-o",
        type=click.Path(dir_okay=False, path_type=Path),
        callback=_writable_place,
        help=help_text,
    )


def write_snapshot(snapshot: Snapshot, path: Path, exclude_none: bool = False) -> None:
    """Write the snapshot; a failure is one line (ClickException, exit 2), not a traceback."""
    text = snapshot.model_dump_json(indent=1, exclude_none=exclude_none) + "\n"
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"-o {path}: cannot write: {exc.strerror or exc}") from exc


class OutputError(Exception):
    """A report, baseline or HTML file that cannot be written; the message is one line naming it."""


def check_writable(path: Path | None, option: str) -> None:
    """Refuse, before any work, an output whose folder is missing, not a folder, or not writable."""
    if path is None:
        return
    folder = path.parent
    if path.is_dir():
        raise OutputError(f"{option} {path}: is a folder")
    if not folder.is_dir():
        raise OutputError(f"{option} {path}: {folder} {'is not a folder' if folder.exists() else 'does not exist'}")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise OutputError(f"{option} {path}: not writable")


def write_output(path: Path, text: str | Iterable[str], option: str) -> None:
    """Write a report file, the text whole or in pieces (a large JSON report is never one string);
    a failure (full disk, permissions changed meanwhile) is an OutputError."""
    try:
        with path.open("w", encoding="utf-8") as handle:
            handle.writelines([text] if isinstance(text, str) else text)
    except OSError as exc:
        raise OutputError(f"{option} {path}: cannot write: {exc.strerror or exc}") from exc
