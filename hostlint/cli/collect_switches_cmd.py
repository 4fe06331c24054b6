"""`hostlint collect switches --inventory inventory.yaml -o snap.json`: switches over SSH into a snapshot."""

from __future__ import annotations

import logging
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from hostlint.cli.exit import Exit
from hostlint.cli.host_keys import KnownHostsError, host_key_options, host_key_policy
from hostlint.cli.output import output_option, write_snapshot
from hostlint.cli.settings import config_options
from hostlint.collect.switches import InventoryError, Timeouts, UnsupportedPlatform, collect_switches, load_inventory
from hostlint.collect.switches.inventory import missing_passwords, password_for
from hostlint.collect.switches.runner import DeviceResult, summary
from hostlint.config import ConfigError, load_config


@click.command("switches")
@click.option(
    "--inventory",
    "-i",
    "inventory",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Nornir hosts.yaml (groups.yaml/defaults.yaml beside it) or an Ansible inventory (YAML, or INI).",
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
    type=click.FloatRange(min=0.1),
    help="Seconds for TCP, SSH banner, host key, login and the first prompt, per switch (a hard limit) "
    "[default: settings file's timeouts.connect, else 10].",
)
@click.option(
    "--command-timeout",
    type=click.FloatRange(min=0.1),
    help="Seconds for each command's answer (a hard limit) [default: settings file's timeouts.command, else 30].",
)
@click.option(
    "--timeout",
    "total_timeout",
    type=click.FloatRange(min=0.1),
    help="Seconds for the whole switch, from connecting to the last answer (a hard limit); "
    "default: only the connect and command timeouts.",
)
@config_options
@host_key_options
def switches(
    inventory: Path,
    output: Path,
    concurrency: int,
    connect_timeout: float | None,
    command_timeout: float | None,
    total_timeout: float | None,
    config_file: Path | None,
    isolated: bool,
    known_hosts: Path | None,
    accept_new_host_keys: bool,
) -> int:
    """Collect port-channels, hashes, MTU, speed/duplex and neighbours from switches over SSH.

    Passwords come from HOSTLINT_SWITCH_PASSWORD, a per-device variable named in the
    inventory (`data.password_env` / `hostlint_password_env`) or the keyring (service
    `hostlint`); never from the inventory and never into the snapshot. Each switch's SSH host
    key is checked against known_hosts before the password is sent.
    """
    try:
        configured = load_config(config_file, isolated).timeouts
        devices = load_inventory(inventory)
        policy = host_key_policy(known_hosts, accept_new_host_keys)
    except (InventoryError, UnsupportedPlatform, ConfigError, KnownHostsError) as exc:
        click.echo(f"hostlint: {exc}", err=True)
        return Exit.USAGE
    # No password for any device is a configuration error, found before any switch is connected to;
    # a password missing for some devices only is a collection error for those, the rest is collected.
    collectable = [device for device in devices if device.problem is None]
    no_password = missing_passwords(collectable)
    if collectable and no_password and all(password_for(device) is None for device in collectable):
        click.echo(f"hostlint: {inventory}: {no_password}", err=True)
        return Exit.USAGE
    # paramiko logs a traceback for every device that does not answer; the reason is reported below instead.
    logging.getLogger("paramiko").setLevel(logging.CRITICAL)
    console = Console(stderr=True)
    defaults = Timeouts()
    timeouts = Timeouts(
        connect=connect_timeout or configured.connect or defaults.connect,
        command=command_timeout or configured.command or defaults.command,
        total=total_timeout,
    )
    if console.is_terminal:
        columns = (TextColumn("switches"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        with Progress(*columns, console=console, transient=True) as progress:
            task = progress.add_task("collect", total=len(devices))

            def advance(_result: DeviceResult) -> None:
                progress.advance(task)

            snapshot = collect_switches(devices, concurrency, timeouts, on_done=advance, policy=policy)
    else:
        snapshot = collect_switches(devices, concurrency, timeouts, policy=policy)
    snapshot.source = f"switches:{inventory.name}"
    # Nulls are written: an unknown fact is `null`, never left for a default to fill in on reading.
    write_snapshot(snapshot, output)
    failed = sorted({error.target for error in snapshot.collection_errors})
    click.echo(f"hostlint: {summary(snapshot, len(devices), str(output))}", err=True)
    for error in snapshot.collection_errors:
        click.echo(f"hostlint: {error.target}: {error.reason}", err=True)
    return Exit.PARTIAL if failed else Exit.CLEAN
