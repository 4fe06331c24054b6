"""`hostlint collect switches --inventory inventory.yaml -o snap.json`: switches over SSH into a snapshot."""

from __future__ import annotations

import logging
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from hostlint.cli.exit import Exit
from hostlint.cli.output import output_option, write_snapshot
from hostlint.collect.switches import InventoryError, Timeouts, UnsupportedPlatform, collect_switches, load_inventory
from hostlint.collect.switches.runner import DeviceResult


@click.command("switches")
@click.option(
    "--inventory",
    "-i",
    "inventory",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Nornir hosts.yaml (groups.yaml/defaults.yaml beside it) or an Ansible YAML inventory.",
)
@output_option
@click.option(
    "--concurrency",
    "-j",
    default=10,
    show_default=True,
    type=click.IntRange(1, 200),
    help="Switches collected at once.",
)
@click.option(
    "--connect-timeout",
    default=10.0,
    show_default=True,
    type=click.FloatRange(min=0.1),
    help="Seconds for TCP, SSH banner and login, per switch.",
)
@click.option(
    "--command-timeout",
    default=30.0,
    show_default=True,
    type=click.FloatRange(min=0.1),
    help="Seconds for each command's answer.",
)
def switches(inventory: Path, output: Path, concurrency: int, connect_timeout: float, command_timeout: float) -> int:
    """Collect port-channels, hashes, MTU, speed/duplex and neighbours from switches over SSH.

    Passwords come from HOSTLINT_SWITCH_PASSWORD, a per-device variable named in the
    inventory (`data.password_env` / `hostlint_password_env`) or the keyring (service
    `hostlint`); never from the inventory and never into the snapshot.
    """
    try:
        devices = load_inventory(inventory)
    except (InventoryError, UnsupportedPlatform) as exc:
        click.echo(f"hostlint: {exc}", err=True)
        return Exit.USAGE
    # paramiko logs a traceback for every device that does not answer; the reason is reported below instead.
    logging.getLogger("paramiko").setLevel(logging.CRITICAL)
    console = Console(stderr=True)
    timeouts = Timeouts(connect=connect_timeout, command=command_timeout)
    if console.is_terminal:
        columns = (TextColumn("switches"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        with Progress(*columns, console=console, transient=True) as progress:
            task = progress.add_task("collect", total=len(devices))

            def advance(_result: DeviceResult) -> None:
                progress.advance(task)

            snapshot = collect_switches(devices, concurrency, timeouts, on_done=advance)
    else:
        snapshot = collect_switches(devices, concurrency, timeouts)
    snapshot.source = f"switches:{inventory.name}"
    write_snapshot(snapshot, output, exclude_none=True)
    failed = sorted({error.target for error in snapshot.collection_errors})
    click.echo(f"hostlint: collected {len(devices) - len(failed)} of {len(devices)} switches into {output}", err=True)
    for error in snapshot.collection_errors:
        click.echo(f"hostlint: {error.target}: {error.reason}", err=True)
    return Exit.PARTIAL if failed else Exit.CLEAN
